/**
 * games.md "Corrections and voids after the result": the pit may void or correct one of the last
 * `correctionWindowRounds` completed rounds by its roundId, with `by`. A superseding `result`
 * (status corrected | void, supersedesSeq, correction {kind, by, reason}) for the same roundId.
 */
import { isCard, type Card } from '../../vocabulary/card.js';
import { isRefusal, refuse, type GameAnswer } from '../../games/game.js';
import { completedRound, type RequestAnswer } from '../requests.js';
import type { CardContext } from './card-context.js';
import type { CardTableState, CompletedRound } from './card-types.js';
import { roundSummary } from './round.js';
import { countOf } from './state.js';
import { cardsOf } from './view.js';

export function correctCompleted(ctx: CardContext, s: CardTableState, args: Record<string, unknown>): RequestAnswer {
  const found = completedRound(s.completed, args, ctx.settings.correctionWindowRounds);
  if ('error' in found) return found;
  const { entry, index, list, roundId, kind, by, reason } = found;
  const g = ctx.settings.game;
  const correction = { kind, by, reason };
  const ids = { shoeId: entry.shoeId, roundId: entry.id };
  if (kind === 'void') {
    ctx.alert('round-void', `the pit (${by}) voided completed round ${roundId}: ${reason}`, { by });
    const env = ctx.publish(
      'result',
      {
        status: 'void',
        reason: 'round-void',
        detail: reason,
        cards: cardsOf(ctx, entry.game, entry.burns),
        outcome: null,
        supersedesSeq: entry.resultSeq,
        correction,
      },
      ids,
    );
    s.completed = list.map((x, i) => (i === index ? { ...x, status: 'void', resultSeq: env.seq } : x));
    return { data: { roundId, supersedesSeq: entry.resultSeq } };
  }
  let game: unknown;
  if (kind === 'cards') {
    const rebuilt = rebuildFromCards(ctx, s, args.cards, entry);
    if ('error' in rebuilt) return { code: 'invalid-args', error: rebuilt.error };
    game = rebuilt.game;
  } else {
    if (!g.correct) return { code: 'invalid-args', error: `${g.id} has no correction "${kind}" (a completed round takes kind "cards")` };
    const next = g.correct(entry.game, kind, args);
    if (isRefusal(next)) return { code: 'invalid-args', error: next.error };
    game = next;
  }
  const outcome = g.outcome(game);
  ctx.event('correction', { correction: kind, by, roundId });
  const env = ctx.publish(
    'result',
    {
      status: 'corrected',
      cards: cardsOf(ctx, game, entry.burns),
      outcome,
      supersedesSeq: entry.resultSeq,
      correction,
    },
    ids,
  );
  s.completed = list.map((x, i) => (i === index ? { ...x, status: 'corrected', resultSeq: env.seq, game } : x));
  ctx.log('info', `${roundId} corrected by ${by} (${kind}): ${roundSummary(roundId, cardsOf(ctx, game, entry.burns), outcome)}`);
  return { data: { roundId, supersedesSeq: entry.resultSeq } };
}

/**
 * A round rebuilt from the corrected cards per position, dealt through the game module in its
 * own order (decision windows closed as they come; blackjack decisions read from the cards:
 * `split` when `seatNa` is given, `hit` with keepStanding when `seatNs` is, `hit` while the hand
 * has cards left, else `stand`). Every card must be used and the round must be complete.
 */
function rebuildFromCards(ctx: CardContext, table: CardTableState, raw: unknown, entry: CompletedRound): { game: unknown } | { error: string } {
  const g = ctx.settings.game;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return { error: '`cards` must be an object: position -> card codes' };
  const want: Record<string, Card[]> = {};
  const all: Card[] = [];
  for (const [pos, list] of Object.entries(raw as Record<string, unknown>)) {
    if (pos === 'burn') continue;
    if (!Array.isArray(list) || !list.every((c) => typeof c === 'string' && isCard(c))) return { error: `cards.${pos} must be a list of card codes` };
    want[pos] = [...(list as Card[])];
    // a blackjack standing hand `seatNs` holds the first cards of `seatN`: counted there
    if (!/^seat\d+s$/.test(pos)) all.push(...(list as Card[]));
  }
  // duplicates beyond the shoe, and (in the current shoe) cards never dealt in it
  const times: Record<string, number> = {};
  for (const c of all) times[c] = (times[c] ?? 0) + 1;
  const sh = table.shoe;
  for (const [c, n] of Object.entries(times)) {
    if (n > ctx.settings.decks) return { error: `${c} appears ${n} times: more than a ${ctx.settings.decks}-deck shoe holds` };
    if (entry.shoeId === sh.id && countOf(sh.counts, c as Card) < n) return { error: `${c} was not dealt ${n > 1 ? `${n} times ` : ''}in shoe ${sh.id}` };
  }
  let s = g.newRound({ engine: ctx.settings.engine, options: ctx.settings.gameOptions });
  const used: Record<string, number> = {};
  for (let guard = 0; guard < 200; guard++) {
    const e = g.expect(s);
    if (e.kind === 'complete') break;
    if (e.kind === 'card') {
      const n = used[e.position] ?? 0;
      const c = want[e.position]?.[n];
      if (!c) return { error: `the corrected cards do not fit ${g.id}: the round needs another card for ${e.position}` };
      used[e.position] = n + 1;
      s = g.place(s, c);
      continue;
    }
    let next: GameAnswer<unknown>;
    if (e.kind === 'close-decisions') next = g.closeDecisions ? g.closeDecisions(s) : refuse('no decision windows');
    else {
      const have = (g.cards(s)[e.seat] ?? []).length;
      const left = (want[e.seat]?.length ?? 0) - have;
      const standing = want[`${e.seat}s`];
      if (e.actions.includes('split') && want[`${e.seat}a`]) next = g.decide!(s, e.seat, 'split');
      else if (standing && !(`${e.seat}s` in g.cards(s)) && standing.length === have) next = g.decide!(s, e.seat, 'hit', { keepStanding: true });
      else next = g.decide!(s, e.seat, left > 0 ? 'hit' : e.actions.includes('stand') ? 'stand' : e.actions[0]);
    }
    if (isRefusal(next)) return { error: `the corrected cards do not fit ${g.id}: ${next.error}` };
    s = next;
  }
  if (g.expect(s).kind !== 'complete') return { error: 'the corrected cards do not make a complete round' };
  for (const [pos, list] of Object.entries(want)) {
    const got = g.cards(s)[pos] ?? [];
    if (got.length !== list.length || got.some((c, i) => c !== list[i]))
      return { error: `the corrected cards do not fit ${g.id}: ${pos} would be dealt [${got.join(', ')}], not [${list.join(', ')}]` };
  }
  return { game: s };
}
