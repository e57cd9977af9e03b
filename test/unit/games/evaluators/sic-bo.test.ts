import { describe, expect, it } from 'vitest';
import { sicBoOutcome } from '../../../../src/core/games/evaluators/sic-bo.js';

describe('sicBoOutcome', () => {
  it('three different faces', () => {
    expect(sicBoOutcome([3, 1, 2])).toEqual({
      total: 6,
      size: 'small',
      triple: null,
      doubles: [],
      combinations: [
        [1, 2],
        [1, 3],
        [2, 3],
      ],
      faceCounts: { '1': 1, '2': 1, '3': 1, '4': 0, '5': 0, '6': 0 },
    });
  });

  it('a double', () => {
    expect(sicBoOutcome([6, 2, 6])).toEqual({
      total: 14,
      size: 'big',
      triple: null,
      doubles: [6],
      combinations: [[2, 6]],
      faceCounts: { '1': 0, '2': 1, '3': 0, '4': 0, '5': 0, '6': 2 },
    });
  });

  it('a triple: no small/big, the face is a triple and a double', () => {
    expect(sicBoOutcome([4, 4, 4])).toEqual({
      total: 12,
      size: null,
      triple: 4,
      doubles: [4],
      combinations: [],
      faceCounts: { '1': 0, '2': 0, '3': 0, '4': 3, '5': 0, '6': 0 },
    });
    expect(sicBoOutcome([1, 1, 1]).size).toBeNull();
    expect(sicBoOutcome([6, 6, 6]).size).toBeNull();
  });

  it('small is 4-10 and big 11-17', () => {
    expect(sicBoOutcome([1, 1, 2]).size).toBe('small'); // 4
    expect(sicBoOutcome([3, 3, 4]).size).toBe('small'); // 10
    expect(sicBoOutcome([5, 5, 1]).size).toBe('big'); // 11
    expect(sicBoOutcome([6, 6, 5]).size).toBe('big'); // 17
  });

  it('over all 216 rolls: counts add up and the shapes hold', () => {
    let triples = 0;
    let small = 0;
    let big = 0;
    for (let a = 1; a <= 6; a++)
      for (let b = 1; b <= 6; b++)
        for (let c = 1; c <= 6; c++) {
          const o = sicBoOutcome([a, b, c]);
          expect(o.total).toBe(a + b + c);
          expect(Object.values(o.faceCounts).reduce((x, y) => x + y, 0)).toBe(3);
          const distinct = new Set([a, b, c]).size;
          expect(o.combinations).toHaveLength((distinct * (distinct - 1)) / 2);
          expect(o.doubles).toHaveLength(distinct === 3 ? 0 : 1);
          if (o.triple !== null) triples++;
          if (o.size === 'small') small++;
          if (o.size === 'big') big++;
        }
    expect(triples).toBe(6);
    expect(small).toBe(105);
    expect(big).toBe(105);
  });

  it('rejects bad dice', () => {
    expect(() => sicBoOutcome([1, 2])).toThrow(RangeError);
    expect(() => sicBoOutcome([0, 2, 3])).toThrow(RangeError);
    expect(() => sicBoOutcome([7, 2, 3])).toThrow(RangeError);
    expect(() => sicBoOutcome([1.5, 2, 3])).toThrow(RangeError);
  });
});
