/**
 * 3 Pictures (seeds 000 and 003): a three-card point game ranked 1 (best) to 31.
 *
 * Points: A = 1, 2-9 face value, 10/J/Q/K = 0, hand points = sum mod 10. Pictures are J, Q, K
 * only (10 is not a picture). Rank 1 = three pictures ("3 Knights"); then for points 9 down to
 * 0, in that order: Double Knights N (two pictures), Single Knight N (one picture), Plain N (no
 * picture). So rank = 2 + (9 - points) * 3 + (2 - pictures) when pictures < 3.
 */
import { baccaratPoints, isPicture, type Card } from '../../vocabulary/card.js';
import { pairPlusCategory, type ThreeCardCategory } from './poker.js';

export type ThreePicturesRankName = 'three-knights' | `double-knights-${number}` | `single-knight-${number}` | `plain-${number}`;

export interface ThreePicturesHand {
  /** 1 (three pictures) … 31 (plain 0). */
  rank: number;
  rankName: ThreePicturesRankName;
  /** Sum of point values mod 10 (a three-knights hand always has 0 points). */
  points: number;
  /** Number of J/Q/K cards. */
  pictures: number;
  /** Three Card Poker category when pair or better (the Pair Plus bet), else null. */
  pairPlus: ThreeCardCategory | null;
}

/** The rank (1..31) of a hand from its points and picture count. */
export function threePicturesRank(points: number, pictures: number): number {
  if (pictures >= 3) return 1;
  return 2 + (9 - points) * 3 + (2 - pictures);
}

/** The rank name of a rank 1..31 (`three-knights`, `double-knights-9`, … `plain-0`). */
export function threePicturesRankName(rank: number): ThreePicturesRankName {
  if (!Number.isInteger(rank) || rank < 1 || rank > 31) throw new RangeError(`not a 3 Pictures rank: ${rank}`);
  if (rank === 1) return 'three-knights';
  const k = rank - 2;
  const points = 9 - Math.floor(k / 3);
  const kind = k % 3;
  return kind === 0 ? `double-knights-${points}` : kind === 1 ? `single-knight-${points}` : `plain-${points}`;
}

export function evaluateThreePictures(cards: readonly Card[]): ThreePicturesHand {
  if (cards.length !== 3) throw new RangeError(`a 3 Pictures hand needs 3 cards, got ${cards.length}`);
  let sum = 0;
  let pictures = 0;
  for (let i = 0; i < 3; i++) {
    const c = cards[i];
    sum += baccaratPoints(c);
    if (isPicture(c)) pictures++;
  }
  const points = sum % 10;
  const rank = threePicturesRank(points, pictures);
  return { rank, rankName: threePicturesRankName(rank), points, pictures, pairPlus: pairPlusCategory(cards) };
}

type HandOrCards = readonly Card[] | ThreePicturesHand;

function rankOfHand(h: HandOrCards | number): number {
  if (typeof h === 'number') return h;
  return Array.isArray(h) ? evaluateThreePictures(h as readonly Card[]).rank : (h as ThreePicturesHand).rank;
}

/**
 * Player vs banker: the lower rank number wins; the same rank is a tie (e.g. J♠ 3♥ 6♦ and
 * Q♠ 10♥ 9♦ are both Single Knight 9). Accepts cards, evaluated hands or rank numbers.
 */
export function compareThreePictures(player: HandOrCards | number, banker: HandOrCards | number): 'win' | 'lose' | 'tie' {
  const p = rankOfHand(player);
  const b = rankOfHand(banker);
  return p < b ? 'win' : p > b ? 'lose' : 'tie';
}

/**
 * True when whichever side won this player-vs-banker comparison won with a hand ranked 11-13
 * (Double Knights 6, Single Knight 6, Plain 6): the half-pay case of the player-win and
 * banker-win bets. False on a tie.
 */
export function winWith6(player: HandOrCards | number, banker: HandOrCards | number): boolean {
  const p = rankOfHand(player);
  const b = rankOfHand(banker);
  if (p === b) return false;
  const winner = Math.min(p, b);
  return winner >= 11 && winner <= 13;
}
