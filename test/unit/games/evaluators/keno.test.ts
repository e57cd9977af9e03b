import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { kenoElement, kenoOutcome } from '../../../../src/core/games/evaluators/keno.js';

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('kenoOutcome', () => {
  it('the seed example draw (sum 693)', () => {
    const balls = [1, 4, 5, 10, 11, 13, 20, 27, 30, 32, 33, 36, 40, 47, 54, 59, 61, 64, 67, 79];
    expect(kenoOutcome(balls)).toEqual({
      sum: 693,
      bigSmall: 'small',
      sumOddEven: 'odd', // last digit 3
      oddEvenCount: 'odd', // 11 odd vs 9 even
      upDown: 'up', // 13 balls in 1-40 ("heads") vs 7 in 41-80
      element: 'gold', // 210-695
    });
    expect(kenoOutcome([...balls].reverse())).toEqual(kenoOutcome(balls)); // draw order does not matter
  });

  it('sum exactly 810, and the ties', () => {
    expect(kenoOutcome(range(31, 50))).toEqual({
      sum: 810,
      bigSmall: '810',
      sumOddEven: 'even',
      oddEvenCount: 'tie',
      upDown: 'tie',
      element: 'water',
    });
  });

  it('the extremes: 1..20 and 61..80', () => {
    expect(kenoOutcome(range(1, 20))).toEqual({ sum: 210, bigSmall: 'small', sumOddEven: 'even', oddEvenCount: 'tie', upDown: 'up', element: 'gold' });
    expect(kenoOutcome(range(61, 80))).toEqual({ sum: 1410, bigSmall: 'big', sumOddEven: 'even', oddEvenCount: 'tie', upDown: 'down', element: 'earth' });
    const odds = range(1, 40).filter((b) => b % 2 === 1);
    expect(kenoOutcome(odds)).toMatchObject({ sum: 400, oddEvenCount: 'odd', upDown: 'up' });
    const evens = range(41, 80).filter((b) => b % 2 === 0);
    expect(kenoOutcome(evens)).toMatchObject({ oddEvenCount: 'even', upDown: 'down' });
  });

  it('element boundaries', () => {
    expect([695, 696, 763, 764, 855, 856, 923, 924].map(kenoElement)).toEqual(['gold', 'wood', 'wood', 'water', 'water', 'fire', 'fire', 'earth']);
    expect(kenoElement(210)).toBe('gold');
    expect(kenoElement(1410)).toBe('earth');
  });

  it('rejects invalid draws', () => {
    expect(() => kenoOutcome(range(1, 19))).toThrow(RangeError);
    expect(() => kenoOutcome([...range(1, 19), 81])).toThrow(RangeError);
    expect(() => kenoOutcome([...range(1, 19), 0])).toThrow(RangeError);
    expect(() => kenoOutcome([...range(1, 19), 19])).toThrow(RangeError);
  });

  it('property: fields agree with their definitions', () => {
    const draw = fc.shuffledSubarray(range(1, 80), { minLength: 20, maxLength: 20 });
    fc.assert(
      fc.property(draw, (balls) => {
        const o = kenoOutcome(balls);
        expect(o.sum).toBe(balls.reduce((a, b) => a + b, 0));
        expect(o.bigSmall).toBe(o.sum > 810 ? 'big' : o.sum < 810 ? 'small' : '810');
        expect(o.sumOddEven).toBe(Number(String(o.sum).slice(-1)) % 2 ? 'odd' : 'even');
        const up = balls.filter((b) => b <= 40).length;
        expect(o.upDown).toBe(up > 10 ? 'up' : up < 10 ? 'down' : 'tie');
        const odd = balls.filter((b) => b % 2).length;
        expect(o.oddEvenCount).toBe(odd > 10 ? 'odd' : odd < 10 ? 'even' : 'tie');
      }),
      { numRuns: 1000 },
    );
  });
});
