/**
 * docs/GAMES.md against the typed outcomes: every outcome in its JSON examples is valid against the
 * game's schema, and every settlement table names only fields (and values) that the game's
 * outcome schema has — so "bet -> the outcome fields that settle it" cannot drift from what the
 * gateway publishes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { OUTCOME_SCHEMAS, type OutcomeGameId } from '../../../src/core/games/outcomes.js';

const text = readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'GAMES.md'), 'utf8');

type Json = Record<string, any>;

/** the sections of GAMES.md by the game ids in their heading (`## Baccarat (`baccarat`)`) */
function sections(): Array<{ ids: OutcomeGameId[]; body: string }> {
  const parts = text.split(/\n(?=## )/);
  return parts.flatMap((p) => {
    const heading = p.split('\n')[0];
    const ids = [...heading.matchAll(/`([a-z-]+)`/g)].map((m) => m[1]).filter((id): id is OutcomeGameId => id in OUTCOME_SCHEMAS);
    return ids.length ? [{ ids, body: p }] : [];
  });
}

/** every property name and every enum / const value of a JSON Schema */
function vocabulary(s: Json, names: Set<string>, values: Set<string>): void {
  if (!s || typeof s !== 'object') return;
  if (Array.isArray(s)) {
    for (const x of s) vocabulary(x, names, values);
    return;
  }
  for (const [k, v] of Object.entries((s.properties as Json | undefined) ?? {})) {
    names.add(k);
    vocabulary(v, names, values);
  }
  if (Array.isArray(s.enum)) for (const e of s.enum) values.add(String(e));
  if (s.const !== undefined) values.add(String(s.const));
  for (const k of ['anyOf', 'oneOf', 'allOf', 'items', 'prefixItems', 'additionalProperties'])
    if (s[k] && typeof s[k] === 'object') vocabulary(s[k], names, values);
}

describe('docs/GAMES.md settlement tables and examples', () => {
  const found = sections();

  it('has a settlement table for every game', () => {
    const withTables = new Set(found.filter((s) => /\| settles from \|/.test(s.body)).flatMap((s) => s.ids));
    expect([...withTables].sort()).toEqual(Object.keys(OUTCOME_SCHEMAS).sort());
  });

  it("every outcome in a JSON example is valid against its game's schema", () => {
    let n = 0;
    for (const { ids, body } of found) {
      for (const m of body.matchAll(/```json\n([\s\S]*?)```/g)) {
        const example = JSON.parse(m[1]) as Json;
        if (!example.outcome) continue;
        const r = OUTCOME_SCHEMAS[ids[0]].safeParse(example.outcome);
        expect(r.success, `${ids[0]}: ${r.success ? '' : r.error.message}`).toBe(true);
        n++;
      }
    }
    expect(n).toBeGreaterThanOrEqual(8);
  });

  it("every field a settlement table names is a field (or a value) of that game's outcome", () => {
    const unknown: string[] = [];
    let rows = 0;
    for (const { ids, body } of found) {
      const names = new Set<string>(['balls']); // keno's Pearl Ball settles from the result's own `balls`
      const values = new Set<string>();
      for (const id of ids) vocabulary(z.toJSONSchema(OUTCOME_SCHEMAS[id], { target: 'draft-2020-12' }) as Json, names, values);
      const tables = body.split('\n').filter((l) => l.startsWith('|'));
      for (const line of tables) {
        const cells = line
          .split('|')
          .slice(1, -1)
          .map((c) => c.trim());
        if (cells.length !== 2 || cells[1] === 'settles from' || /^-+$/.test(cells[1])) continue;
        rows++;
        for (const m of cells[1].matchAll(/`([^`]+)`/g)) {
          const segments = m[1]
            .replace(/"/g, '')
            .split('.')
            .filter((x) => x && !/^<.+>$/.test(x));
          for (const seg of segments) if (!names.has(seg) && !values.has(seg) && !/^\d+$/.test(seg)) unknown.push(`${ids[0]}: ${m[1]}`);
        }
      }
    }
    expect(rows).toBeGreaterThan(40);
    expect(unknown).toEqual([]);
  });
});
