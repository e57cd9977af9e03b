/**
 * Decoding independent of timing (device-protocols.md §3.1 "Timing-proof"), for every shipped
 * byte-stream profile and every example of the grammar (test/helpers/grammar-profiles.ts): a
 * capture of valid frames mixed with noise (start, end, escape and separator bytes included),
 * truncated frames and frames with a bad check value gives the same frames and rejects however
 * it is chunked, from 1-byte chunks to the whole capture at once; and no valid frame is lost to
 * the noise, truncation or damage next to it.
 *
 * Where a profile has no start sequence, a frame begins after the previous end: there the noise
 * and the truncated frames of the capture end with the end sequence (as a line of garbage does).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DeviceFrame, FrameReject } from '../../../src/core/vocabulary/frames.js';
import { RANKS } from '../../../src/core/vocabulary/card.js';
import { compileProfile } from '../../../drivers/profiles/profile-decoder.js';
import { createProfileEncoder, type EncodableFrame } from '../../../drivers/profiles/profile-encoder.js';
import { type DeviceProfile, loadProfileFile } from '../../../drivers/profiles/profile-schema.js';
import { damagedFrame } from '../../../simulators/devices/wire.js';
import { GRAMMAR_PROFILES } from '../../helpers/grammar-profiles.js';
import { splitAt } from '../../helpers/chunks.js';

const RUNS = Number(process.env.FC_RUNS ?? 300);
const DIR = join(__dirname, '../../../drivers/profiles/shipped');
const SHIPPED = readdirSync(DIR)
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => loadProfileFile(join(DIR, f)));
const PROFILES = [...SHIPPED, ...Object.values(GRAMMAR_PROFILES)].filter((p) => p.input === 'bytes');

type Item = DeviceFrame | FrameReject;
const key = (i: Item) => JSON.stringify(i);

/** frames a device of the profile's talker may send */
function candidates(seqs: number[]): EncodableFrame[] {
  const out: EncodableFrame[] = [];
  for (const seq of seqs) {
    for (const r of RANKS) for (const s of ['S', 'H', 'D', 'C']) out.push({ type: 'CARD', card: r + s, rescan: false, seq });
    out.push(
      { type: 'CARD', card: 'TH', rescan: true, seq },
      { type: 'MISREAD', seq },
      { type: 'CUT', seq },
      { type: 'HB', seq },
      { type: 'STATE', state: 'LOADED', seq },
    );
    for (let b = 1; b <= 80; b += 7) out.push({ type: 'BALL', ball: b, seq });
    out.push(
      { type: 'START', seq },
      { type: 'END', seq },
      { type: 'ROLL', dice: [1, 4, 6], bounces: 2, seq },
      { type: 'ROLL', dice: [3, 3, 5], bounces: 0, seq },
    );
    out.push(
      { type: 'SHUF_STATE', state: 'READY', seq },
      { type: 'COUNT', count: 416, seq },
      { type: 'TAG', uid: 'E0040150AB12CD34', seq },
      { type: 'NOREAD', seq },
    );
  }
  return out;
}

/** the profile's frames on the wire, each with what it decodes to alone */
function wireFrames(p: DeviceProfile): Array<{ bytes: Buffer; decoded: Item[] }> {
  const enc = createProfileEncoder(p);
  const out: Array<{ bytes: Buffer; decoded: Item[] }> = [];
  for (const f of candidates([0, 16, 255])) {
    let bytes: Buffer;
    try {
      bytes = enc.encode(f);
    } catch {
      continue;
    }
    const d = compileProfile(p);
    const decoded = [...d.push(bytes), ...d.endOfStream()];
    if (decoded.length === 1 && !('reason' in decoded[0])) out.push({ bytes, decoded });
  }
  return out;
}

function decode(p: DeviceProfile, chunks: Buffer[]): Item[] {
  const d = compileProfile(p);
  const out: Item[] = [];
  for (const c of chunks) out.push(...d.push(c));
  return [...out, ...d.endOfStream()];
}

describe.each(PROFILES.map((p) => [p.name, p] as const))('timing-proof: %s', (_name, p) => {
  const frames = wireFrames(p);
  const F = p.framing;
  const checked = p.integrity.algorithm !== 'none';
  const end = Buffer.from(F.end ?? '', 'latin1');
  const terminate = F.start === undefined && end.length > 0;
  const special = Buffer.from(
    `${F.start ?? ''}${F.end ?? ''}${F.stuffing?.escape ?? ''}${p.integrity.separator ?? ''}${p.body.split ?? ''}0123456789ABC,;*$#\r\n\u0002\u0003\u0010\u007d\u007e\u00a5\u00aa`,
    'latin1',
  );
  const noise = fc
    .array(fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(...special)), { minLength: 1, maxLength: 12 })
    .map((b) => Buffer.concat([Buffer.from(b), terminate ? end : Buffer.alloc(0)]));
  type Seg = { kind: 'frame' | 'noise' | 'truncated' | 'bad'; bytes: Buffer; decoded?: Item[] };
  const frameArb = fc.constantFrom(...frames).map((f): Seg => ({ kind: 'frame', bytes: f.bytes, decoded: f.decoded }));
  const segArb = fc.oneof(
    { weight: 4, arbitrary: frameArb },
    { weight: 2, arbitrary: noise.map((bytes): Seg => ({ kind: 'noise', bytes })) },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constantFrom(...frames), fc.double({ min: 0.1, max: 0.9, noNaN: true })).map(
        ([f, at]): Seg => ({
          kind: 'truncated',
          bytes: Buffer.concat([
            f.bytes.subarray(0, Math.max(1, Math.min(f.bytes.length - end.length - 1, Math.floor(f.bytes.length * at)))),
            terminate ? end : Buffer.alloc(0),
          ]),
        }),
      ),
    },
    ...(checked ? [{ weight: 1, arbitrary: fc.constantFrom(...frames).map((f): Seg => ({ kind: 'bad', bytes: damagedFrame(f.bytes, 'bad-check', p) })) }] : []),
  );
  const chunking = fc.oneof(fc.constant('bytewise' as const), fc.constant('whole' as const), fc.array(fc.nat(), { maxLength: 40 }));

  it('has frames to send', () => {
    expect(frames.length).toBeGreaterThan(0);
  });

  it('the same frames and rejects however the capture is chunked; no valid frame is lost next to noise', () => {
    fc.assert(
      fc.property(fc.array(segArb, { minLength: 1, maxLength: 16 }), chunking, (segs, how) => {
        // a capture ends with a valid frame, so nothing is pending at its end
        const all = [...segs, { kind: 'frame', bytes: frames[0].bytes, decoded: frames[0].decoded } as Seg];
        const capture = Buffer.concat(all.map((s) => s.bytes));
        const whole = decode(p, [capture]);
        const chunks = how === 'bytewise' ? [...capture].map((b) => Buffer.of(b)) : how === 'whole' ? [capture] : splitAt(capture, how);
        expect(decode(p, chunks).map(key)).toEqual(whole.map(key));
        const want = all.filter((s) => s.kind === 'frame').flatMap((s) => s.decoded!.map(key));
        const got = whole.filter((i) => !('reason' in i)).map(key);
        // the valid frames are all there, in order; anything more came out of noise or a truncated
        // frame that the noise after it happened to complete (a check value matches by chance)
        let k = 0;
        for (const g of got) if (k < want.length && g === want[k]) k++;
        expect(k, `frames ${JSON.stringify(got)} lack some of ${JSON.stringify(want)}`).toBe(want.length);
        const loose = all.filter((s) => s.kind === 'noise' || s.kind === 'truncated').length;
        expect(got.length - want.length).toBeLessThanOrEqual(checked ? loose : Number.POSITIVE_INFINITY);
        // every segment that is not a valid frame leaves at least one reject, or is a blank line
        const rejects = whole.filter((i) => 'reason' in i).length;
        const damaged = all.filter((s) => s.kind === 'bad').length;
        expect(rejects).toBeGreaterThanOrEqual(damaged > 0 ? 1 : 0);
      }),
      { numRuns: RUNS },
    );
  });
});
