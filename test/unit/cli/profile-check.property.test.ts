/**
 * Bad input to the installer's tools never crashes them: any bytes in any chunking decode to
 * frames and named rejects whose counts add up (every shipped profile), and any text given as a
 * capture file is read or refused with a stable code — nothing else is thrown.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shippedProfiles } from '../../../src/app/config/device-profiles.js';
import { CaptureFileError, parseCapture } from '../../../src/app/tools/capture-file.js';
import { checkProfile, decodeCapture, formatDecode, verdict } from '../../../src/app/tools/profile-check.js';

const profiles = shippedProfiles().map((n) => {
  const c = checkProfile(n);
  if (!c.ok) throw new Error(c.errors.join('\n'));
  return c.profile;
});

describe('profile check on any bytes', () => {
  it('decodes any chunks with any shipped profile: counts add up, every reject is named, the report prints', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: profiles.length - 1 }), fc.array(fc.uint8Array({ maxLength: 80 }), { maxLength: 20 }), (pi, pieces) => {
        const chunks = pieces.map((b, i) => ({ t: i * 10, bytes: Buffer.from(b) }));
        const r = decodeCapture(profiles[pi], chunks);
        expect(r.summary.frames + r.summary.rejects).toBe(r.items.length);
        expect(Object.values(r.summary.rejectsByReason).reduce((a, b) => a + b, 0)).toBe(r.summary.rejects);
        expect(r.summary.bytes).toBe(pieces.reduce((n, b) => n + b.length, 0));
        for (const it of r.items) if ('reject' in it) expect(it.reject.reason).toMatch(/^[a-z-]+$/);
        const report = formatDecode(r);
        const hinted = report.at(-1)?.startsWith('hint: ') === true;
        expect(report.at(hinted ? -2 : -1)).toBe(verdict(r.summary));
        expect(hinted).toBe(r.summary.frames === 0 && r.summary.rejects > 0);
      }),
      { numRuns: 300 },
    );
  });

  it('reads or refuses any capture text with a stable code, never anything else', () => {
    const header = '{"format":"tablegw-capture","version":1,"transport":"serial","port":"/dev/x","startedAt":"2026-01-01T00:00:00Z","tool":"tablegw 0"}\n';
    fc.assert(
      fc.property(fc.boolean(), fc.string({ maxLength: 200 }), (withHeader, text) => {
        try {
          const c = parseCapture((withHeader ? header : '') + text, 'fuzz.jsonl');
          for (const ch of c.chunks) expect(Buffer.isBuffer(ch.bytes)).toBe(true);
        } catch (e) {
          expect(e).toBeInstanceOf(CaptureFileError);
          expect((e as CaptureFileError).code).toMatch(/^capture-(bad-header|bad-line|time-backwards)$/);
          expect((e as Error).message).toMatch(/^fuzz\.jsonl: /);
        }
      }),
      { numRuns: 500 },
    );
  });
});
