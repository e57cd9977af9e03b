/**
 * The shoe's lifecycle (games.md "Shoe procedures"): a new shoe's reveal and burns, where each card
 * goes (counting and foreign cards, the shoe burn, an unnecessary card, the round), the cut card
 * and the last round, deck exhaustion for single-deck games, the shoe closed or void.
 */
import { revealBurnCount, type Card } from '../../vocabulary/card.js';
import type { CardContext } from './card-context.js';
import type { CardTableState } from './card-types.js';
import { setHold, voidShoe } from './holds.js';
import { openRound, roundCard, voidRound } from './round.js';
import { countOf, newShoe, withCount } from './state.js';
import { count, discard, clearPending, expectation, publicCard, publishShoe } from './view.js';

/** a new shoe (`LOADED`, a `new-shoe` request, a fresh deck): the round in progress is void, the shoe before it closed */
export function startNewShoe(ctx: CardContext, s: CardTableState, why: string): CardTableState {
  if (s.pending) clearPending(ctx, s);
  if (s.round) {
    ctx.alert('round-void', `round ${s.round.id} void: new shoe started mid-round (${why})`);
    voidRound(ctx, s, 'round-void', `new shoe started mid-round (${why})`);
  }
  const prev = s.shoe;
  if (prev.state !== 'closed' && prev.state !== 'void' && prev.cardsDealt > 0) {
    s.shoe = { ...prev, state: 'closed' };
    publishShoe(ctx, s);
  }
  s.shoe = newShoe(ctx.settings, prev.no + 1, true);
  setHold(ctx, s, 'shoe-void', false);
  s.lastRound = null;
  publishShoe(ctx, s);
  ctx.log('info', `new shoe ${s.shoe.id} (${why})`);
  return s;
}

/** the cut card: the round in progress is the last, or (between rounds) the shoe is closed */
export function cut(ctx: CardContext, s: CardTableState, deviceId: string): CardTableState {
  const sh = s.shoe;
  const r = s.round;
  // Pok Deng (sheet 001): a cut card after open-betting, before the first card, makes that round the last
  const startedRound = !!r && (r.burns.length > 0 || r.seen.length > 0);
  const inRound = !!r && (startedRound || ctx.settings.cutBeforeFirstCardIsLastRound);
  s.shoe = { ...sh, cutCardSeen: true };
  if (sh.state === 'closed' || sh.state === 'void') {
    ctx.event('cut', { deviceId, when: 'after-shoe' });
    return s;
  }
  if (inRound) {
    s.shoe.state = 'last-round';
    r!.lastRound = true;
    ctx.event('cut', { deviceId, when: startedRound ? 'in-round' : 'before-first-card' });
    ctx.log('info', `cut card during round ${r!.id}: it is the last round of shoe ${sh.id}`);
  } else {
    s.shoe.state = 'closed';
    ctx.event('cut', { deviceId, when: 'between-rounds' });
    ctx.log('info', `cut card between rounds: shoe ${sh.id} closed`);
    if (r) {
      const detail = "the cut card came out before this round's first card: no further round in this shoe";
      ctx.alert('round-void', `round ${r.id}: ${detail}`, { deviceId });
      voidRound(ctx, s, 'round-void', detail);
    }
  }
  publishShoe(ctx, s);
  return s;
}

export function dealCard(ctx: CardContext, s: CardTableState, deviceId: string, card: Card, uid?: string): void {
  const sh = s.shoe;
  if (sh.state === 'closed' || sh.state === 'void') {
    sh.cardsDealt += 1;
    sh.counts = withCount(sh.counts, card, countOf(sh.counts, card) + 1);
    ctx.event('card', { deviceId, role: 'discard', card, faceDown: false, cardNo: sh.cardsDealt, afterLastRound: true });
    ctx.alert('card-after-last-round', `${card} came out after the last round of shoe ${sh.id} (${sh.state}): not dealt to anyone`, { deviceId, card });
    publishShoe(ctx, s);
    return;
  }
  // A card the game cannot take now (waiting for a decision) is never assigned.
  const e = expectation(ctx, s);
  if (e && (e.kind === 'decision' || e.kind === 'close-decisions')) {
    const shown = publicCard(ctx, s, card);
    ctx.alert(
      'out-of-order-card',
      `${shown ?? 'a card (value withheld)'} arrived while the round waits for ${e.kind === 'decision' ? `a decision of ${e.seat}` : 'close-decisions'}: not dealt`,
      { deviceId, card: shown },
    );
    return;
  }
  // Counting: more copies than the shoe holds, or twice in one round of a single-deck game.
  const n = count(s, card);
  const dupInRound = ctx.settings.game.defaults.singleDeck && !!s.round?.seen.includes(card);
  // RFID: one physical card cannot leave the shoe twice (games.md Card counting)
  const dupTag = !!uid && !!sh.tags?.includes(uid);
  if (uid && !dupTag) sh.tags = [...(sh.tags ?? []), uid];
  if (n > ctx.settings.decks || dupInRound || dupTag) {
    discard(ctx, s, deviceId, card, { foreign: true });
    const why = dupTag ? ` (tag ${uid} already read in this shoe)` : dupInRound ? ' (twice in this round)' : '';
    ctx.alert('foreign-card', `${card} seen ${n} times in a ${ctx.settings.decks}-deck shoe${why}: not dealt`, { deviceId, card, ...(dupTag ? { uid } : {}) });
    // without an engine the card would have opened the next round: that round is void
    if (!s.round && !ctx.settings.engine && sh.state !== 'burning') openRound(ctx, s, false, undefined);
    if (s.round) voidRound(ctx, s, 'foreign-card', `foreign card ${card}`);
    return;
  }
  if (sh.state === 'burning') {
    shoeBurn(ctx, s, deviceId, card);
    return;
  }
  if (!s.round || e?.kind === 'complete') {
    if (ctx.settings.engine || (s.round && e?.kind === 'complete')) {
      unnecessaryCard(ctx, s, deviceId, card);
      return;
    }
    openRound(ctx, s, false, undefined);
    if (voidIfDeckExhausted(ctx, s, 1, () => discard(ctx, s, deviceId, card, { deckExhausted: true }))) return;
  }
  roundCard(ctx, s, deviceId, card);
}

export function shoeBurn(ctx: CardContext, s: CardTableState, deviceId: string, card: Card): void {
  const sh = s.shoe;
  if (sh.revealCard === null) {
    sh.revealCard = card;
    sh.burnTarget = revealBurnCount(card);
    ctx.event('card', { deviceId, role: 'reveal', card, faceDown: false, cardNo: sh.cardsDealt });
    ctx.log('info', `shoe ${sh.id}: reveal card ${card}, burning ${sh.burnTarget}`);
  } else {
    sh.burnCards.push(card);
    ctx.event('card', { deviceId, role: 'burn', card: null, faceDown: true, cardNo: sh.cardsDealt });
  }
  if (sh.revealCard !== null && sh.burnCards.length >= sh.burnTarget) {
    sh.state = 'dealing';
    ctx.log('info', `shoe ${sh.id}: burn complete, dealing`);
  }
  publishShoe(ctx, s);
}

/**
 * games.md Unnecessary card. `burn-then-void-shoe`: it becomes the first of the next round's
 * burns; the second in a row leaves the result standing and voids the rest of the shoe (that card
 * is in no round: `discard`). `alert`: alerted and counted, in no hand and no burn (`discard`).
 */
export function unnecessaryCard(ctx: CardContext, s: CardTableState, deviceId: string, card: Card): void {
  const sh = s.shoe;
  if (ctx.settings.unnecessaryCardRule === 'alert') {
    ctx.event('card', { deviceId, role: 'discard', card, faceDown: false, cardNo: sh.cardsDealt, unnecessary: true });
    ctx.alert('unnecessary-card', `${card} was drawn when no card was expected: it does not affect the result (in no hand, no burn)`, { deviceId, card });
    return;
  }
  sh.carriedBurns.push(card);
  const voids = sh.carriedBurns.length >= 2;
  ctx.event('card', { deviceId, role: voids ? 'discard' : 'burn', card, faceDown: false, cardNo: sh.cardsDealt, unnecessary: true });
  ctx.alert('unnecessary-card', `${card} was drawn when no card was expected${voids ? '' : ': it becomes a burn card of the next round'}`, {
    deviceId,
    card,
    count: sh.carriedBurns.length,
  });
  if (voids) voidShoe(ctx, s, `${sh.carriedBurns.length} unnecessary cards`, deviceId);
}

/**
 * Single-deck games: a round that could need more cards than the deck still holds is void
 * (`deck-exhausted`) and the deck is done until the next `LOADED`. `justCounted` = cards of this
 * round already counted. Only checked on a deck whose start the gateway saw.
 */
/**
 * Single-deck games: the deck's room for a round opened now (its carried burns, the round's
 * burns and its most cards), or null when it has room or is not a single deck whose start the
 * gateway saw. An engine's `open-betting` is refused on it, changing nothing (mqtt-api.md).
 */
export function deckLacksRoomForNewRound(ctx: CardContext, s: CardTableState): { remaining: number; needed: number } | null {
  const sh = s.shoe;
  if (!ctx.settings.game.defaults.singleDeck || !sh.loaded) return null;
  const carried = sh.carriedBurns.length;
  const remaining = ctx.settings.decks * 52 - sh.cardsDealt;
  const needed = Math.max(ctx.settings.burnPerRound, carried) - carried + ctx.settings.game.defaults.maxCardsPerRound;
  return remaining >= needed ? null : { remaining, needed };
}

export function voidIfDeckExhausted(ctx: CardContext, s: CardTableState, justCounted: number, beforeAlert?: () => void): boolean {
  const sh = s.shoe;
  const r = s.round;
  if (!r || !ctx.settings.game.defaults.singleDeck || !sh.loaded) return false;
  const remaining = ctx.settings.decks * 52 - (sh.cardsDealt - justCounted);
  const needed = r.burnsNeeded - r.burns.length + ctx.settings.game.defaults.maxCardsPerRound;
  if (remaining >= needed) return false;
  beforeAlert?.();
  ctx.alert('deck-exhausted', `round ${r.id} could need ${needed} cards but the deck has ${remaining} left: the round is void, load a fresh deck`);
  sh.state = 'closed';
  voidRound(ctx, s, 'deck-exhausted', `${remaining} cards left, up to ${needed} needed`);
  return true;
}
