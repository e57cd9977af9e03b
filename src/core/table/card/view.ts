/**
 * What every procedure of the card table reads: the round's expectation and phase, the `shoe` and
 * `round` snapshots, which cards the public may see, card counting, a pending rescan cleared.
 */
import type { Card } from '../../vocabulary/card.js';
import type { Expectation } from '../../games/game.js';
import type { MessageBody } from '../messages.js';
import { readsCards } from '../../vocabulary/device-kinds.js';
import type { CardContext } from './card-context.js';
import type { CardTableState, RoundStateData } from './card-types.js';
import { countOf, withCount } from './state.js';

/** a card table's `round` message without its envelope */
export type CardRoundBody = Extract<MessageBody<'round'>, { cards: unknown }>;

export function publishShoe(ctx: CardContext, s: CardTableState): void {
  const sh = s.shoe;
  const body: MessageBody<'shoe'> = {
    shoeId: sh.id,
    state: sh.state,
    decks: ctx.settings.decks,
    cardsDealt: sh.cardsDealt,
    cutCardSeen: sh.cutCardSeen,
    revealCard: sh.revealCard,
    burnCount: sh.burnTarget,
    roundsCompleted: sh.roundsCompleted,
  };
  // New-shoe burns are face down: their values are published only once the shoe is over.
  if (sh.state === 'closed' || sh.state === 'void') body.burnCards = [...sh.burnCards];
  ctx.publish('shoe', body, { roundId: null });
}

export function expectation(ctx: CardContext, s: CardTableState): Expectation | null {
  const r = s.round;
  if (!r) return null;
  if (r.burns.length < r.burnsNeeded) return { kind: 'card', position: 'burn', faceDown: r.burnsHidden };
  return ctx.settings.game.expect(r.game);
}

export function phase(ctx: CardContext, s: CardTableState): CardRoundBody['phase'] {
  const r = s.round;
  if (s.held && r) return 'held';
  if (s.pending) return 'awaiting-rescan';
  if (!r) return 'idle';
  if (r.bettingOpen) return 'betting';
  const e = expectation(ctx, s);
  if (e && (e.kind === 'decision' || e.kind === 'close-decisions')) return 'awaiting-decision';
  return 'dealing';
}

/** the round's cards as the public may see them: hidden cards as null */
export function visibleCards(ctx: CardContext, r: RoundStateData): Record<string, (Card | null)[]> {
  const cards = ctx.settings.game.cards(r.game) as Record<string, (Card | null)[]>;
  const out: Record<string, (Card | null)[]> = {};
  for (const pos of ctx.settings.game.positions) out[pos] = [...(cards[pos] ?? [])];
  for (const pos of Object.keys(cards)) if (!(pos in out)) out[pos] = [...cards[pos]];
  for (const h of r.hidden) if (out[h.position]) out[h.position][h.index] = null;
  out.burn = r.burnsHidden ? r.burns.map(() => null) : [...r.burns];
  return out;
}

export function cardsOf(ctx: CardContext, game: unknown, burns: (Card | null)[]): Record<string, (Card | null)[]> {
  const cards = ctx.settings.game.cards(game);
  const out: Record<string, (Card | null)[]> = {};
  for (const pos of ctx.settings.game.positions) if (cards[pos]) out[pos] = [...cards[pos]];
  for (const pos of Object.keys(cards)) if (!(pos in out)) out[pos] = [...cards[pos]];
  out.burn = [...burns];
  return out;
}

export function publishRound(ctx: CardContext, s: CardTableState, phaseOverride?: 'complete' | 'void', extra: Partial<CardRoundBody> = {}): void {
  const r = s.round;
  const e = phaseOverride ? null : expectation(ctx, s);
  const body: CardRoundBody = {
    phase: phaseOverride ?? phase(ctx, s),
    roundNo: r?.no ?? null,
    cards: r ? visibleCards(ctx, r) : {},
    // a game's expectation as it is: its `actions` are read-only there, the message's type copies nothing
    expect: s.pending ? { kind: 'rescan' } : ((e as CardRoundBody['expect']) ?? null),
    ...extra,
  };
  ctx.publish('round', body, { roundId: r ? r.id : (s.lastRound?.id ?? null) });
}

export function isCardReader(s: CardTableState, deviceId: string): boolean {
  const k = s.devices[deviceId]?.kind;
  return k !== undefined && readsCards(k);
}

export function shoeDevices(ctx: CardContext): string[] {
  return ctx.settings.devices.filter((d) => d.kind === 'card-shoe' || d.kind === 'rfid-shoe').map((d) => d.id);
}

/** whether the next card will be dealt face down (so a rescan event must not show it) */
export function isHiddenNext(ctx: CardContext, s: CardTableState): boolean {
  const sh = s.shoe;
  // a new shoe's burns (after its face-up reveal card) are face down
  if (sh.state === 'burning') return sh.revealCard !== null;
  if (!s.round) {
    // with an engine it is an unnecessary card (shown); without one it opens the next round
    if (ctx.settings.engine) return false;
    if (ctx.settings.burnPerRound > 0) return ctx.settings.burnFaceDown;
    const first = ctx.settings.game.expect(ctx.settings.game.newRound({ engine: false, options: ctx.settings.gameOptions }));
    return first.kind === 'card' && first.faceDown;
  }
  const e = expectation(ctx, s);
  return !!e && e.kind === 'card' && e.faceDown;
}

/**
 * The value a card that was NOT dealt (an unexpected rescan, an out-of-order read) may carry in
 * an alert: null whenever it could be a face-down card before its reveal point — the card the
 * dealer presents again may be the next face-down card, and a second rescan of a card already
 * dealt face down is that hidden card (games.md: no hidden value in any output).
 */
export function publicCard(ctx: CardContext, s: CardTableState, card: Card): Card | null {
  const r = s.round;
  if (isHiddenNext(ctx, s)) return null;
  if (r && (r.hidden.length > 0 || (r.burnsHidden && r.burns.length > 0))) return null;
  if (s.shoe.state === 'burning' && s.shoe.burnCards.length > 0) return null;
  if (r && ctx.settings.game.positions.length > 0 && gameDealsFaceDown(ctx)) return null;
  return card;
}

/** whether this game deals any card face down (checked on a fresh round of it) */
export function gameDealsFaceDown(ctx: CardContext): boolean {
  if (ctx.settings.burnFaceDown) return true;
  try {
    let g = ctx.settings.game.newRound({ engine: ctx.settings.engine, options: ctx.settings.gameOptions });
    for (let i = 0; i < 16; i++) {
      const e = ctx.settings.game.expect(g);
      if (e.kind !== 'card') return false;
      if (e.faceDown) return true;
      g = ctx.settings.game.place(g, 'AS' as Card);
    }
    return false;
  } catch {
    return true;
  }
}

export function count(s: CardTableState, card: Card): number {
  const sh = s.shoe;
  const n = countOf(sh.counts, card) + 1;
  sh.counts = withCount(sh.counts, card, n);
  sh.cardsDealt += 1;
  return n;
}

/** games.md: every card counted is in exactly one card event; `discard` for a card in no hand */
export function discard(ctx: CardContext, s: CardTableState, deviceId: string, card: Card, extra: Record<string, unknown> = {}): void {
  const hidden = isHiddenNext(ctx, s);
  ctx.event('card', { deviceId, role: 'discard', card: hidden ? null : card, faceDown: hidden, cardNo: s.shoe.cardsDealt, ...extra });
}

export function clearPending(ctx: CardContext, s: CardTableState): void {
  const p = s.pending;
  if (!p) return;
  ctx.cancelTimer(`rescan-retry:${p.id}`);
  ctx.cancelTimer(`rescan-overdue:${p.id}`);
  s.pending = null;
}
