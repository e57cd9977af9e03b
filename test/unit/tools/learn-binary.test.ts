/**
 * The learner's binary steps (src/app/tools/learn/): frames that end by their length cut as the
 * decoder cuts them, a length field said as counting the payload, a card rule solved from fewer
 * than 52 known cards, and a one-byte SEQ widened to 16 bits.
 */
import { describe, expect, it } from 'vitest';
import { cardDecoder } from '../../../drivers/profiles/card-codes.js';
import { checkedLengthCandidates, payloadCounted, splitResync } from '../../../src/app/tools/learn/binary-framing.js';
import { checksum } from '../../../drivers/profiles/checksums.js';
import { describeFraming } from '../../../src/app/tools/learn/framing.js';
import { solveCardRule } from '../../../src/app/tools/learn/card-rule.js';
import type { Framing } from '../../../src/app/tools/learn/framing.js';
import { type Integrity, NONE } from '../../../src/app/tools/learn/integrity.js';
import { findSeq } from '../../../src/app/tools/learn/seq.js';

const sum = (b: number[]): number => b.reduce((a, x) => (a + x) & 0xff, 0);
/** 0xEB 0x90 <a> <b> <sum of a, b>: fixed length 5 behind a sync word */
const frame = (a: number, b: number): number[] => [0xeb, 0x90, a, b, sum([a, b])];
const fixed: Framing = { start: Buffer.of(0xeb, 0x90), trailer: 0, length: 5, resync: false, cost: 0 };
const sumOk = (fr: { inner: Buffer }): boolean => sum([fr.inner[0], fr.inner[1]]) === fr.inner[2];

describe('splitResync', () => {
  it('reads a frame cut short as a reject and finds the frame behind it', () => {
    const s = Buffer.from([...frame(1, 2), 0xeb, 0x90, 0x07, ...frame(3, 4), ...frame(5, 6)]);
    const got = splitResync(s, fixed, sumOk).map((f) => [...f.inner]);
    expect(got).toEqual([
      [1, 2, 3],
      [3, 4, 7],
      [5, 6, 11],
    ]);
  });
  it('takes a frame that verifies whole: a start sequence inside it is no new frame', () => {
    const s = Buffer.from([...frame(0xeb, 0x90), ...frame(1, 1)]);
    expect(splitResync(s, fixed, sumOk).map((f) => [...f.inner])).toEqual([
      [0xeb, 0x90, 0x7b],
      [1, 1, 2],
    ]);
  });
  it('reads a length field (the bytes after it, adjusted)', () => {
    const lf: Framing = {
      start: Buffer.of(0x5a),
      trailer: 0,
      lengthField: { offset: 1, width: 1, order: 'be', counts: 'following', adjust: 1 },
      resync: false,
      cost: 0,
    };
    // 0x5A <n> <n data bytes> <sum of the data>
    const f = (...d: number[]): number[] => [0x5a, d.length, ...d, sum(d)];
    const s = Buffer.from([...f(9, 9), 0x5a, 0x03, ...f(1, 2, 3)]);
    const ok = (fr: { inner: Buffer }): boolean => sum([...fr.inner.subarray(1, fr.inner.length - 1)]) === fr.inner[fr.inner.length - 1];
    expect(splitResync(s, lf, ok).map((x) => [...x.inner])).toEqual([
      [2, 9, 9, 18],
      [3, 1, 2, 3, 6],
    ]);
  });
});

describe('payloadCounted', () => {
  const crc: Integrity = { ...NONE, algorithm: 'crc16-modbus', encoding: 'binary-le', cost: 0 };
  const lf = (adjust: number): Framing => ({
    start: Buffer.of(0xf7),
    trailer: 0,
    lengthField: { offset: 2, width: 1, order: 'be', counts: 'following', adjust },
    resync: false,
    cost: 0,
  });
  it('says a length that counts up to a 2-byte check value as counting the payload', () => {
    expect(payloadCounted(lf(2), crc).lengthField).toMatchObject({ counts: 'payload', adjust: 0 });
  });
  it('leaves any other adjustment, or a frame without a check, as it is', () => {
    expect(payloadCounted(lf(1), crc).lengthField).toMatchObject({ counts: 'following', adjust: 1 });
    expect(payloadCounted(lf(2), NONE).lengthField).toMatchObject({ counts: 'following', adjust: 2 });
  });
});

describe('solveCardRule', () => {
  // suit in the high nibble (S 1, H 2, D 3, C 4), rank 1..13 in the low
  const nibble = (c: string): string => String(('_SHDC'.indexOf(c[1]) << 4) + 'A23456789TJQK'.indexOf(c[0]) + 1);
  const dealt = ['2C', 'KH', 'QH', '9H', 'KD', '9C', '2S', '2H', '3D', '3C', 'KS', '8D', '6H'];
  it('solves the 52 codes from fewer known cards, the ranks not dealt by the rule', () => {
    const r = solveCardRule(dealt.map(nibble), dealt, 255);
    expect(r).toBeDefined();
    const d = cardDecoder(r!.cards);
    for (const rank of 'A23456789TJQK') for (const suit of 'SHDC') expect(d(nibble(rank + suit))).toBe(rank + suit);
    expect(r!.unseenRanks).toEqual(['A', '4', '5', '7', 'T', 'J']);
  });
  it('finds no rule for codes that are no function of suit and rank, nor when a suit is missing', () => {
    const codes = dealt.map(nibble);
    codes[3] = String(Number(codes[3]) + 1);
    expect(solveCardRule(codes, dealt, 255)).toBeUndefined();
    const noClubs = dealt.filter((c) => c[1] !== 'C');
    expect(solveCardRule(noClubs.map(nibble), noClubs, 255)).toBeUndefined();
  });
  it('finds no rule whose codes do not fit the field', () => {
    expect(solveCardRule(dealt.map(nibble), dealt, 63)).toBeUndefined();
  });
});

describe('findSeq on binary frames', () => {
  const frames = (f: (seq: number) => number[]) => Array.from({ length: 12 }, (_, k) => ({ payload: Buffer.from(f(k + 1)) }));
  it('a counter with a 0 byte after it is a 16-bit little-endian SEQ', () => {
    expect(
      findSeq(
        frames((s) => [0x21, s, 0, 7]),
        false,
      ),
    ).toEqual({ at: 1, width: 2, order: 'le', wrap: 65535 });
  });
  it('a counter with a 0 byte before it is a 16-bit big-endian SEQ', () => {
    expect(
      findSeq(
        frames((s) => [0x04, 0, s, 9]),
        false,
      ),
    ).toEqual({ at: 1, width: 2, order: 'be', wrap: 65535 });
  });
  it('a counter between bytes that are not always 0 stays one byte', () => {
    expect(
      findSeq(
        frames((s) => [s % 3, s, 0x55]),
        false,
      ),
    ).toEqual({ at: 1, width: 1, order: 'be', wrap: 255 });
  });
});

describe('checkedLengthCandidates', () => {
  /** <0x11> <fn> <n> <n bytes> <CRC-16/MODBUS, low byte first> over all of it */
  const rtu = (fn: number, ...d: number[]): number[] => {
    const b = [0x11, fn, d.length, ...d];
    const c = checksum('crc16-modbus', b, 0, b.length);
    return [...b, c & 0xff, c >> 8];
  };
  const junk = [0x11, 0x03, 0x00, 0x6b, 0x00, 0x03, 0x76, 0x87];
  it('finds the length whose cut the check value verifies, with other traffic between the frames', () => {
    const s = Buffer.from([...junk, ...rtu(3, 1, 2), ...junk, ...rtu(3, 7, 7, 7, 7), ...junk, ...rtu(3, 0x11, 0), ...junk, ...rtu(3, 9)]);
    const found = checkedLengthCandidates(s).map(describeFraming);
    expect(found).toContain('start 0x11, length field at 2 (1 byte, following +2)');
  });
  it('finds none where no check value verifies', () => {
    const s = Buffer.from([...junk, 0x11, 0x03, 0x02, 1, 2, 0, 0, ...junk, 0x11, 0x03, 0x01, 5, 1, 1, ...junk, 0x11, 0x03, 0x01, 5, 2, 2]);
    expect(checkedLengthCandidates(s).filter((f) => f.start?.[0] === 0x11 && f.lengthField?.offset === 2 && f.lengthField.adjust === 2)).toEqual([]);
  });
});
