/**
 * Texas Hold'em (vs dealer) "Bonus" side bet on the player's two hole cards (seed 000: the bet
 * looks only at the player's two cards and is paid even when the player loses the hand; the
 * sheet's pay table is not in the source, the categories are games.md's).
 *
 * Categories, best first (each hand matches exactly one):
 *   aa            A-A
 *   ak-suited     A-K same suit
 *   aq-aj-suited  A-Q or A-J same suit
 *   ak-offsuit    A-K different suits
 *   kk-qq-jj      K-K, Q-Q or J-J
 *   aq-aj-offsuit A-Q or A-J different suits
 *   pair-2-10     2-2 … 10-10
 *   null          anything else
 */
import { rankOf, suitOf, type Card } from '../../vocabulary/card.js';

export type HoldemBonus = 'aa' | 'ak-suited' | 'aq-aj-suited' | 'ak-offsuit' | 'kk-qq-jj' | 'aq-aj-offsuit' | 'pair-2-10';

export function holdemBonus(hole: readonly Card[]): HoldemBonus | null {
  if (hole.length !== 2) throw new RangeError(`hold'em hole cards are 2, got ${hole.length}`);
  const r1 = rankOf(hole[0]);
  const r2 = rankOf(hole[1]);
  if (r1 === r2) {
    if (r1 === 'A') return 'aa';
    if (r1 === 'K' || r1 === 'Q' || r1 === 'J') return 'kk-qq-jj';
    return 'pair-2-10';
  }
  if (r1 !== 'A' && r2 !== 'A') return null;
  const other = r1 === 'A' ? r2 : r1;
  const suited = suitOf(hole[0]) === suitOf(hole[1]);
  if (other === 'K') return suited ? 'ak-suited' : 'ak-offsuit';
  if (other === 'Q' || other === 'J') return suited ? 'aq-aj-suited' : 'aq-aj-offsuit';
  return null;
}

/**
 * `bonusDealerAA`: the top award of the Bonus bet, "AA + dealer AA" — the player's hole cards
 * are A-A and the dealer's hole cards are A-A as well (with one deck: all four aces in the two
 * hands). Only the hole cards count, never the board.
 */
export function bonusDealerAA(playerHole: readonly Card[], dealerHole: readonly Card[]): boolean {
  return (
    playerHole.length === 2 &&
    dealerHole.length === 2 &&
    rankOf(playerHole[0]) === 'A' &&
    rankOf(playerHole[1]) === 'A' &&
    rankOf(dealerHole[0]) === 'A' &&
    rankOf(dealerHole[1]) === 'A'
  );
}
