import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { LineCodec, encodeFrame, isReject } from '../../../drivers/codecs/line-codec.js';
import { parseLine } from '../../../drivers/codecs/nmea-line.js';
import { LineFramer } from '../../../drivers/codecs/line-framer.js';
import { KeyboardWedgeDecoder } from '../../../drivers/codecs/hid-keyboard.js';
import { decodeHidDiceReport, encodeHidDiceReport } from '../../../drivers/codecs/hid-dice.js';
import { TALKERS } from '../../../src/core/vocabulary/frames.js';
import type { DeviceFrame, DeviceFrameBody, FrameReject, RejectReason, Talker } from '../../../src/core/vocabulary/frames.js';
import { oneDeck } from '../../../src/core/vocabulary/card.js';
import { splitAt } from '../../helpers/chunks.js';

const REASONS: RejectReason[] = ['noise', 'too-long', 'bad-checksum', 'malformed', 'unknown-talker', 'unknown-type', 'bad-field'];

/** Bytes that matter to the grammar, to bias random input toward near-valid lines. */
const INTERESTING = [...Buffer.from('$*,\r\n0123456789ABCDEFabcdefSHOERFIDCARDTAGR')];
const byteArb = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(...INTERESTING));
const bytesArb = (maxLength: number) => fc.array(byteArb, { maxLength }).map((a) => Buffer.from(a));

function decodeChunks(talker: Talker, chunks: Buffer[]): Array<DeviceFrame | FrameReject> {
  const codec = new LineCodec(talker);
  return chunks.flatMap((c) => codec.push(c));
}

// ---- valid frame generators -------------------------------------------------------------

const TEXT_UNITS = [...' !"#%&\'()+-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~', 'é', '€'];
const text = (minLength: number, maxLength: number) => fc.string({ unit: fc.constantFrom(...TEXT_UNITS), minLength, maxLength });
const die = fc.integer({ min: 1, max: 6 });

const commonBody: fc.Arbitrary<DeviceFrameBody> = fc.oneof(
  fc.constant({ type: 'HB' as const }),
  fc.record({ type: fc.constant('ERR' as const), code: fc.stringMatching(/^[A-Z0-9_]{1,16}$/), text: text(0, 20) }),
  fc.record({ type: fc.constant('VER' as const), model: text(1, 12), firmware: text(1, 12) }),
);
const shoeShared: fc.Arbitrary<DeviceFrameBody> = fc.oneof(
  fc.constantFrom({ type: 'MISREAD' as const }, { type: 'CUT' as const }, { type: 'DROP' as const }),
  fc.record({ type: fc.constant('STATE' as const), state: fc.constantFrom('LOADED' as const, 'OPEN' as const, 'CLOSED' as const, 'EMPTY' as const) }),
);
const BODIES: Record<Talker, fc.Arbitrary<DeviceFrameBody>> = {
  SHOE: fc.oneof(commonBody, shoeShared, fc.record({ type: fc.constant('CARD' as const), card: fc.constantFrom(...oneDeck()), rescan: fc.boolean() })),
  RFID: fc.oneof(commonBody, shoeShared, fc.record({ type: fc.constant('TAG' as const), uid: fc.stringMatching(/^[0-9A-F]{8,24}$/) })),
  SHUF: fc.oneof(
    commonBody,
    fc.record({
      type: fc.constant('SHUF_STATE' as const),
      state: fc.constantFrom('IDLE' as const, 'SHUFFLING' as const, 'READY' as const, 'JAM' as const, 'DOOR_OPEN' as const, 'ERROR' as const),
    }),
    fc.record({ type: fc.constant('COUNT' as const), count: fc.integer({ min: 0, max: 999 }) }),
  ),
  DICE: fc.oneof(
    commonBody,
    fc.constantFrom({ type: 'SHAKE' as const }, { type: 'COCKED' as const }, { type: 'NOREAD' as const }),
    fc.record({ type: fc.constant('ROLL' as const), dice: fc.tuple(die, die, die), bounces: fc.integer({ min: 0, max: 99 }) }),
  ),
  BALL: fc.oneof(
    commonBody,
    fc.constantFrom({ type: 'START' as const }, { type: 'END' as const }),
    fc.record({ type: fc.constant('BALL' as const), ball: fc.integer({ min: 0, max: 999 }) }),
  ),
};
const frameArb = (talker: Talker): fc.Arbitrary<DeviceFrame> =>
  fc.tuple(fc.integer({ min: 0, max: 65535 }), BODIES[talker]).map(([seq, body]) => ({ talker, seq, ...body }) as DeviceFrame);

// ---- properties -------------------------------------------------------------------------

describe('properties', () => {
  it('random bytes never throw and only yield frames of the talker or known rejects', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TALKERS),
        fc.oneof(
          bytesArb(600),
          fc.uint8Array({ maxLength: 600 }).map((a) => Buffer.from(a)),
        ),
        fc.array(fc.nat(), { maxLength: 10 }),
        (talker, data, cuts) => {
          const out = decodeChunks(talker, splitAt(data, cuts));
          for (const x of out) {
            if (isReject(x)) expect(REASONS).toContain(x.reason);
            else expect(x.talker).toBe(talker);
          }
          expect(decodeChunks(talker, [data])).toEqual(out);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('random bytes never throw in the line parser or the HID decoders', () => {
    fc.assert(
      fc.property(bytesArb(140), fc.uint8Array({ maxLength: 12 }), (line, report) => {
        parseLine(line);
        parseLine(Buffer.concat([Buffer.from('$'), line]));
        new LineFramer().push(line);
        const kb = new KeyboardWedgeDecoder();
        for (const x of kb.push(Buffer.from(report))) expect(typeof x === 'string' || isReject(x)).toBe(true);
        decodeHidDiceReport(Buffer.from(report));
      }),
      { numRuns: 500 },
    );
  });

  it('random mutations of valid CARD lines never yield a card that is not in the input bytes', () => {
    const mutation = fc.record({
      kind: fc.constantFrom('flip', 'insert', 'delete', 'replace'),
      pos: fc.nat(),
      byte: byteArb,
      bit: fc.integer({ min: 0, max: 7 }),
    });
    fc.assert(
      fc.property(
        fc.array(
          frameArb('SHOE').filter((f) => f.type === 'CARD'),
          { minLength: 1, maxLength: 3 },
        ),
        fc.array(mutation, { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        (frames, mutations, cuts) => {
          const bytes = [...Buffer.from(frames.map(encodeFrame).join(''))];
          for (const m of mutations) {
            const p = m.pos % (bytes.length + 1);
            if (m.kind === 'insert') bytes.splice(p, 0, m.byte);
            else if (p < bytes.length) {
              if (m.kind === 'delete') bytes.splice(p, 1);
              else if (m.kind === 'replace') bytes[p] = m.byte;
              else bytes[p] ^= 1 << m.bit;
            }
          }
          const input = Buffer.from(bytes);
          for (const x of decodeChunks('SHOE', splitAt(input, cuts))) {
            if (isReject(x) || x.type !== 'CARD') continue;
            expect(input.includes(Buffer.from(`CARD,${x.card}${x.rescan ? ',R*' : '*'}`))).toBe(true);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('valid frames split at random chunk boundaries always decode to the same frames', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TALKERS).chain((t) => fc.tuple(fc.constant(t), fc.array(frameArb(t), { maxLength: 15 }))),
        fc.array(fc.nat(), { maxLength: 40 }),
        fc.boolean(),
        ([talker, frames], cuts, bareLf) => {
          const wire = Buffer.from(frames.map((f) => (bareLf ? encodeFrame(f).replace('\r\n', '\n') : encodeFrame(f))).join(''), 'utf8');
          expect(decodeChunks(talker, [wire])).toEqual(frames);
          expect(decodeChunks(talker, splitAt(wire, cuts))).toEqual(frames);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('with junk between frames, every valid frame still decodes, identically for any chunking', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TALKERS).chain((t) => fc.tuple(fc.constant(t), fc.array(fc.tuple(bytesArb(200), frameArb(t)), { maxLength: 8 }))),
        bytesArb(50),
        fc.array(fc.nat(), { maxLength: 40 }),
        ([talker, items], tail, cuts) => {
          const wire = Buffer.concat([...items.flatMap(([junk, f]) => [junk, Buffer.from(encodeFrame(f))]), tail]);
          const whole = decodeChunks(talker, [wire]);
          expect(whole.filter((x) => !isReject(x))).toEqual(items.map(([, f]) => f));
          expect(decodeChunks(talker, splitAt(wire, cuts))).toEqual(whole);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('HID dice reports round-trip', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 255 }), fc.tuple(die, die, die), fc.integer({ min: 0, max: 99 }), (seq, dice, bounces) => {
        expect(decodeHidDiceReport(encodeHidDiceReport({ seq, dice, bounces }))).toEqual({ talker: 'DICE', seq, type: 'ROLL', dice, bounces });
      }),
    );
  });
});
