/**
 * A table may have a shuffler next to its shoe (games.md faults; docs/DEVICES.md):
 * - `STATE` / `COUNT` frames -> `shuffler` events;
 * - `JAM` -> `shuffler-jam` (critical); a round in progress is void (reason `shuffler-jam`);
 * - `COUNT` other than the deck size (`expectedDeckSize`, default 52 x decks) -> `card-count-mismatch`;
 * - `DOOR_OPEN` / `ERROR` hold dealing: every shoe of the table is sent `LOCK` (shoes without a
 *   card gate ignore it); new cards (and misreads) that still arrive are `out-of-order-card`,
 *   neither dealt nor counted; rescans of a card misread before the hold still resolve it.
 *   `READY` releases the hold (`UNLOCK`). `ERROR` also raises `device-error`;
 * - single-deck games: `READY` after a `COUNT` starts a fresh deck (as the shoe's `STATE,LOADED`).
 *
 */
import type { DeviceFrame } from '../../vocabulary/frames.js';
import { type Card } from '../../vocabulary/card.js';
import type { ShufflerStateData } from '../types.js';
import { CardTableShoe } from './shoe.js';

export abstract class CardTableShuffler extends CardTableShoe {
  protected shufflerData(deviceId: string): ShufflerStateData {
    return this.state.shuffler ?? { deviceId, state: null, lastCount: null, countPending: false, blocked: false };
  }

  protected onShufflerFrame(deviceId: string, f: Extract<DeviceFrame, { type: 'SHUF_STATE' | 'COUNT' }>): void {
    const prev = this.shufflerData(deviceId);
    if (f.type === 'COUNT') {
      const expected = this.settings.expectedDeckSize ?? 52 * this.settings.decks;
      const ok = f.count === expected;
      this.state.shuffler = { ...prev, deviceId, lastCount: f.count, countPending: true };
      this.event('shuffler', { deviceId, count: f.count, expected, ok });
      if (!ok) this.alert('card-count-mismatch', `shuffler ${deviceId} counted ${f.count} cards, ${expected} expected: check the deck`, { deviceId, count: f.count, expected });
      return;
    }
    const state = f.state;
    this.state.shuffler = { ...prev, deviceId, state };
    this.event('shuffler', { deviceId, state });
    switch (state) {
      case 'JAM': {
        const r = this.state.round;
        this.alert('shuffler-jam', `shuffler ${deviceId} jammed (card stuck in shuffler)${r ? `: round ${r.id} is void` : ''}`, { deviceId });
        if (r) this.voidRound('shuffler-jam', 'card stuck in shuffler');
        return;
      }
      case 'DOOR_OPEN':
      case 'ERROR':
        if (state === 'ERROR') this.alert('device-error', `shuffler ${deviceId} reports STATE,ERROR`, { deviceId, code: 'STATE_ERROR' });
        if (!prev.blocked) {
          this.state.shuffler = { ...this.state.shuffler, blocked: true };
          this.log('warn', `shuffler ${deviceId} ${state}: dealing held`);
          this.setHold('shuffler', true);
        }
        return;
      case 'READY': {
        const countPending = prev.countPending;
        this.state.shuffler = { ...this.state.shuffler, blocked: false, countPending: false };
        if (prev.blocked) {
          this.log('info', `shuffler ${deviceId} READY: the shuffler no longer holds dealing`);
          this.setHold('shuffler', false);
        }
        if (countPending && this.settings.game.defaults.singleDeck) {
          // games.md: a READY during a round (the next deck prepared while this one is dealt) takes
          // effect when that round ends; it never voids a live round
          if (this.state.round) {
            this.state.shuffler = { ...this.state.shuffler, freshDeckAfterRound: true };
            this.log('info', `shuffler ${deviceId} READY after COUNT during round ${this.state.round.id}: the fresh deck starts with the next round`);
          } else this.startNewShoe(`shuffler ${deviceId} READY after COUNT`);
        }
        return;
      }
      default:
        return;
    }
  }

  /** while the shuffler holds dealing, a card (or a misread, `card` null) is alerted and dropped */
  protected shufflerHoldsDealing(deviceId: string, card: Card | null): boolean {
    const sh = this.state.shuffler;
    if (!sh?.blocked) return false;
    const shown = card ? this.publicCard(card) : null;
    const what = card ? shown ?? 'a card (value withheld)' : 'an unread card (MISREAD)';
    this.alert('out-of-order-card', `${what} arrived from ${deviceId} while shuffler ${sh.deviceId} reports ${sh.state}: not dealt`, { deviceId, card: shown, held: 'shuffler' });
    return true;
  }
}
