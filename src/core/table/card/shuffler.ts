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
import type { Card } from '../../vocabulary/card.js';
import type { CardContext } from './card-context.js';
import type { CardTableState, ShufflerStateData } from './card-types.js';
import { setHold } from './holds.js';
import { voidRound } from './round.js';
import { startNewShoe } from './shoe.js';
import { publicCard } from './view.js';

function shufflerData(s: CardTableState, deviceId: string): ShufflerStateData {
  return s.shuffler ?? { deviceId, state: null, lastCount: null, countPending: false, blocked: false };
}

/** a shuffler's `STATE` or `COUNT` frame */
export function shufflerFrame(
  ctx: CardContext,
  s: CardTableState,
  deviceId: string,
  f: Extract<DeviceFrame, { type: 'SHUF_STATE' | 'COUNT' }>,
): CardTableState {
  onShufflerFrame(ctx, s, deviceId, f);
  return s;
}

function onShufflerFrame(ctx: CardContext, s: CardTableState, deviceId: string, f: Extract<DeviceFrame, { type: 'SHUF_STATE' | 'COUNT' }>): void {
  const prev = shufflerData(s, deviceId);
  if (f.type === 'COUNT') {
    const expected = ctx.settings.expectedDeckSize ?? 52 * ctx.settings.decks;
    const ok = f.count === expected;
    s.shuffler = { ...prev, deviceId, lastCount: f.count, countPending: true };
    ctx.event('shuffler', { deviceId, count: f.count, expected, ok });
    if (!ok)
      ctx.alert('card-count-mismatch', `shuffler ${deviceId} counted ${f.count} cards, ${expected} expected: check the deck`, {
        deviceId,
        count: f.count,
        expected,
      });
    return;
  }
  const state = f.state;
  s.shuffler = { ...prev, deviceId, state };
  ctx.event('shuffler', { deviceId, state });
  switch (state) {
    case 'JAM': {
      const r = s.round;
      ctx.alert('shuffler-jam', `shuffler ${deviceId} jammed (card stuck in shuffler)${r ? `: round ${r.id} is void` : ''}`, { deviceId });
      if (r) voidRound(ctx, s, 'shuffler-jam', 'card stuck in shuffler');
      return;
    }
    case 'DOOR_OPEN':
    case 'ERROR':
      if (state === 'ERROR') ctx.alert('device-error', `shuffler ${deviceId} reports STATE,ERROR`, { deviceId, code: 'STATE_ERROR' });
      if (!prev.blocked) {
        s.shuffler = { ...s.shuffler, blocked: true };
        ctx.log('warn', `shuffler ${deviceId} ${state}: dealing held`);
        setHold(ctx, s, 'shuffler', true);
      }
      return;
    case 'READY': {
      const countPending = prev.countPending;
      s.shuffler = { ...s.shuffler, blocked: false, countPending: false };
      if (prev.blocked) {
        ctx.log('info', `shuffler ${deviceId} READY: the shuffler no longer holds dealing`);
        setHold(ctx, s, 'shuffler', false);
      }
      if (countPending && ctx.settings.game.defaults.singleDeck) {
        // games.md: a READY during a round (the next deck prepared while this one is dealt) takes
        // effect when that round ends; it never voids a live round
        if (s.round) {
          s.shuffler = { ...s.shuffler, freshDeckAfterRound: true };
          ctx.log('info', `shuffler ${deviceId} READY after COUNT during round ${s.round.id}: the fresh deck starts with the next round`);
        } else startNewShoe(ctx, s, `shuffler ${deviceId} READY after COUNT`);
      }
      return;
    }
    default:
      return;
  }
}

/** while the shuffler holds dealing, a card (or a misread, `card` null) is alerted and dropped */
export function shufflerHoldsDealing(ctx: CardContext, s: CardTableState, deviceId: string, card: Card | null): boolean {
  const sh = s.shuffler;
  if (!sh?.blocked) return false;
  const shown = card ? publicCard(ctx, s, card) : null;
  const what = card ? (shown ?? 'a card (value withheld)') : 'an unread card (MISREAD)';
  ctx.alert('out-of-order-card', `${what} arrived from ${deviceId} while shuffler ${sh.deviceId} reports ${sh.state}: not dealt`, {
    deviceId,
    card: shown,
    held: 'shuffler',
  });
  return true;
}
