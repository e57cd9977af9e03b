/**
 * A binary message's test and field reads are generated as code of their own
 * (drivers/profiles/profile-decoder.ts generateBytesRule); where code cannot be generated the
 * interpreted loops run. For random layouts (exact or minimum length, match bytes under masks,
 * fields of 1-4 bytes in either order, bit ranges, hex text) and random payloads, both give the
 * same answer and the same values.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { compileByteField, generateBytesRule } from '../../../drivers/profiles/profile-decoder.js';

const RUNS = Number(process.env.FC_RUNS ?? 300);

const field = fc
  .record({
    at: fc.nat(6),
    width: fc.constantFrom(1 as const, 2 as const, 3 as const, 4 as const),
    order: fc.constantFrom('be' as const, 'le' as const),
    bits: fc.option(fc.tuple(fc.nat(31), fc.nat(31)), { nil: undefined }),
    hex: fc.boolean(),
  })
  .map(({ at, width, order, bits, hex }) =>
    compileByteField({
      at,
      width,
      order,
      ...(bits && !hex ? { bits: [Math.min(...bits), Math.max(...bits)] as [number, number] } : {}),
      ...(hex ? { as: 'hex' as const } : {}),
    } as never),
  );
const layout = fc.record({
  length: fc.oneof(fc.constant(-1), fc.integer({ min: 1, max: 12 })),
  minLen: fc.integer({ min: 0, max: 12 }),
  match: fc.array(fc.record({ at: fc.nat(8), value: fc.nat(255), mask: fc.constantFrom(0xff, 0x0f, 0xf0, 0x01) }), { maxLength: 3 }),
  fields: fc.array(field, { maxLength: 5 }),
});

it('generated code and the interpreted loops read a payload the same way', () => {
  let matched = 0;
  fc.assert(
    fc.property(layout, fc.uint8Array({ minLength: 0, maxLength: 16 }), fc.nat(3), (l, payload, pad) => {
      // fields and match bytes inside the shortest payload the layout accepts
      const minLen = Math.max(l.minLen, ...l.fields.map((f) => f.at + f.width), ...l.match.map((m) => m.at + 1));
      const length = l.length >= 0 ? Math.max(l.length, minLen) : -1;
      const match = l.match.map((m) => ({ ...m, value: m.value & m.mask }));
      const generated = generateBytesRule(length, minLen, match, l.fields);
      const interpreted = generateBytesRule(length, minLen, match, l.fields, false);
      expect(generated).not.toBe(interpreted);
      // the payload somewhere in a larger buffer; often made to pass the match
      const b = Buffer.concat([Buffer.alloc(pad, 0xaa), Buffer.from(payload), Buffer.alloc(16)]);
      if (payload.length % 2 === 0) for (const m of match) b[pad + m.at] = (b[pad + m.at] & ~m.mask) | m.value;
      const e = pad + (length >= 0 && payload.length % 3 === 0 ? length : payload.length);
      const a: unknown[] = [];
      const c: unknown[] = [];
      const ra = generated(b, pad, e, a as never);
      const rc = interpreted(b, pad, e, c as never);
      expect(ra).toBe(rc);
      if (ra) {
        matched++;
        expect(a).toEqual(c);
      }
    }),
    { numRuns: RUNS },
  );
  expect(matched).toBeGreaterThan(RUNS / 20);
});
