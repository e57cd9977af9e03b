/**
 * Pok Deng (seed 001): two cards per hand, players 1-5 each against the banker; nobody draws.
 *
 * Hand facts: `points` = (sum of A=1, 2-9 face, 10/J/Q/K=0) mod 10; `pok` = 8 or 9 with two
 * cards; `pair` = same rank (K-K, not K-Q); `flush` = same suit; `deng` = 2 for pair or flush,
 * else 1.
 *
 * Comparison (decision): the seed only says "the hand with the higher point value wins"; a pok
 * beats any non-pok hand and pok 9 beats pok 8. Because every hand has exactly two cards, a pok
 * hand always has 8 or 9 points and a non-pok hand 0-7, so "pok beats non-pok, otherwise
 * compare points" is the same as comparing points: equal points tie (pairs/flushes do not
 * break ties; they only change the multiplier).
 *
 * Special hands: the sheet's table of special hands is missing; games.md makes it a config list,
 * empty by default. A hand flagged special (via `isSpecial`) carries `special: true`, counts as
 * worth between 7 and 8 points (beats 0-7, loses to a pok, ties another special hand) and, like
 * a pair/flush, earns the 2x multiplier when it wins.
 *
 * Multiplier (seed notes 2-6): player wins with pair/flush/special -> 2, except when the banker
 * has 0 or 6 points -> 1, unless the player has pok (8/9) with a pair or flush -> 2; banker wins
 * with pair/flush/special -> 2 (the player loses 2x); any other win or loss -> 1; tie -> 0.
 */
import { baccaratPoints, rankOf, suitOf, type Card } from '../../vocabulary/card.js';

export interface PokDengHand {
  points: number;
  pok: boolean;
  pair: boolean;
  flush: boolean;
  deng: 1 | 2;
  /** Present (true) only when the hand matched the configured special-hands list. */
  special?: true;
}

export interface PokDengOptions {
  /** Config special-hands predicate; none by default. */
  isSpecial?: (cards: readonly Card[]) => boolean;
}

export function pokDengHand(cards: readonly Card[], options?: PokDengOptions): PokDengHand {
  if (cards.length !== 2) throw new RangeError(`a Pok Deng hand has 2 cards, got ${cards.length}`);
  const [a, b] = cards;
  const points = (baccaratPoints(a) + baccaratPoints(b)) % 10;
  const pair = rankOf(a) === rankOf(b);
  const flush = suitOf(a) === suitOf(b);
  const hand: PokDengHand = { points, pok: points >= 8, pair, flush, deng: pair || flush ? 2 : 1 };
  if (options?.isSpecial?.(cards)) hand.special = true;
  return hand;
}

/** Comparison value: points doubled, a special hand 15 (between 7 and 8 points). */
function value(h: PokDengHand): number {
  return h.special && !h.pok ? 15 : h.points * 2;
}

export interface PokDengVersus {
  outcome: 'win' | 'lose' | 'tie';
  /** Unsigned: 2, 1, or 0 on a tie (the direction is in `outcome`). */
  multiplier: 0 | 1 | 2;
}

/** Player vs banker; hands or their two cards. */
export function pokDengVersus(player: PokDengHand | readonly Card[], banker: PokDengHand | readonly Card[], options?: PokDengOptions): PokDengVersus {
  const p = Array.isArray(player) ? pokDengHand(player as readonly Card[], options) : (player as PokDengHand);
  const b = Array.isArray(banker) ? pokDengHand(banker as readonly Card[], options) : (banker as PokDengHand);
  const vp = value(p);
  const vb = value(b);
  if (vp === vb) return { outcome: 'tie', multiplier: 0 };
  if (vp > vb) {
    const strong = p.pair || p.flush || p.special === true;
    if (!strong) return { outcome: 'win', multiplier: 1 };
    if (b.points === 0 || b.points === 6) {
      return { outcome: 'win', multiplier: p.pok && (p.pair || p.flush) ? 2 : 1 };
    }
    return { outcome: 'win', multiplier: 2 };
  }
  const strong = b.pair || b.flush || b.special === true;
  return { outcome: 'lose', multiplier: strong ? 2 : 1 };
}
