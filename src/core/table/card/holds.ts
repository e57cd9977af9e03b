/**
 * Holding the shoes: ONE owner of LOCK / UNLOCK (device-protocols.md). The set of reasons to hold
 * the shoes (`shoe-void`, `shuffler`, `outbox-full`, `frame-gap`) lives in the state; LOCK when it
 * becomes non-empty, UNLOCK when it empties; a reason added twice or removed while absent changes
 * nothing. Also the round held after an unrepaired frame gap (games.md "Lost frames").
 */
import type { Severity } from '../../vocabulary/alerts.js';
import type { HoldReason } from '../types.js';
import { CardTableCore } from './core.js';

export abstract class CardTableHolds extends CardTableCore {
  protected setHold(reason: HoldReason, on: boolean): void {
    const before = this.state.holds ?? [];
    if (before.includes(reason) === on) return;
    const after = on ? [...before, reason].sort() : before.filter((x) => x !== reason);
    this.state.holds = after;
    if (before.length === 0 && after.length > 0) {
      for (const d of this.shoeDevices()) this.out.push({ type: 'device-command', deviceId: d, command: 'LOCK' });
      this.log('warn', `shoes held (${reason})`);
    } else if (before.length > 0 && after.length === 0) {
      for (const d of this.shoeDevices()) this.out.push({ type: 'device-command', deviceId: d, command: 'UNLOCK' });
      this.log('info', `shoes released (${reason} cleared)`);
    } else {
      this.log('info', `shoe hold ${on ? 'added' : 'cleared'}: ${reason}; still held for ${after.join(', ')}`);
    }
  }

  protected override onOutboxHold(full: boolean): void {
    this.setHold('outbox-full', full);
  }

  /** the rest of the shoe is void: `shoe-void` (critical), shoe state `void`, the shoes held until a new shoe */
  protected voidShoe(detail: string, deviceId?: string): void {
    const sh = this.state.shoe;
    if (sh.state === 'void') return;
    sh.state = 'void';
    this.alert('shoe-void', `${detail}: the rest of shoe ${sh.id} is void`, deviceId ? { deviceId } : {});
    this.setHold('shoe-void', true);
    this.publishShoe();
  }

  /** an unrepaired gap on a card reader during a round may hide a card: the round is held */
  protected override onUnrepairedGap(deviceId: string): Severity {
    if (!this.state.round || !this.isCardReader(deviceId)) return 'warning';
    if (!this.state.held) {
      this.state.held = { deviceId, since: this.receivedAt, queued: [] };
      this.setHold('frame-gap', true);
      this.publishRound();
    }
    return 'critical';
  }

  /** ends a hold: `resume` places the cards read meanwhile in order; otherwise (the round was voided) they are discards */
  protected releaseHold(resume: boolean): void {
    const h = this.state.held;
    if (!h) return;
    this.state.held = null;
    this.setHold('frame-gap', false);
    for (const q of h.queued) {
      if (!resume && q.frame.type === 'CARD') {
        // read while the round was held, and the round is void: counted, in no hand, shown
        this.count(q.frame.card);
        this.event('card', { deviceId: q.deviceId, role: 'discard', card: q.frame.card, faceDown: false, cardNo: this.state.shoe.cardsDealt });
        continue;
      }
      this.onGameFrame(q.deviceId, q.frame);
    }
  }
}
