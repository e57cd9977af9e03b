import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { type DeviceProfile, loadProfileFile, validateProfile } from '../../../drivers/profiles/profile-schema.js';
import { dleCrcShoe, lengthTableShoe } from '../../helpers/learn-formats.js';
import { type DealStep, dealCapture, shuffledDeck } from '../../../simulators/devices/deal-capture.js';
import { parseScript } from '../../../src/app/tools/learn/script.js';
import { decodeCapture } from '../../../src/app/tools/profile-check.js';
import { learnProfile } from '../../../src/app/tools/profile-learn.js';

const shipped = (name: string): DeviceProfile => loadProfileFile(`drivers/profiles/shipped/${name}.yaml`);

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

  // formats with no message for a misread or for the shoe's state: a deal of cards and the cut (what they can say)
  for (const name of ['four-digit-shoe', 'serial-scanner', 'stx-etx-shoe']) {
    it(`learns the shipped ${name} from a plain deal, decoding like the hand-written profile`, () => {
      const hand = shipped(name);
      const steps = shuffledDeck(17);
      const cap = dealCapture(hand, steps, { seed: 6 });
      const r = learnProfile({ capture: cap.chunks, script: cap.script });
      if (r.exit !== 0) throw new Error(`exit ${r.exit}: ${JSON.stringify(r, null, 1)}`);
      const other = dealCapture(hand, shuffledDeck(18), { seed: 7 });
      expect(decoded(r.profile, other.chunks)).toEqual(decoded(hand, other.chunks));
      expect(decoded(r.profile, other.chunks).frames.filter((f) => f.includes('"CARD"'))).toHaveLength(52);
    });
  }

  it('solves an explicit card table only from all 52 cards: a part deal is exit 3, "deal more cards"', () => {
    const cap = dealCapture(lengthTableShoe, deal(11).slice(0, 20), { seed: 2 });
    const r = learnProfile({ capture: cap.chunks, script: cap.script });
    expect(r.exit).not.toBe(0);
    const text = JSON.stringify(r);
    expect(text).toContain('deal more cards');
  });

  for (const name of ['star-keno', 'reference-ball-reader']) {
    it(`learns the shipped ${name} (a ball reader) from a draw, decoding like the hand-written profile`, () => {
      const hand = shipped(name);
      const draw = (balls: number[]): string[] => ['START', ...balls.map((b) => `BALL:${b}`), 'END'];
      const cap = dealCapture(hand, draw([17, 3, 80, 45, 9, 22, 61, 5, 38, 70, 12, 1, 66, 29, 54, 33, 8, 47, 75, 20]), { seed: 2 });
      const r = learnProfile({ capture: cap.chunks, script: cap.script, kind: 'ball-reader' });
      if (r.exit !== 0) throw new Error(`exit ${r.exit}: ${JSON.stringify(r, null, 1)}`);
      expect(r.profile.talker).toBe('BALL');
      const other = dealCapture(hand, draw([2, 79, 40, 11, 63, 7, 31, 58, 24, 15, 50, 4, 72, 36, 19, 68, 27, 44, 6, 77]), { seed: 3 });
      expect(decoded(r.profile, other.chunks)).toEqual(decoded(hand, other.chunks));
    });
  }

  it('a deal that several card codings read alike is exit 3, "deal more cards"', () => {
    // index 1..52: a deal of spades only cannot say in which order the other suits come
    const index52 = validateProfile('index-shoe', {
      name: 'index-shoe',
      talker: 'SHOE',
      framing: { start: '<', end: '\r\n' },
      integrity: { algorithm: 'sum8', encoding: 'hex', separator: '#' },
      cards: { preset: 'index52' },
      messages: [
        { name: 'card', pattern: 'K(?<card>\\d{1,2})', type: 'CARD', emit: 'K{card}' },
        { name: 'hb', pattern: 'Z', type: 'HB', emit: 'Z' },
      ],
    });
    const spades = shuffledDeck(5).filter((c) => c.endsWith('S'));
    const cap = dealCapture(index52, spades, { seed: 1 });
    const r = learnProfile({ capture: cap.chunks, script: cap.script });
    expect(r.exit).toBe(3);
    if (r.exit === 3) expect(r.tellApart.join(' ')).toMatch(/deal more cards: the cards seen also fit index52 \(suits S/);
    // the whole deck settles it
    const full = dealCapture(index52, shuffledDeck(5), { seed: 1 });
    const learned = learnProfile({ capture: full.chunks, script: full.script });
    expect(learned.exit).toBe(0);
    if (learned.exit === 0) expect(decoded(learned.profile, full.chunks)).toEqual(decoded(index52, full.chunks));
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
