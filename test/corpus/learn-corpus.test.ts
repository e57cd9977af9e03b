/**
 * `tablegw profile learn` on the corpus (issue 32 point 6): for every format, the profile learned
 * from the capture of the known deal and the technician's script decodes the capture, as it
 * arrived and re-chunked, exactly as the hand-written profile does, and reads no event of another
 * format's capture.
 */
import { describe, expect, it } from 'vitest';
import { compileProfile, type DecodedItem } from '../../drivers/profiles/profile-decoder.js';
import { type DeviceProfile, loadProfileFile, validateProfile } from '../../drivers/profiles/profile-schema.js';
import { parseCapture } from '../../src/app/tools/capture-file.js';
import { learnProfile } from '../../src/app/tools/profile-learn.js';
import { buildCapture, CORPUS, describeItem, fullDeckDeal, type CorpusEntry } from '../../dev/corpus/index.js';

function decode(p: DeviceProfile, chunks: readonly Buffer[], withSeq: boolean): string[] {
  const d = compileProfile(p);
  const out: DecodedItem[] = [];
  for (const c of chunks) out.push(...d.push(c));
  out.push(...d.endOfStream());
  return out.map((i) => describeItem(i, withSeq));
}

/** the profile the learner wrote (exit 0), read back through the profile schema from its YAML */
async function learn(e: CorpusEntry, captureText: string, script: string): Promise<DeviceProfile> {
  const capture = parseCapture(captureText, e.name);
  const r = learnProfile({ capture: capture.chunks, script, kind: e.kind as never, name: e.name, transport: capture.header.transport });
  if (r.exit !== 0) throw new Error(`${e.name}: learn exit ${r.exit} (${r.status}): ${r.reason}`);
  const { parse } = await import('yaml');
  return validateProfile(`${e.name} (learned)`, parse(r.yaml));
}

describe.each(CORPUS.map((e) => [e.name, e] as const))('profile learn on corpus format %s', (_name, e) => {
  it('learns a profile that decodes the capture identically to the hand-written one', async () => {
    const built = buildCapture(e);
    const arrived = parseCapture(built.text, e.name).chunks.map((c) => c.bytes);
    const learned = await learnedProfile(e);
    const hand = loadProfileFile(e.profilePath);
    // the SEQ too, when the learned profile reads one
    const withSeq = e.hasSeq && learned.messages.some((m) => m.seq !== undefined || learned.report?.seq !== undefined);
    expect(decode(learned, arrived, withSeq)).toEqual(decode(hand, arrived, withSeq));
    if (e.encoder.reportBytes === undefined) {
      const all = Buffer.concat(arrived);
      expect(
        decode(
          learned,
          [...all].map((b) => Buffer.of(b)),
          withSeq,
        ),
      ).toEqual(decode(hand, arrived, withSeq));
      expect(decode(learned, [all], withSeq)).toEqual(decode(hand, arrived, withSeq));
    }
  }, 60_000);
});

/** the learned profiles, once per format */
const learnedOnce = new Map<string, Promise<DeviceProfile>>();
function learnedProfile(e: CorpusEntry): Promise<DeviceProfile> {
  let p = learnedOnce.get(e.name);
  if (!p) {
    const built = buildCapture(e);
    p = learn(e, built.text, built.script);
    learnedOnce.set(e.name, p);
  }
  return p;
}

/** a script of another kind of device than the format's (a shoe's capture with a keno draw's script, and back) */
const otherKindScript = (e: CorpusEntry): { script: string; kind: string } => {
  const other = CORPUS.find((o) => o.kind !== e.kind && (o.kind === 'card-shoe' || o.kind === 'ball-reader'))!;
  return { script: buildCapture(other).script, kind: other.kind };
};

describe.each(CORPUS.map((e) => [e.name, e] as const))('the profile learned for %s stays its own', (_name, e) => {
  it("decodes no event from any other format's capture (rejects only)", async () => {
    const learned = await learnedProfile(e);
    for (const o of CORPUS) {
      if (o === e) continue;
      const bytes = Buffer.concat(parseCapture(buildCapture(o).text, o.name).chunks.map((c) => c.bytes));
      const events = decode(learned, [bytes], false).filter((x) => !x.startsWith('reject '));
      expect(events, `${e.name}'s learned profile on the capture of ${o.name}`).toEqual([]);
    }
  }, 60_000);
  it('is not learned from its capture with the script of another kind of device (exit 1)', async () => {
    const { script, kind } = otherKindScript(e);
    const r = learnProfile({ capture: parseCapture(buildCapture(e).text, e.name).chunks, script, kind: kind as never });
    expect(r.exit).toBe(1);
  }, 60_000);
});

// a shoe's learned profile reads every card, not only those of the deal it learned from (a ten, an ace the deal lacked)
describe.each(CORPUS.filter((e) => e.kind === 'card-shoe').map((e) => [e.name, e] as const))('the profile learned for corpus shoe %s', (_name, e) => {
  it('decodes a whole deck it never saw (with line faults) identically to the hand-written one', async () => {
    const built = buildCapture(e);
    const learned = await learn(e, built.text, built.script);
    const hand = loadProfileFile(e.profilePath);
    const withSeq = e.hasSeq && learned.messages.some((m) => m.seq !== undefined);
    const deck = parseCapture(buildCapture(e, fullDeckDeal()).text, e.name).chunks.map((c) => c.bytes);
    const want = decode(hand, deck, withSeq);
    expect(want.filter((x) => x.startsWith('CARD '))).toHaveLength(52);
    expect(decode(learned, deck, withSeq)).toEqual(want);
  }, 60_000);
});
