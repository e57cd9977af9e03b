/**
 * Cards as they come from a reader: a misread (or an unknown RFID tag) makes the round wait for the
 * rescan (`RESCAN` at once, retries, `rescan-overdue`); a rescan resolves it; a dropped card
 * (games.md Dropped card) counts as a burn or voids the round.
 */
import { type Card } from '../../vocabulary/card.js';
import type { AlertKind } from '../../vocabulary/alerts.js';
import { CardTableShuffler } from './shuffler.js';

export abstract class CardTableRescan extends CardTableShuffler {
  protected onCard(deviceId: string, card: Card, rescan: boolean, uid?: string): void {
    // An RFID shoe cannot mark a re-read: its next card while its own misread is pending is the rescan.
    if (!rescan && this.state.pending?.deviceId === deviceId && this.state.devices[deviceId]?.kind === 'rfid-shoe') rescan = true;
    if (!rescan && this.shufflerHoldsDealing(deviceId, card)) return;
    if (rescan) {
      if (!this.state.pending) {
        const shown = this.publicCard(card);
        this.alert('unexpected-rescan', `rescan ${shown ?? '(value withheld)'} from ${deviceId} with no misread pending: ignored`, { deviceId, card: shown });
        return;
      }
      this.clearPending();
      this.event('rescan', { deviceId, card: this.isHiddenNext() ? null : card });
    } else if (this.state.pending) {
      this.alert('out-of-order-card', `a card arrived from ${deviceId} while a rescan is pending: neither dealt nor counted, the round is held`, { deviceId, card: this.publicCard(card) });
      return;
    }
    this.dealCard(deviceId, card, uid);
  }

  protected onMisread(deviceId: string): void {
    if (this.shufflerHoldsDealing(deviceId, null)) return;
    this.event('misread', { deviceId });
    const sh = this.state.shoe;
    if (sh.state === 'closed' || sh.state === 'void') {
      // no card can be dealt after the last round: nothing to wait for (docs/FAULTS.md, question 9)
      this.alert('misread', `card could not be read by ${deviceId} after the last round of shoe ${sh.id} (${sh.state}): not dealt to anyone, no rescan`, { deviceId });
      return;
    }
    this.alert('misread', `card could not be read by ${deviceId}: rescan required`, { deviceId });
    this.awaitRescan(deviceId);
  }

  /** the round waits for the rescan of a card that could not be read (a misread, an unknown RFID tag) */
  protected awaitRescan(deviceId: string): void {
    if (this.state.pending) return; // the same card failed again: still one pending rescan
    const id = this.state.nextPendingId++;
    this.state.pending = { id, since: this.receivedAt, retriesSent: 0, deviceId };
    this.out.push({ type: 'device-command', deviceId, command: 'RESCAN' });
    if (this.settings.rescanRetries > 0) this.out.push({ type: 'set-timer', name: `rescan-retry:${id}`, at: this.receivedAt + this.settings.rescanIntervalMs });
    this.out.push({ type: 'set-timer', name: `rescan-overdue:${id}`, at: this.receivedAt + this.settings.rescanTimeoutMs });
    this.publishRound();
  }

  /**
   * games.md Misread: an RFID tag that is in no registered deck, read where a card is expected, is
   * handled as a misread: the round waits for that card's rescan (the `unknown-tag` alert is the
   * driver's). Where no card is expected the alert is all.
   */
  protected override onDeviceAlert(deviceId: string, kind: AlertKind): void {
    if (kind !== 'unknown-tag' || this.state.shuffler?.blocked) return;
    const sh = this.state.shoe;
    if (sh.state === 'closed' || sh.state === 'void') return;
    const e = this.expectation();
    const expected = sh.state === 'burning' || (this.state.round ? e?.kind === 'card' : !this.settings.engine);
    if (expected) this.awaitRescan(deviceId);
  }

  protected onTimer(name: string): void {
    const [kind, idText] = name.split(':');
    const p = this.state.pending;
    if (!p || String(p.id) !== idText) return; // a timer of a rescan that has been resolved
    if (kind === 'rescan-retry') {
      if (p.retriesSent >= this.settings.rescanRetries) return;
      this.state.pending = { ...p, retriesSent: p.retriesSent + 1 };
      this.out.push({ type: 'device-command', deviceId: p.deviceId, command: 'RESCAN' });
      if (p.retriesSent + 1 < this.settings.rescanRetries) this.out.push({ type: 'set-timer', name, at: this.receivedAt + this.settings.rescanIntervalMs });
    } else if (kind === 'rescan-overdue') {
      this.alert('rescan-overdue', `no rescan ${this.receivedAt - p.since} ms after the misread on ${p.deviceId}: the dealer must rescan the card`, { deviceId: p.deviceId });
    }
  }

  /**
   * games.md Dropped card. During a burn (the new shoe's or a round's) the dropped card is picked
   * up and counts as that burn, read or not (an unread one is `null`); while dealing, a read card
   * dealt face up counts and play goes on; an unread one, or one dealt face down, voids the round.
   */
  protected onDrop(deviceId: string): void {
    if (this.state.pending) {
      if (this.burnIsNext()) {
        this.clearPending();
        this.event('drop', { deviceId, read: false, detail: 'an unread burn card was dropped: picked up, it counts as that burn' });
        this.unreadBurn(deviceId);
        return;
      }
      this.clearPending();
      this.alert('dropped-card', 'a card that was never read was dropped: the round is void', { deviceId });
      if (this.state.round) this.voidRound('dropped-card', 'an unread card was dropped');
      else this.publishRound();
      return;
    }
    const r = this.state.round;
    if (r?.last && !r.last.burn && r.last.faceDown) {
      this.alert('dropped-card', 'a card dealt face down was dropped before it was opened: the round is void', { deviceId });
      this.voidRound('dropped-card', 'a face-down card was dropped');
      return;
    }
    const burn = r ? !!r.last?.burn : this.state.shoe.state === 'burning';
    this.event('drop', { deviceId, read: true, detail: burn ? 'a burn card was dropped: picked up, it counts as that burn' : 'the dropped card had been read: it counts and play goes on' });
  }

  /** whether the next card drawn is a burn (the new shoe's, or a round's) */
  protected burnIsNext(): boolean {
    const sh = this.state.shoe;
    const r = this.state.round;
    if (sh.state === 'burning') return sh.revealCard !== null;
    if (sh.state === 'closed' || sh.state === 'void') return false;
    if (r) return r.burns.length < r.burnsNeeded;
    return !this.settings.engine && this.settings.burnPerRound > 0;
  }

  /** an unread burn card, dropped and picked up: it counts as that burn, value unknown (`null`) */
  protected unreadBurn(deviceId: string): void {
    const sh = this.state.shoe;
    sh.cardsDealt += 1;
    if (sh.state === 'burning') {
      sh.burnCards.push(null);
      this.event('card', { deviceId, role: 'burn', card: null, faceDown: true, cardNo: sh.cardsDealt, unread: true });
      if (sh.burnCards.length >= sh.burnTarget) sh.state = 'dealing';
      this.publishShoe();
      return;
    }
    if (!this.state.round) {
      this.openRound(false, undefined);
      if (this.voidIfDeckExhausted(1)) return;
    }
    const r = this.state.round!;
    r.burns.push(null);
    r.last = { burn: true, faceDown: true };
    this.event('card', { deviceId, role: 'burn', card: null, faceDown: true, cardNo: sh.cardsDealt, unread: true });
    this.publishRound();
  }
}
