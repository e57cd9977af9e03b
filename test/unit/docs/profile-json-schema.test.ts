/**
 * docs/profile.schema.json is generated from the zod profile schema (`npm run docs:api`): it must be
 * current, describe every key, and accept every shipped profile (the keys and enum values they use).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { toJsonText } from '../../../dev/docs/api-docs.js';
import { buildProfileSchema, profileSchemaKeys } from '../../../dev/docs/profile-json-schema.js';
import { profileFile, shippedProfiles } from '../../../src/app/config/device-profiles.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
type Json = Record<string, unknown>;

/** the problems of `data` against a JSON Schema node: unknown keys, wrong enum values, missing required keys */
function schemaProblems(node: Json, data: unknown, path: string): string[] {
  const out: string[] = [];
  if (Array.isArray(node.enum) && !node.enum.includes(data)) out.push(`${path}: ${JSON.stringify(data)} is not one of ${node.enum.join(', ')}`);
  const props = node.properties as Record<string, Json> | undefined;
  if (props && data && typeof data === 'object' && !Array.isArray(data)) {
    for (const [k, v] of Object.entries(data)) {
      if (!props[k]) out.push(`${path}.${k}: not in the schema`);
      else out.push(...schemaProblems(props[k], v, `${path}.${k}`));
    }
    for (const k of (node.required as string[] | undefined) ?? []) if (!(k in data)) out.push(`${path}.${k}: required`);
  }
  if (node.items && Array.isArray(data))
    data.forEach((x, i) => {
      out.push(...schemaProblems(node.items as Json, x, `${path}[${i}]`));
    });
  return out;
}

describe('docs/profile.schema.json', () => {
  const schema = buildProfileSchema();

  it('matches drivers/profiles/profile-schema.ts (run `npm run docs:api` and commit it when this fails)', () => {
    expect(readFileSync(join(ROOT, 'docs', 'profile.schema.json'), 'utf8') === toJsonText(schema)).toBe(true);
    expect(toJsonText(buildProfileSchema())).toBe(toJsonText(schema)); // deterministic
  });

  it('describes every key, down to messages[] and usb[]', () => {
    const keys = profileSchemaKeys(schema);
    expect(keys.map((k) => k.path)).toEqual(
      expect.arrayContaining([
        'framing.start',
        'framing.trailer',
        'framing.lengthField.counts',
        'integrity.algorithm',
        'integrity.covers.end',
        'messages[].pattern',
        'messages[].bytes.fields',
        'cards.table',
        'line.baudRate',
        'usb[].vendorId',
      ]),
    );
    expect(keys.filter((k) => typeof k.node.description !== 'string').map((k) => k.path)).toEqual([]);
  });

  it('accepts every shipped profile and refuses a misspelt enum value', () => {
    expect(shippedProfiles().length).toBeGreaterThan(0);
    for (const name of shippedProfiles()) {
      expect(schemaProblems(schema, parse(readFileSync(profileFile(name), 'utf8')), name)).toEqual([]);
    }
    expect(schemaProblems(schema, { name: 'x', talker: 'SHOE', integrity: { algorithm: 'crc33' }, framing: { end: '\r' }, messages: [] }, 'p')).toEqual([
      expect.stringMatching(/^p\.integrity\.algorithm: "crc33" is not one of none, xor8/),
    ]);
    expect(schemaProblems(schema, { talker: 'SHOE', framing: { end: '\r' }, messages: [] }, 'p')).toContain('p.name: required');
  });
});
