/**
 * The direct one-pass matcher (drivers/profiles/one-pass-pattern.ts) against JavaScript's own
 * engine: for random patterns of the shapes it takes (literals, classes, repeat counts, groups,
 * alternations of fixed choices) and random texts, a pattern it accepts gives exactly RegExp's
 * match and groups; the shapes it cannot decide in one pass are left to the general engine.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileOnePass } from '../../../drivers/profiles/one-pass-pattern.js';

const runs = Number(process.env.FC_RUNS ?? 500);

/** [pattern piece, a text it matches] */
type Piece = [string, string];
const ATOMS: Array<[string, string[]]> = [
  ['a', ['a']],
  ['b', ['b']],
  [',', [',']],
  ['1', ['1']],
  ['\\d', ['1', '2']],
  ['\\w', ['a', '1', '_']],
  ['[ab]', ['a', 'b']],
  ['[^,]', ['a', 'c', '1']],
  ['[a-c1]', ['c', '1']],
  ['[\\s\\S]', [',', 'a']],
  ['\\,', [',']],
  ['\\x61', ['a']],
];
const QUANTS: Array<[string, number, number]> = [
  ['', 1, 1],
  ['?', 0, 1],
  ['*', 0, 3],
  ['+', 1, 3],
  ['{2}', 2, 2],
  ['{1,3}', 1, 3],
  ['{0,2}', 0, 2],
  ['{2,}', 2, 4],
];
const repeated: fc.Arbitrary<Piece> = fc
  .tuple(fc.constantFrom(...ATOMS), fc.constantFrom(...QUANTS), fc.nat(3), fc.nat(5))
  .map(([[a, samples], [q, lo, hi], k, pick]) => [
    a + q,
    Array.from({ length: lo + (k % (hi - lo + 1)) }, (_, j) => samples[(pick + j) % samples.length]).join(''),
  ]);
const alternation: fc.Arbitrary<Piece> = fc
  .tuple(fc.array(fc.constantFrom('a', 'b1', ',', '1a', 'c'), { minLength: 2, maxLength: 3 }), fc.nat(2))
  .map(([alts, k]) => [`(?:${alts.join('|')})`, alts[k % alts.length]]);
const group: fc.Arbitrary<Piece> = fc
  .tuple(fc.array(repeated, { minLength: 1, maxLength: 3 }), fc.constantFrom('(', '(?<g>', '(?:'))
  .map(([xs, open]) => [`${open}${xs.map((x) => x[0]).join('')})`, xs.map((x) => x[1]).join('')]);
const piece = fc.oneof({ weight: 4, arbitrary: repeated }, { weight: 1, arbitrary: alternation }, { weight: 1, arbitrary: group });
/** a pattern, a text it may match (built from its pieces) */
const pattern = fc.array(piece, { minLength: 1, maxLength: 5 }).map((xs): Piece => {
  let n = 0; // one name per group
  return [
    xs
      .map((x) => x[0])
      .join('')
      .replace(/\(\?<g>/g, () => `(?<g${n++}>`),
    xs.map((x) => x[1]).join(''),
  ];
});
const text = fc.array(fc.constantFrom('a', 'b', ',', '1', 'c', '2'), { maxLength: 12 }).map((xs) => xs.join(''));

describe('one-pass matcher', () => {
  it("gives exactly RegExp's whole-text match and groups for every pattern it accepts", () => {
    let accepted = 0;
    let matched = 0;
    fc.assert(
      fc.property(pattern, fc.array(text, { minLength: 6, maxLength: 6 }), fc.nat(20), (pt, texts, cut) => {
        const [p, sample] = pt;
        const direct = compileOnePass(p);
        if (direct === null) return;
        accepted++;
        const native = new RegExp(`^(?:${p})$`);
        // the built text (often a match), the same cut short and grown, and random texts
        for (const t of [sample, sample.slice(0, cut % (sample.length + 1)), `${sample}a`, `,${sample}`, ...texts]) {
          const n = native.exec(t);
          expect(direct.exec(t), `${p} on ${JSON.stringify(t)}`).toEqual(n === null ? null : [...n]);
          expect(direct.test(t)).toBe(n !== null);
          if (n !== null) matched++;
        }
      }),
      { numRuns: runs },
    );
    // the generator makes plenty of patterns it takes, and texts they match (else the property says little)
    expect(accepted).toBeGreaterThan(runs / 5);
    expect(matched).toBeGreaterThan(runs / 10);
  });

  it('gives the same match and groups over latin1 bytes in place as over their text, generated or interpreted', () => {
    let matched = 0;
    fc.assert(
      fc.property(pattern, fc.array(text, { minLength: 4, maxLength: 4 }), fc.nat(6), fc.nat(6), (pt, texts, before, after) => {
        const [p, sample] = pt;
        const direct = compileOnePass(p);
        const interpreted = compileOnePass(p, { generate: false });
        if (direct === null || interpreted === null) return;
        expect(direct.bytes.run).not.toBe(interpreted.bytes.run);
        for (const t of [sample, `${sample}a`, ...texts, `${sample}\u00e9`]) {
          // the text somewhere inside a larger buffer, with bytes either side the pass must not read
          const b = Buffer.concat([Buffer.alloc(before, 0x61), Buffer.from(t, 'latin1'), Buffer.alloc(after, 0x2c)]);
          const want = direct.exec(t);
          for (const m of [direct, interpreted]) {
            const got = m.bytes.run(b, before, before + t.length);
            expect(got, `${p} on ${JSON.stringify(t)}`).toBe(want !== null);
            if (want === null) continue;
            const { caps } = m.bytes;
            for (let g = 1; g <= m.groupCount; g++) expect(b.toString('latin1', caps[2 * g], caps[2 * g + 1])).toBe(want[g]);
          }
          if (want !== null) matched++;
        }
      }),
      { numRuns: runs },
    );
    expect(matched).toBeGreaterThan(runs / 10);
  });

  it('matches the texts built to match (not only random ones)', () => {
    const cases: Array<[string, string[]]> = [
      ['SHOE,(?<seq>\\d{1,5}),CARD,(?<card>[A2-9TJQK][SHDC])', ['SHOE,0,CARD,AS', 'SHOE,65535,CARD,TD', 'SHOE,123456,CARD,AS', 'SHOE,1,CARD,AS,R']],
      ['SHOE,(?<seq>\\d{1,5}),STATE,(?<state>LOADED|OPEN|CLOSED|EMPTY)', ['SHOE,1,STATE,OPEN', 'SHOE,1,STATE,OPENX', 'SHOE,1,STATE,EMPT']],
      ['(?<card>[SHDC](?:10|[2-9AJQK]))', ['H10', 'SA', 'S1', 'H100']],
      ['(?<code>[A-Z0-9_]{1,16}),(?<text>[^,]*)', ['E1,', 'E1,jam at gate', 'E1,a,b']],
      ['x[\\s\\S]*', ['x', 'x\n\u00e9,', 'y']],
    ];
    for (const [p, texts] of cases) {
      const direct = compileOnePass(p);
      expect(direct, p).not.toBeNull();
      const native = new RegExp(`^(?:${p})$`);
      for (const t of texts) {
        const n = native.exec(t);
        expect(direct!.exec(t), `${p} on ${t}`).toEqual(n === null ? null : [...n]);
      }
    }
  });

  it('leaves to the general engine what one pass cannot decide', () => {
    for (const p of ['a*a', '\\d+1', '(?:ab|ac)', '(a)?', '(ab)*', 'a*?', '.', '\\s', '(?!x)y', 'a|b', '(?:,[^,]*){3,}', '[^,]*,?[^,]*', '\\bx', 'caf\u00e9']) {
      expect(compileOnePass(p), p).toBeNull();
    }
  });
});
