/**
 * The card table: the router of a card table's inputs to its peer procedures (this folder), the
 * shoe procedures shared by all card games (games.md "Shoe procedures"): `shoe.ts` (lifecycle,
 * where each card goes), `round.ts`, `holds.ts` (LOCK / UNLOCK, the held round), `rescan.ts`
 * (misreads, rescans, drops), `shuffler.ts`, `corrections.ts`, `requests.ts`; `view.ts` is what they
 * all read. Each is a function of the step context, the step's copy of the state and its input.
 * The game module (`src/core/games/*`) only knows the dealing order and the outcome of one round.
 * Pure: no I/O, no clock, no randomness.
 */
import type { DeviceFrame } from '../../vocabulary/frames.js';
import { answerRequest } from '../requests.js';
import type { TableKind } from '../table-router.js';
import type { CardContext, CardHooks } from './card-context.js';
import type { CardTableSettings, CardTableState } from './card-types.js';
import { outboxHold, unrepairedGap } from './holds.js';
import { CARD_REQUESTS } from './requests.js';
import { cardRead, drop, misread, readerAlert, rescanTimer } from './rescan.js';
import { cut, startNewShoe } from './shoe.js';
import { shufflerFrame } from './shuffler.js';
import { isCardReader, phase, publishRound, publishShoe, visibleCards } from './view.js';

function start(ctx: CardContext, s: CardTableState): CardTableState {
  publishShoe(ctx, s);
  publishRound(ctx, s);
  ctx.log('info', `table ${ctx.settings.tableId} (${ctx.settings.gameId}) started, shoe ${s.shoe.id}`);
  return s;
}

/** a card-table frame (not HB / VER / ERR), to the procedure it concerns */
function gameFrame(ctx: CardContext, s: CardTableState, deviceId: string, f: DeviceFrame): CardTableState {
  // a held round (an unrepaired frame gap): what the card readers send waits for the pit
  if (s.held && isCardReader(s, deviceId)) {
    s.held = { ...s.held, queued: [...s.held.queued, { deviceId, frame: f }] };
    ctx.log('warn', `round ${s.round?.id ?? '-'} is held: a ${f.type} frame from ${deviceId} waits for resume-round or void-round`);
    return s;
  }
  switch (f.type) {
    case 'CARD':
      return cardRead(ctx, s, deviceId, f.card, f.rescan, f.uid);
    case 'MISREAD':
      return misread(ctx, s, deviceId);
    case 'CUT':
      return cut(ctx, s, deviceId);
    case 'DROP':
      return drop(ctx, s, deviceId);
    case 'STATE':
      ctx.event('shoe-state', { deviceId, state: f.state });
      return f.state === 'LOADED' ? startNewShoe(ctx, s, `shoe ${deviceId} reported LOADED`) : s;
    case 'SHUF_STATE':
    case 'COUNT':
      return shufflerFrame(ctx, s, deviceId, f);
    default:
      ctx.log('warn', `frame type ${f.type} from ${deviceId} is not used by a ${ctx.settings.gameId} table`);
      return s;
  }
}

function snapshot(ctx: CardContext, s: CardTableState): Record<string, unknown> {
  const sh = s.shoe;
  const r = s.round;
  return {
    ...(s.shuffler ? { shuffler: { ...s.shuffler } } : {}),
    holds: [...(s.holds ?? [])],
    shoe: { shoeId: sh.id, state: sh.state, cardsDealt: sh.cardsDealt, cutCardSeen: sh.cutCardSeen, roundsCompleted: sh.roundsCompleted },
    round: r ? { roundId: r.id, phase: phase(ctx, s), cards: visibleCards(ctx, r) } : { phase: phase(ctx, s), lastRound: s.lastRound },
  };
}

export const CARD_TABLE: TableKind<CardTableState, CardTableSettings, CardHooks> = {
  name: 'card',
  ids: (s) => ({ shoeId: s.shoe.id, roundId: s.round?.id }),
  held: (s) => !!s.held,
  context: { gameFrame, newShoe: startNewShoe },
  start,
  gameFrame,
  timer: rescanTimer,
  request: (ctx, s, req) => answerRequest(CARD_REQUESTS, ctx, s, req, 'card'),
  snapshot,
  unrepairedGap,
  outboxHold,
  deviceAlert: readerAlert,
};
