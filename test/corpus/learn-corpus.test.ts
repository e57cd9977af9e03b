/**
 * `tablegw profile learn` on the corpus (issue 32 point 6): for every format, the profile learned
 * from the capture of the known deal and the technician's script decodes the capture, as it
 * arrived and re-chunked, exactly as the hand-written profile does.
 *
 * It needs the learner, `src/app/tools/profile-learn.ts` (`learnProfile({ capture, script, kind })`).
 * Until that module exists these tests are skipped and say why (they never pass without it).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileProfile, type DecodedItem } from '../../drivers/profiles/profile-decoder.js';
import { type DeviceProfile, loadProfileFile, validateProfile } from '../../drivers/profiles/profile-schema.js';
import { parseCapture } from '../../src/app/tools/capture-file.js';
import { buildCapture, CORPUS, describeItem, type CorpusEntry } from '../../dev/corpus/index.js';

const LEARNER = join(dirname(fileURLToPath(import.meta.url)), '../../src/app/tools/profile-learn.ts');
const haveLearner = existsSync(LEARNER);
if (!haveLearner) console.warn(`SKIPPED: learned-profile corpus tests: ${LEARNER} does not exist yet (the learner of issue 32 point 4); they run once it does`);

function decode(p: DeviceProfile, chunks: readonly Buffer[], withSeq: boolean): string[] {
  const d = compileProfile(p);
  const out: DecodedItem[] = [];
  for (const c of chunks) out.push(...d.push(c));
  out.push(...d.endOfStream());
  return out.map((i) => describeItem(i, withSeq));
}

/** the learned profile out of whatever the learner answers: a profile object, YAML text, or `{ profile }` */
async function learn(e: CorpusEntry, captureText: string, script: string): Promise<DeviceProfile> {
  const mod = (await import(/* @vite-ignore */ LEARNER)) as { learnProfile: (a: unknown) => unknown };
  const capture = parseCapture(captureText, e.name);
  const r = (await mod.learnProfile({ capture, script, kind: e.kind })) as Record<string, unknown>;
  const candidate = (r && typeof r === 'object' && 'profile' in r ? r.profile : r) as unknown;
  if (typeof candidate === 'string') {
    const { parse } = await import('yaml');
    return validateProfile(`${e.name} (learned)`, parse(candidate));
  }
  return validateProfile(`${e.name} (learned)`, candidate);
}

describe.each(CORPUS.map((e) => [e.name, e] as const))('profile learn on corpus format %s', (_name, e) => {
  it.skipIf(!haveLearner)('learns a profile that decodes the capture identically to the hand-written one', async () => {
    const built = buildCapture(e);
    const arrived = parseCapture(built.text, e.name).chunks.map((c) => c.bytes);
    const learned = await learn(e, built.text, built.script);
    const hand = loadProfileFile(e.profilePath);
    // the SEQ too, when the learned profile reads one
    const withSeq = e.hasSeq && learned.messages.some((m) => m.seq !== undefined || learned.report?.seq !== undefined);
    expect(decode(learned, arrived, withSeq)).toEqual(decode(hand, arrived, withSeq));
    if (e.encoder.reportBytes === undefined) {
      const all = Buffer.concat(arrived);
      expect(decode(learned, [...all].map((b) => Buffer.of(b)), withSeq)).toEqual(decode(hand, arrived, withSeq));
      expect(decode(learned, [all], withSeq)).toEqual(decode(hand, arrived, withSeq));
    }
  }, 60_000);
});
