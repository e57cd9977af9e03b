/**
 * The whole integrity space and every frame boundary of the grammar (drivers/profiles/grammar-space.ts)
 * round-trip: each variant validates as a profile, its encoder writes a frame its decoder reads
 * back, a damaged check value is `bad-checksum` (or `malformed` where it no longer reads), and
 * the same bytes one at a time give the same items.
 */
import { describe, expect, it } from 'vitest';
import type { DeviceFrame, FrameReject } from '../../../src/core/vocabulary/frames.js';
import { compileProfile } from '../../../drivers/profiles/profile-decoder.js';
import { createProfileEncoder } from '../../../drivers/profiles/profile-encoder.js';
import { checkWidth, FRAMING_VARIANTS, integrityVariants } from '../../../drivers/profiles/grammar-space.js';
import { validateProfile } from '../../../drivers/profiles/profile-schema.js';

type Item = DeviceFrame | FrameReject;
const kind = (i: Item) => ('reason' in i ? i.reason : i.type);
function bytewise(p: ReturnType<typeof validateProfile>, b: Buffer): Item[] {
  const d = compileProfile(p);
  const out: Item[] = [];
  for (const x of b) out.push(...d.push(Uint8Array.of(x)));
  return out;
}

describe('the integrity space round-trips', () => {
  const variants = integrityVariants();
  it('enumerates every algorithm in every encoding, place and covered range', () => {
    expect(variants.length).toBeGreaterThan(400);
  });

  it('each variant: valid, encodes, decodes back, a damaged check is rejected', () => {
    const failures: string[] = [];
    for (const v of variants) {
      const framing = { start: '\u0002', end: '\u0003', trailer: v.place === 'after-end' ? checkWidth(v) : 0, maxLength: 64 };
      const text = !v.encoding.startsWith('binary') || v.place === 'after-end';
      const p = validateProfile('v.yaml', {
        name: 'v',
        talker: 'BALL',
        framing,
        integrity: v,
        ...(text
          ? { messages: [{ name: 'ball', pattern: 'B(?<ball>\\d{1,2})', type: 'BALL', emit: 'B{ball}' }] }
          : {
              encoding: 'binary',
              messages: [{ name: 'ball', bytes: { length: 2, match: [{ at: 0, value: 0x42 }], fields: { ball: { at: 1 } } }, type: 'BALL' }],
            }),
      });
      const label = `${v.algorithm} ${v.encoding} ${v.place}${v.separator ? ' sep' : ''} ${Object.entries(v.covers)
        .filter(([, on]) => on)
        .map(([k]) => k)
        .join('+')}`;
      for (const ball of [7, 42, 80]) {
        const bytes = createProfileEncoder(p).encode({ type: 'BALL', ball });
        const got = compileProfile(p).push(bytes);
        if (got.length !== 1 || kind(got[0]) !== 'BALL' || (got[0] as { ball: number }).ball !== ball)
          failures.push(`${label}: ball ${ball} read as ${JSON.stringify(got)}`);
        if (JSON.stringify(bytewise(p, bytes)) !== JSON.stringify(got)) failures.push(`${label}: byte by byte differs`);
        const bad = Buffer.from(bytes);
        const at = v.place === 'after-end' ? bad.length - 1 : bad.length - 2;
        bad[at] = v.encoding.startsWith('binary') ? bad[at] ^ 0x01 : bad[at] === 0x30 ? 0x31 : 0x30;
        const rej = compileProfile(p).push(bad).map(kind);
        if (!(rej.length === 1 && (rej[0] === 'bad-checksum' || rej[0] === 'malformed'))) failures.push(`${label}: damaged check gave ${rej.join(',')}`);
      }
    }
    expect(failures.slice(0, 10)).toEqual([]);
  });
});

describe('every frame boundary of the grammar round-trips with a CRC-16', () => {
  for (const f of FRAMING_VARIANTS) {
    it(f.name, () => {
      const p = validateProfile('f.yaml', {
        name: 'f',
        talker: 'BALL',
        encoding: f.binary ? 'binary' : 'ascii',
        framing: { ...f.framing, maxLength: 64 },
        integrity: { algorithm: 'crc16-kermit', encoding: f.binary ? 'binary-le' : 'hex' },
        messages: f.binary
          ? [
              {
                name: 'ball',
                bytes: {
                  match: [{ at: f.name.startsWith('length field, 2') ? 2 : f.name.startsWith('length') ? 1 : 0, value: 0x42 }],
                  fields: { ball: { at: f.name.startsWith('length field, 2') ? 3 : f.name.startsWith('length') ? 2 : 1 } },
                },
                type: 'BALL',
                ranges: { ball: { min: 0, max: 255 } },
              },
            ]
          : [{ name: 'ball', pattern: 'B(?<ball>\\d{1,3})', type: 'BALL', emit: 'B{ball}', ranges: { ball: { min: 0, max: 255 } } }],
      });
      const enc = createProfileEncoder(p);
      // every byte value a ball can be, the start, end and escape bytes among them
      const balls = f.binary ? Array.from({ length: 256 }, (_, i) => i) : [0, 7, 99, 255];
      const wire = Buffer.concat(balls.map((ball) => enc.encode({ type: 'BALL', ball })));
      const got = compileProfile(p).push(wire);
      expect(got.map((i) => ('reason' in i ? i.reason : (i as { ball: number }).ball))).toEqual(balls);
      expect(JSON.stringify(bytewise(p, wire))).toBe(JSON.stringify(got));
    });
  }
});
