/**
 * The hand-written decoders of the device corpus (dev/corpus/hand-decoders.ts), the bench's
 * yardstick for the profile engine, do a real decoder's work: on the capture of each format's
 * deal with line faults (noise, a frame cut short, a bad check value) they give exactly the
 * deal's events and rejects, and item for item what the format's profile gives through the
 * profile engine (frames and rejects alike, the rejects' raw text included), as the capture
 * arrived, in 1-byte chunks, all at once and however it is chunked.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildCapture, CORPUS, describeItem, type CorpusEntry } from '../../dev/corpus/index.js';
import { HAND_DECODERS, type HandItem } from '../../dev/corpus/hand-decoders.js';
import { compileProfile } from '../../drivers/profiles/profile-decoder.js';
import { loadProfileFile } from '../../drivers/profiles/profile-schema.js';
import { parseCapture } from '../../src/app/tools/capture-file.js';
import { splitAt } from '../helpers/chunks.js';

const RUNS = Number(process.env.FC_RUNS ?? 60);

function hand(e: CorpusEntry, chunks: readonly Buffer[]): HandItem[] {
  const d = HAND_DECODERS[e.name]();
  const out: HandItem[] = [];
  for (const c of chunks) out.push(...d.push(c));
  out.push(...d.end());
  return out;
}

function engine(e: CorpusEntry, chunks: readonly Buffer[]): HandItem[] {
  const d = compileProfile(loadProfileFile(e.profilePath));
  const out: HandItem[] = [];
  for (const c of chunks) out.push(...d.push(c));
  out.push(...d.endOfStream());
  return out;
}

it('there is a hand-written decoder for every corpus format and for nothing else', () => {
  expect(Object.keys(HAND_DECODERS).sort()).toEqual(CORPUS.map((e) => e.name).sort());
});

describe.each(CORPUS.map((e) => [e.name, e] as const))('hand-written decoder of %s', (_name, e) => {
  const built = buildCapture(e);
  const arrived = parseCapture(built.text, e.name).chunks.map((c) => c.bytes);
  const all = Buffer.concat(arrived);
  const hid = e.encoder.reportBytes !== undefined;
  const reference = engine(e, arrived);

  it('reads the capture as it arrived to exactly the deal, every line fault a reject', () => {
    const items = hand(e, arrived);
    expect(items.map((i) => describeItem(i, e.hasSeq))).toEqual(built.expected);
    expect(items.filter((i) => 'reason' in i).length).toBeGreaterThanOrEqual(4);
  });

  it('gives the profile engine items, rejects and their raw text included', () => {
    expect(hand(e, arrived)).toEqual(reference);
  });

  it('gives them in 1-byte chunks, all at once and however the capture is chunked', () => {
    if (hid) {
      // a HID reader gets whole reports: each alone, or batched
      expect(hand(e, [all])).toEqual(engine(e, [all]));
      return;
    }
    expect(
      hand(
        e,
        [...all].map((b) => Buffer.of(b)),
      ),
    ).toEqual(reference);
    expect(hand(e, [all])).toEqual(reference);
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 40 }), (cuts) => {
        expect(hand(e, splitAt(all, cuts))).toEqual(reference);
      }),
      { numRuns: RUNS },
    );
  });

  it('rejects a frame whose check value is damaged, and reads the next', () => {
    const sample = e.deal.find((s) => !('fault' in s) && e.encoder.frame(s, 7) !== null)!;
    const good = e.encoder.frame(sample as never, 7)!;
    const damaged = e.encoder.badCheck(good);
    const items = hand(e, [Buffer.concat([damaged, good])]);
    expect(items.map((i) => ('reason' in i ? `reject ${i.reason}` : 'frame'))).toEqual(['reject bad-checksum', 'frame']);
  });
});
