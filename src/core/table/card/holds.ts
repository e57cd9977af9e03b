/**
 * Holding the shoes: ONE owner of LOCK / UNLOCK (device-protocols.md). The set of reasons to hold
 * the shoes (`shoe-void`, `shuffler`, `outbox-full`, `frame-gap`) lives in the state; LOCK when it
 * becomes non-empty, UNLOCK when it empties; a reason added twice or removed while absent changes
 * nothing. Also the round held after an unrepaired frame gap (games.md "Lost frames").
 */
import type { Severity } from '../../vocabulary/alerts.js';
import type { CardContext } from './card-context.js';
import type { CardTableState, HoldReason } from './card-types.js';
import { count, isCardReader, publishRound, publishShoe, shoeDevices } from './view.js';

export function setHold(ctx: CardContext, s: CardTableState, reason: HoldReason, on: boolean): void {
  const before = s.holds ?? [];
  if (before.includes(reason) === on) return;
  const after = on ? [...before, reason].sort() : before.filter((x) => x !== reason);
  s.holds = after;
  if (before.length === 0 && after.length > 0) {
    for (const d of shoeDevices(ctx)) ctx.command(d, 'LOCK');
    ctx.log('warn', `shoes held (${reason})`);
  } else if (before.length > 0 && after.length === 0) {
    for (const d of shoeDevices(ctx)) ctx.command(d, 'UNLOCK');
    ctx.log('info', `shoes released (${reason} cleared)`);
  } else {
    ctx.log('info', `shoe hold ${on ? 'added' : 'cleared'}: ${reason}; still held for ${after.join(', ')}`);
  }
}

/** the outbox is full (`true`) or drained again: the shoes are held meanwhile */
export function outboxHold(ctx: CardContext, s: CardTableState, full: boolean): CardTableState {
  setHold(ctx, s, 'outbox-full', full);
  return s;
}

/** the rest of the shoe is void: `shoe-void` (critical), shoe state `void`, the shoes held until a new shoe */
export function voidShoe(ctx: CardContext, s: CardTableState, detail: string, deviceId?: string): void {
  const sh = s.shoe;
  if (sh.state === 'void') return;
  sh.state = 'void';
  ctx.alert('shoe-void', `${detail}: the rest of shoe ${sh.id} is void`, deviceId ? { deviceId } : {});
  setHold(ctx, s, 'shoe-void', true);
  publishShoe(ctx, s);
}

/** an unrepaired gap on a card reader during a round may hide a card: the round is held */
export function unrepairedGap(ctx: CardContext, s: CardTableState, deviceId: string): Severity {
  if (!s.round || !isCardReader(s, deviceId)) return 'warning';
  if (!s.held) {
    s.held = { deviceId, since: ctx.at, queued: [] };
    setHold(ctx, s, 'frame-gap', true);
    publishRound(ctx, s);
  }
  return 'critical';
}

/** ends a hold: `resume` places the cards read meanwhile in order; otherwise (the round was voided) they are discards */
export function releaseHold(ctx: CardContext, s: CardTableState, resume: boolean): void {
  const h = s.held;
  if (!h) return;
  s.held = null;
  setHold(ctx, s, 'frame-gap', false);
  for (const q of h.queued) {
    if (!resume && q.frame.type === 'CARD') {
      // read while the round was held, and the round is void: counted, in no hand, shown
      count(s, q.frame.card);
      ctx.event('card', { deviceId: q.deviceId, role: 'discard', card: q.frame.card, faceDown: false, cardNo: s.shoe.cardsDealt });
      continue;
    }
    ctx.kind.gameFrame(ctx, s, q.deviceId, q.frame);
  }
}
