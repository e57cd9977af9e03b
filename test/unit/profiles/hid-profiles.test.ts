/**
 * HID device profiles (device-protocols.md §2a, §2b) on real report bytes, written by encoders in
 * this file: the keyboard-wedge scanner profile and the §2b dice sensor as a report layout, the
 * latter checked report for report against drivers/codecs/hid-dice.ts.
 */
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DeviceFrame, FrameReject } from '../../../src/core/vocabulary/frames.js';
import { decodeHidDiceReport } from '../../../drivers/codecs/hid-dice.js';
import { compileProfile } from '../../../drivers/profiles/profile-decoder.js';
import { loadProfileFile, validateProfile } from '../../../drivers/profiles/profile-schema.js';

const RUNS = Number(process.env.FC_RUNS ?? 1000);
const shipped = (n: string) => loadProfileFile(join(__dirname, '../../../drivers/profiles/shipped', `${n}.yaml`));
const short = (items: (DeviceFrame | FrameReject)[]) => items.map((i) => ('reason' in i ? i.reason : i.type === 'CARD' ? i.card : i.type));

// ---- a boot keyboard, written from the HID usage tables (US layout) ----------------------------
const LSHIFT = 0x02;
const RSHIFT = 0x20;
function usage(ch: string): { key: number; shift: boolean } {
  const c = ch.charCodeAt(0);
  if (c >= 0x61 && c <= 0x7a) return { key: 0x04 + c - 0x61, shift: false };
  if (c >= 0x41 && c <= 0x5a) return { key: 0x04 + c - 0x41, shift: true };
  if (ch === '0') return { key: 0x27, shift: false };
  if (c >= 0x31 && c <= 0x39) return { key: 0x1e + c - 0x31, shift: false };
  if (ch === '-') return { key: 0x2d, shift: false };
  throw new Error(`no key for ${ch}`);
}
const report = (mods: number, ...keys: number[]) => Buffer.from([mods, 0, ...keys, ...new Array(6 - keys.length).fill(0)]);
/** Types `text` then Enter, key up after each key; `shiftKey` picks the Shift used for capitals. */
function typeBarcode(text: string, shiftKey = LSHIFT): Buffer {
  const out: Buffer[] = [];
  for (const ch of text) {
    const u = usage(ch);
    out.push(report(u.shift ? shiftKey : 0, u.key), report(0));
  }
  out.push(report(0, 0x28), report(0));
  return Buffer.concat(out);
}
/** one report at a time, as the HID transport delivers them */
function feed(push: (b: Buffer) => (DeviceFrame | FrameReject)[], bytes: Buffer): (DeviceFrame | FrameReject)[] {
  const out: (DeviceFrame | FrameReject)[] = [];
  for (let at = 0; at < bytes.length; at += 8) out.push(...push(bytes.subarray(at, at + 8)));
  return out;
}

describe('wedge-scanner profile (keyboard-wedge barcode scanner, suit-rank codes)', () => {
  it('reads H10, SA, lower-case and right-shifted codes as cards', () => {
    const d = compileProfile(shipped('wedge-scanner'));
    const bytes = Buffer.concat([typeBarcode('H10'), typeBarcode('SA'), typeBarcode('dq'), typeBarcode('CK', RSHIFT), typeBarcode('ST')]);
    expect(feed((b) => d.push(b), bytes)).toEqual([
      { talker: 'SHOE', seq: 0, type: 'CARD', card: 'TH', rescan: false },
      { talker: 'SHOE', seq: 0, type: 'CARD', card: 'AS', rescan: false },
      { talker: 'SHOE', seq: 0, type: 'CARD', card: 'QD', rescan: false },
      { talker: 'SHOE', seq: 0, type: 'CARD', card: 'KC', rescan: false },
      { talker: 'SHOE', seq: 0, type: 'CARD', card: 'TS', rescan: false },
    ]);
  });

  it('a key held over several reports is one keypress; several reports in one chunk decode the same', () => {
    const d = compileProfile(shipped('wedge-scanner'));
    const held = Buffer.concat([report(LSHIFT, 0x0b), report(LSHIFT, 0x0b), report(0), report(0, 0x1f), report(0, 0x1f), report(0, 0x28)]);
    expect(short(d.push(held))).toEqual(['2H']);
  });

  it('an unknown barcode, a short report and a runaway barcode are rejects, never cards', () => {
    const d = compileProfile(shipped('wedge-scanner'));
    expect(short(feed((b) => d.push(b), typeBarcode('X9')))).toEqual(['unknown-type']);
    expect(short(feed((b) => d.push(b), typeBarcode('H11')))).toEqual(['unknown-type']);
    expect(short(d.push(Buffer.from([0, 0, 0x0b])))).toEqual(['malformed']);
    expect(short(feed((b) => d.push(b), typeBarcode('H'.repeat(40))))).toEqual(['too-long']);
    expect(short(feed((b) => d.push(b), typeBarcode('SA')))).toEqual(['AS']);
  });

  it('without upper-casing, the pattern sees the barcode as typed', () => {
    const p = validateProfile('x.yaml', { ...shipped('wedge-scanner'), body: { uppercase: false } });
    const d = compileProfile(p);
    expect(short(feed((b) => d.push(b), Buffer.concat([typeBarcode('sa'), typeBarcode('SA')])))).toEqual(['unknown-type', 'AS']);
  });
});

// ---- the §2b dice report, written from the spec -------------------------------------------------
function diceReport(seq: number, d: [number, number, number], bounces: number, status: number, opts: { id?: number; badSum?: boolean } = {}): Buffer {
  const b = [opts.id ?? 1, seq & 0xff, d[0], d[1], d[2], bounces, status];
  let sum = 0;
  for (const x of b) sum += x;
  b.push((sum + (opts.badSum ? 1 : 0)) % 256);
  return Buffer.from(b);
}

describe('hid-dice-sensor profile (§2b as a report layout)', () => {
  const d = compileProfile(shipped('hid-dice-sensor'));

  it('decodes a roll, cocked and no-read, the seq byte included', () => {
    const out = [...d.push(diceReport(7, [3, 5, 6], 12, 0)), ...d.push(diceReport(255, [0, 0, 0], 0, 1)), ...d.push(diceReport(0, [9, 9, 9], 200, 2))];
    expect(out).toEqual([
      { talker: 'DICE', seq: 7, type: 'ROLL', dice: [3, 5, 6], bounces: 12 },
      { talker: 'DICE', seq: 255, type: 'COCKED' },
      { talker: 'DICE', seq: 0, type: 'NOREAD' },
    ]);
  });

  it('rejects a wrong report id, a bad checksum, an unknown status, a die of 7 and a short report', () => {
    const out = [
      ...d.push(diceReport(1, [1, 2, 3], 5, 0, { id: 2 })),
      ...d.push(diceReport(1, [1, 2, 3], 5, 0, { badSum: true })),
      ...d.push(diceReport(1, [1, 2, 3], 5, 3)),
      ...d.push(diceReport(1, [1, 2, 7], 5, 0)),
      ...d.push(diceReport(1, [1, 2, 3], 100, 0)),
      ...d.push(diceReport(1, [1, 2, 3], 5, 0).subarray(0, 6)),
    ];
    expect(short(out)).toEqual(['malformed', 'bad-checksum', 'bad-field', 'bad-field', 'bad-field', 'malformed']);
  });

  it('gives exactly what drivers/codecs/hid-dice.ts gives, report for report (fast-check)', () => {
    const reportArb = fc.oneof(
      fc
        .tuple(
          fc.nat(255),
          fc.tuple(fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 8 })),
          fc.integer({ min: 0, max: 120 }),
          fc.integer({ min: 0, max: 4 }),
          fc.constantFrom(1, 1, 1, 0, 2),
          fc.boolean(),
        )
        .map(([seq, dice, b, st, id, bad]) => diceReport(seq, dice, b, st, { id, badSum: bad })),
      fc.uint8Array({ minLength: 0, maxLength: 10 }).map((a) => Buffer.from(a)),
    );
    fc.assert(
      fc.property(reportArb, (r) => {
        const mine = compileProfile(shipped('hid-dice-sensor')).push(r);
        const theirs = decodeHidDiceReport(r);
        const norm = (x: DeviceFrame | FrameReject) => ('reason' in x ? { reason: x.reason } : x);
        if (r.length === 0) expect(mine).toEqual([]);
        else expect(mine.map(norm)).toEqual([norm(theirs)]);
      }),
      { numRuns: RUNS },
    );
  });

  it('the layout is checked: offsets inside the report, a type map', () => {
    const base = shipped('hid-dice-sensor');
    expect(() => validateProfile('d.yaml', { ...base, report: { ...base.report, fields: { d1: 9 } } })).toThrow(
      'd.yaml: report.fields.d1: is outside the 8-byte report',
    );
    expect(() => validateProfile('d.yaml', { ...base, report: undefined })).toThrow('d.yaml: report: is required with input hid-report');
    expect(() => validateProfile('d.yaml', { ...base, report: { ...base.report, type: { offset: 6, map: { '256': 'ROLL' } } } })).toThrow(
      'd.yaml: report.type.map.256: is not a byte value (0..255)',
    );
  });
});
