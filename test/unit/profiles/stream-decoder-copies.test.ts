/**
 * A serial profile's decoder runs on a copy of the streaming code of its own (profile-decoder.ts
 * `ownCopy`, made from stream-decoder.ts's text); `compileProfile(p, { sharedCode: true })` runs
 * the engine's one shared copy. Both are the same decoder: on every corpus capture and every
 * shipped profile's frames, as they arrived, corrupted anywhere and however they are chunked, they
 * give the same frames and rejects (raw text included), also with several profiles interleaved.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildCapture, CORPUS } from '../../../dev/corpus/index.js';
import { createProfileEncoder } from '../../../drivers/profiles/profile-encoder.js';
import { compileProfile, type DecodedItem } from '../../../drivers/profiles/profile-decoder.js';
import { type DeviceProfile, loadProfileFile } from '../../../drivers/profiles/profile-schema.js';
import { parseCapture } from '../../../src/app/tools/capture-file.js';
import { splitAt } from '../../helpers/chunks.js';

const RUNS = Number(process.env.FC_RUNS ?? 60);
const SHIPPED = join(import.meta.dirname, '../../../drivers/profiles/shipped');

function run(p: DeviceProfile, chunks: readonly Buffer[], sharedCode: boolean): DecodedItem[] {
  const d = compileProfile(p, { sharedCode });
  const out: DecodedItem[] = [];
  for (const c of chunks) out.push(...d.push(c));
  out.push(...d.flushIdle());
  out.push(...d.endOfStream());
  return out;
}

interface Input {
  name: string;
  profile: DeviceProfile;
  bytes: Buffer;
}

const inputs: Input[] = [];
for (const e of CORPUS) {
  if (e.encoder.reportBytes !== undefined) continue; // HID reports: one decoder, no streaming copy
  const chunks = parseCapture(buildCapture(e).text, e.name).chunks.map((c) => c.bytes);
  inputs.push({ name: `corpus ${e.name}`, profile: loadProfileFile(e.profilePath), bytes: Buffer.concat(chunks) });
}
for (const f of readdirSync(SHIPPED).filter((x) => x.endsWith('.yaml'))) {
  const profile = loadProfileFile(join(SHIPPED, f));
  if (profile.input !== 'bytes') continue;
  const enc = createProfileEncoder(profile);
  const frames: Buffer[] = [];
  const cards = ['AS', 'TH', '9C', 'KD', 'QS', '2H'];
  for (let i = 0; i < 12; i++) {
    const frame = { talker: profile.talker, seq: i % (profile.seq.wrap + 1), type: 'CARD', card: cards[i % cards.length], rescan: false } as const;
    if (enc.canEncode(frame)) frames.push(enc.encode(frame));
  }
  if (frames.length === 0) continue;
  inputs.push({ name: `shipped ${f}`, profile, bytes: Buffer.concat(frames) });
}

it('has inputs for the serial corpus formats and shipped profiles', () => {
  expect(inputs.filter((i) => i.name.startsWith('corpus')).length).toBeGreaterThanOrEqual(10);
  expect(inputs.filter((i) => i.name.startsWith('shipped')).length).toBeGreaterThanOrEqual(5);
  for (const i of inputs) expect(run(i.profile, [i.bytes], true).length).toBeGreaterThan(0);
});

describe.each(inputs.map((i) => [i.name, i] as const))('%s', (_name, i) => {
  it('own copy and shared code agree as it arrived and byte by byte', () => {
    const shared = run(i.profile, [i.bytes], true);
    expect(run(i.profile, [i.bytes], false)).toEqual(shared);
    const bytes = [...i.bytes].map((b) => Buffer.of(b));
    expect(run(i.profile, bytes, false)).toEqual(run(i.profile, bytes, true));
  });

  it('agree however the bytes are corrupted and chunked', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), fc.nat({ max: 255 })), { maxLength: 8 }), fc.array(fc.nat(), { maxLength: 12 }), (flips, cuts) => {
        const b = Buffer.from(i.bytes);
        for (const [at, v] of flips) b[at % b.length] = v;
        const chunks = splitAt(b, cuts);
        expect(run(i.profile, chunks, false)).toEqual(run(i.profile, chunks, true));
      }),
      { numRuns: RUNS },
    );
  });
});

it('agree with several profiles decoding interleaved', () => {
  const own = inputs.map((i) => compileProfile(i.profile));
  const shared = inputs.map((i) => compileProfile(i.profile, { sharedCode: true }));
  for (let round = 0; round < 3; round++)
    inputs.forEach((i, k) => {
      const half = i.bytes.subarray((round * 7) % i.bytes.length);
      expect(own[k].push(half)).toEqual(shared[k].push(half));
    });
});
