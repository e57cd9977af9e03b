/**
 * `tablegw profile learn` for shufflers (device-protocols.md §3.2; the script tokens in
 * docs/DEVICES.md): `SHUF:<state>` and `COUNT:<n>` in the script, their bad spellings refused with
 * a stable code, and shuffler profiles learned from a capture, text and binary, decoding like the
 * hand-written profile also on a deal they never saw.
 */
import { describe, expect, it } from 'vitest';
import { type DeviceProfile, validateProfile } from '../../../drivers/profiles/profile-schema.js';
import { dealCapture } from '../../../simulators/devices/deal-capture.js';
import { eventKey, parseScript } from '../../../src/app/tools/learn/script.js';
import { decodeCapture } from '../../../src/app/tools/profile-check.js';
import { learnProfile } from '../../../src/app/tools/profile-learn.js';

const state = (name: string, st: string, code: number) => ({
  name,
  type: 'SHUF_STATE',
  seq: 'seq',
  fields: { state: st },
  bytes: {
    length: 4,
    match: [
      { at: 1, value: 0x01 },
      { at: 3, value: code },
    ],
    fields: { seq: { at: 2 } },
  },
});
/** 0xAA <len: bytes after it> <kind> <seq> <state | count lo, hi> <CRC-16/CCITT-FALSE big endian> */
const binaryShuffler: DeviceProfile = validateProfile('binary-shuffler', {
  name: 'binary-shuffler',
  talker: 'SHUF',
  encoding: 'binary',
  framing: { start: '\u00aa', lengthField: { offset: 1, width: 1, counts: 'following' }, maxLength: 32 },
  integrity: { algorithm: 'crc16-ccitt-false', encoding: 'binary-be', place: 'before-end' },
  seq: { wrap: 255 },
  messages: [
    state('idle', 'IDLE', 0x10),
    state('shuffling', 'SHUFFLING', 0x11),
    state('ready', 'READY', 0x12),
    state('jam', 'JAM', 0x13),
    state('door', 'DOOR_OPEN', 0x14),
    {
      name: 'count',
      type: 'COUNT',
      seq: 'seq',
      bytes: { length: 5, match: [{ at: 1, value: 0x02 }], fields: { seq: { at: 2 }, count: { at: 3, width: 2, order: 'le' } } },
    },
    { name: 'heartbeat', type: 'HB', seq: 'seq', bytes: { length: 3, match: [{ at: 1, value: 0x03 }], fields: { seq: { at: 2 } } } },
  ],
});
/** `<seq> ST <state>` / `<seq> CT <count>`, CR LF, XOR-8 in hex after `|` */
const textShuffler: DeviceProfile = validateProfile('text-shuffler', {
  name: 'text-shuffler',
  talker: 'SHUF',
  framing: { end: '\r\n', maxLength: 40 },
  integrity: { algorithm: 'xor8', encoding: 'hex', separator: '|' },
  seq: { wrap: 9999 },
  messages: [
    { name: 'state', pattern: '(?<seq>\\d{1,4}) ST (?<state>[A-Z_]+)', type: 'SHUF_STATE', seq: 'seq', emit: '{seq} ST {state}' },
    { name: 'count', pattern: '(?<seq>\\d{1,4}) CT (?<count>\\d{1,3})', type: 'COUNT', seq: 'seq', emit: '{seq} CT {count}' },
    { name: 'heartbeat', pattern: '(?<seq>\\d{1,4}) ALIVE', type: 'HB', seq: 'seq', emit: '{seq} ALIVE' },
  ],
});

const frames = (p: DeviceProfile, chunks: Array<{ t: number; bytes: Buffer }>): string[] =>
  decodeCapture(p, chunks).items.map((i) => ('frame' in i ? JSON.stringify(i.frame) : `reject ${i.reject.reason}`));

/** two shuffles, one jammed, the counts of the shuffles */
const SHUFFLES = [
  'SHUF:IDLE',
  'SHUF:SHUFFLING',
  'COUNT:416',
  'SHUF:READY',
  'SHUF:IDLE',
  'SHUF:SHUFFLING',
  'SHUF:JAM',
  'SHUF:DOOR_OPEN',
  'SHUF:IDLE',
  'SHUF:SHUFFLING',
  'COUNT:312',
  'SHUF:READY',
  'COUNT:52',
];

describe('profile learn: the shuffler script tokens', () => {
  it('reads SHUF:<state> and COUNT:<n>, any case, beside the other tokens', () => {
    const r = parseScript('# shuffler 2\nshuf:idle SHUF:SHUFFLING, COUNT:416\nSHUF:DOOR_OPEN count:0 COUNT:999 SHUF:ERROR');
    expect(r).toEqual({
      ok: true,
      events: [
        { type: 'SHUF_STATE', state: 'IDLE' },
        { type: 'SHUF_STATE', state: 'SHUFFLING' },
        { type: 'COUNT', count: 416 },
        { type: 'SHUF_STATE', state: 'DOOR_OPEN' },
        { type: 'COUNT', count: 0 },
        { type: 'COUNT', count: 999 },
        { type: 'SHUF_STATE', state: 'ERROR' },
      ],
    });
    if (r.ok)
      expect(r.events.map(eventKey)).toEqual([
        'SHUF_STATE IDLE',
        'SHUF_STATE SHUFFLING',
        'COUNT 416',
        'SHUF_STATE DOOR_OPEN',
        'COUNT 0',
        'COUNT 999',
        'SHUF_STATE ERROR',
      ]);
  });

  it.each([
    ['SHUF:', 'SHUF: needs a shuffler state'],
    ['SHUF:SHUFFLE', 'SHUF: needs a shuffler state, one of IDLE, SHUFFLING, READY, JAM, DOOR_OPEN, ERROR'],
    ['COUNT:', 'COUNT: needs the number of cards counted, 0..999'],
    ['COUNT:1000', 'COUNT: needs the number of cards counted, 0..999'],
    ['COUNT:-1', 'COUNT: needs the number of cards counted'],
    ['COUNT:5x', 'COUNT: needs the number of cards counted'],
    ['COUNT:4.5', 'COUNT: needs the number of cards counted'],
  ])('refuses %s with script-bad-token, naming its line and what it needs', (tok, why) => {
    const r = parseScript(`SHUF:IDLE\n${tok}\n`);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.code).toBe('script-bad-token');
    expect(r.reason).toContain(`line 2: "${tok}"`);
    expect(r.reason).toContain(why);
  });

  it('names the shuffler tokens among those it takes when a token is none', () => {
    const r = parseScript('SHUFFLE');
    expect(r).toMatchObject({ ok: false, code: 'script-bad-token', reason: expect.stringContaining('SHUF:<state> or COUNT:<n>') });
  });
});

describe('profile learn: shufflers', () => {
  for (const [what, hand] of [
    ['a length-prefixed binary shuffler (a 16-bit little-endian count)', binaryShuffler],
    ['a text shuffler with CR LF lines', textShuffler],
  ] as const) {
    it(`learns ${what}, decoding like the hand-written profile, also a shuffle it never saw`, () => {
      const cap = dealCapture(hand, SHUFFLES, { seed: 4, idleEvery: 3, noise: 3, badChecks: 2 });
      const r = learnProfile({ capture: cap.chunks, script: cap.script, kind: 'shuffler' });
      if (r.exit !== 0) throw new Error(`exit ${r.exit}: ${JSON.stringify(r, null, 1)}`);
      expect(r.profile.talker).toBe('SHUF');
      expect(r.yaml).toMatch(/^# - count: .* from 3 counts$/m);
      // the deal never showed ERROR: said, since the profile rejects it
      expect(r.warnings).toContain(
        'the deal showed no SHUF:ERROR: the profile has no message for them and would reject them (make the shuffler show them while recording, and list them)',
      );
      expect(frames(r.profile, cap.chunks)).toEqual(frames(hand, cap.chunks));
      const other = dealCapture(hand, ['SHUF:SHUFFLING', 'COUNT:7', 'SHUF:READY', 'SHUF:IDLE', 'SHUF:SHUFFLING', 'COUNT:260', 'SHUF:JAM'], {
        seed: 9,
        noise: 2,
        badChecks: 1,
      });
      const want = frames(hand, other.chunks);
      expect(want.filter((f) => f.includes('"COUNT"'))).toHaveLength(2);
      expect(frames(r.profile, other.chunks)).toEqual(want);
    });
  }

  it('a count the script gets wrong is exit 1 naming what the device said; nothing learned', () => {
    const cap = dealCapture(binaryShuffler, SHUFFLES, { seed: 4, idleEvery: 3 });
    const r = learnProfile({ capture: cap.chunks, script: cap.script.replace('COUNT:312', 'COUNT:311'), kind: 'shuffler' });
    expect(r.exit).toBe(1);
    expect(JSON.stringify(r)).toContain('no byte or 16-bit word says the script');
    const t = dealCapture(textShuffler, SHUFFLES, { seed: 4, idleEvery: 3 });
    const rt = learnProfile({ capture: t.chunks, script: t.script.replace('COUNT:312', 'COUNT:311'), kind: 'shuffler' });
    expect(rt.exit).toBe(1);
    expect(JSON.stringify(rt)).toContain('says \\"312\\" where the script says COUNT:311');
  });

  it('a state the script gets wrong (JAM for READY) is exit 1', () => {
    const cap = dealCapture(textShuffler, SHUFFLES, { seed: 4, idleEvery: 3 });
    const r = learnProfile({ capture: cap.chunks, script: cap.script.replace('SHUF:READY', 'SHUF:JAM'), kind: 'shuffler' });
    expect(r.exit).toBe(1);
  });
});
