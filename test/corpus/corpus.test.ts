/**
 * The device corpus (dev/corpus/index.ts): for every format, the hand-written profile decodes
 * the capture of the known deal, written by the format's independent encoder with line faults
 * (noise, a frame cut short, a bad check value, a misread), to exactly the deal's events and
 * rejects in order; as the capture arrived, and re-chunked from 1-byte chunks to the whole
 * capture at once (a HID device's reports are whole: there the batching of reports varies).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileProfile, type DecodedItem } from '../../drivers/profiles/profile-decoder.js';
import { loadProfileFile, profileWarnings } from '../../drivers/profiles/profile-schema.js';
import { parseCapture } from '../../src/app/tools/capture-file.js';
import { splitAt } from '../helpers/chunks.js';
import { buildCapture, CORPUS, describeItem, type CorpusEntry } from '../../dev/corpus/index.js';

const RUNS = Number(process.env.FC_RUNS ?? 60);

function decode(e: CorpusEntry, chunks: readonly Buffer[]): string[] {
  const d = compileProfile(loadProfileFile(e.profilePath));
  const out: DecodedItem[] = [];
  for (const c of chunks) out.push(...d.push(c));
  out.push(...d.endOfStream());
  return out.map((i) => describeItem(i, e.hasSeq));
}

/** a HID capture's reports, batched as a host may deliver them: runs of whole reports joined, a report of the wrong size alone */
function batchReports(chunks: readonly Buffer[], size: number, every: number): Buffer[] {
  const out: Buffer[] = [];
  let run: Buffer[] = [];
  const flush = () => {
    if (run.length) out.push(Buffer.concat(run));
    run = [];
  };
  for (const c of chunks) {
    if (c.length !== size) {
      flush();
      out.push(c);
      continue;
    }
    run.push(c);
    if (run.length >= every) flush();
  }
  flush();
  return out;
}

it('the corpus has at least 12 distinct formats, each with its own profile', () => {
  expect(CORPUS.length).toBeGreaterThanOrEqual(12);
  expect(new Set(CORPUS.map((e) => e.name)).size).toBe(CORPUS.length);
  expect(new Set(CORPUS.map((e) => loadProfileFile(e.profilePath).name)).size).toBe(CORPUS.length);
});

describe.each(CORPUS.map((e) => [e.name, e] as const))('corpus format %s', (_name, e) => {
  const built = buildCapture(e);
  const capture = parseCapture(built.text, e.name);
  const arrived = capture.chunks.map((c) => c.bytes);
  const all = Buffer.concat(arrived);
  const hid = e.encoder.reportBytes !== undefined;

  it('its hand-written profile reads cleanly: no warnings, the talker of its kind', () => {
    const p = loadProfileFile(e.profilePath);
    expect(profileWarnings(p)).toEqual([]);
    expect(p.input === 'hid-report').toBe(hid);
  });

  it('the capture of the deal has every line fault and every event of the script', () => {
    const faults = built.expected.filter((x) => x.startsWith('reject '));
    expect(faults.length).toBeGreaterThanOrEqual(4);
    expect(built.expected.filter((x) => !x.startsWith('reject ')).length).toBeGreaterThan(built.script.trim().split('\n').length - 1);
    if (e.kind === 'card-shoe') expect(built.expected.some((x) => x.startsWith('MISREAD'))).toBe(true);
  });

  it('decodes the capture as it arrived to exactly the deal', () => {
    expect(decode(e, arrived)).toEqual(built.expected);
  });

  it('decodes it the same in 1-byte chunks and all at once', () => {
    if (hid) {
      expect(decode(e, batchReports(arrived, e.encoder.reportBytes!, 1))).toEqual(built.expected);
      expect(decode(e, batchReports(arrived, e.encoder.reportBytes!, 1000))).toEqual(built.expected);
      return;
    }
    expect(
      decode(
        e,
        [...all].map((b) => Buffer.of(b)),
      ),
    ).toEqual(built.expected);
    expect(decode(e, [all])).toEqual(built.expected);
  });

  it('decodes it the same however it is chunked', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 40 }), fc.integer({ min: 1, max: 9 }), (cuts, every) => {
        const chunks = hid ? batchReports(arrived, e.encoder.reportBytes!, every) : splitAt(all, cuts);
        expect(decode(e, chunks)).toEqual(built.expected);
      }),
      { numRuns: RUNS },
    );
  });
});
