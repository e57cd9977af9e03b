import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoTime } from '../../../src/core/table/iso-time.js';

describe('isoTime (the envelope timestamp of a step)', () => {
  it('is toISOString of the same time, byte for byte, in any order of times', () => {
    const time = fc.oneof(
      fc.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 }), // years 0000..9999
      fc.double({ min: -1e13, max: 1e13, noNaN: true }), // fractional, negative
      fc.integer({ min: 1_764_633_600_000, max: 1_764_633_605_000 }), // many in the same second
    );
    fc.assert(
      fc.property(fc.array(time, { minLength: 1, maxLength: 50 }), (ats) => {
        for (const at of ats) expect(isoTime(at)).toBe(new Date(at).toISOString());
      }),
      { numRuns: 500 },
    );
  });

  it('writes years beyond 9999 and before 0 the way toISOString does, and throws like it on an invalid time', () => {
    for (const at of [253_402_300_800_000, -62_167_219_200_001, 8.64e15, -8.64e15]) expect(isoTime(at)).toBe(new Date(at).toISOString());
    expect(isoTime(1_000)).toBe('1970-01-01T00:00:01.000Z');
    for (const at of [Number.NaN, Number.POSITIVE_INFINITY, 8.64e15 + 1]) expect(() => isoTime(at)).toThrow(RangeError);
  });
});
