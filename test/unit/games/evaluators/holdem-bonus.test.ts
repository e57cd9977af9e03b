import { describe, expect, it } from 'vitest';
import { oneDeck, type Card } from '../../../../src/core/vocabulary/card.js';
import { bonusDealerAA, holdemBonus } from '../../../../src/core/games/evaluators/holdem-bonus.js';

const h = (s: string): Card[] => s.split(' ') as Card[];

describe('holdemBonus', () => {
  it('each category', () => {
    expect(holdemBonus(h('AS AH'))).toBe('aa');
    expect(holdemBonus(h('AS KS'))).toBe('ak-suited');
    expect(holdemBonus(h('KD AD'))).toBe('ak-suited');
    expect(holdemBonus(h('AH QH'))).toBe('aq-aj-suited');
    expect(holdemBonus(h('JC AC'))).toBe('aq-aj-suited');
    expect(holdemBonus(h('AS KH'))).toBe('ak-offsuit');
    expect(holdemBonus(h('KS KH'))).toBe('kk-qq-jj');
    expect(holdemBonus(h('QS QD'))).toBe('kk-qq-jj');
    expect(holdemBonus(h('JS JC'))).toBe('kk-qq-jj');
    expect(holdemBonus(h('AS QH'))).toBe('aq-aj-offsuit');
    expect(holdemBonus(h('JD AS'))).toBe('aq-aj-offsuit');
    expect(holdemBonus(h('TS TH'))).toBe('pair-2-10');
    expect(holdemBonus(h('2S 2H'))).toBe('pair-2-10');
    expect(holdemBonus(h('AS TS'))).toBeNull();
    expect(holdemBonus(h('KS QS'))).toBeNull();
    expect(holdemBonus(h('7S 2H'))).toBeNull();
    expect(() => holdemBonus(h('AS'))).toThrow(RangeError);
  });

  it('counts over all C(52,2) = 1326 starting hands', () => {
    const deck = oneDeck();
    const counts: Record<string, number> = {};
    for (let a = 0; a < 52; a++)
      for (let b = a + 1; b < 52; b++) {
        const k = String(holdemBonus([deck[a], deck[b]]));
        counts[k] = (counts[k] ?? 0) + 1;
      }
    expect(counts).toEqual({
      aa: 6,
      'ak-suited': 4,
      'aq-aj-suited': 8,
      'ak-offsuit': 12,
      'kk-qq-jj': 18,
      'aq-aj-offsuit': 24,
      'pair-2-10': 54,
      null: 1200,
    });
  });

  it('bonusDealerAA: player A-A and dealer A-A', () => {
    expect(bonusDealerAA(h('AS AH'), h('AD AC'))).toBe(true);
    expect(bonusDealerAA(h('AS AH'), h('AD KC'))).toBe(false);
    expect(bonusDealerAA(h('AS KH'), h('AD AC'))).toBe(false);
  });
});
