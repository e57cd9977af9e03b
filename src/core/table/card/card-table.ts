/**
 * The card-table machine: the shoe procedures shared by all card games (games.md "Shoe
 * procedures"), one layer per procedure in this folder (core -> holds -> round -> shoe -> shuffler
 * -> rescan -> corrections -> request-handlers); this class routes a device's frames to them. The
 * game module (`src/core/games/*`) only knows the dealing order and the outcome of one round. Pure: no
 * I/O, no clock, no randomness.
 */
import type { DeviceFrame } from '../../vocabulary/frames.js';
import { CardTableRequests } from './request-handlers.js';

export class CardTableStep extends CardTableRequests {
  protected onStart(): void {
    this.publishShoe();
    this.publishRound();
    this.log('info', `table ${this.settings.tableId} (${this.settings.gameId}) started, shoe ${this.state.shoe.id}`);
  }

  protected onGameFrame(deviceId: string, f: DeviceFrame): void {
    // a held round (an unrepaired frame gap): what the card readers send waits for the pit
    if (this.state.held && this.isCardReader(deviceId)) {
      this.state.held = { ...this.state.held, queued: [...this.state.held.queued, { deviceId, frame: f }] };
      this.log('warn', `round ${this.state.round?.id ?? '-'} is held: a ${f.type} frame from ${deviceId} waits for resume-round or void-round`);
      return;
    }
    switch (f.type) {
      case 'CARD': return this.onCard(deviceId, f.card, f.rescan, f.uid);
      case 'MISREAD': return this.onMisread(deviceId);
      case 'CUT': return this.onCut(deviceId);
      case 'DROP': return this.onDrop(deviceId);
      case 'STATE':
        this.event('shoe-state', { deviceId, state: f.state });
        if (f.state === 'LOADED') this.startNewShoe(`shoe ${deviceId} reported LOADED`);
        return;
      case 'SHUF_STATE':
      case 'COUNT':
        return this.onShufflerFrame(deviceId, f);
      default:
        this.log('warn', `frame type ${f.type} from ${deviceId} is not used by a ${this.settings.gameId} table`);
    }
  }

  protected gameSnapshot(): Record<string, unknown> {
    const sh = this.state.shoe;
    const r = this.state.round;
    return {
      ...(this.state.shuffler ? { shuffler: { ...this.state.shuffler } } : {}),
      holds: [...(this.state.holds ?? [])],
      shoe: { shoeId: sh.id, state: sh.state, cardsDealt: sh.cardsDealt, cutCardSeen: sh.cutCardSeen, roundsCompleted: sh.roundsCompleted },
      round: r ? { roundId: r.id, phase: this.phase(), cards: this.visibleCards(r) } : { phase: this.phase(), lastRound: this.state.lastRound },
    };
  }
}
