/**
 * Cards as they come from a reader: a misread (or an unknown RFID tag) makes the round wait for the
 * rescan (`RESCAN` at once, retries, `rescan-overdue`); a rescan resolves it; a dropped card
 * (games.md Dropped card) counts as a burn or voids the round.
 */
import type { Card } from '../../vocabulary/card.js';
import type { AlertKind } from '../../vocabulary/alerts.js';
import type { CardContext } from './card-context.js';
import type { CardTableState } from './card-types.js';
import { openRound, voidRound } from './round.js';
import { dealCard, voidIfDeckExhausted } from './shoe.js';
import { shufflerHoldsDealing } from './shuffler.js';
import { clearPending, expectation, isHiddenNext, publicCard, publishRound, publishShoe } from './view.js';

/** a card read (`rescan`: a re-read after a misread) */
export function cardRead(ctx: CardContext, s: CardTableState, deviceId: string, card: Card, rescan: boolean, uid?: string): CardTableState {
  // An RFID shoe cannot mark a re-read: its next card while its own misread is pending is the rescan.
  if (!rescan && s.pending?.deviceId === deviceId && s.devices[deviceId]?.kind === 'rfid-shoe') rescan = true;
  if (!rescan && shufflerHoldsDealing(ctx, s, deviceId, card)) return s;
  if (rescan) {
    if (!s.pending) {
      const shown = publicCard(ctx, s, card);
      ctx.alert('unexpected-rescan', `rescan ${shown ?? '(value withheld)'} from ${deviceId} with no misread pending: ignored`, { deviceId, card: shown });
      return s;
    }
    clearPending(ctx, s);
    ctx.event('rescan', { deviceId, card: isHiddenNext(ctx, s) ? null : card });
  } else if (s.pending) {
    ctx.alert('out-of-order-card', `a card arrived from ${deviceId} while a rescan is pending: neither dealt nor counted, the round is held`, {
      deviceId,
      card: publicCard(ctx, s, card),
    });
    return s;
  }
  dealCard(ctx, s, deviceId, card, uid);
  return s;
}

/** a card that could not be read */
export function misread(ctx: CardContext, s: CardTableState, deviceId: string): CardTableState {
  if (shufflerHoldsDealing(ctx, s, deviceId, null)) return s;
  ctx.event('misread', { deviceId });
  const sh = s.shoe;
  if (sh.state === 'closed' || sh.state === 'void') {
    // no card can be dealt after the last round: nothing to wait for (docs/FAULTS.md, question 9)
    ctx.alert('misread', `card could not be read by ${deviceId} after the last round of shoe ${sh.id} (${sh.state}): not dealt to anyone, no rescan`, {
      deviceId,
    });
    return s;
  }
  ctx.alert('misread', `card could not be read by ${deviceId}: rescan required`, { deviceId });
  awaitRescan(ctx, s, deviceId);
  return s;
}

/** the round waits for the rescan of a card that could not be read (a misread, an unknown RFID tag) */
export function awaitRescan(ctx: CardContext, s: CardTableState, deviceId: string): void {
  if (s.pending) return; // the same card failed again: still one pending rescan
  const id = s.nextPendingId++;
  s.pending = { id, since: ctx.at, retriesSent: 0, deviceId };
  ctx.command(deviceId, 'RESCAN');
  if (ctx.settings.rescanRetries > 0) ctx.setTimer(`rescan-retry:${id}`, ctx.at + ctx.settings.rescanIntervalMs);
  ctx.setTimer(`rescan-overdue:${id}`, ctx.at + ctx.settings.rescanTimeoutMs);
  publishRound(ctx, s);
}

/**
 * games.md Misread: an RFID tag that is in no registered deck, read where a card is expected, is
 * handled as a misread: the round waits for that card's rescan (the `unknown-tag` alert is the
 * driver's). Where no card is expected the alert is all.
 */
export function readerAlert(ctx: CardContext, s: CardTableState, deviceId: string, kind: AlertKind): CardTableState {
  if (kind !== 'unknown-tag' || s.shuffler?.blocked) return s;
  const sh = s.shoe;
  if (sh.state === 'closed' || sh.state === 'void') return s;
  const e = expectation(ctx, s);
  const expected = sh.state === 'burning' || (s.round ? e?.kind === 'card' : !ctx.settings.engine);
  if (expected) awaitRescan(ctx, s, deviceId);
  return s;
}

/** the rescan's timers: `rescan-retry:<id>` (RESCAN again), `rescan-overdue:<id>` */
export function rescanTimer(ctx: CardContext, s: CardTableState, name: string): CardTableState {
  const [kind, idText] = name.split(':');
  const p = s.pending;
  if (!p || String(p.id) !== idText) return s; // a timer of a rescan that has been resolved
  if (kind === 'rescan-retry') {
    if (p.retriesSent >= ctx.settings.rescanRetries) return s;
    s.pending = { ...p, retriesSent: p.retriesSent + 1 };
    ctx.command(p.deviceId, 'RESCAN');
    if (p.retriesSent + 1 < ctx.settings.rescanRetries) ctx.setTimer(name, ctx.at + ctx.settings.rescanIntervalMs);
  } else if (kind === 'rescan-overdue') {
    ctx.alert('rescan-overdue', `no rescan ${ctx.at - p.since} ms after the misread on ${p.deviceId}: the dealer must rescan the card`, {
      deviceId: p.deviceId,
    });
  }
  return s;
}

/**
 * games.md Dropped card. During a burn (the new shoe's or a round's) the dropped card is picked
 * up and counts as that burn, read or not (an unread one is `null`); while dealing, a read card
 * dealt face up counts and play goes on; an unread one, or one dealt face down, voids the round.
 */
export function drop(ctx: CardContext, s: CardTableState, deviceId: string): CardTableState {
  if (s.pending) {
    if (burnIsNext(ctx, s)) {
      clearPending(ctx, s);
      ctx.event('drop', { deviceId, read: false, detail: 'an unread burn card was dropped: picked up, it counts as that burn' });
      unreadBurn(ctx, s, deviceId);
      return s;
    }
    clearPending(ctx, s);
    ctx.alert('dropped-card', 'a card that was never read was dropped: the round is void', { deviceId });
    if (s.round) voidRound(ctx, s, 'dropped-card', 'an unread card was dropped');
    else publishRound(ctx, s);
    return s;
  }
  const r = s.round;
  if (r?.last && !r.last.burn && r.last.faceDown) {
    ctx.alert('dropped-card', 'a card dealt face down was dropped before it was opened: the round is void', { deviceId });
    voidRound(ctx, s, 'dropped-card', 'a face-down card was dropped');
    return s;
  }
  const burn = r ? !!r.last?.burn : s.shoe.state === 'burning';
  ctx.event('drop', {
    deviceId,
    read: true,
    detail: burn ? 'a burn card was dropped: picked up, it counts as that burn' : 'the dropped card had been read: it counts and play goes on',
  });
  return s;
}

/** whether the next card drawn is a burn (the new shoe's, or a round's) */
export function burnIsNext(ctx: CardContext, s: CardTableState): boolean {
  const sh = s.shoe;
  const r = s.round;
  if (sh.state === 'burning') return sh.revealCard !== null;
  if (sh.state === 'closed' || sh.state === 'void') return false;
  if (r) return r.burns.length < r.burnsNeeded;
  return !ctx.settings.engine && ctx.settings.burnPerRound > 0;
}

/** an unread burn card, dropped and picked up: it counts as that burn, value unknown (`null`) */
export function unreadBurn(ctx: CardContext, s: CardTableState, deviceId: string): void {
  const sh = s.shoe;
  sh.cardsDealt += 1;
  if (sh.state === 'burning') {
    sh.burnCards.push(null);
    ctx.event('card', { deviceId, role: 'burn', card: null, faceDown: true, cardNo: sh.cardsDealt, unread: true });
    if (sh.burnCards.length >= sh.burnTarget) sh.state = 'dealing';
    publishShoe(ctx, s);
    return;
  }
  if (!s.round) {
    openRound(ctx, s, false, undefined);
    if (voidIfDeckExhausted(ctx, s, 1)) return;
  }
  const r = s.round!;
  r.burns.push(null);
  r.last = { burn: true, faceDown: true };
  ctx.event('card', { deviceId, role: 'burn', card: null, faceDown: true, cardNo: sh.cardsDealt, unread: true });
  publishRound(ctx, s);
}
