/**
 * Blackjack hand facts (seed 000): A = 1 or 11, 2-9 face value, 10/J/Q/K = 10.
 */
import { rankNumber, rankOf, suitOf, isRed, type Card } from '../../vocabulary/card.js';

export interface BlackjackTotal {
  /** Best total: one ace counts 11 when that keeps the hand at 21 or under. */
  total: number;
  /** True when an ace is being counted as 11. */
  soft: boolean;
  /** total > 21 (with every ace counted as 1). */
  bust: boolean;
}

/** Card value with the ace as 1. */
export function blackjackValue(card: Card): number {
  const n = rankNumber(card);
  return Math.min(n, 10);
}

export function blackjackTotal(cards: readonly Card[]): BlackjackTotal {
  let hard = 0;
  let aces = false;
  for (let i = 0; i < cards.length; i++) {
    const v = blackjackValue(cards[i]);
    hard += v;
    if (v === 1) aces = true;
  }
  if (aces && hard + 10 <= 21) return { total: hard + 10, soft: true, bust: false };
  return { total: hard, soft: false, bust: hard > 21 };
}

/**
 * A natural: exactly two cards, an ace and a ten-value card (10/J/Q/K), not in a hand made by a
 * split (a split ace plus a ten is 21, not blackjack).
 */
export function isBlackjack(cards: readonly Card[], afterSplit = false): boolean {
  if (afterSplit || cards.length !== 2) return false;
  const a = blackjackValue(cards[0]);
  const b = blackjackValue(cards[1]);
  return (a === 1 && b === 10) || (a === 10 && b === 1);
}

export type PerfectPairs = 'perfect' | 'colored' | 'mixed';

/**
 * Perfect Pairs side bet on two cards: same rank (K-K; K-Q is not a pair) and same suit ->
 * `perfect`; same rank, same colour, different suit -> `colored`; same rank, different colour ->
 * `mixed`; not the same rank -> null.
 */
export function perfectPairs(c1: Card, c2: Card): PerfectPairs | null {
  if (rankOf(c1) !== rankOf(c2)) return null;
  if (suitOf(c1) === suitOf(c2)) return 'perfect';
  return isRed(c1) === isRed(c2) ? 'colored' : 'mixed';
}
