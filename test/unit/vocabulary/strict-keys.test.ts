import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { closestKey, editDistance, issueLines, strictKeyErrors } from '../../../src/core/vocabulary/strict-keys.js';

describe('strict keys: unknown keys named at their path with the closest valid key', () => {
  it('edit distance counts a transposition as one edit', () => {
    expect(editDistance('idelMs', 'idleMs')).toBe(1);
    expect(editDistance('seperator', 'separator')).toBe(1);
    expect(editDistance('abc', '')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });

  it('suggests the closest key, a prefix, or nothing when no key is close', () => {
    expect(closestKey('idelMs', ['start', 'end', 'idleMs', 'maxLength'])).toBe('idleMs');
    expect(closestKey('seperator', ['algorithm', 'separator', 'place'])).toBe('separator');
    expect(closestKey('card', ['name', 'cards', 'messages'])).toBe('cards');
    expect(closestKey('zzzzzz', ['name', 'cards', 'messages'])).toBeNull();
  });

  it('reports each unknown key of nested strict objects on its own line', () => {
    const schema = z.strictObject({
      framing: z.strictObject({ idleMs: z.number().optional(), end: z.string().optional() }),
      cards: z.strictObject({ preset: z.string() }).optional(),
    });
    const r = schema.safeParse({ framing: { idelMs: 3, edn: '\n' }, card: {} }, { error: strictKeyErrors });
    expect(r.success).toBe(false);
    expect(issueLines(r.error!.issues).sort()).toEqual([
      'card: unknown key; did you mean cards?',
      'framing.edn: unknown key; did you mean end?',
      'framing.idelMs: unknown key; did you mean idleMs?',
    ]);
  });

  it('leaves other issues as zod words them', () => {
    const r = z.strictObject({ n: z.number() }).safeParse({ n: 'x' }, { error: strictKeyErrors });
    expect(issueLines(r.error!.issues)).toEqual([expect.stringMatching(/^n: .*number/)]);
  });
});
