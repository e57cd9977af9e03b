/**
 * The engine's and the pit's requests to a card table (mqtt-api.md), one handler per command in
 * `CARD_REQUESTS`, each with its command's typed args. A refusal changes nothing.
 */
import type { RequestArgs } from '../../vocabulary/requests.js';
import { isRefusal } from '../../games/game.js';
import { pitVoid, type RequestAnswer, type RequestHandlers } from '../requests.js';
import type { CardContext } from './card-context.js';
import type { CardTableState } from './card-types.js';
import { correctCompleted } from './corrections.js';
import { releaseHold } from './holds.js';
import { afterChange, openRound, reveal, voidRound } from './round.js';
import { deckLacksRoomForNewRound, startNewShoe } from './shoe.js';
import { publishRound, publishShoe } from './view.js';

export const CARD_REQUESTS: RequestHandlers<CardContext, CardTableState> = {
  'open-betting': openBetting,
  'close-betting': closeBetting,
  decision: takeDecision,
  'close-decisions': closeDecisionWindow,
  correction: correctRound,
  'resume-round': resumeHeldRound,
  'void-round': voidRoundAsked,
  'new-shoe': newShoeAsked,
  'end-shoe': endShoe,
};

function openBetting(ctx: CardContext, s: CardTableState, args: RequestArgs<'open-betting'>): RequestAnswer {
  const sh = s.shoe;
  const r = s.round;
  if (!ctx.settings.engine) return { code: 'wrong-phase', error: 'this table runs without an engine (betting: none): rounds start with their first card' };
  if (sh.state === 'void') return { code: 'wrong-phase', error: `shoe ${sh.id} is void: load a new shoe` };
  if (sh.state === 'closed') return { code: 'wrong-phase', error: `shoe ${sh.id} is closed (cut card): load a new shoe` };
  if (r) return { code: 'wrong-phase', error: `round ${r.id} is still in progress` };
  if (s.pending) return { code: 'wrong-phase', error: 'a misread card is waiting for its rescan' };
  const room = deckLacksRoomForNewRound(ctx, s);
  if (room) return { code: 'wrong-phase', error: `deck exhausted: ${room.remaining} cards left, a round could need ${room.needed}; load a fresh deck` };
  const round = openRound(ctx, s, true, args.roundId);
  publishRound(ctx, s);
  return { data: { roundId: round.id } };
}

function closeBetting(ctx: CardContext, s: CardTableState): RequestAnswer {
  const r = s.round;
  if (!r?.bettingOpen) return { code: 'wrong-phase', error: r ? `round ${r.id} is not in betting` : 'no round is open' };
  r.bettingOpen = false;
  reveal(ctx, s, 'close-betting');
  afterChange(ctx, s);
  return { data: { roundId: r.id } };
}

function takeDecision(ctx: CardContext, s: CardTableState, args: RequestArgs<'decision'>): RequestAnswer {
  const r = s.round;
  const g = ctx.settings.game;
  if (!r) return { code: 'wrong-phase', error: 'no round is in progress' };
  if (!g.decide) return { code: 'wrong-phase', error: `${g.id} takes no player decisions` };
  if (r.bettingOpen) return { code: 'wrong-phase', error: 'betting is still open' };
  if (r.burns.length < r.burnsNeeded) return { code: 'wrong-phase', error: "the round's burn cards have not been drawn yet" };
  const keepStanding = args.keepStanding === true;
  if (keepStanding && g.id !== 'blackjack') return { code: 'invalid-args', error: `keepStanding means nothing in ${g.id} (blackjack shared seats only)` };
  const next = g.decide(r.game, args.seat, args.action, keepStanding ? { keepStanding } : {});
  if (isRefusal(next)) return { code: keepStanding ? 'invalid-args' : 'wrong-phase', error: next.error };
  r.game = next;
  ctx.event('decision', { seat: args.seat, action: args.action, ...(keepStanding ? { keepStanding } : {}) });
  afterChange(ctx, s);
  return { data: { roundId: r.id } };
}

function closeDecisionWindow(ctx: CardContext, s: CardTableState): RequestAnswer {
  const r = s.round;
  const g = ctx.settings.game;
  if (!r) return { code: 'wrong-phase', error: 'no round is in progress' };
  if (!g.closeDecisions) return { code: 'wrong-phase', error: `${g.id} has no decision windows` };
  if (r.bettingOpen) return { code: 'wrong-phase', error: 'betting is still open' };
  const next = g.closeDecisions(r.game);
  if (isRefusal(next)) return { code: 'wrong-phase', error: next.error };
  r.game = next;
  reveal(ctx, s, 'close-decisions');
  afterChange(ctx, s);
  return { data: { roundId: r.id } };
}

function correctRound(ctx: CardContext, s: CardTableState, args: RequestArgs<'correction'>): RequestAnswer {
  const r = s.round;
  const g = ctx.settings.game;
  if (args.roundId !== undefined && args.roundId !== r?.id) return correctCompleted(ctx, s, args);
  if (!r) return { code: 'wrong-phase', error: 'no round is in progress' };
  if (!g.correct) return { code: 'wrong-phase', error: `${g.id} has no corrections` };
  const next = g.correct(r.game, args.kind, args);
  if (isRefusal(next)) return { code: 'wrong-phase', error: next.error };
  r.game = next;
  ctx.event('correction', { correction: args.kind });
  afterChange(ctx, s);
  return { data: { roundId: r.id } };
}

function resumeHeldRound(ctx: CardContext, s: CardTableState, args: RequestArgs<'resume-round'>): RequestAnswer {
  const r = s.round;
  const h = s.held;
  if (!h || !r) return { code: 'wrong-phase', error: 'no round is held' };
  const by = args.by;
  ctx.event('round-resumed', { by, ...(args.reason ? { reason: args.reason } : {}), deviceId: h.deviceId, queued: h.queued.length });
  ctx.log('warn', `round ${r.id} resumed by ${by} after a frame gap on ${h.deviceId}${args.reason ? ` (${args.reason})` : ''}`);
  releaseHold(ctx, s, true);
  if (s.round === r) publishRound(ctx, s);
  return { data: { roundId: r.id } };
}

function voidRoundAsked(ctx: CardContext, s: CardTableState, args: RequestArgs<'void-round'>): RequestAnswer {
  if (args.roundId !== undefined && args.roundId !== s.round?.id) return correctCompleted(ctx, s, { ...args, kind: 'void' });
  return pitVoid(ctx, s.round?.id, args.reason, () => voidRound(ctx, s, 'round-void', args.reason));
}

function newShoeAsked(ctx: CardContext, s: CardTableState): RequestAnswer {
  startNewShoe(ctx, s, 'new-shoe request');
  return { data: { shoeId: s.shoe.id } };
}

function endShoe(ctx: CardContext, s: CardTableState): RequestAnswer {
  const sh = s.shoe;
  const r = s.round;
  if (sh.state === 'closed' || sh.state === 'void') return { code: 'wrong-phase', error: `shoe ${sh.id} is already ${sh.state}` };
  if (r) {
    sh.state = 'last-round';
    r.lastRound = true;
  } else sh.state = 'closed';
  publishShoe(ctx, s);
  return { data: { shoeId: sh.id, state: sh.state } };
}
