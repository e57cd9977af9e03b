import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { oneDeck, pokerRank, suitOf, type Card } from '../../../../src/core/vocabulary/card.js';
import {
  anteBonusCategory,
  bestFive,
  bestOfSeven,
  bestOfSix,
  cardId,
  compareHands,
  compareThreeCard,
  evaluateFive,
  evaluateThreeCard,
  FIVE_CARD_CATEGORIES,
  handToScore,
  isAtLeastFive,
  isAtLeastThree,
  pairPlusCategory,
  scoreBest,
  scoreBestIds,
  scoreThreeCard,
  scoreToHand,
  THREE_CARD_CATEGORIES,
  threeCardQualifies,
  type FiveCardCategory,
  type ThreeCardCategory,
} from '../../../../src/core/games/evaluators/poker.js';

/** 'AC JH 2D' -> ['AC','JH','2D'] */
const h = (s: string): Card[] => s.split(' ') as Card[];
const DECK = oneDeck();

function* combos<T>(items: readonly T[], k: number, start = 0, acc: T[] = []): Generator<T[]> {
  if (acc.length === k) {
    yield acc.slice();
    return;
  }
  for (let i = start; i <= items.length - (k - acc.length); i++) {
    acc.push(items[i]);
    yield* combos(items, k, i + 1, acc);
    acc.pop();
  }
}

// ---------------------------------------------------------------------------------------------
// Naive reference evaluators (sort-based, written independently of the bitmask code)
// ---------------------------------------------------------------------------------------------

function naiveFive(cards: Card[]): { category: FiveCardCategory; ranks: number[] } {
  const ranks = cards.map(pokerRank).sort((a, b) => b - a);
  const flush = cards.every((c) => suitOf(c) === suitOf(cards[0]));
  const distinct = [...new Set(ranks)];
  let straightTop = 0;
  if (distinct.length === 5) {
    if (ranks[0] - ranks[4] === 4) straightTop = ranks[0];
    else if (ranks.join() === '14,5,4,3,2') straightTop = 5;
  }
  const counts = new Map<number, number>();
  for (const r of ranks) counts.set(r, (counts.get(r) ?? 0) + 1);
  const groups = [...counts.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0]);
  const order = groups.map((g) => g[0]);
  const shape = groups.map((g) => g[1]).join('');
  if (straightTop && flush) return { category: straightTop === 14 ? 'royal-flush' : 'straight-flush', ranks: [straightTop] };
  if (shape === '41') return { category: 'four-of-a-kind', ranks: order };
  if (shape === '32') return { category: 'full-house', ranks: order };
  if (flush) return { category: 'flush', ranks };
  if (straightTop) return { category: 'straight', ranks: [straightTop] };
  if (shape === '311') return { category: 'three-of-a-kind', ranks: order };
  if (shape === '221') return { category: 'two-pair', ranks: order };
  if (shape === '2111') return { category: 'pair', ranks: order };
  return { category: 'high-card', ranks };
}

function naiveCompare(a: { category: string; ranks: number[] }, b: { category: string; ranks: number[] }): number {
  const ca = FIVE_CARD_CATEGORIES.indexOf(a.category as FiveCardCategory);
  const cb = FIVE_CARD_CATEGORIES.indexOf(b.category as FiveCardCategory);
  if (ca !== cb) return Math.sign(ca - cb);
  for (let i = 0; i < a.ranks.length; i++) if (a.ranks[i] !== b.ranks[i]) return Math.sign(a.ranks[i] - b.ranks[i]);
  return 0;
}

function naiveThree(cards: Card[]): { category: ThreeCardCategory; ranks: number[] } {
  const ranks = cards.map(pokerRank).sort((a, b) => b - a);
  const flush = cards.every((c) => suitOf(c) === suitOf(cards[0]));
  const [a, b, c] = ranks;
  if (a === c) return { category: 'three-of-a-kind', ranks: [a] };
  if (a === b) return { category: 'pair', ranks: [a, c] };
  if (b === c) return { category: 'pair', ranks: [b, a] };
  const top = a - c === 2 ? a : a === 14 && b === 3 && c === 2 ? 3 : 0;
  if (top) return { category: flush ? 'straight-flush' : 'straight', ranks: [top] };
  return { category: flush ? 'flush' : 'high-card', ranks };
}

const cardsArb = (n: number) => fc.shuffledSubarray(DECK, { minLength: n, maxLength: n });

// ---------------------------------------------------------------------------------------------
// Three Card Poker
// ---------------------------------------------------------------------------------------------

describe('evaluateThreeCard', () => {
  it('classifies the rule sheet examples (seeds 003/004)', () => {
    expect(evaluateThreeCard(h('8H 7H 6H'))).toEqual({ category: 'straight-flush', ranks: [8] });
    expect(evaluateThreeCard(h('TS TH TC'))).toEqual({ category: 'three-of-a-kind', ranks: [10] });
    expect(evaluateThreeCard(h('8D 7C 6H'))).toEqual({ category: 'straight', ranks: [8] });
    expect(evaluateThreeCard(h('TH 4H 2H'))).toEqual({ category: 'flush', ranks: [10, 4, 2] });
    expect(evaluateThreeCard(h('AC AH 8D'))).toEqual({ category: 'pair', ranks: [14, 8] });
    expect(evaluateThreeCard(h('QC TH 6D'))).toEqual({ category: 'high-card', ranks: [12, 10, 6] });
  });

  it('mini royal: A-K-Q suited, ranks [14]', () => {
    expect(evaluateThreeCard(h('AS KS QS'))).toEqual({ category: 'straight-flush', ranks: [14], miniRoyal: true });
    expect(evaluateThreeCard(h('QS AS KS'))).toEqual({ category: 'straight-flush', ranks: [14], miniRoyal: true });
    expect(evaluateThreeCard(h('KS QS JS'))).not.toHaveProperty('miniRoyal');
    expect(evaluateThreeCard(h('AS KH QS'))).toEqual({ category: 'straight', ranks: [14] });
  });

  it('ranks each rank once, most significant first (Q-Q-5 -> [12,5])', () => {
    expect(evaluateThreeCard(h('5D QC QH')).ranks).toEqual([12, 5]);
    expect(evaluateThreeCard(h('QC 5D 5H'))).toEqual({ category: 'pair', ranks: [5, 12] });
    expect(evaluateThreeCard(h('2C JD 9H')).ranks).toEqual([11, 9, 2]);
  });

  it('A-2-3 is the lowest straight ([3]); K-A-2 is not a straight', () => {
    expect(evaluateThreeCard(h('3C 2C AC'))).toEqual({ category: 'straight-flush', ranks: [3] });
    expect(evaluateThreeCard(h('AD 2C 3H'))).toEqual({ category: 'straight', ranks: [3] });
    expect(evaluateThreeCard(h('KD AC 2H'))).toEqual({ category: 'high-card', ranks: [14, 13, 2] });
    expect(evaluateThreeCard(h('KD AD 2D'))).toEqual({ category: 'flush', ranks: [14, 13, 2] });
    expect(compareThreeCard(h('3C 2C AC'), h('4D 3D 2D'))).toBe(-1);
    expect(compareThreeCard(h('AD 2C 3H'), h('2D 3C 4H'))).toBe(-1);
    expect(compareThreeCard(h('AD KC QH'), h('KD QC JH'))).toBe(1);
    expect(compareThreeCard(h('AD 2C 3H'), h('AS KS JS'))).toBe(1); // lowest straight beats best flush
  });

  it('category order: straight flush > trips > straight > flush > pair > high card', () => {
    const ladder = [h('AD KC JH'), h('2C 2D 3H'), h('2H 4H 7H'), h('2C 3D 4H'), h('2S 2D 2H'), h('2H 3H 4H')];
    for (let i = 0; i < ladder.length; i++) {
      for (let j = 0; j < ladder.length; j++) {
        expect(compareThreeCard(ladder[i], ladder[j])).toBe(Math.sign(i - j) || 0);
      }
    }
    // the best of a category still loses to the worst of the next one
    expect(compareThreeCard(h('AS AH KD'), h('2H 3H 5H'))).toBe(-1);
    expect(compareThreeCard(h('AH KH JH'), h('AC 2D 3H'))).toBe(-1);
    expect(compareThreeCard(h('AC KD QH'), h('2C 2D 2H'))).toBe(-1);
    expect(compareThreeCard(h('AS AH AD'), h('3C 2C AC'))).toBe(-1);
  });

  it('compares like the sheet (seed 004)', () => {
    expect(compareThreeCard(h('AC JH 2D'), h('AH TS 9S'))).toBe(1); // high card example
    expect(compareThreeCard(h('AH TS 9S'), h('AC JH 2D'))).toBe(-1);
    expect(compareThreeCard(h('AC JC 2C'), h('AH TH 9H'))).toBe(1); // flush example
    expect(compareThreeCard(h('AC JC 2C'), h('AD JD 2D'))).toBe(0);
    expect(compareThreeCard(h('TD 9D 8D'), h('9C 8C 7C'))).toBe(1);
    expect(compareThreeCard(h('TC 9D 8C'), h('TD 9C 8D'))).toBe(0);
    expect(compareThreeCard(h('AC AH 8D'), h('QS QD 2D'))).toBe(1);
    expect(compareThreeCard(h('AC AH 8D'), h('AS AD 2D'))).toBe(1);
    expect(compareThreeCard(h('AC AH 8D'), h('AS AD 8C'))).toBe(0);
    expect(compareThreeCard(h('KC 2H 3D'), h('KS 2D 3C'))).toBe(0); // suits never break ties
  });

  it('compares evaluated hands too', () => {
    expect(compareThreeCard(evaluateThreeCard(h('AC JH 2D')), evaluateThreeCard(h('AH TS 9S')))).toBe(1);
    expect(compareThreeCard(evaluateThreeCard(h('QS KS AS')), h('AH KH QH'))).toBe(0);
  });

  it('qualifier, pair plus and ante bonus helpers', () => {
    expect(threeCardQualifies(h('QC 6D 4H'))).toBe(true);
    expect(threeCardQualifies(h('JC TD 8H'))).toBe(false);
    expect(threeCardQualifies(h('2C 2D 3H'))).toBe(true);
    expect(threeCardQualifies(evaluateThreeCard(h('AC 3D 5H')))).toBe(true);
    expect(pairPlusCategory(h('2C 2D 3H'))).toBe('pair');
    expect(pairPlusCategory(h('AC KD 3H'))).toBeNull();
    expect(pairPlusCategory(h('AS KS QS'))).toBe('straight-flush');
    expect(anteBonusCategory(h('2C 3D 4H'))).toBe('straight');
    expect(anteBonusCategory(h('2H 5H 9H'))).toBeNull();
    expect(isAtLeastThree('straight', 'flush')).toBe(true);
    expect(isAtLeastThree('flush', 'straight')).toBe(false);
  });

  it('rejects bad input', () => {
    expect(() => evaluateThreeCard(h('AC JH'))).toThrow(RangeError);
    expect(() => evaluateThreeCard(h('AC JH 1D'))).toThrow(RangeError);
    expect(() => evaluateThreeCard(h('AC JH 2X'))).toThrow(RangeError);
  });

  it('counts every category over all C(52,3) = 22100 hands', () => {
    const counts: Record<string, number> = {};
    let miniRoyals = 0;
    let total = 0;
    for (const hand of combos(DECK, 3)) {
      const e = evaluateThreeCard(hand);
      counts[e.category] = (counts[e.category] ?? 0) + 1;
      if (e.miniRoyal) miniRoyals++;
      total++;
    }
    expect(total).toBe(22100);
    expect(counts).toEqual({
      'straight-flush': 48,
      'three-of-a-kind': 52,
      straight: 720,
      flush: 1096,
      pair: 3744,
      'high-card': 16440,
    });
    expect(miniRoyals).toBe(4);
  });

  it('agrees with a naive reference on every hand, and its score order matches', () => {
    const all = [...combos(DECK, 3)];
    for (const hand of all) expect(evaluateThreeCard(hand)).toMatchObject(naiveThree(hand));
    // distinct hand values: 22100 hands collapse to a known number of equivalence classes
    const scores = new Set(all.map(scoreThreeCard));
    // straight flushes 12 (tops 3..A) + trips 13 + straights 12 + flushes and high cards
    // C(13,3) - 12 = 274 each + pairs 13 * 12 = 741 distinct hand values
    expect(scores.size).toBe(12 + 13 + 12 + 274 + 274 + 13 * 12);
  });

  it('properties: antisymmetric, suit-relabelling invariant, order-independent', () => {
    fc.assert(
      fc.property(cardsArb(3), cardsArb(3), (a, b) => {
        expect(compareThreeCard(a, b)).toBe(-compareThreeCard(b, a) || 0);
        expect(compareThreeCard(a, a)).toBe(0);
        expect(compareThreeCard(a, b)).toBe(naiveCompareThree(naiveThree(a), naiveThree(b)));
      }),
      { numRuns: 2000 },
    );
    const relabel = fc.shuffledSubarray(['S', 'H', 'D', 'C'], { minLength: 4, maxLength: 4 });
    fc.assert(
      fc.property(cardsArb(3), relabel, (a, perm) => {
        const map: Record<string, string> = { S: perm[0], H: perm[1], D: perm[2], C: perm[3] };
        const b = a.map((c) => (c[0] + map[c[1]]) as Card).reverse();
        expect(scoreThreeCard(b)).toBe(scoreThreeCard(a));
      }),
      { numRuns: 1000 },
    );
  });
});

function naiveCompareThree(a: { category: string; ranks: number[] }, b: { category: string; ranks: number[] }): number {
  const ca = THREE_CARD_CATEGORIES.indexOf(a.category as ThreeCardCategory);
  const cb = THREE_CARD_CATEGORIES.indexOf(b.category as ThreeCardCategory);
  if (ca !== cb) return Math.sign(ca - cb);
  for (let i = 0; i < a.ranks.length; i++) if (a.ranks[i] !== b.ranks[i]) return Math.sign(a.ranks[i] - b.ranks[i]);
  return 0;
}

// ---------------------------------------------------------------------------------------------
// Five-card poker, best five of six / seven
// ---------------------------------------------------------------------------------------------

describe('evaluateFive', () => {
  it('classifies the rule sheet examples (seeds 000/004)', () => {
    expect(evaluateFive(h('AD KD QD JD TD'))).toEqual({ category: 'royal-flush', ranks: [14] });
    expect(evaluateFive(h('JC TC 9C 8C 7C'))).toEqual({ category: 'straight-flush', ranks: [11] });
    expect(evaluateFive(h('AC AH AD AS JH'))).toEqual({ category: 'four-of-a-kind', ranks: [14, 11] });
    expect(evaluateFive(h('KC KH KD AS AH'))).toEqual({ category: 'full-house', ranks: [13, 14] });
    expect(evaluateFive(h('JH 8H 6H 5H 2H'))).toEqual({ category: 'flush', ranks: [11, 8, 6, 5, 2] });
    expect(evaluateFive(h('9C 8D 7C 6H 5S'))).toEqual({ category: 'straight', ranks: [9] });
    expect(evaluateFive(h('TS TH TC 6H 3D'))).toEqual({ category: 'three-of-a-kind', ranks: [10, 6, 3] });
    expect(evaluateFive(h('QS QH 6C 6H 3D'))).toEqual({ category: 'two-pair', ranks: [12, 6, 3] });
    expect(evaluateFive(h('AC AH 8D 6H 5S'))).toEqual({ category: 'pair', ranks: [14, 8, 6, 5] });
    expect(evaluateFive(h('QC TH 6D 5S 2H'))).toEqual({ category: 'high-card', ranks: [12, 10, 6, 5, 2] });
  });

  it('straight boundaries: wheel, steel wheel, broadway, royal, no wrap-around', () => {
    expect(evaluateFive(h('5H 4C 3H 2D AS'))).toEqual({ category: 'straight', ranks: [5] });
    expect(evaluateFive(h('5H 4H 3H 2H AH'))).toEqual({ category: 'straight-flush', ranks: [5] });
    expect(evaluateFive(h('AS KD QH JC TS'))).toEqual({ category: 'straight', ranks: [14] });
    expect(evaluateFive(h('TS JS QS KS AS'))).toEqual({ category: 'royal-flush', ranks: [14] });
    expect(evaluateFive(h('KS QS JS TS 9S'))).toEqual({ category: 'straight-flush', ranks: [13] });
    expect(evaluateFive(h('6H 5C 4H 3D 2S'))).toEqual({ category: 'straight', ranks: [6] });
    expect(evaluateFive(h('4D 3D 2D AD KD'))).toEqual({ category: 'flush', ranks: [14, 13, 4, 3, 2] });
    expect(evaluateFive(h('2C AD KH QS JD'))).toEqual({ category: 'high-card', ranks: [14, 13, 12, 11, 2] });
    expect(compareHands(h('5H 4C 3H 2D AS'), h('6H 5C 4H 3D 2S'))).toBe(-1); // wheel is the lowest straight
    expect(compareHands(h('5H 4C 3H 2D AS'), h('AS AC AD KH QH'))).toBe(1);
    expect(compareHands(h('5H 4H 3H 2H AH'), h('AC AD AH AS KH'))).toBe(1); // steel wheel beats quads
    expect(compareHands(h('5H 4H 3H 2H AH'), h('6D 5D 4D 3D 2D'))).toBe(-1);
    expect(compareHands(h('AD KD QD JD TD'), h('KS QS JS TS 9S'))).toBe(1);
    expect(compareHands(h('AD KD QD JD TD'), h('AS KS QS JS TS'))).toBe(0);
  });

  it('compares like the sheet (seed 000)', () => {
    expect(compareHands(h('3C 3D 3H 3S AH'), h('4C 4D 4H 4S 2H'))).toBe(-1);
    expect(compareHands(h('9C 9D 9H 4S 4H'), h('8C 8D 8H AS AH'))).toBe(1);
    expect(compareHands(h('JC JD 2H 2S 4H'), h('TC TD 9H 9S 8H'))).toBe(1);
    expect(compareHands(h('8C 8D 6H 6S 3H'), h('8H 8S 5C 5D KH'))).toBe(1);
    expect(compareHands(h('QC QD 5H 5S 8H'), h('QH QS 5C 5D 4H'))).toBe(1);
    expect(compareHands(h('6C 6D 4H 3S 2H'), h('5C 5D AH KS QH'))).toBe(1);
    expect(compareHands(h('JH 8H 6H 5H 2H'), h('JS 8S 6S 5S 3S'))).toBe(-1);
    expect(compareHands(h('JH 8H 6H 5H 2H'), h('JS 8S 6S 5S 2S'))).toBe(0); // suits never break ties
    expect(compareHands(h('AC KD 9H 7S 3H'), h('AD KC 9S 7H 2H'))).toBe(1);
  });

  it('kicker example: A-K vs A-Q on a 2-4-6-8-A board, the K kicker wins', () => {
    const board = h('2C 4D 6H 8S AC');
    const player = [...h('AH KS'), ...board];
    const dealer = [...h('AD QC'), ...board];
    expect(bestOfSeven(player)).toEqual({ category: 'pair', ranks: [14, 13, 8, 6] });
    expect(bestOfSeven(dealer)).toEqual({ category: 'pair', ranks: [14, 12, 8, 6] });
    expect(compareHands(player, dealer)).toBe(1);
  });

  it('best of seven picks the right five', () => {
    // flush and straight coexist -> flush
    expect(bestOfSeven(h('5H 6H 7C 8H 9D KH 2H'))).toEqual({ category: 'flush', ranks: [13, 8, 6, 5, 2] });
    // straight flush beats the higher plain straight on the same board
    expect(bestOfSeven(h('4H 5H 6H 7H 8H 9C TC'))).toEqual({ category: 'straight-flush', ranks: [8] });
    // six suited cards in a row: the highest straight flush
    expect(bestOfSeven(h('4H 5H 6H 7H 8H 9H 2C'))).toEqual({ category: 'straight-flush', ranks: [9] });
    expect(bestOfSeven(h('AS KS QS JS TS 9S 8S'))).toEqual({ category: 'royal-flush', ranks: [14] });
    // steel wheel with a 6 of another suit: a 6-high straight exists but the wheel flush wins
    expect(bestOfSeven(h('AH 2H 3H 4H 5H 6C KD'))).toEqual({ category: 'straight-flush', ranks: [5] });
    // wheel plus 6: the 6-high straight
    expect(bestOfSeven(h('AH 2C 3H 4D 5S 6C KD'))).toEqual({ category: 'straight', ranks: [6] });
    // two trips -> full house with the higher trips
    expect(bestOfSeven(h('KS KH KD 7C 7D 7H 2S'))).toEqual({ category: 'full-house', ranks: [13, 7] });
    expect(bestOfSeven(h('7C 7D 7H KS KH KD 2S'))).toEqual({ category: 'full-house', ranks: [13, 7] });
    // trips + two pairs -> the higher pair
    expect(bestOfSeven(h('5S 5H 5D 9C 9D QC QH'))).toEqual({ category: 'full-house', ranks: [5, 12] });
    // full house beats a straight on the same seven cards
    // trips + straight -> straight (no pair to make a full house)
    expect(bestOfSeven(h('5S 5H 5D 6C 7D 8C 9H'))).toEqual({ category: 'straight', ranks: [9] });
    expect(bestOfSeven(h('5S 5H 5D 6C 7D 8C 8H'))).toEqual({ category: 'full-house', ranks: [5, 8] });
    // trips + straight -> straight
    expect(bestOfSeven(h('5S 5H 5D 6C 7D 8C 4H'))).toEqual({ category: 'straight', ranks: [8] });
    // three pairs -> top two pairs, best remaining card as kicker (may come from the third pair)
    expect(bestOfSeven(h('AS AH KS KD QC QD 2H'))).toEqual({ category: 'two-pair', ranks: [14, 13, 12] });
    expect(bestOfSeven(h('AS AH KS KD 3C 3D 2H'))).toEqual({ category: 'two-pair', ranks: [14, 13, 3] });
    // quads + trips -> quads with the best kicker
    expect(bestOfSeven(h('9S 9H 9D 9C 3S 3H 3D'))).toEqual({ category: 'four-of-a-kind', ranks: [9, 3] });
    expect(bestOfSeven(h('9S 9H 9D 9C 3S 3H AD'))).toEqual({ category: 'four-of-a-kind', ranks: [9, 14] });
    // trips: two best kickers
    expect(bestOfSeven(h('9S 9H 9D 2C 3S KH QD'))).toEqual({ category: 'three-of-a-kind', ranks: [9, 13, 12] });
    // pair: three best kickers; high card: five best
    expect(bestOfSeven(h('9S 9H 2D 4C 7S KH QD'))).toEqual({ category: 'pair', ranks: [9, 13, 12, 7] });
    expect(bestOfSeven(h('9S 2H 4D 6C 7S KH QD'))).toEqual({ category: 'high-card', ranks: [13, 12, 9, 7, 6] });
    // board plays
    expect(compareHands(h('2C 3D AS KS QS JS TS'), h('4C 5D AS KS QS JS TS'))).toBe(0);
  });

  it('best of six (6 Card Bonus)', () => {
    expect(bestOfSix(h('AH KH 9H 7H 4H 2H'))).toEqual({ category: 'flush', ranks: [14, 13, 9, 7, 4] });
    expect(bestOfSix(h('AH 2C 3H 4D 5S 6C'))).toEqual({ category: 'straight', ranks: [6] });
    expect(bestOfSix(h('TS TH TC 6H 3D 3C'))).toEqual({ category: 'full-house', ranks: [10, 3] });
    expect(bestOfSix(h('TS TH 6C 6H 3D 3C'))).toEqual({ category: 'two-pair', ranks: [10, 6, 3] });
    expect(isAtLeastFive(bestOfSix(h('TS TH TC 6H 3D 2C')).category, 'three-of-a-kind')).toBe(true);
    expect(isAtLeastFive(bestOfSix(h('TS TH 6C 6H 3D 2C')).category, 'three-of-a-kind')).toBe(false);
  });

  it('bestFive accepts 5..7 cards; the fixed-size functions check their size', () => {
    expect(bestFive(h('AD KD QD JD TD'))).toEqual(evaluateFive(h('AD KD QD JD TD')));
    expect(() => bestFive(h('AD KD QD JD'))).toThrow(RangeError);
    expect(() => bestFive(h('AD KD QD JD TD 9D 8D 7D'))).toThrow(RangeError);
    expect(() => evaluateFive(h('AD KD QD JD TD 9D'))).toThrow(RangeError);
    expect(() => bestOfSix(h('AD KD QD JD TD'))).toThrow(RangeError);
    expect(() => bestOfSeven(h('AD KD QD JD TD 9D'))).toThrow(RangeError);
    expect(() => scoreBest(h('AD KD QD JD ZZ'))).toThrow(RangeError);
    expect(() => scoreBest(['AD', 'KD', 'QD', 'JD', 'TDX'] as Card[])).toThrow(RangeError);
    expect(() => scoreBest(['AD', 'KD', 'QD', 'JD', 'td'] as Card[])).toThrow(RangeError);
  });

  it('scores round-trip through hands; the integer-id path agrees', () => {
    const hand = h('QS QH 6C 6H 3D');
    const s = scoreBest(hand);
    expect(handToScore(scoreToHand(s))).toBe(s);
    expect(scoreBestIds(hand.map(cardId))).toBe(s);
    expect(compareHands(evaluateFive(hand), h('QD QC 6S 6D 2D'))).toBe(1);
  });

  it('counts every category over all C(52,5) = 2598960 hands', () => {
    const counts = new Array<number>(10).fill(0);
    const hand: Card[] = new Array(5);
    const n = DECK.length;
    let total = 0;
    for (let a = 0; a < n; a++) {
      hand[0] = DECK[a];
      for (let b = a + 1; b < n; b++) {
        hand[1] = DECK[b];
        for (let c = b + 1; c < n; c++) {
          hand[2] = DECK[c];
          for (let d = c + 1; d < n; d++) {
            hand[3] = DECK[d];
            for (let e = d + 1; e < n; e++) {
              hand[4] = DECK[e];
              counts[scoreBest(hand) >>> 20]++;
              total++;
            }
          }
        }
      }
    }
    expect(total).toBe(2598960);
    const byName = Object.fromEntries(FIVE_CARD_CATEGORIES.map((c, i) => [c, counts[i]]));
    expect(byName).toEqual({
      'royal-flush': 4,
      'straight-flush': 36,
      'four-of-a-kind': 624,
      'full-house': 3744,
      flush: 5108,
      straight: 10200,
      'three-of-a-kind': 54912,
      'two-pair': 123552,
      pair: 1098240,
      'high-card': 1302540,
    });
  });

  it('agrees with a naive reference evaluator (random five-card hands)', () => {
    fc.assert(
      fc.property(cardsArb(5), cardsArb(5), (a, b) => {
        expect(evaluateFive(a)).toEqual(naiveFive(a));
        expect(compareHands(a, b)).toBe(naiveCompare(naiveFive(a), naiveFive(b)) || 0);
      }),
      { numRuns: 5000 },
    );
  });

  it('best of seven >= every five-card subset and equals the best one', () => {
    fc.assert(
      fc.property(cardsArb(7), (seven) => {
        const best = scoreBest(seven);
        let max = -1;
        for (const five of combos(seven, 5)) {
          const s = scoreBest(five);
          expect(best).toBeGreaterThanOrEqual(s);
          if (s > max) max = s;
        }
        expect(best).toBe(max);
      }),
      { numRuns: 1500 },
    );
  });

  it('best of six equals the best of its six five-card subsets', () => {
    fc.assert(
      fc.property(cardsArb(6), (six) => {
        let max = -1;
        for (const five of combos(six, 5)) max = Math.max(max, scoreBest(five));
        expect(scoreBest(six)).toBe(max);
      }),
      { numRuns: 1500 },
    );
  });

  it('compareHands is antisymmetric and order-independent', () => {
    fc.assert(
      fc.property(cardsArb(7), cardsArb(7), (a, b) => {
        expect(compareHands(a, b)).toBe(-compareHands(b, a) || 0);
        expect(compareHands(a, [...a].reverse())).toBe(0);
        expect(compareHands(bestOfSeven(a), b)).toBe(compareHands(a, b));
      }),
      { numRuns: 2000 },
    );
  });
});
