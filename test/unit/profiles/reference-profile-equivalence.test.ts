/**
 * The reference line protocol (device-protocols.md §1) has two decoders: the built-in LineCodec of
 * each talker and the profile engine with the matching shipped reference profile. Whatever the
 * bytes and however they are chunked, both must give the same frames and the same rejects (reason).
 *
 * Lines are built here with test/unit/codecs/ref.ts (independent of both decoders) and then
 * corrupted byte-wise. FC_RUNS (default 1000) and FC_SEED tune the runs.
 */
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DeviceFrame, FrameReject, Talker } from '../../../src/core/vocabulary/frames.js';
import { LineCodec } from '../../../drivers/codecs/line-codec.js';
import { compileProfile } from '../../../drivers/profiles/profile-decoder.js';
import { loadProfileFile } from '../../../drivers/profiles/profile-schema.js';
import { refLine, refXor } from '../codecs/ref.js';
import { splitAt } from '../../helpers/chunks.js';

const RUNS = Number(process.env.FC_RUNS ?? 1000);
const SEED = process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED);
const params = { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) };

const PROFILE_OF: Record<Talker, string> = {
  SHOE: 'reference-shoe',
  RFID: 'reference-rfid-shoe',
  SHUF: 'reference-shuffler',
  DICE: 'reference-dice-sensor',
  BALL: 'reference-ball-reader',
};
const TALKER_LIST = Object.keys(PROFILE_OF) as Talker[];
const shipped = (name: string) => loadProfileFile(join(__dirname, '../../../drivers/profiles/shipped', `${name}.yaml`));
const PROFILES = Object.fromEntries(TALKER_LIST.map((t) => [t, shipped(PROFILE_OF[t])])) as Record<Talker, ReturnType<typeof shipped>>;

type Item = DeviceFrame | FrameReject;
/** Frames compared whole, rejects by their reason (the raw sample may be cut differently). */
type Normalised = DeviceFrame | { reason: FrameReject['reason'] };
const norm = (items: Item[]): Normalised[] => items.map((i) => ('reason' in i ? { reason: i.reason } : i));

/** Decodes `data` with both decoders, each with its own random chunking. */
function both(talker: Talker, data: Buffer, cutsA: number[], cutsB: number[]): { codec: Normalised[]; engine: Normalised[] } {
  const codec = new LineCodec(talker);
  const engine = compileProfile(PROFILES[talker]);
  return {
    codec: norm(splitAt(data, cutsA).flatMap((c) => codec.push(c))),
    engine: norm(splitAt(data, cutsB).flatMap((c) => engine.push(c))),
  };
}

// ---- valid bodies, written from the spec tables ---------------------------------------------

const RANK = 'A23456789TJQK';
const SUIT = 'SHDC';
const TEXT_UNITS = [...' !"#%&\'()+-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~', 'é', '€'];
const text = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...TEXT_UNITS), minLength: min, maxLength: max });
const code16 = fc.stringMatching(/^[A-Z0-9_]{1,16}$/);
const cardArb = fc.tuple(fc.constantFrom(...RANK), fc.constantFrom(...SUIT)).map(([r, s]) => r + s);
const digit = (lo: number, hi: number) => fc.integer({ min: lo, max: hi }).map(String);

const commonTypes = fc.oneof(
  fc.constant('HB'),
  code16.map((c) => `ERR,${c}`),
  fc.tuple(code16, text(0, 16)).map(([c, t]) => `ERR,${c},${t}`),
  fc.tuple(text(1, 10), text(1, 10)).map(([m, f]) => `VER,${m},${f}`),
  fc.tuple(text(1, 10), text(1, 10), fc.array(code16, { minLength: 1, maxLength: 4 })).map(([m, f, c]) => `VER,${m},${f},${c.join('+')}`),
);
const shoeShared = fc.oneof(
  fc.constantFrom('MISREAD', 'CUT', 'DROP'),
  fc.constantFrom('LOADED', 'OPEN', 'CLOSED', 'EMPTY').map((s) => `STATE,${s}`),
);
const VALID_TYPES: Record<Talker, fc.Arbitrary<string>> = {
  SHOE: fc.oneof(
    cardArb.map((c) => `CARD,${c}`),
    cardArb.map((c) => `CARD,${c},R`),
    shoeShared,
    commonTypes,
  ),
  RFID: fc.oneof(
    fc.stringMatching(/^[0-9A-Fa-f]{8,24}$/).map((u) => `TAG,${u}`),
    shoeShared,
    commonTypes,
  ),
  SHUF: fc.oneof(
    fc.constantFrom('IDLE', 'SHUFFLING', 'READY', 'JAM', 'DOOR_OPEN', 'ERROR').map((s) => `STATE,${s}`),
    digit(0, 999).map((n) => `COUNT,${n}`),
    commonTypes,
  ),
  DICE: fc.oneof(
    fc.tuple(digit(1, 6), digit(1, 6), digit(1, 6), digit(0, 99)).map((d) => `ROLL,${d.join(',')}`),
    fc.constantFrom('SHAKE', 'COCKED', 'NOREAD'),
    commonTypes,
  ),
  BALL: fc.oneof(
    digit(0, 999).map((n) => `BALL,${n}`),
    fc.constantFrom('START', 'END'),
    commonTypes,
  ),
};
const seqArb = fc.integer({ min: 0, max: 65535 });
const validBody = (t: Talker) => fc.tuple(seqArb, VALID_TYPES[t]).map(([s, rest]) => `${t},${s},${rest}`);

// ---- near-valid bodies: tokens that are almost right ----------------------------------------

const TOKENS = [
  '',
  '0',
  '1',
  '6',
  '7',
  '00',
  '07',
  '99',
  '100',
  '999',
  '1000',
  '-1',
  ' 1',
  'AS',
  'as',
  '10S',
  'XX',
  'R',
  'r',
  'RR',
  'LOADED',
  'loaded',
  'JAM',
  'IDLE',
  'OPEN',
  'DEADBEEF',
  'deadbeef00',
  '1234567',
  'G0000000',
  'E_1',
  'e1',
  'REPEAT+LOCK',
  'A+',
  '+',
  'é',
  'x y',
];
const TYPES = [
  'HB',
  'ERR',
  'VER',
  'CARD',
  'TAG',
  'MISREAD',
  'CUT',
  'DROP',
  'STATE',
  'COUNT',
  'ROLL',
  'SHAKE',
  'COCKED',
  'NOREAD',
  'BALL',
  'START',
  'END',
  'hb',
  'CARDS',
  'RESCAN',
  '',
];
const nearBody = (t: Talker) =>
  fc
    .tuple(
      fc.oneof({ weight: 6, arbitrary: fc.constant(t) }, { weight: 1, arbitrary: fc.constantFrom(...TALKER_LIST, 'GW', '', 'shoe', `${t}X`, 'SHÖE') }),
      fc.oneof({ weight: 6, arbitrary: seqArb.map(String) }, { weight: 1, arbitrary: fc.constantFrom('65536', '99999', '', '00017', '1a', '123456', '-1') }),
      fc.constantFrom(...TYPES),
      fc.array(fc.constantFrom(...TOKENS), { maxLength: 5 }),
    )
    .map(([talker, seq, type, fields]) => [talker, seq, type, ...fields].join(','));

// ---- fields out of range or of the wrong form, per talker (bad-field unless a count is wrong)
const COMMON_BAD = ['ERR,bad code', 'ERR,e1', 'ERR,' + 'A'.repeat(17), 'VER,,1', 'VER,m,', 'VER,m,1,lower', 'VER,m,1,A++B', 'VER,m,1,'];
const OUT_OF_RANGE: Record<Talker, string[]> = {
  SHOE: ['CARD,1S', 'CARD,as', 'CARD,10S', 'CARD,AS,X', 'CARD,AS,', 'STATE,FOO', 'STATE,loaded', 'STATE,'],
  RFID: ['TAG,1234567', 'TAG,G0000000', `TAG,${'A'.repeat(25)}`, 'TAG,', 'STATE,JAM'],
  SHUF: ['COUNT,1000', 'COUNT,-1', 'COUNT,1.5', 'COUNT,', 'STATE,OPEN', 'STATE,idle'],
  DICE: ['ROLL,7,1,1,0', 'ROLL,0,1,1,5', 'ROLL,1,1,1,100', 'ROLL,1,1,1,-1', 'ROLL,1,1,1, 5', 'ROLL,1,1,1,', 'ROLL,01,1,1,5'],
  BALL: ['BALL,1000', 'BALL,x', 'BALL,-1', 'BALL,1e2', 'BALL,', 'BALL, 7'],
};
const outOfRangeBody = (t: Talker) => fc.tuple(seqArb, fc.constantFrom(...OUT_OF_RANGE[t], ...COMMON_BAD)).map(([s, rest]) => `${t},${s},${rest}`);

// ---- lines and byte-level corruption ---------------------------------------------------------

const eolArb = fc.constantFrom('\r\n', '\r\n', '\n');
const lineArb = (body: fc.Arbitrary<string>) => fc.tuple(body, fc.boolean(), eolArb).map(([b, lower, eol]) => refLine(b, { lower, eol }));

/** `$body*CS\r\n` over raw body bytes (for bodies that are not valid UTF-8). */
function rawLine(body: Buffer): Buffer {
  let x = 0;
  for (const b of body) x ^= b;
  return Buffer.concat([Buffer.from('$'), body, Buffer.from(`*${x.toString(16).toUpperCase().padStart(2, '0')}\r\n`)]);
}

const corrupted = (body: fc.Arbitrary<string>) =>
  fc.oneof(
    // one byte flipped anywhere (often the checksum, sometimes a delimiter or `$`)
    fc.tuple(lineArb(body), fc.nat(), fc.integer({ min: 1, max: 255 })).map(([l, at, x]) => {
      const c = Buffer.from(l);
      c[at % c.length] ^= x;
      return c;
    }),
    // the checksum off by one
    body.map((b) => Buffer.from(`$${b}*${((refXor(b) + 1) & 0xff).toString(16).padStart(2, '0').toUpperCase()}\r\n`)),
    // truncated: the line stops anywhere (the next line's `$` or `\n` ends it)
    fc.tuple(lineArb(body), fc.nat()).map(([l, at]) => l.subarray(0, at % l.length)),
    // over-long: a field padded past 128 bytes
    fc.tuple(body, fc.integer({ min: 100, max: 200 })).map(([b, n]) => refLine(`${b}${'x'.repeat(n)}`)),
    // exactly at the limit and one past it (128 bytes with CRLF)
    fc.tuple(fc.integer({ min: 0, max: 3 }), fc.boolean()).map(([extra, lf]) => {
      const head = 'SHOE,1,ERR,E,';
      const pad = 128 - (1 + head.length + 3 + 2) + extra - 1;
      return refLine(head + 'y'.repeat(Math.max(0, pad)), { eol: lf ? '\n' : '\r\n' });
    }),
    // invalid UTF-8 in a field, with a checksum that matches the bytes
    fc
      .tuple(body, fc.constantFrom([0xff], [0xc3], [0xe2, 0x82], [0xc0, 0x80], [0xed, 0xa0, 0x80]))
      .map(([b, bad]) => rawLine(Buffer.concat([Buffer.from(`${b},`), Buffer.from(bad)]))),
    // a control byte, `*` or a stray CR in the body (checksum fixed)
    fc.tuple(body, fc.constantFrom(0x00, 0x09, 0x0d, 0x1b, 0x7f, 0x2a)).map(([b, c]) => rawLine(Buffer.concat([Buffer.from(b), Buffer.from([c])]))),
    // two CRs before the LF; a checksum of one or three digits
    lineArb(body).map((l) => Buffer.concat([l.subarray(0, l.length - 1), Buffer.from('\r\n')])),
    body.map((b) => Buffer.from(`$${b}*${refXor(b).toString(16).toUpperCase().padStart(2, '0')}0\r\n`)),
    body.map((b) => Buffer.from(`$${b}*${(refXor(b) & 15).toString(16)}\r\n`)),
    // no `*CS` at all; a `$` inside the line
    body.map((b) => Buffer.from(`$${b}\r\n`)),
    fc.tuple(lineArb(body), fc.nat()).map(([l, at]) => {
      const p = 1 + (at % (l.length - 1));
      return Buffer.concat([l.subarray(0, p), Buffer.from('$'), l.subarray(p)]);
    }),
  );

const INTERESTING = [...Buffer.from('$*,\r\n0123456789ABCDEFabcdefSHOERFIDCARDTAGR')];
const noiseArb = fc
  .array(fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(...INTERESTING)), { minLength: 1, maxLength: 24 })
  .map((a) => Buffer.from(a));
const cutsArb = fc.array(fc.nat(), { maxLength: 12 });

describe.each(TALKER_LIST)('reference profile of %s = LineCodec', (talker) => {
  it('valid lines: the same frames, none rejected, whatever the chunking', () => {
    fc.assert(
      fc.property(fc.array(lineArb(validBody(talker)), { minLength: 1, maxLength: 8 }), cutsArb, cutsArb, (lines, a, b) => {
        const data = Buffer.concat(lines);
        const { codec, engine } = both(talker, data, a, b);
        expect(engine).toEqual(codec);
        expect(engine).toHaveLength(lines.length);
        expect(engine.every((i) => !('reason' in i))).toBe(true);
      }),
      params,
    );
  });

  it('valid, near-valid and corrupted lines mixed with noise: the same frames and reject reasons', () => {
    const piece = fc.oneof(
      { weight: 3, arbitrary: lineArb(validBody(talker)) },
      { weight: 3, arbitrary: lineArb(nearBody(talker)) },
      { weight: 2, arbitrary: lineArb(outOfRangeBody(talker)) },
      { weight: 4, arbitrary: corrupted(fc.oneof(validBody(talker), nearBody(talker))) },
      { weight: 1, arbitrary: noiseArb },
    );
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 10 }), cutsArb, cutsArb, (pieces, a, b) => {
        const { codec, engine } = both(talker, Buffer.concat(pieces), a, b);
        expect(engine).toEqual(codec);
      }),
      params,
    );
  });

  it('random bytes (biased to the grammar): the same output', () => {
    fc.assert(
      fc.property(fc.array(noiseArb, { maxLength: 12 }), cutsArb, cutsArb, (parts, a, b) => {
        const { codec, engine } = both(talker, Buffer.concat(parts), a, b);
        expect(engine).toEqual(codec);
      }),
      params,
    );
  });
});

describe('reference profiles: examples that pin the shared decisions', () => {
  const run = (t: Talker, s: string) => both(t, Buffer.from(s, 'latin1'), [], []);
  it.each([
    ['SHOE', '$SHOE,17,CARD,AS*3D\r\n', [{ talker: 'SHOE', seq: 17, type: 'CARD', card: 'AS', rescan: false }]],
    ['SHOE', 'xx$SHOE,0,HB*2B\n', [{ reason: 'noise' }, { talker: 'SHOE', seq: 0, type: 'HB' }]],
    ['SHOE', '\r\r\n$SHOE,0,HB*2B\r\n', [{ talker: 'SHOE', seq: 0, type: 'HB' }]],
    // an extra CR before the line end is not a line end: malformed (LineCodec used to strip two)
    ['SHOE', '$SHOE,0,HB*2B\r\r\n', [{ reason: 'malformed' }]],
    ['SHOE', '$SHOE,0,H$SHOE,0,HB*2B\r\n', [{ reason: 'noise' }, { talker: 'SHOE', seq: 0, type: 'HB' }]],
    ['BALL', refLine('BALL,3,BALL,81').toString('latin1'), [{ talker: 'BALL', seq: 3, type: 'BALL', ball: 81 }]],
    ['DICE', refLine('DICE,3,ROLL,1,2,7,5').toString('latin1'), [{ reason: 'bad-field' }]],
    ['DICE', refLine('SHOE,3,HB').toString('latin1'), [{ reason: 'unknown-talker' }]],
    ['RFID', refLine('RFID,3,CARD,AS').toString('latin1'), [{ reason: 'unknown-type' }]],
    ['SHOE', refLine('SHOE,65536,HB').toString('latin1'), [{ reason: 'malformed' }]],
    [
      'SHOE',
      refLine('SHOE,1,VER,M,1.0,REPEAT+LOCK').toString('latin1'),
      [{ talker: 'SHOE', seq: 1, type: 'VER', model: 'M', firmware: '1.0', capabilities: ['REPEAT', 'LOCK'] }],
    ],
  ] as const)('%s %j', (t, s, want) => {
    const { codec, engine } = run(t, s);
    expect(engine).toEqual(want);
    expect(codec).toEqual(want);
  });
});
