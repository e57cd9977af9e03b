/**
 * The profile encoder on HID profiles: `hid-keyboard` types the framed text as boot-keyboard
 * reports (key down, all keys up, Enter at the end), `hid-report` fills the report layout; the
 * profile's own decoder reads every frame back, and the §2b sensor's reports are byte for byte
 * those of drivers/codecs/hid-dice.ts.
 */
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeHidDiceReport, HID_DICE_STATUS } from '../../../drivers/codecs/hid-dice.js';
import { KEY_ENTER, MOD_LEFT_SHIFT } from '../../../drivers/codecs/hid-keyboard.js';
import { compileProfile } from '../../../drivers/profiles/profile-decoder.js';
import { createProfileEncoder, emitTemplateProblems, ProfileEncodeError } from '../../../drivers/profiles/profile-encoder.js';
import { loadProfileFile, validateProfile } from '../../../drivers/profiles/profile-schema.js';
import { RANKS, SUITS } from '../../../src/core/vocabulary/card.js';

const SHIPPED = join(import.meta.dirname, '../../../drivers/profiles/shipped');
const wedge = loadProfileFile(join(SHIPPED, 'wedge-scanner.yaml'));
const dice = loadProfileFile(join(SHIPPED, 'hid-dice-sensor.yaml'));
const reports = (b: Buffer): number[][] => Array.from({ length: b.length / 8 }, (_, i) => [...b.subarray(i * 8, i * 8 + 8)]);

describe('profile encoder, input hid-keyboard', () => {
  it('types the card code as key-down / all-keys-up reports, then Enter', () => {
    const e = createProfileEncoder(wedge);
    expect(e.reportBytes).toBe(8);
    const b = e.encode({ type: 'CARD', card: 'TH', rescan: false });
    // "H10": H is usage 0x0B with Left Shift, 1 is 0x1E, 0 is 0x27
    expect(reports(b)).toEqual([
      [MOD_LEFT_SHIFT, 0, 0x0b, 0, 0, 0, 0, 0],
      [0, 0, 0, 0, 0, 0, 0, 0],
      [0, 0, 0x1e, 0, 0, 0, 0, 0],
      [0, 0, 0, 0, 0, 0, 0, 0],
      [0, 0, 0x27, 0, 0, 0, 0, 0],
      [0, 0, 0, 0, 0, 0, 0, 0],
      [0, 0, KEY_ENTER, 0, 0, 0, 0, 0],
      [0, 0, 0, 0, 0, 0, 0, 0],
    ]);
    expect(emitTemplateProblems(wedge)).toEqual([]);
  });

  it('every card, one report per chunk as a HID line delivers them, decodes back', () => {
    const e = createProfileEncoder(wedge);
    for (const r of RANKS) {
      for (const s of SUITS) {
        const d = compileProfile(wedge);
        const out = reports(e.encode({ type: 'CARD', card: r + s, rescan: false })).flatMap((x) => d.push(Buffer.from(x)));
        expect(out).toEqual([{ talker: 'SHOE', seq: 0, type: 'CARD', card: r + s, rescan: false }]);
      }
    }
  });

  it('a barcode over maxLength, or a character no US key types, is an encode error; a keyboard takes no commands', () => {
    const p = validateProfile('k.yaml', {
      name: 'k',
      talker: 'SHOE',
      input: 'hid-keyboard',
      framing: { maxLength: 3 },
      cards: { preset: 'suit-rank' },
      downlink: { rescan: 'R' },
      messages: [{ name: 'card', pattern: 'X*(?<card>[SHDC](?:10|[2-9AJQK]))', type: 'CARD', emit: 'XX{card}' }],
    });
    const e = createProfileEncoder(p);
    expect(() => e.encode({ type: 'CARD', card: 'AS', rescan: false })).toThrow(/k: a barcode of 4 characters is over maxLength 3/);
    expect(() => e.wrap('é')).toThrow(ProfileEncodeError);
    expect(() => e.wrap('é')).toThrow(/cannot type "é" on a US keyboard/);
    expect(e.command('rescan')).toBeNull();
  });
});

describe('profile encoder, input hid-report', () => {
  it('fills the §2b layout exactly as drivers/codecs/hid-dice.ts builds it; SEQ is a byte', () => {
    const e = createProfileEncoder(dice);
    expect(e.reportBytes).toBe(8);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 0, max: 99 }),
        fc.integer({ min: 0, max: 65535 }),
        (a, b, c, n, seq) => {
          const bytes = e.encode({ type: 'ROLL', dice: [a, b, c], bounces: n, seq });
          expect(bytes).toEqual(encodeHidDiceReport({ seq, dice: [a, b, c], bounces: n, status: HID_DICE_STATUS.OK }));
          expect(compileProfile(dice).push(bytes)).toEqual([{ talker: 'DICE', seq: seq & 0xff, type: 'ROLL', dice: [a, b, c], bounces: n }]);
        },
      ),
      { numRuns: 300 },
    );
    expect(compileProfile(dice).push(e.encode({ type: 'COCKED', seq: 4 }))).toEqual([{ talker: 'DICE', seq: 4, type: 'COCKED' }]);
    expect(e.encode({ type: 'NOREAD', seq: 300 })).toEqual(encodeHidDiceReport({ seq: 300, status: HID_DICE_STATUS.NOREAD }));
    expect(e.body({ type: 'COCKED', seq: 1 })).toBe(encodeHidDiceReport({ seq: 1, status: HID_DICE_STATUS.COCKED }).toString('hex').toUpperCase());
  });

  it('a frame type the layout has no byte for, or a value no byte holds, is refused; a wrapped body gets its check value', () => {
    const e = createProfileEncoder(dice);
    expect(e.canEncode({ type: 'HB' })).toBe(false);
    expect(() => e.encode({ type: 'HB' })).toThrow(/hid-dice-sensor: the report layout has no type byte for HB/);
    expect(() => e.encode({ type: 'ROLL', dice: [1, 2, 3], bounces: 300 })).toThrow(/bounces 300 does not fit a report byte/);
    expect(() => e.wrap('0102')).toThrow(/a report is 8 bytes, this one would be 2/);
    expect(e.wrap('0107010203000000')).toEqual(encodeHidDiceReport({ seq: 7, dice: [1, 2, 3], bounces: 0 }));
    expect(e.command('rescan')).toBeNull();
  });

  it('a value map of a message of the same type is applied backwards; CRC-16 is written low byte first', () => {
    const p = validateProfile('r.yaml', {
      name: 'r',
      talker: 'BALL',
      input: 'hid-report',
      report: {
        length: 5,
        seq: { offset: 0 },
        type: { offset: 1, map: { '7': 'BALL', '9': 'START' } },
        fields: { ball: 2 },
        checksum: { algorithm: 'crc16-modbus', offset: 3, from: 0, to: 3 },
      },
      messages: [{ name: 'ball', pattern: '(?<ball>\\d+)', type: 'BALL', map: { ball: { '200': 1, '201': 2 } } }],
    });
    const e = createProfileEncoder(p);
    const b = e.encode({ type: 'BALL', ball: 2, seq: 3 });
    expect([...b.subarray(0, 3)]).toEqual([3, 7, 201]);
    let crc = 0xffff;
    for (const x of [3, 7, 201]) {
      crc ^= x;
      for (let i = 0; i < 8; i++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
    }
    expect([b[3], b[4]]).toEqual([crc & 0xff, crc >> 8]);
    expect(compileProfile(p).push(b)).toEqual([{ talker: 'BALL', seq: 3, type: 'BALL', ball: 2 }]);
    expect(() => e.encode({ type: 'BALL', ball: 3 })).toThrow(/no byte of map ball says 3/);
  });
});
