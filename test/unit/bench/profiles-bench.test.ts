import { describe, expect, it } from 'vitest';
import {
  ASCII_TARGET,
  profileTargets,
  runProfilesBench,
  sampledProfileNames,
  shippedProfileNames,
  withProfilesTable,
  type ProfileBenchRow,
  type ProfilesBenchResult,
} from '../../../dev/bench/profiles-bench.js';
import { CORPUS } from '../../../dev/corpus/index.js';

const row = (profile: string, framesPerSecond: number, referenceFramesPerSecond: number, ascii = true): ProfileBenchRow => {
  const ratio = Math.round((referenceFramesPerSecond / framesPerSecond) * 100) / 100;
  return {
    profile,
    framesPerSecond,
    reference: 'LineCodec SHOE',
    referenceFramesPerSecond,
    ratio,
    ascii,
    met: ratio <= 2 && (!ascii || framesPerSecond > ASCII_TARGET),
  };
};
const result = (rows: ProfileBenchRow[], unsampled: string[] = []): ProfilesBenchResult => ({ framesPerChunk: 1000, secondsPerDecoder: 1, rows, unsampled });

describe('the device profile phase of the bench', () => {
  it('has a sample for every shipped profile, and none for a profile that is not shipped', () => {
    expect(sampledProfileNames()).toEqual(shippedProfileNames());
    expect(shippedProfileNames().length).toBeGreaterThan(10);
  });

  it("decodes every shipped profile's sample and times it beside its reference decoder", () => {
    const r = runProfilesBench(() => {}, 0.01);
    expect(r.unsampled).toEqual([]);
    expect(r.rows.filter((x) => !x.corpus).map((x) => x.profile)).toEqual(shippedProfileNames());
    // and every format of the device corpus beside its hand-written decoder
    expect(r.rows.filter((x) => x.corpus).map((x) => x.profile)).toEqual(CORPUS.map((e) => `corpus:${e.name}`));
    for (const x of r.rows) {
      expect(x.framesPerSecond).toBeGreaterThan(0);
      expect(x.referenceFramesPerSecond).toBeGreaterThan(0);
      expect(x.ratio).toBeCloseTo(x.referenceFramesPerSecond / x.framesPerSecond, 1);
    }
    // binary frames and HID reports are not an ASCII byte stream: only the ratio applies to them
    expect(
      r.rows
        .filter((x) => !x.ascii && !x.corpus)
        .map((x) => x.profile)
        .sort(),
    ).toEqual(['hid-dice-sensor', 'modbus-dice', 'wedge-scanner']);
  });

  it('states both targets, naming the slowest ASCII profile and the worst ratio', () => {
    const [ascii, ratio] = profileTargets(result([row('a', 3_000_000, 900_000), row('b', 1_200_000, 1_000_000), row('hid', 500_000, 700_000, false)]));
    expect(ascii.met).toBe(true);
    expect(ascii.value).toBe('2 of 2 above; slowest b 1,200,000 (x1.20 of the target)');
    expect(ratio.met).toBe(true);
    expect(ratio.value).toBe('3 of 3 within; worst hid x1.40 (500,000 vs LineCodec SHOE 700,000 frames/s)');
  });

  it('holds the corpus formats to 1M frames/s each, naming the slowest, in a target of their own', () => {
    const corpusRow = (name: string, fps: number): ProfileBenchRow => ({ ...row(name, fps, fps), ascii: false, corpus: true });
    const none = profileTargets(result([row('a', 3_000_000, 900_000)]));
    expect(none).toHaveLength(2);
    const t = profileTargets(result([row('a', 3_000_000, 900_000), corpusRow('corpus:x', 2_000_000), corpusRow('corpus:y', 400_000)]));
    expect(t).toHaveLength(4);
    expect(t[2].met).toBe(false);
    expect(t[2].value).toBe('1 of 2 above; slowest corpus:y 400,000 (x0.40 of the target)');
    // and their ratio to the hand-written decoders, a target of its own
    const slow = (name: string, fps: number, hand: number): ProfileBenchRow => ({ ...row(name, fps, hand), ascii: false, corpus: true });
    const r = profileTargets(result([row('a', 3_000_000, 900_000), slow('corpus:x', 2_000_000, 3_000_000), slow('corpus:y', 2_000_000, 5_000_000)]));
    expect(r[3].met).toBe(false);
    expect(r[3].value).toMatch(/^1 of 2 within \(x\); worst corpus:y x2\.50/);
    // the ASCII target is for the shipped profiles only
    expect(t[0].value).toBe('1 of 1 above; slowest a 3,000,000 (x3.00 of the target)');
  });

  it('misses a target when one profile misses it, or when a shipped profile was not timed', () => {
    const slow = profileTargets(result([row('a', 3_000_000, 900_000), row('b', 800_000, 1_000_000)]));
    expect(slow[0].met).toBe(false);
    expect(slow[0].value).toMatch(/^1 of 2 above; slowest b 800,000/);
    expect(slow[1].met).toBe(true);
    const far = profileTargets(result([row('a', 1_100_000, 2_500_000)]));
    expect(far[1].met).toBe(false);
    expect(far[1].value).toMatch(/^0 of 1 within; worst a x2\.27/);
    const untimed = profileTargets(result([row('a', 3_000_000, 900_000)], ['new-shoe']));
    expect(untimed.map((t) => t.met)).toEqual([false, false]);
    expect(untimed[0].note).toBe('not timed (no bench sample): new-shoe');
  });

  it('rewrites the per-profile table between its markers in docs/PERFORMANCE.md, and nothing else', () => {
    const doc = 'before\n<!-- profiles:begin -->\nold table\n<!-- profiles:end -->\nafter\n';
    const next = withProfilesTable(doc, result([row('a', 3_000_000, 900_000), row('hid', 500_000, 1_200_000, false)], ['new-shoe']), 'abc1234');
    expect(next.startsWith('before\n<!-- profiles:begin -->\nThe figures of the run in "Latest figures" (commit `abc1234`')).toBe(true);
    expect(next.endsWith('<!-- profiles:end -->\nafter\n')).toBe(true);
    expect(next).not.toContain('old table');
    expect(next).toContain('| a | 3,000,000 | LineCodec SHOE | 900,000 | 0.30 | yes |');
    expect(next).toContain('| hid (not ASCII bytes) | 500,000 | LineCodec SHOE | 1,200,000 | 2.40 | **no** |');
    expect(next).toContain('| new-shoe | not timed: no bench sample | | | | **no** |');
    expect(withProfilesTable('no markers here', result([]), 'x')).toBe('no markers here');
  });
});
