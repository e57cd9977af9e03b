/**
 * A card round's lifecycle: open, place (burns, hands, exposed cards), reveal face-down cards,
 * complete (result + snapshot), void, finish; the completed rounds kept for corrections.
 */
import type { Card } from '../../vocabulary/card.js';
import type { RevealPoint } from '../../games/game.js';
import type { AlertKind } from '../../vocabulary/alerts.js';
import type { CardContext } from './card-context.js';
import type { CardTableState, CompletedRound, HiddenCard, RoundStateData } from './card-types.js';
import { releaseHold, voidShoe } from './holds.js';
import { pad4 } from './state.js';
import { cardsOf, clearPending, expectation, publishRound, publishShoe } from './view.js';

export function openRound(ctx: CardContext, s: CardTableState, engine: boolean, engineRoundId: string | undefined): RoundStateData {
  const sh = s.shoe;
  sh.roundsStarted += 1;
  const carried = sh.carriedBurns;
  sh.carriedBurns = [];
  const r: RoundStateData = {
    id: engineRoundId ?? `${sh.id}-r${pad4(sh.roundsStarted)}`,
    no: sh.roundsStarted,
    bettingOpen: engine,
    game: ctx.settings.game.newRound({ engine: ctx.settings.engine, options: ctx.settings.gameOptions }),
    burns: [...carried],
    burnsNeeded: Math.max(ctx.settings.burnPerRound, carried.length),
    burnsHidden: ctx.settings.burnFaceDown,
    hidden: [],
    lastRound: sh.state === 'last-round',
    seen: [],
  };
  s.round = r;
  s.pending = null;
  return r;
}

export function roundCard(ctx: CardContext, s: CardTableState, deviceId: string, card: Card): void {
  const r = s.round!;
  const sh = s.shoe;
  r.seen.push(card);
  if (r.burns.length < r.burnsNeeded) {
    r.burns.push(card);
    r.last = { burn: true, faceDown: r.burnsHidden };
    ctx.event('card', { deviceId, role: 'burn', card: r.burnsHidden ? null : card, faceDown: r.burnsHidden, cardNo: sh.cardsDealt });
    publishRound(ctx, s);
    return;
  }
  const e = ctx.settings.game.expect(r.game);
  if (e.kind !== 'card') return; // unreachable: dealCard checked
  if (r.bettingOpen && !e.faceDown) {
    // Exposed card: a non-burn card drawn face up while betting is open voids the round.
    r.game = ctx.settings.game.place(r.game, card);
    ctx.event('card', { deviceId, role: e.position, card, faceDown: false, cardNo: sh.cardsDealt, exposed: true });
    const shoeToo = ctx.settings.exposedCardVoidsShoe;
    ctx.alert(
      'exposed-card',
      `${card} was dealt face up to ${e.position} while betting was open: the round${shoeToo ? ' and the rest of the shoe are' : ' is'} void`,
      { deviceId, card },
    );
    voidRound(ctx, s, 'exposed-card', `${card} exposed during betting`);
    // games.md Exposed card, sheet 000: "the game and the shoe are void" (baccarat, 7 Up, Dragon Tiger)
    if (shoeToo) voidShoe(ctx, s, `exposed card ${card}`, deviceId);
    return;
  }
  const index = (ctx.settings.game.cards(r.game)[e.position] ?? []).length;
  r.game = ctx.settings.game.place(r.game, card);
  // a card meant to stay hidden until betting closes, dealt after it closed, is shown at once
  const faceDown = e.faceDown && !(e.revealAt === 'close-betting' && ctx.settings.engine && !r.bettingOpen);
  if (faceDown) r.hidden.push({ position: e.position, index, card, revealAt: e.revealAt ?? 'result' });
  r.last = { burn: false, faceDown };
  ctx.event('card', { deviceId, role: e.position, card: faceDown ? null : card, faceDown, cardNo: sh.cardsDealt });
  ctx.log('debug', faceDown ? `${r.id}: face-down card to ${e.position}` : `${r.id}: ${card} to ${e.position}`);
  afterChange(ctx, s);
}

/** after a round changed: finish it when complete, else publish the snapshot */
export function afterChange(ctx: CardContext, s: CardTableState): void {
  const r = s.round;
  if (!r) return;
  const e = expectation(ctx, s);
  if (e && e.kind === 'complete' && !r.bettingOpen && !s.pending) completeRound(ctx, s);
  else publishRound(ctx, s);
}

export function reveal(ctx: CardContext, s: CardTableState, point: RevealPoint | 'all'): void {
  const r = s.round;
  if (!r) return;
  const now: HiddenCard[] = [];
  const keep: HiddenCard[] = [];
  for (const h of r.hidden) (point === 'all' || h.revealAt === point ? now : keep).push(h);
  if (now.length === 0) return;
  r.hidden = keep;
  const cards = now.map((h) => ({ position: h.position, index: h.index, card: h.card }));
  ctx.event('reveal', { cards });
}

export function resultCards(ctx: CardContext, r: RoundStateData): Record<string, (Card | null)[]> {
  return cardsOf(ctx, r.game, r.burns);
}

export function completeRound(ctx: CardContext, s: CardTableState): void {
  const r = s.round!;
  reveal(ctx, s, 'all');
  const outcome = ctx.settings.game.outcome(r.game);
  const env = ctx.publish('result', { status: 'complete', cards: resultCards(ctx, r), outcome });
  remember(ctx, s, { id: r.id, shoeId: s.shoe.id, resultSeq: env.seq, status: 'complete', game: r.game, burns: [...r.burns], seen: [...r.seen] });
  publishRound(ctx, s, 'complete', { cards: resultCards(ctx, r) });
  finishRound(ctx, s, 'complete');
  ctx.log('info', roundSummary(r.id, resultCards(ctx, r), outcome));
}

export function voidRound(ctx: CardContext, s: CardTableState, reason: AlertKind, detail: string): void {
  const r = s.round;
  if (!r) return;
  if (s.pending) clearPending(ctx, s);
  reveal(ctx, s, 'all');
  const outcome = ctx.settings.game.voidOutcome?.(r.game) ?? null;
  ctx.publish('result', { status: 'void', reason, detail, cards: resultCards(ctx, r), outcome });
  publishRound(ctx, s, 'void', { reason, cards: resultCards(ctx, r) });
  finishRound(ctx, s, 'void');
  ctx.log('warn', `${r.id} void: ${reason} (${detail})`);
  releaseHold(ctx, s, false);
}

export function finishRound(ctx: CardContext, s: CardTableState, status: 'complete' | 'void'): void {
  const r = s.round!;
  const sh = s.shoe;
  s.lastRound = { id: r.id, status };
  s.round = null;
  if (status === 'complete') sh.roundsCompleted += 1;
  if (r.lastRound && sh.state === 'last-round') sh.state = 'closed';
  publishShoe(ctx, s);
  const shuf = s.shuffler;
  if (shuf?.freshDeckAfterRound) {
    s.shuffler = { ...shuf, freshDeckAfterRound: false };
    ctx.kind.newShoe(ctx, s, `shuffler ${shuf.deviceId} READY after COUNT (during round ${r.id})`);
  }
}

export function remember(ctx: CardContext, s: CardTableState, entry: CompletedRound): void {
  const keep = ctx.settings.correctionWindowRounds;
  const list = [...(s.completed ?? []), entry];
  s.completed = keep > 0 ? list.slice(-keep) : [];
}

/** one human line per finished round: `bac-01-s0001-r0003: player AS 6D | banker 5C TD -> player` */
export function roundSummary(roundId: string, cards: Record<string, (Card | null)[]>, outcome: Record<string, unknown>): string {
  const hands = Object.entries(cards)
    .filter(([pos, cs]) => pos !== 'burn' && cs.length > 0)
    .map(([pos, cs]) => `${pos} ${cs.join(' ')}`)
    .join(' | ');
  const winner = typeof outcome.winner === 'string' ? ` -> ${outcome.winner}` : '';
  const totals = 'playerTotal' in outcome && 'bankerTotal' in outcome ? ` (${String(outcome.playerTotal)}-${String(outcome.bankerTotal)})` : '';
  return `${roundId}: ${hands}${winner}${totals}`;
}
