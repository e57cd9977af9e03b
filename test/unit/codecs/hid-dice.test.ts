import { describe, it, expect } from 'vitest';
import { decodeHidDiceReport, encodeHidDiceReport, hidDiceChecksum, HID_DICE_SEQ_MODULUS } from '../../../drivers/codecs/hid-dice.js';
import { SeqTracker } from '../../../drivers/codecs/seq-tracker.js';

const bytes = (...b: number[]) => Buffer.from(b);

describe('HID dice reports', () => {
  it('decodes a ROLL from reference bytes (checksum 1+5+3+5+6+12+0 = 32)', () => {
    expect(decodeHidDiceReport(bytes(0x01, 5, 3, 5, 6, 12, 0, 0x20))).toEqual({ talker: 'DICE', seq: 5, type: 'ROLL', dice: [3, 5, 6], bounces: 12 });
  });

  it('decodes COCKED and NOREAD', () => {
    expect(decodeHidDiceReport(bytes(0x01, 6, 0, 0, 0, 0, 1, 8))).toEqual({ talker: 'DICE', seq: 6, type: 'COCKED' });
    expect(decodeHidDiceReport(bytes(0x01, 7, 0, 0, 0, 0, 2, 10))).toEqual({ talker: 'DICE', seq: 7, type: 'NOREAD' });
  });

  it('checksum is the byte sum mod 256', () => {
    // 1 + 250 + 6+6+6 + 99 + 0 = 368 -> 112
    const r = bytes(0x01, 250, 6, 6, 6, 99, 0, 112);
    expect(hidDiceChecksum(r)).toBe(112);
    expect(decodeHidDiceReport(r)).toMatchObject({ type: 'ROLL', seq: 250, dice: [6, 6, 6], bounces: 99 });
    expect(decodeHidDiceReport(bytes(0x01, 250, 6, 6, 6, 99, 0, 113))).toMatchObject({ reason: 'bad-checksum' });
    expect(decodeHidDiceReport(bytes(0x01, 5, 3, 5, 6, 12, 0, 0x21))).toMatchObject({ reason: 'bad-checksum' });
  });

  it('rejects wrong sizes and report ids as malformed', () => {
    expect(decodeHidDiceReport(bytes(0x01, 5, 3, 5, 6, 12, 0))).toMatchObject({ reason: 'malformed' });
    expect(decodeHidDiceReport(bytes(0x01, 5, 3, 5, 6, 12, 0, 0x20, 0))).toMatchObject({ reason: 'malformed' });
    expect(decodeHidDiceReport(bytes(0x02, 5, 3, 5, 6, 12, 0, 0x21))).toMatchObject({ reason: 'malformed' });
  });

  it('rejects dice outside 1..6, bounces > 99 and unknown status as bad-field', () => {
    expect(decodeHidDiceReport(encodeHidDiceReport({ seq: 1, dice: [0, 1, 1], bounces: 5 }))).toMatchObject({ reason: 'bad-field' });
    expect(decodeHidDiceReport(encodeHidDiceReport({ seq: 1, dice: [1, 7, 1], bounces: 5 }))).toMatchObject({ reason: 'bad-field' });
    expect(decodeHidDiceReport(encodeHidDiceReport({ seq: 1, dice: [1, 1, 1], bounces: 100 }))).toMatchObject({ reason: 'bad-field' });
    expect(decodeHidDiceReport(encodeHidDiceReport({ seq: 1, dice: [1, 1, 1], status: 3 }))).toMatchObject({ reason: 'bad-field' });
  });

  it('encodeHidDiceReport builds the reference bytes', () => {
    expect([...encodeHidDiceReport({ seq: 5, dice: [3, 5, 6], bounces: 12 })]).toEqual([0x01, 5, 3, 5, 6, 12, 0, 0x20]);
    expect([...encodeHidDiceReport({ seq: 6, status: 1 })]).toEqual([0x01, 6, 0, 0, 0, 0, 1, 8]);
    expect([...encodeHidDiceReport({ seq: 5, dice: [3, 5, 6], bounces: 12, checksum: 0 })]).toEqual([0x01, 5, 3, 5, 6, 12, 0, 0]);
    expect(() => encodeHidDiceReport({ seq: 1, bounces: 256 })).toThrow(RangeError);
  });

  it('seq wraps at 255 (track with modulus 256)', () => {
    const t = new SeqTracker(HID_DICE_SEQ_MODULUS);
    const seqs = [254, 255, 0, 1].map((seq) => {
      const f = decodeHidDiceReport(encodeHidDiceReport({ seq, dice: [1, 2, 3], bounces: 4 }));
      return 'seq' in f ? t.check(f.seq).kind : 'reject';
    });
    expect(seqs).toEqual(['first', 'ok', 'ok', 'ok']);
  });
});
