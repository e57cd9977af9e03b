/**
 * User patterns on the linear-time engine (drivers/profiles/linear-pattern.ts): the classic
 * catastrophic patterns and 10 KB adversarial frames through the real profile decoder, refusals
 * at load with the key path and the construct, and JavaScript's meaning kept by the translation.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../../src/app/config/load-config.js';
import { checkDevice } from '../../../src/app/config/device-checks.js';
import type { DeviceConfig } from '../../../src/core/vocabulary/config-schema.js';
import { compileUserPattern, mustCompileUserPattern, PatternRefusal } from '../../../drivers/profiles/linear-pattern.js';
import { compileProfile } from '../../../drivers/profiles/profile-decoder.js';
import { validateProfile } from '../../../drivers/profiles/profile-schema.js';

const outcome = (items: ReturnType<ReturnType<typeof compileProfile>['push']>): string[] => items.map((x) => ('reason' in x ? `reject:${x.reason}` : x.type));

/** a shoe profile whose one message is `pattern` (an HB frame), frames up to 16 KB */
const evilProfile = (pattern: string) =>
  validateProfile('evil.yaml', { name: 'evil', talker: 'SHOE', framing: { end: '\n', maxLength: 16384 }, messages: [{ name: 'evil', pattern, type: 'HB' }] });

describe('catastrophic patterns through the real profile decoder', () => {
  const a10k = 'a'.repeat(10_000);
  // each: the pattern, a 10 KB body that makes a backtracking engine explode, whether it matches
  const cases: Array<[string, string, boolean]> = [
    ['(a+)+$', `${a10k}!`, false],
    ['(a|aa)+$', `${a10k}!`, false],
    ['(a|a)+$', `${a10k}!`, false],
    ['(.*a){20}', a10k, true],
    ['(.*a){20}', `${a10k}b`, false],
    ['((a*)*b)*c', a10k, false],
    ['(\\w+\\s?)+$', `${'ab '.repeat(3333)}!`, false],
    ['^(([a-z])+.)+[A-Z]([a-z])+$', `${a10k}!`, false],
    ['(?:a*)*(?:b*)*x', `${'ab'.repeat(5000)}`, false],
    ['(a+)+b', `${a10k}b`, true],
  ];
  for (const [pattern, body, matches] of cases) {
    it(`${pattern} on a ${body.length}-byte frame: ${matches ? 'a frame' : 'unknown-type'}, and the decoder returns`, () => {
      const dec = compileProfile(evilProfile(pattern));
      // the frame three times, then a short one no pattern matches: every one decoded, in order
      const out = dec.push(Buffer.from(`${body}\n${body}\n${body}\n!\n`));
      const want = matches ? 'HB' : 'reject:unknown-type';
      expect(outcome(out)).toEqual([want, want, want, 'reject:unknown-type']);
    });
  }

  it('the reference profiles decode a 10 KB line of crafted text without stalling (it is too long: one reject)', () => {
    // maxLength 128: the patterns never see it (point 3 of the issue: too-long first)
    const p = validateProfile('shoe.yaml', {
      name: 'shoe',
      talker: 'SHOE',
      framing: { end: '\n' },
      messages: [{ name: 'any', pattern: '[\\s\\S]*', type: 'HB' }],
    });
    const out = compileProfile(p).push(Buffer.from(`${'a'.repeat(10_000)}\nok\n`));
    expect(outcome(out)).toEqual(['reject:too-long', 'HB']);
  });

  it('a frame of exactly maxLength reaches the patterns; one byte more never does', () => {
    const p = validateProfile('m.yaml', {
      name: 'm',
      talker: 'SHOE',
      framing: { end: '\n', maxLength: 8 },
      messages: [{ name: 'any', pattern: '[\\s\\S]*', type: 'HB' }],
    });
    const dec = compileProfile(p);
    expect(outcome(dec.push(Buffer.from('aaaaaaa\n')))).toEqual(['HB']); // 7 + LF = 8 bytes
    expect(outcome(dec.push(Buffer.from('aaaaaaaa\nb\n')))).toEqual(['reject:too-long', 'HB']);
  });
});

describe('refused at load, with the key path and the construct', () => {
  const profileWith = (pattern: string, where: 'message' | 'reject' = 'message') =>
    validateProfile('p.yaml', {
      name: 'p',
      talker: 'SHOE',
      framing: { end: '\n' },
      messages: [{ name: 'card', pattern: where === 'message' ? pattern : '(?<card>..)', type: 'CARD' }],
      rejects: where === 'reject' ? [{ name: 'rule', pattern, reason: 'malformed' }] : [],
    });
  const refused: Array<[string, string]> = [
    ['(?<card>..)\\1', 'the backreference \\1'],
    ['(?<card>..)\\k<card>', 'the backreference \\k<card>'],
    ['(?<=X)(?<card>..)', 'the lookbehind (?<=...)'],
    ['(?<!X)(?<card>..)', 'the lookbehind (?<!...)'],
    ['(?<card>..)(?=X)', 'the lookahead (?=...)'],
    ['X(?!Y)(?<card>..)', 'the lookahead (?!...)'],
    ['(?!X)(?<card>..)|Y', 'a leading lookahead before an alternation'],
    ['(?!(X))(?<card>..)', 'a capture group inside a lookahead'],
    ['(?<card>.{1001})', 'the repeat count {1001}'],
    ['(?<card>..)\\p{L}', 'the escape \\p'],
    ['(?<card>..)\\e', 'the escape \\e'],
    ['(?<card>..)[]', 'the empty class []'],
  ];
  for (const [pattern, construct] of refused) {
    it(`${pattern}: pattern-unsupported, ${construct}`, () => {
      expect(() => profileWith(pattern)).toThrow(`p.yaml: messages.card.pattern: pattern-unsupported: ${construct}`);
    });
  }

  it('a reject rule is refused at its own key path', () => {
    expect(() => profileWith('SHOE,(?=x)[\\s\\S]*', 'reject')).toThrow('p.yaml: rejects.rule.pattern: pattern-unsupported: the lookahead (?=...)');
  });

  it('a syntax error is pattern-invalid', () => {
    expect(() => profileWith('(?<card>..')).toThrow(/p\.yaml: messages\.card\.pattern: pattern-invalid: not a valid regular expression: /);
  });

  it('compileUserPattern returns the refusal with its code, key path and construct (never throws)', () => {
    const r = compileUserPattern('(a)\\1', '', 'tables[0].devices[1].barcode.pattern');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.refusal).toBeInstanceOf(PatternRefusal);
    expect([r.refusal.code, r.refusal.keyPath, r.refusal.construct]).toEqual([
      'pattern-unsupported',
      'tables[0].devices[1].barcode.pattern',
      'the backreference \\1',
    ]);
    expect(compileUserPattern('x', 'g', 'k')).toMatchObject({ ok: false, refusal: { code: 'pattern-unsupported', construct: 'the flag g' } });
  });

  it('the config loader (check-config, start-up) refuses a profile file whose pattern the engine cannot run, and takes (a+)+$', () => {
    const dir = mkdtempSync(join(tmpdir(), 'teg-linear-'));
    try {
      const file = (name: string, pattern: string) => {
        const f = join(dir, `${name}.yaml`);
        writeFileSync(
          f,
          `name: ${name}\ntalker: SHOE\nframing: { end: "\\n" }\nmessages:\n  - { name: card, pattern: ${JSON.stringify(pattern)}, type: CARD }\n`,
        );
        return f;
      };
      const config = (profile: string) => ({
        mqtt: { url: 'mqtt://127.0.0.1:1' },
        tables: [{ id: 't', game: 'baccarat', devices: [{ id: 'shoe-1', kind: 'card-shoe', profile, transport: { type: 'serial', path: '/dev/null' } }] }],
      });
      const bad = file('bad', '(?<card>..)\\1');
      expect(() => validateConfig(config(bad))).toThrow(
        `tables[0].devices[0].profile: ${bad}: messages.card.pattern: pattern-unsupported: the backreference \\1`,
      );
      expect(() => validateConfig(config(file('evil', '(?<card>(?:a+)+[SHDC])')))).not.toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('check-config refuses a barcode.pattern the engine cannot run, at its key path', () => {
    const scanner = (pattern: string): DeviceConfig =>
      ({ id: 'scan', kind: 'barcode-scanner', transport: { type: 'hid', vendorId: 1, productId: 2 }, barcode: { pattern } }) as DeviceConfig;
    expect(checkDevice(scanner('^(?<card>..)(?=-)'), 'tables[0].devices[1]')).toEqual([
      'tables[0].devices[1].barcode.pattern: pattern-unsupported: the lookahead (?=...) (only at the very start of a profile pattern) cannot run on the linear-time pattern engine',
    ]);
    // a catastrophic pattern is accepted: it runs in linear time
    expect(checkDevice(scanner('^(?<card>(?:[A2-9TJQK]+)+[SHDC])$'), 'tables[0].devices[1]')).toEqual([]);
  });
});

describe('the translation keeps JavaScript meaning', () => {
  const same = (pattern: string, texts: string[], flags = '', whole = false) => {
    const mine = mustCompileUserPattern(pattern, flags, 'k', { whole });
    const native = new RegExp(whole ? `^(?:${pattern})$` : pattern, flags);
    for (const t of texts) {
      const n = native.exec(t);
      expect(mine.exec(t), `${pattern} on ${JSON.stringify(t)}`).toEqual(n === null ? null : [...n]);
      expect(mine.test(t)).toBe(n !== null);
    }
  };

  it('dot, \\s and \\S as JavaScript reads them', () => {
    same('a.b', ['axb', 'a\nb', 'a\rb', 'a\u2028b', 'a\u00e9b']);
    same('a\\sb', ['a b', 'a\u00a0b', 'a\ufeffb', 'a\u000bb', 'axb']);
    same('a[\\S]b', ['a b', 'axb', 'a\u00a0b', 'a\u3000b']);
    same('a[^\\s]b', ['a b', 'axb', 'a\u2003b']);
    same('[\\s\\S]+', ['\n\r\t x']);
    same('a.b', ['a\nb'], 's');
  });

  it('escapes, braces, classes and flags', () => {
    same('\\x41\\u0042\\cJ\\0', ['AB\n\u0000', 'AB\n0']);
    same('a{,2}b{2}c{1,}', ['a{,2}bbc', 'abbc']);
    same('x}y]', ['x}y]']);
    same('[\\b][^]', ['\bz', '\b\n', 'bz']);
    same('[a-c^&~[]+', ['ab^&~[c', 'x']);
    same('caf\\u00e9', ['CAFÉ', 'café'], 'i');
    same('\\d+\\.\\w*\\/\\-', ['12.ab_/-']);
  });

  it('groups keep their numbers and names, an unmatched group is undefined', () => {
    same('(?<a>x)?(y)(?:z)(?<b>w)?', ['yz', 'xyzw']);
    const p = mustCompileUserPattern('(?!Q)(?<a>x)(y)(?<b>z)', '', 'k', { whole: true });
    expect([...p.names]).toEqual([
      ['a', 1],
      ['b', 3],
    ]);
    expect(p.exec('xyz')).toEqual(['xyz', 'x', 'y', 'z']);
  });

  it("leading lookaheads of a whole-body pattern behave as JavaScript's", () => {
    const header = '(?![^,]+,(?:\\d{1,4}|[0-5]\\d{4}|6[0-4]\\d{3}|65[0-4]\\d{2}|655[0-2]\\d|6553[0-5]),[^,]+(?:,|$))[\\s\\S]*';
    same(header, ['SHOE,1,CARD', 'SHOE,70000,CARD', 'SHOE,65535,X', 'SHOE,12', ',1,X', 'SHOE,,X', ''], '', true);
    same('(?!SHOE,)(?=S)[\\s\\S]*', ['SHOE,1', 'SHUF,1', 'XHOE', ''], '', true);
  });

  it('search (not whole) patterns find a match anywhere, as RegExp#exec', () => {
    same('CARD-(?<card>[A2-9TJQK][SHDC])', ['xx CARD-QH-1', 'CARD-1H']);
    same('^CARD-(?<card>..)-\\d+$', ['CARD-QH-12', 'xCARD-QH-12']);
  });
});
