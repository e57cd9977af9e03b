/**
 * docs/asyncapi.json read by a real JSON Schema validator that defaults to 2020-12 (Ajv2020, in
 * strict mode): every schema declares the dialect, compiles, accepts the document's own examples
 * and refuses what the typed outcomes rule out. An engine developer whose tools default to
 * 2020-12 reads the document the same way.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { SCHEMA_DIALECT, SCHEMA_FORMAT } from '../../../dev/docs/api-docs.js';
import { OUTCOME_SCHEMAS } from '../../../src/core/games/outcomes.js';

const doc = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'asyncapi.json'), 'utf8'));
const schemas = doc.components.schemas as Record<string, Record<string, unknown>>;
const messages = doc.components.messages as Record<
  string,
  { payload: { schemaFormat: string; schema: { $ref: string } }; examples?: Array<{ payload: Record<string, any> }> }
>;

// formats (date-time) are not what this checks: the structure is
const ajv = new Ajv2020({ strict: true, allErrors: true, validateFormats: false });
const validators = Object.fromEntries(Object.entries(schemas).map(([name, s]) => [name, ajv.compile(s)]));
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v));

describe('docs/asyncapi.json under a JSON Schema 2020-12 validator', () => {
  it('declares the dialect on every schema and every payload, and every schema compiles in strict mode', () => {
    expect(Object.keys(schemas).length).toBeGreaterThan(30);
    for (const [name, s] of Object.entries(schemas)) expect(s.$schema, name).toBe(SCHEMA_DIALECT);
    for (const [name, m] of Object.entries(messages)) {
      expect(m.payload.schemaFormat, name).toBe(SCHEMA_FORMAT);
      expect(schemas[m.payload.schema.$ref.replace('#/components/schemas/', '')], name).toBeDefined();
    }
    expect(Object.keys(validators)).toEqual(Object.keys(schemas));
  });

  it('has a result message per game, each with its typed outcome and an example that validates', () => {
    for (const game of Object.keys(OUTCOME_SCHEMAS)) {
      const m = messages[`result-${game}`];
      expect(m, game).toBeDefined();
      expect(doc.channels.result.messages[`result-${game}`], game).toBeDefined();
      const props = schemas[`result-${game}`].properties as Record<string, any>;
      expect(props.game.const, game).toBe(game);
      expect(JSON.stringify(props.outcome), game).toContain('"additionalProperties":false');
      expect(m.examples?.length, `an example of result-${game}`).toBeGreaterThan(0);
    }
  });

  it('accepts every example of the document', () => {
    let n = 0;
    for (const [name, m] of Object.entries(messages)) {
      const validate = validators[m.payload.schema.$ref.replace('#/components/schemas/', '')];
      for (const ex of m.examples ?? []) {
        n++;
        expect(validate(ex.payload), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
      }
    }
    expect(n).toBeGreaterThan(25);
  });

  it('refuses an outcome fact the game does not have, a missing one, and one outside its rule', () => {
    const example = messages['result-dragon-tiger'].examples![0].payload;
    const validate = validators['result-dragon-tiger'];
    expect(validate(example)).toBe(true);
    const extra = clone(example);
    extra.outcome.bigSmall = 'big';
    expect(validate(extra)).toBe(false);
    const missing = clone(example);
    delete missing.outcome.dragonColor;
    expect(validate(missing)).toBe(false);
    const wrong = clone(example);
    wrong.outcome.tigerRank = 14;
    expect(validate(wrong)).toBe(false);
    // a baccarat outcome on a dragon-tiger result is not a dragon-tiger result
    const crossed = clone(example);
    crossed.outcome = clone(messages['result-baccarat'].examples![0].payload.outcome);
    expect(validate(crossed)).toBe(false);
    // a tuple of three dice stays a tuple of three
    const dice = clone(messages['result-sic-bo'].examples![0].payload);
    expect(validators['result-sic-bo'](dice)).toBe(true);
    dice.dice = [...dice.dice, 4];
    expect(validators['result-sic-bo'](dice)).toBe(false);
  });
});
