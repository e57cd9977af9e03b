/**
 * `tablegw profile learn` on HID captures (report layouts, learn/hid.ts), dice in bit fields
 * (learn/dice.ts) and the NOREAD script token: learned from captures of known deals, each learned
 * profile decodes another deal it never saw like the hand-written one; bad input is exit 1 (or 3)
 * with a reason, never a profile.
 */
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { type DeviceProfile, loadProfileFile, validateProfile } from '../../../drivers/profiles/profile-schema.js';
import { buildCapture, buildDeal, CORPUS, type DealStep, shoeDeal } from '../../../dev/corpus/index.js';
import { profileWire } from '../../../simulators/devices/wire.js';
import { shuffledDeck } from '../../../simulators/devices/deal-capture.js';
import { parseCapture } from '../../../src/app/tools/capture-file.js';
import { learnDiceFields } from '../../../src/app/tools/learn/dice.js';
import { looksLikeReports } from '../../../src/app/tools/learn/hid.js';
import { parseScript } from '../../../src/app/tools/learn/script.js';
import { decodeCapture, rechunkCheck, reportChunkings } from '../../../src/app/tools/profile-check.js';
import { learnProfile } from '../../../src/app/tools/profile-learn.js';

const HID = CORPUS.find((e) => e.name === 'hid-card-reader')!;
const DICE = CORPUS.find((e) => e.name === 'bitfield-dice')!;
const hidHand = loadProfileFile(HID.profilePath);

type Chunks = Array<{ t: number; bytes: Buffer }>;
/** a corpus deal as a HID device delivers it: one write (a report, or noise) per chunk */
const hidChunks = (steps: DealStep[], seq0 = 1): { chunks: Chunks; script: string } => {
  const d = buildDeal(HID, steps, seq0);
  return { chunks: d.writes.map((bytes, k) => ({ t: k * 40, bytes })), script: d.script };
};
const decoded = (p: DeviceProfile, chunks: Chunks): string[] =>
  decodeCapture(p, chunks).items.map((i) => ('frame' in i ? JSON.stringify(i.frame) : `reject ${i.reject.reason}`));
const learned = (r: ReturnType<typeof learnProfile>): DeviceProfile => {
  if (r.exit !== 0) throw new Error(`exit ${r.exit}: ${JSON.stringify(r, null, 1)}`);
  // the YAML written is the profile verified
  const p = validateProfile('learned', parseYaml(r.yaml));
  expect(p).toEqual(r.profile);
  return p;
};

/** a whole deck (and more) with a misread and line faults, dealt by the HID card reader */
function bigDeal(seed: number): DealStep[] {
  const steps: DealStep[] = [{ k: 'loaded' }, { k: 'hb' }, { fault: 'noise' }];
  shuffledDeck(seed).forEach((card, i) => {
    if (i % 9 === 4) steps.push({ fault: 'bad-check' });
    if (i % 13 === 7) steps.push({ fault: 'truncated' });
    if (i === 20) steps.push({ k: 'misread' });
    if (i % 10 === 9) steps.push({ k: 'hb' }, { k: 'hb' });
    steps.push({ k: 'card', card });
  });
  return steps;
}

describe('parseScript: the NOREAD token', () => {
  it('reads NOREAD (any case) as the dice reader no-read event beside rolls', () => {
    expect(parseScript('ROLL:1,4,6 noread\nNOREAD, ROLL:2,2,3 # re-shaken')).toEqual({
      ok: true,
      events: [{ type: 'ROLL', dice: [1, 4, 6] }, { type: 'NOREAD' }, { type: 'NOREAD' }, { type: 'ROLL', dice: [2, 2, 3] }],
    });
  });
  it('a misspelt NOREAD is a bad token that names NOREAD among the tokens', () => {
    const r = parseScript('ROLL:1,4,6\nNO-READ');
    expect(r).toMatchObject({ ok: false, code: 'script-bad-token' });
    if (!r.ok) expect(r.reason).toMatch(/^line 2: "NO-READ": .*NOREAD/);
    expect(parseScript('NOREAD:3')).toMatchObject({ ok: false, code: 'script-bad-token' });
  });
});

describe('learnDiceFields', () => {
  const rolls: Array<[number, number, number, number]> = [
    [1, 4, 6, 3],
    [3, 3, 5, 0],
    [6, 6, 6, 31],
    [2, 5, 1, 7],
    [5, 5, 2, 12],
  ];
  it('finds three 3-bit dice across two bytes and the bounce bits beside them', () => {
    const members = rolls.map(([a, b, c, n]) => {
      const w = a | (b << 3) | (c << 6) | (n << 9);
      return { payload: Buffer.from([0x10, 7, w & 0xff, w >> 8]), dice: [a, b, c] as const };
    });
    const r = learnDiceFields(members, (at) => at === 1);
    if ('problem' in r) throw new Error(r.problem);
    expect(r.fields).toEqual({
      d1: { at: 2, width: 2, order: 'le', as: 'number', bits: [0, 2] },
      d2: { at: 2, width: 2, order: 'le', as: 'number', bits: [3, 5] },
      d3: { at: 2, width: 2, order: 'le', as: 'number', bits: [6, 8] },
      bounces: { at: 2, width: 2, order: 'le', as: 'number', bits: [9, 13] },
    });
    expect([...r.used].sort()).toEqual([2, 3]);
  });
  it('finds dice in bytes of their own, big-endian packing, and no bounces when nothing else changes', () => {
    const bytes = learnDiceFields(
      rolls.map(([a, b, c, n]) => ({ payload: Buffer.from([1, a, b, c, n, 0]), dice: [a, b, c] as const })),
      () => false,
    );
    if ('problem' in bytes) throw new Error(bytes.problem);
    expect(bytes.fields).toEqual({
      d1: { at: 1, width: 1, order: 'be', as: 'number' },
      d2: { at: 2, width: 1, order: 'be', as: 'number' },
      d3: { at: 3, width: 1, order: 'be', as: 'number' },
      bounces: { at: 4, width: 1, order: 'be', as: 'number' },
    });
    // d3 d2 d1 from the top of a big-endian word: d1 bits 0-2 of byte 1 ... d3 bits 6-8 across the two bytes
    const be = learnDiceFields(
      rolls.map(([a, b, c]) => {
        const w = a | (b << 3) | (c << 6);
        return { payload: Buffer.from([w >> 8, w & 0xff]), dice: [a, b, c] as const };
      }),
      () => false,
    );
    if ('problem' in be) throw new Error(be.problem);
    expect(be.fields.d3).toEqual({ at: 0, width: 2, order: 'be', as: 'number', bits: [6, 8] });
    expect(be.fields.bounces).toBeUndefined();
  });
  it('rolls that cannot say where a die is: "roll more dice", never a guess', () => {
    // die 2 always equal to die 1: both fit both places
    const same = learnDiceFields(
      [
        [1, 1, 2],
        [4, 4, 6],
        [3, 3, 5],
      ].map(([a, b, c]) => ({ payload: Buffer.from([a, b, c]), dice: [a, b, c] as const })),
      () => false,
    );
    expect(same).toMatchObject({ problem: expect.stringMatching(/^roll more dice: die 1/) });
    // die 3 always 6
    const stuck = learnDiceFields(
      [
        [1, 2, 6],
        [4, 5, 6],
      ].map(([a, b, c]) => ({ payload: Buffer.from([a, b, c]), dice: [a, b, c] as const })),
      () => false,
    );
    expect(stuck).toMatchObject({ problem: expect.stringMatching(/^roll more dice: die 3 showed only 6/) });
    // no place says the dice
    const none = learnDiceFields(
      [
        { payload: Buffer.from([9, 9]), dice: [1, 2, 3] },
        { payload: Buffer.from([9, 9]), dice: [4, 5, 6] },
      ],
      () => false,
    );
    expect(none).toMatchObject({ problem: expect.stringContaining('no byte or bit field says die 1') });
  });
});

describe('learnProfile on a HID capture: the report layout', () => {
  it('learns the corpus HID card reader (report id, SEQ, CRC-8, type byte, index-52 card byte) and reads a deck it never saw like the hand-written layout', () => {
    const cap = hidChunks(shoeDeal());
    const p = learned(learnProfile({ capture: cap.chunks, script: cap.script, transport: 'hid' }));
    expect(p.input).toBe('hid-report');
    expect(p.report).toMatchObject({ length: 8, id: { offset: 0, value: 3 }, seq: { offset: 1 }, checksum: { algorithm: 'crc8', offset: 7, from: 0, to: 7 } });
    const other = hidChunks(bigDeal(41), 200);
    const want = decoded(hidHand, other.chunks);
    expect(want.filter((x) => x.includes('"CARD"'))).toHaveLength(52);
    expect(want.filter((x) => x.startsWith('reject')).length).toBeGreaterThan(8);
    expect(decoded(p, other.chunks)).toEqual(want);
  });

  it('learns the shipped HID dice sensor (§2b: dice and bounces in bytes, status byte, SUM-8) from rolls and a no-read', () => {
    const hand = loadProfileFile('drivers/profiles/shipped/hid-dice-sensor.yaml');
    const wire = profileWire(hand);
    const capture = (rolls: Array<number[] | 'NOREAD'>): { chunks: Chunks; script: string } => {
      const chunks: Chunks = [];
      rolls.forEach((r, k) => {
        const b = r === 'NOREAD' ? wire.encode('DICE', k, 'NOREAD', []) : wire.encode('DICE', k, 'ROLL', r);
        chunks.push({ t: k * 500, bytes: Buffer.from(b as Buffer) });
        if (k % 3 === 1) chunks.push({ t: k * 500 + 10, bytes: Buffer.from([1, 2, 3]) });
      });
      return { chunks, script: rolls.map((r) => (r === 'NOREAD' ? 'NOREAD' : `ROLL:${r.slice(0, 3).join(',')}`)).join('\n') };
    };
    const cap = capture([[1, 4, 6, 3], [3, 3, 5, 0], 'NOREAD', [6, 6, 6, 21], [2, 5, 1, 7], [5, 2, 4, 12], 'NOREAD', [4, 1, 3, 9]]);
    const p = learned(learnProfile({ capture: cap.chunks, script: cap.script, kind: 'dice-sensor', transport: 'hid' }));
    expect(p.talker).toBe('DICE');
    expect(p.report).toMatchObject({ fields: { d1: 2, d2: 3, d3: 4, bounces: 5 }, type: { offset: 6, map: { '0': 'ROLL', '2': 'NOREAD' } } });
    expect(p.report?.checksum?.algorithm).toBe('sum8');
    const other = capture([[6, 1, 2, 40], 'NOREAD', [3, 6, 4, 2], [2, 2, 5, 0], [1, 1, 1, 99]]);
    expect(decoded(p, other.chunks)).toEqual(decoded(hand, other.chunks));
  });

  it('learns a rescan that has a type byte of its own as the rescan flag of the card reports', () => {
    // 6-byte reports [0x02, seq, type, card 1..52 (suits S H D C), 0, XOR-8 of bytes 0..4]: type 1 card, 5 rescan, 2 misread, 3 heartbeat, 4 loaded
    const hand = validateProfile('hid-rescan-shoe', {
      name: 'hid-rescan-shoe',
      talker: 'SHOE',
      input: 'hid-report',
      cards: { preset: 'index52' },
      seq: { wrap: 255 },
      report: {
        length: 6,
        id: { offset: 0, value: 2 },
        seq: { offset: 1 },
        checksum: { algorithm: 'xor8', offset: 5, from: 0, to: 5 },
        type: { offset: 2, map: { '1': 'CARD', '5': 'CARD', '2': 'MISREAD', '3': 'HB', '4': 'STATE' } },
        fields: { card: 3, rescan: 2 },
      },
      messages: [
        { name: 'card', bytes: { length: 1, fields: { card: { at: 0 } } }, type: 'CARD', map: { rescan: { '1': false, '5': true } } },
        { name: 'loaded', bytes: { length: 1 }, type: 'STATE', fields: { state: 'LOADED' } },
      ],
    });
    const capture = (steps: string[]): { chunks: Chunks; script: string } => {
      const chunks: Chunks = [];
      let seq = 0;
      const put = (type: number, card = 0): void => {
        const r = [2, seq++ & 0xff, type, card, 0];
        chunks.push({ t: chunks.length * 50, bytes: Buffer.from([...r, r.reduce((a, b) => a ^ b, 0)]) });
      };
      const index = (c: string): number => 'SHDC'.indexOf(c[1]) * 13 + 'A23456789TJQK'.indexOf(c[0]) + 1;
      steps.forEach((s, k) => {
        if (k % 10 === 0) put(3);
        if (s === 'LOADED') put(4);
        else if (s === 'MISREAD') put(2);
        else if (s.startsWith('RESCAN:')) put(5, index(s.slice(7)));
        else put(1, index(s));
      });
      put(3);
      return { chunks, script: steps.join(' ') };
    };
    const deck = shuffledDeck(8);
    const cap = capture(['LOADED', ...deck.slice(0, 20), 'MISREAD', `RESCAN:${deck[20]}`, ...deck.slice(21)]);
    const p = learned(learnProfile({ capture: cap.chunks, script: cap.script, transport: 'hid' }));
    expect(p.report?.type.map).toEqual({ '1': 'CARD', '5': 'CARD', '2': 'MISREAD', '3': 'HB', '4': 'STATE' });
    expect(p.report?.fields.rescan).toBe(2);
    const other = shuffledDeck(9);
    const next = capture([
      'LOADED',
      ...other.slice(0, 5),
      'MISREAD',
      `RESCAN:${other[5]}`,
      ...other.slice(6, 30),
      'MISREAD',
      `RESCAN:${other[30]}`,
      ...other.slice(31),
    ]);
    const want = decoded(hand, next.chunks);
    expect(want.filter((x) => x.includes('"rescan":true'))).toHaveLength(2);
    expect(decoded(p, next.chunks)).toEqual(want);
  });

  it('with no transport named, a capture of reports of one length is learned as HID; a serial capture is not taken for one', () => {
    const cap = hidChunks(shoeDeal());
    expect(looksLikeReports(cap.chunks)).toBe(true);
    expect(learned(learnProfile({ capture: cap.chunks, script: cap.script })).input).toBe('hid-report');
    const serial = parseCapture(buildCapture(DICE).text).chunks;
    expect(looksLikeReports(serial)).toBe(false);
  });

  it('the re-chunk check of a HID profile keeps reports whole: each on its own, and batched', () => {
    const cap = hidChunks(shoeDeal());
    const ways = reportChunkings(cap.chunks, 8);
    expect(ways.map((w) => w[0])).toEqual(['one report per read', 'reports batched']);
    // the batched reads hold several reports; the noise and cut reports stay as they came
    expect(ways[1][1].length).toBeLessThan(cap.chunks.length);
    expect(ways[1][1].some((c) => c.bytes.length > 8)).toBe(true);
    const r = rechunkCheck(hidHand, cap.chunks, decodeCapture(hidHand, cap.chunks));
    expect(r).toEqual({ variants: ['one report per read', 'reports batched'], same: true });
  });

  describe('bad input: exit 1 (or 3) with a reason, never a profile', () => {
    const cap = hidChunks(shoeDeal());
    it('a script that does not match the deal (two cards swapped)', () => {
      const script = cap.script.split('\n');
      const k = script.indexOf('9H');
      [script[k], script[k + 1]] = [script[k + 1], script[k]];
      const r = learnProfile({ capture: cap.chunks, script: script.join('\n'), transport: 'hid' });
      expect(r).toMatchObject({ exit: 1, code: 'no-profile' });
      if (r.exit === 1) expect(r.closest[0].description).toBe('HID reports of 8 bytes; crc8 at offset 7 over bytes 0..6');
      expect(r).not.toHaveProperty('yaml');
    });
    it("a dice reader's script with a card reader's capture", () => {
      const r = learnProfile({ capture: cap.chunks, script: 'ROLL:1,2,3 ROLL:4,5,6 NOREAD', kind: 'dice-sensor', transport: 'hid' });
      expect(r).toMatchObject({ exit: 1, code: 'no-profile' });
    });
    it('a serial capture said to be HID, and reports too few for the script', () => {
      const serial = parseCapture(buildCapture(DICE).text).chunks;
      const r = learnProfile({ capture: serial, script: buildCapture(DICE).script, kind: 'dice-sensor', transport: 'hid' });
      expect(r).toMatchObject({ exit: 1, code: 'no-profile' });
      if (r.exit === 1) expect(r.reason).toMatch(/capture is of this device/);
      const few = learnProfile({ capture: cap.chunks.slice(0, 6), script: cap.script, transport: 'hid' });
      expect(few).toMatchObject({ exit: 1, code: 'no-profile', reason: expect.stringContaining('fewer than the script') });
    });
    it('a deal of one suit cannot say the index order of the others: exit 3, "deal more cards"', () => {
      const spades = hidChunks(
        shuffledDeck(5)
          .filter((c) => c.endsWith('S'))
          .flatMap((card, i): DealStep[] => [...(i % 4 === 0 ? [{ k: 'hb' } as const] : []), { k: 'card', card }]),
      );
      const r = learnProfile({ capture: spades.chunks, script: spades.script, transport: 'hid' });
      expect(r.exit).toBe(3);
      if (r.exit === 3) expect(r.tellApart.join(' ')).toMatch(/^deal more cards: the cards seen also fit index52/);
    });
  });
});

describe('learnProfile on the dice reader with bit fields', () => {
  it('learns the corpus format (escape-XOR framing, CRC-8/MAXIM, dice and bounces in a little-endian word) and reads other rolls like the hand-written profile', () => {
    const cap = parseCapture(buildCapture(DICE).text);
    const r = learnProfile({ capture: cap.chunks, script: buildCapture(DICE).script, kind: 'dice-sensor' });
    const p = learned(r);
    expect(p.framing.stuffing).toMatchObject({ escape: '\u007d', mode: 'xor' });
    if (r.exit === 0) expect(r.yaml).toMatch(/^# - dice: d1 bits 0-2, d2 bits 3-5, d3 bits 6-8, bounces bits 9-13 of the little-endian word at offset 2/m);
    // other rolls, with values that need escaping on the wire (0x7D..0x7F in the word and the SEQ)
    const steps: DealStep[] = [{ k: 'hb' }];
    for (let i = 0; i < 40; i++) {
      const d: [number, number, number] = [1 + (i % 6), 1 + ((i * 5) % 6), 1 + ((i * 7 + 3) % 6)];
      steps.push(i % 7 === 3 ? { k: 'noread' } : { k: 'roll', dice: d, bounces: (i * 11) % 32 });
      if (i % 5 === 2) steps.push({ fault: 'bad-check' });
      if (i % 8 === 5) steps.push({ fault: 'noise' });
    }
    const hand = loadProfileFile(DICE.profilePath);
    const d = buildDeal(DICE, steps, 0x70);
    const chunks = d.writes.map((bytes, k) => ({ t: k * 40, bytes }));
    expect(Buffer.concat(d.writes).includes(0x7d)).toBe(true);
    const want = decoded(hand, chunks);
    expect(want.filter((x) => x.includes('"ROLL"')).length).toBeGreaterThan(30);
    expect(decoded(p, chunks)).toEqual(want);
  });

  it('learns dice as text (the shipped reference dice sensor, §1 DICE): the numbers that are the dice, bounces the one beside them', () => {
    const hand = loadProfileFile('drivers/profiles/shipped/reference-dice-sensor.yaml');
    const wire = profileWire(hand);
    const capture = (rolls: Array<number[] | 'NOREAD'>, seq0: number): { chunks: Chunks; script: string } => {
      const bytes: Buffer[] = [];
      let seq = seq0;
      const put = (type: string, fields: number[] = []): void => {
        bytes.push(Buffer.from(wire.encode('DICE', seq++, type, fields) as string, 'latin1'));
      };
      rolls.forEach((r, k) => {
        if (k % 3 === 0) put('HB');
        if (k % 4 === 1) bytes.push(Buffer.from('\x00zz\r\n', 'latin1'));
        if (r === 'NOREAD') put('NOREAD');
        else put('ROLL', r);
      });
      put('HB');
      // as a serial port delivers it: cut across the frames
      const all = Buffer.concat(bytes);
      const chunks: Chunks = [];
      for (let at = 0, k = 0; at < all.length; at += 7 + (k % 11), k++) chunks.push({ t: k * 20, bytes: all.subarray(at, at + 7 + (k % 11)) });
      return { chunks, script: rolls.map((r) => (r === 'NOREAD' ? 'NOREAD' : `ROLL:${r.slice(0, 3).join(',')}`)).join(' ') };
    };
    const cap = capture([[1, 4, 6, 3], [3, 3, 5, 0], 'NOREAD', [6, 6, 6, 21], [2, 5, 1, 7], [5, 2, 4, 12], 'NOREAD', [4, 1, 3, 9]], 5);
    const r = learnProfile({ capture: cap.chunks, script: cap.script, kind: 'dice-sensor' });
    const p = learned(r);
    const roll = p.messages.find((m) => m.type === 'ROLL')!;
    expect(roll.pattern).toBe('DICE,(?<seq>\\d{1,5}),ROLL,(?<d1>[1-6]),(?<d2>[1-6]),(?<d3>[1-6]),(?<bounces>\\d{1,2})');
    expect(roll.emit).toBe('DICE,{seq},ROLL,{d1},{d2},{d3},{bounces}');
    const other = capture([[6, 1, 2, 40], 'NOREAD', [3, 6, 4, 2], [2, 2, 5, 0], [1, 1, 1, 99]], 900);
    expect(decoded(p, other.chunks)).toEqual(decoded(hand, other.chunks));
  });

  it('rolls too few to place the dice are exit 3, "roll more dice"', () => {
    const steps: DealStep[] = [{ k: 'hb' }, { k: 'roll', dice: [2, 2, 5], bounces: 1 }, { k: 'hb' }, { k: 'roll', dice: [4, 4, 5], bounces: 2 }, { k: 'hb' }];
    const d = buildDeal(DICE, steps);
    const r = learnProfile({ capture: d.writes.map((bytes, k) => ({ t: k * 40, bytes })), script: d.script, kind: 'dice-sensor' });
    expect(r.exit).toBe(3);
    if (r.exit === 3) expect(r.tellApart.join(' ')).toMatch(/roll more dice/);
  });
});
