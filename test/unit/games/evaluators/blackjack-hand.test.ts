import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { oneDeck, type Card } from '../../../../src/core/vocabulary/card.js';
import { blackjackTotal, isBlackjack, perfectPairs } from '../../../../src/core/games/evaluators/blackjack-hand.js';

const h = (s: string): Card[] => s.split(' ') as Card[];

describe('blackjackTotal', () => {
  it('counts A as 1 or 11 and T/J/Q/K as 10', () => {
    expect(blackjackTotal(h('AS KD'))).toEqual({ total: 21, soft: true, bust: false });
    expect(blackjackTotal(h('AS AD'))).toEqual({ total: 12, soft: true, bust: false });
    expect(blackjackTotal(h('AS AD 9C'))).toEqual({ total: 21, soft: true, bust: false });
    expect(blackjackTotal(h('AS 5D'))).toEqual({ total: 16, soft: true, bust: false });
    expect(blackjackTotal(h('AS 6D KC'))).toEqual({ total: 17, soft: false, bust: false });
    expect(blackjackTotal(h('AS 6D'))).toEqual({ total: 17, soft: true, bust: false });
    expect(blackjackTotal(h('TS JD'))).toEqual({ total: 20, soft: false, bust: false });
    expect(blackjackTotal(h('KS QD 5C'))).toEqual({ total: 25, soft: false, bust: true });
    expect(blackjackTotal(h('KS QD AC'))).toEqual({ total: 21, soft: false, bust: false });
    expect(blackjackTotal(h('AS AD AC AH 2S 2D 3C 3H'))).toEqual({ total: 14, soft: false, bust: false }); // 8 cards, 24 if an ace were 11
    expect(blackjackTotal(h('AS AD 2C 2H'))).toEqual({ total: 16, soft: true, bust: false });
    expect(blackjackTotal([])).toEqual({ total: 0, soft: false, bust: false });
  });

  it('property: soft only with an ace counted 11; bust iff the hard total exceeds 21', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...oneDeck()), { minLength: 1, maxLength: 8 }), (cards) => {
        const t = blackjackTotal(cards);
        const hard = cards.reduce((s, c) => s + (c[0] === 'A' ? 1 : 'TJQK'.includes(c[0]) ? 10 : Number(c[0])), 0);
        expect(t.bust).toBe(hard > 21);
        expect(t.total).toBe(t.soft ? hard + 10 : hard);
        if (t.soft) expect(cards.some((c) => c[0] === 'A')).toBe(true);
        if (!t.bust) expect(t.total).toBeLessThanOrEqual(21);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('isBlackjack', () => {
  it('A + ten-value in the first two cards, not after a split', () => {
    expect(isBlackjack(h('AS KD'))).toBe(true);
    expect(isBlackjack(h('TD AH'))).toBe(true);
    expect(isBlackjack(h('AS KD'), true)).toBe(false);
    expect(isBlackjack(h('AS 5D 5C'))).toBe(false); // 21 in three cards
    expect(isBlackjack(h('AS 9D'))).toBe(false);
    expect(isBlackjack(h('AS AD'))).toBe(false);
  });
});

describe('perfectPairs', () => {
  it('perfect / colored / mixed / null (seed examples with fours)', () => {
    expect(perfectPairs('4D', '4D')).toBe('perfect');
    expect(perfectPairs('4D', '4H')).toBe('colored');
    expect(perfectPairs('4S', '4C')).toBe('colored');
    expect(perfectPairs('4D', '4S')).toBe('mixed');
    expect(perfectPairs('4H', '4C')).toBe('mixed');
    expect(perfectPairs('KD', 'QD')).toBeNull(); // both ten-value, but not a pair
    expect(perfectPairs('AS', '2S')).toBeNull();
  });
});
