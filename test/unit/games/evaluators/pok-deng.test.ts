import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { oneDeck, rankOf, type Card } from '../../../../src/core/vocabulary/card.js';
import { pokDengHand, pokDengVersus, type PokDengOptions } from '../../../../src/core/games/evaluators/pok-deng.js';

const h = (s: string): Card[] => s.split(' ') as Card[];

describe('pokDengHand', () => {
  it('points are the last digit of the two-card sum (seed: 8 + 7 = 15 -> 5)', () => {
    expect(pokDengHand(h('8S 7H'))).toEqual({ points: 5, pok: false, pair: false, flush: false, deng: 1 });
    expect(pokDengHand(h('TS KH'))).toEqual({ points: 0, pok: false, pair: false, flush: false, deng: 1 });
    expect(pokDengHand(h('AS 6D'))).toEqual({ points: 7, pok: false, pair: false, flush: false, deng: 1 });
  });

  it('pok = 8 or 9 with two cards; deng 2 for a pair or a flush', () => {
    expect(pokDengHand(h('9H KD'))).toEqual({ points: 9, pok: true, pair: false, flush: false, deng: 1 });
    expect(pokDengHand(h('4S 4H'))).toEqual({ points: 8, pok: true, pair: true, flush: false, deng: 2 });
    expect(pokDengHand(h('4H 5H'))).toEqual({ points: 9, pok: true, pair: false, flush: true, deng: 2 });
    expect(pokDengHand(h('KS KH'))).toEqual({ points: 0, pok: false, pair: true, flush: false, deng: 2 });
    expect(pokDengHand(h('KS QS'))).toEqual({ points: 0, pok: false, pair: false, flush: true, deng: 2 });
    expect(pokDengHand(h('KS QH')).pair).toBe(false); // same value, not the same rank
    expect(pokDengHand(h('7H 7H'))).toMatchObject({ pair: true, flush: true, deng: 2 }); // 8 decks
  });

  it('rejects anything but two cards', () => {
    expect(() => pokDengHand(h('9H'))).toThrow(RangeError);
    expect(() => pokDengHand(h('9H 2C 3D'))).toThrow(RangeError);
  });
});

describe('pokDengVersus', () => {
  it('higher points win at 1 when the winner has no pair/flush', () => {
    expect(pokDengVersus(h('3S 4H'), h('9C 6D'))).toEqual({ outcome: 'win', multiplier: 1 }); // 7 vs 5
    expect(pokDengVersus(h('9C 6D'), h('3S 4H'))).toEqual({ outcome: 'lose', multiplier: 1 });
  });

  it('note 4: the player winning with a pair or a flush -> 2', () => {
    expect(pokDengVersus(h('3S 3H'), h('9C 5D'))).toEqual({ outcome: 'win', multiplier: 2 }); // pair 6 vs 4
    expect(pokDengVersus(h('2H 5H'), h('9C 5D'))).toEqual({ outcome: 'win', multiplier: 2 }); // flush 7 vs 4
  });

  it('note 5: banker on 0 or 6 -> the player wins at 1 even with a pair or flush', () => {
    expect(pokDengVersus(h('2H 5H'), h('KC 6D'))).toEqual({ outcome: 'win', multiplier: 1 }); // flush 7 vs 6
    expect(pokDengVersus(h('3S 3H'), h('TC KD'))).toEqual({ outcome: 'win', multiplier: 1 }); // pair 6 vs 0
    expect(pokDengVersus(h('3S 3H'), h('KC KD'))).toEqual({ outcome: 'win', multiplier: 1 }); // banker pair on 0
  });

  it('note 6: a pok (8/9) with a pair or flush still wins 2 against a banker on 0 or 6', () => {
    expect(pokDengVersus(h('4S 4H'), h('KC 6D'))).toEqual({ outcome: 'win', multiplier: 2 });
    expect(pokDengVersus(h('4H 5H'), h('TC KD'))).toEqual({ outcome: 'win', multiplier: 2 });
    // a pok without pair/flush is an ordinary win
    expect(pokDengVersus(h('9H KD'), h('TC KS'))).toEqual({ outcome: 'win', multiplier: 1 });
    expect(pokDengVersus(h('9H KD'), h('2C 3D'))).toEqual({ outcome: 'win', multiplier: 1 });
  });

  it('note 3: the banker winning with a pair or a flush -> the player loses 2', () => {
    expect(pokDengVersus(h('AC 2D'), h('7C 7D'))).toEqual({ outcome: 'lose', multiplier: 2 }); // 3 vs pair 4
    expect(pokDengVersus(h('AC 2D'), h('3S 5S'))).toEqual({ outcome: 'lose', multiplier: 2 }); // 3 vs flush 8
    expect(pokDengVersus(h('KC 6D'), h('4S 4H'))).toEqual({ outcome: 'lose', multiplier: 2 }); // player on 6: no exception for the banker
    expect(pokDengVersus(h('KC TD'), h('3S 3H'))).toEqual({ outcome: 'lose', multiplier: 2 }); // player on 0 either
  });

  it('equal points tie (pairs and flushes do not break ties); pok 9 beats pok 8', () => {
    expect(pokDengVersus(h('2C 2D'), h('9C 5D'))).toEqual({ outcome: 'tie', multiplier: 0 });
    expect(pokDengVersus(h('4H 5H'), h('9C KD'))).toEqual({ outcome: 'tie', multiplier: 0 });
    expect(pokDengVersus(h('9C KD'), h('4S 4H'))).toEqual({ outcome: 'win', multiplier: 1 });
    expect(pokDengVersus(h('4S 4H'), h('9C KD'))).toEqual({ outcome: 'lose', multiplier: 1 });
    expect(pokDengVersus(h('4S 4H'), h('7C KD'))).toEqual({ outcome: 'win', multiplier: 2 }); // pok beats a 7
  });

  it('accepts evaluated hands', () => {
    expect(pokDengVersus(pokDengHand(h('3S 3H')), pokDengHand(h('9C 5D')))).toEqual({ outcome: 'win', multiplier: 2 });
  });

  it('config special hands rank between 7 and 8 points and pay 2 when they win', () => {
    const opts: PokDengOptions = { isSpecial: (c) => rankOf(c[0]) === 'A' && rankOf(c[1]) === 'K' };
    const special = pokDengHand(h('AS KD'), opts);
    expect(special).toEqual({ points: 1, pok: false, pair: false, flush: false, deng: 1, special: true });
    expect(pokDengHand(h('AS KD'))).not.toHaveProperty('special');
    expect(pokDengVersus(special, pokDengHand(h('3C 4D')))).toEqual({ outcome: 'win', multiplier: 2 }); // vs 7
    expect(pokDengVersus(special, pokDengHand(h('3C 5D')))).toEqual({ outcome: 'lose', multiplier: 1 }); // vs pok 8
    expect(pokDengVersus(special, pokDengHand(h('3C 3D')))).toEqual({ outcome: 'win', multiplier: 1 }); // banker on 6
    expect(pokDengVersus(h('3C 4D'), h('AD KS'), opts)).toEqual({ outcome: 'lose', multiplier: 2 });
    expect(pokDengVersus(h('AC KC'), h('AD KS'), opts)).toEqual({ outcome: 'tie', multiplier: 0 });
  });

  it('properties: outcome follows points; a swap mirrors it; multiplier 0 exactly on ties', () => {
    const arb = fc.shuffledSubarray(oneDeck(), { minLength: 4, maxLength: 4 });
    fc.assert(
      fc.property(arb, (four) => {
        const p = four.slice(0, 2);
        const b = four.slice(2);
        const r = pokDengVersus(p, b);
        const pp = pokDengHand(p).points;
        const bp = pokDengHand(b).points;
        expect(r.outcome).toBe(pp > bp ? 'win' : pp < bp ? 'lose' : 'tie');
        expect(r.multiplier === 0).toBe(r.outcome === 'tie');
        const s = pokDengVersus(b, p);
        expect(s.outcome).toBe(r.outcome === 'win' ? 'lose' : r.outcome === 'lose' ? 'win' : 'tie');
        // the 2x of a win by the banker and the 2x of a loss by the player mirror each other,
        // except for the banker-on-0/6 exception which only applies to the player's win
        if (r.outcome === 'lose') expect(r.multiplier).toBe(pokDengHand(b).deng);
      }),
      { numRuns: 2000 },
    );
  });
});
