import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { type DeviceProfile, loadProfileFile, validateProfile } from '../../../drivers/profiles/profile-schema.js';
import { type DealStep, dealCapture, shuffledDeck } from '../../../simulators/devices/deal-capture.js';
import { parseScript } from '../../../src/app/tools/learn-script.js';
import { decodeCapture } from '../../../src/app/tools/profile-check.js';
import { learnProfile } from '../../../src/app/tools/profile-learn.js';

const shipped = (name: string): DeviceProfile => loadProfileFile(`drivers/profiles/shipped/${name}.yaml`);

/** DLE STX <type> <seq> <card index 1..52> DLE ETX <CRC-16/MODBUS, little endian>: stuffing needed whenever a byte is 0x10 */
const dleCrcShoe = validateProfile('dle-crc-shoe', {
  name: 'dle-crc-shoe',
  talker: 'SHOE',
  encoding: 'binary',
  framing: { start: '\u0010\u0002', end: '\u0010\u0003', trailer: 2, stuffing: { escape: '\u0010', mode: 'double' }, maxLength: 32 },
  integrity: { algorithm: 'crc16-modbus', encoding: 'binary-le', place: 'after-end' },
  cards: { preset: 'index52' },
  seq: { wrap: 255 },
  messages: [
    { name: 'card', type: 'CARD', seq: 'seq', bytes: { length: 3, match: [{ at: 0, value: 0x43 }], fields: { seq: { at: 1 }, card: { at: 2 } } } },
    { name: 'rescan', type: 'CARD', seq: 'seq', fields: { rescan: true }, bytes: { length: 3, match: [{ at: 0, value: 0x52 }], fields: { seq: { at: 1 }, card: { at: 2 } } } },
    { name: 'misread', type: 'MISREAD', seq: 'seq', bytes: { length: 2, match: [{ at: 0, value: 0x4d }], fields: { seq: { at: 1 } } } },
    { name: 'cut', type: 'CUT', seq: 'seq', bytes: { length: 2, match: [{ at: 0, value: 0x58 }], fields: { seq: { at: 1 } } } },
    { name: 'loaded', type: 'STATE', seq: 'seq', fields: { state: 'LOADED' }, bytes: { length: 2, match: [{ at: 0, value: 0x4c }], fields: { seq: { at: 1 } } } },
    { name: 'heartbeat', type: 'HB', seq: 'seq', bytes: { length: 2, match: [{ at: 0, value: 0x48 }], fields: { seq: { at: 1 } } } },
  ],
});

/** a vendor byte per card, in no order a preset knows */
const vendorTable: Record<string, string> = {};
shuffledDeck(99).forEach((card, k) => {
  vendorTable[String(0x80 + ((k * 37) % 64))] = card;
});

/** 0xA5 <len: bytes after it> <type> <seq lo> <seq hi> [<vendor card byte>] <CRC-16/CCITT-FALSE big endian> */
const lengthTableShoe = validateProfile('length-table-shoe', {
  name: 'length-table-shoe',
  talker: 'SHOE',
  encoding: 'binary',
  framing: { start: '\u00a5', lengthField: { offset: 1, width: 1, counts: 'following' }, maxLength: 32 },
  integrity: { algorithm: 'crc16-ccitt-false', encoding: 'binary-be', place: 'before-end' },
  cards: { preset: 'table', table: vendorTable },
  messages: [
    { name: 'card', type: 'CARD', seq: 'seq', bytes: { length: 5, match: [{ at: 1, value: 0x01 }], fields: { seq: { at: 2, width: 2, order: 'le' }, card: { at: 4 } } } },
    { name: 'rescan', type: 'CARD', seq: 'seq', fields: { rescan: true }, bytes: { length: 5, match: [{ at: 1, value: 0x02 }], fields: { seq: { at: 2, width: 2, order: 'le' }, card: { at: 4 } } } },
    { name: 'misread', type: 'MISREAD', seq: 'seq', bytes: { length: 4, match: [{ at: 1, value: 0x03 }], fields: { seq: { at: 2, width: 2, order: 'le' } } } },
    { name: 'cut', type: 'CUT', seq: 'seq', bytes: { length: 4, match: [{ at: 1, value: 0x04 }], fields: { seq: { at: 2, width: 2, order: 'le' } } } },
    { name: 'loaded', type: 'STATE', seq: 'seq', fields: { state: 'LOADED' }, bytes: { length: 4, match: [{ at: 1, value: 0x05 }], fields: { seq: { at: 2, width: 2, order: 'le' } } } },
    { name: 'heartbeat', type: 'HB', seq: 'seq', bytes: { length: 4, match: [{ at: 1, value: 0x06 }], fields: { seq: { at: 2, width: 2, order: 'le' } } } },
  ],
});

/** a shoe loaded, a full deck dealt with a misread and its rescan in it, the cut card */
function deal(seed: number, decks = 1): DealStep[] {
  const cards = shuffledDeck(seed, decks);
  return ['LOADED', ...cards.slice(0, 9), 'MISREAD', `RESCAN:${cards[9]}`, ...cards.slice(10, 30), 'CUT', ...cards.slice(30)];
}

/** the frames (with SEQ) and the number of rejects a profile decodes from a capture */
function decoded(p: DeviceProfile, chunks: Array<{ t: number; bytes: Buffer }>): { frames: string[]; rejects: number } {
  const r = decodeCapture(p, chunks);
  return { frames: r.items.flatMap((i) => ('frame' in i ? [JSON.stringify(i.frame)] : [])), rejects: r.summary.rejects };
}

describe('learnProfile', () => {
  const formats: Array<[string, DeviceProfile]> = [
    ['stx-etx-bcc-shoe (shipped)', shipped('stx-etx-bcc-shoe')],
    ['reference-shoe (shipped)', shipped('reference-shoe')],
    ['DLE-stuffed binary with a CRC-16 after DLE ETX', dleCrcShoe],
    ['length-prefixed binary with an explicit per-card code table', lengthTableShoe],
  ];
  for (const [what, hand] of formats) {
    it(`learns ${what} from a deal with line faults, decoding like the hand-written profile`, () => {
      const cap = dealCapture(hand, deal(11), { noise: 3, badChecks: 2, seed: 3 });
      const r = learnProfile({ capture: cap.chunks, script: cap.script, kind: 'card-shoe' });
      if (r.exit !== 0) throw new Error(`exit ${r.exit}: ${JSON.stringify(r, null, 1)}`);
      // the YAML written is the profile verified
      const written = validateProfile('learned', parseYaml(r.yaml));
      expect(written).toEqual(r.profile);
      expect(r.yaml).toMatch(/^# - framing: .* from \d+ frames$/m);
      expect(r.yaml).toMatch(/^# - integrity: .* verified on \d+ of \d+ frames/m);
      // identical on the capture it learned from, and on another deal it never saw
      expect(decoded(written, cap.chunks)).toEqual(decoded(hand, cap.chunks));
      const other = dealCapture(hand, deal(12), { noise: 4, badChecks: 3, seed: 8 });
      const want = decoded(hand, other.chunks);
      expect(decoded(written, other.chunks)).toEqual(want);
      expect(want.frames.filter((f) => f.includes('"CARD"'))).toHaveLength(52);
      expect(want.rejects).toBeGreaterThanOrEqual(4);
    });
  }

  it('solves an explicit card table only from all 52 cards: a part deal is exit 3, "deal more cards"', () => {
    const cap = dealCapture(lengthTableShoe, deal(11).slice(0, 20), { seed: 2 });
    const r = learnProfile({ capture: cap.chunks, script: cap.script });
    expect(r.exit).not.toBe(0);
    const text = JSON.stringify(r);
    expect(text).toContain('deal more cards');
  });

  it('says to include a misread when the deal had none', () => {
    const steps = deal(4).filter((s) => s !== 'MISREAD' && !s.startsWith('RESCAN:'));
    const cap = dealCapture(shipped('stx-etx-bcc-shoe'), steps, { seed: 4 });
    const r = learnProfile({ capture: cap.chunks, script: cap.script });
    expect(r.exit).toBe(0);
    if (r.exit === 0) expect(r.warnings.join(' ')).toContain('include a misread');
  });

  describe('bad input: exit 1 with a clear reason, no profile', () => {
    const hand = shipped('stx-etx-bcc-shoe');
    const cap = dealCapture(hand, deal(21), { seed: 5 });

    it('an empty capture', () => {
      const r = learnProfile({ capture: [], script: cap.script });
      expect(r).toMatchObject({ exit: 1, code: 'capture-empty' });
    });

    it('a capture of something else (a scanner) with a shoe script', () => {
      const scanner = dealCapture(shipped('serial-scanner'), shuffledDeck(3).slice(0, 30), { seed: 6 });
      const r = learnProfile({ capture: scanner.chunks, script: cap.script });
      expect(r).toMatchObject({ exit: 1, code: 'no-profile' });
      if (r.exit === 1) expect(r.reason).toMatch(/capture is of this device/);
    });

    it('a script that does not match the deal (two cards swapped)', () => {
      const steps = deal(21);
      [steps[3], steps[4]] = [steps[4], steps[3]];
      const r = learnProfile({ capture: cap.chunks, script: steps.join(' ') });
      expect(r).toMatchObject({ exit: 1, code: 'no-profile' });
      if (r.exit === 1) {
        expect(r.closest.length).toBeGreaterThan(0);
        expect(r.closest.map((c) => c.problem).join('\n')).toMatch(/differ|script/);
      }
    });

    it('a script with a token that is no event', () => {
      const r = learnProfile({ capture: cap.chunks, script: 'AS KD ZZ' });
      expect(r).toMatchObject({ exit: 1, code: 'script-invalid' });
      if (r.exit === 1) expect(r.reason).toContain('"ZZ"');
    });
  });
});

describe('parseScript', () => {
  it('reads cards, events, comments and commas; ROLL keeps its commas', () => {
    const r = parseScript('# shoe 1\nLOADED AS,10h  th\nMISREAD RESCAN:9C # the rescan\nROLL:1,4,6 BALL:17 CUT');
    expect(r).toEqual({
      ok: true,
      events: [
        { type: 'STATE', state: 'LOADED' },
        { type: 'CARD', card: 'AS', rescan: false },
        { type: 'CARD', card: 'TH', rescan: false },
        { type: 'CARD', card: 'TH', rescan: false },
        { type: 'MISREAD' },
        { type: 'CARD', card: '9C', rescan: true },
        { type: 'ROLL', dice: [1, 4, 6] },
        { type: 'BALL', ball: 17 },
        { type: 'CUT' },
      ],
    });
  });
  it('refuses an empty script and names a bad token with its line', () => {
    expect(parseScript('# nothing\n')).toMatchObject({ ok: false, code: 'script-empty' });
    expect(parseScript('AS\nRESCAN:XX')).toMatchObject({ ok: false, code: 'script-bad-token', reason: expect.stringContaining('line 2') });
  });
});
