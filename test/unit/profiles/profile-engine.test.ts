import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cardDecoder } from '../../../drivers/profiles/card-codes.js';
import { checksum } from '../../../drivers/profiles/checksums.js';
import { compileProfile, requiredLiteral } from '../../../drivers/profiles/profile-decoder.js';
import { loadProfileFile, validateProfile } from '../../../drivers/profiles/profile-schema.js';

// Independent encoder for the stx-etx-shoe profile (LRC = two's complement of the byte sum).
function lrcHex(s: string): string {
  let sum = 0;
  for (const ch of s) sum += ch.charCodeAt(0);
  return ((256 - (sum % 256)) % 256).toString(16).toUpperCase().padStart(2, '0');
}
const stxFrame = (body: string): Buffer => Buffer.from(`\u0002${body}*${lrcHex(body)}\u0003`, 'latin1');

describe('checksums', () => {
  it('CRC-16/MODBUS and CRC-16/CCITT-FALSE of "123456789" match the catalogue check values', () => {
    const b = Buffer.from('123456789');
    expect(checksum('crc16-modbus', b, 0, b.length)).toBe(0x4b37);
    expect(checksum('crc16-ccitt', b, 0, b.length)).toBe(0x29b1);
    expect(checksum('xor8', Buffer.from([1, 2, 4]), 0, 3)).toBe(7);
    expect(checksum('sum8', Buffer.from([0xff, 2]), 0, 2)).toBe(1);
  });
});

describe('card-code presets', () => {
  it('reads every preset', () => {
    expect(cardDecoder({ preset: 'rank-suit' })('10S')).toBe('TS');
    expect(cardDecoder({ preset: 'rank-suit' })('TS')).toBe('TS');
    expect(cardDecoder({ preset: 'suit-rank' })('H10')).toBe('TH');
    expect(cardDecoder({ preset: 'suit-rank' })('SA')).toBe('AS');
    expect(cardDecoder({ preset: 'suit_rank' })('C_10')).toBe('TC');
    expect(cardDecoder({ preset: 'suit_rank' })('S_K')).toBe('KS');
    expect(cardDecoder({ preset: 'four-digit' })('1010')).toBe('AS');
    expect(cardDecoder({ preset: 'four-digit' })('4130')).toBe('KD');
    expect(cardDecoder({ preset: 'four-digit' })('1015')).toBeNull();
    expect(cardDecoder({ preset: 'index52' })('1')).toBe('AS');
    expect(cardDecoder({ preset: 'index52' })('52')).toBe('KC');
    expect(cardDecoder({ preset: 'index52' })('53')).toBeNull();
    expect(cardDecoder({ preset: 'custom', ranks: { Ace: 'A' }, suits: { '-sp': 'S' } })('Ace-sp')).toBe('AS');
  });
});

describe('profile schema', () => {
  it('names file and key path of a mistake', () => {
    expect(() =>
      validateProfile('profiles/acme.yaml', {
        name: 'acme',
        talker: 'SHOE',
        framing: { end: '\r' },
        messages: [{ name: 'card', pattern: 'C(?<x>..)', type: 'CARD' }],
      }),
    ).toThrow('profiles/acme.yaml: messages.card.pattern: needs a named group "card"');
  });
});

describe('stx-etx-shoe profile', () => {
  const dec = compileProfile(loadProfileFile(join(__dirname, '../../../drivers/profiles/shipped/stx-etx-shoe.yaml')));
  it('decodes valid frames, rejects noise, bad checksum, truncated frames and bad cards', () => {
    const bad = Buffer.from(stxFrame('2,C,H_Q'));
    bad[bad.length - 2] ^= 1; // corrupt the check digit
    const truncated = Buffer.from('\u00023,C,D_', 'latin1');
    const out = dec.push(Buffer.concat([Buffer.from('xx'), stxFrame('1,C,S_K'), bad, truncated, stxFrame('4,C,C_10'), stxFrame('5,C,X_1'), stxFrame('6,HB')]));
    expect(out).toEqual([
      { reason: 'noise', raw: 'xx' },
      { talker: 'SHOE', seq: 1, type: 'CARD', card: 'KS', rescan: false },
      expect.objectContaining({ reason: 'bad-checksum' }),
      expect.objectContaining({ reason: 'malformed' }),
      { talker: 'SHOE', seq: 4, type: 'CARD', card: 'TC', rescan: false },
      expect.objectContaining({ reason: 'unknown-type' }),
      { talker: 'SHOE', seq: 6, type: 'HB' },
    ]);
  });
  it('reassembles a frame split across chunks', () => {
    const f = stxFrame('7,C,D_A');
    expect(dec.push(f.subarray(0, 3))).toEqual([]);
    expect(dec.push(f.subarray(3))).toEqual([{ talker: 'SHOE', seq: 7, type: 'CARD', card: 'AD', rescan: false }]);
  });
});

describe('pattern compilation', () => {
  it('requiredLiteral finds text every match contains, and none where it cannot be sure', () => {
    expect(requiredLiteral('C(?<card>\\d{4})')).toBe('C');
    expect(requiredLiteral('SHOE,(?<seq>\\d{1,5}),CARD,(?<card>..)')).toBe(',CARD,');
    expect(requiredLiteral('a|bcd')).toBe('');
    expect(requiredLiteral('abx?yz')).toBe('ab');
    expect(requiredLiteral('x{2}yy')).toBe('yy');
    expect(requiredLiteral('\\*B;\\d')).toBe('*B;');
    expect(requiredLiteral('[abc]def\\tq')).toBe('def');
    expect(requiredLiteral('(?:ab)+cd')).toBe('cd');
    expect(requiredLiteral('(?!SHOE,)[\\s\\S]*')).toBe('');
    expect(requiredLiteral('.*')).toBe('');
  });

  it('a message with a back-reference is refused at load, naming the key path and the construct', () => {
    // a backreference cannot run on the linear-time engine (drivers/profiles/linear-pattern.ts)
    expect(() =>
      validateProfile('x.yaml', {
        name: 'r',
        talker: 'BALL',
        framing: { end: '\n' },
        messages: [{ name: 'ball', pattern: '(?<ball>\\d\\d)/\\k<ball>', type: 'BALL' }],
      }),
    ).toThrow('x.yaml: messages.ball.pattern: pattern-unsupported: the backreference \\k<ball> cannot run on the linear-time pattern engine');
  });
});

describe('message keys: map, ranges, optional groups, rescan, rejects', () => {
  const p = validateProfile('acme.yaml', {
    name: 'acme',
    talker: 'SHOE',
    framing: { end: '\n' },
    cards: { preset: 'index52' },
    messages: [
      { name: 'card', pattern: 'C(?<card>\\d{1,2})(?<rescan>!)?', type: 'CARD' },
      { name: 'state', pattern: 'S(?<state>.)', type: 'STATE', map: { state: { L: 'LOADED', E: 'EMPTY' } } },
      { name: 'err', pattern: 'E(?<code>\\w+)(?::(?<text>.*))?', type: 'ERR', fields: { text: 'none' } },
    ],
    rejects: [
      { name: 'broken-card', pattern: 'C.*', reason: 'bad-field' },
      { name: 'not-ours', pattern: 'Z.*', reason: 'unknown-talker' },
    ],
  });
  it('decodes through maps and constants, names rejects by the first matching rule', () => {
    const out = compileProfile(p).push(Buffer.from('C1\nC52!\nSL\nSE\nSX\nEJAM\nEJAM:lid\nCx\nZZ\nQ\n'));
    expect(out.map((f) => ('reason' in f ? f.reason : f))).toEqual([
      { talker: 'SHOE', seq: 0, type: 'CARD', card: 'AS', rescan: false },
      { talker: 'SHOE', seq: 0, type: 'CARD', card: 'KC', rescan: true },
      { talker: 'SHOE', seq: 0, type: 'STATE', state: 'LOADED' },
      { talker: 'SHOE', seq: 0, type: 'STATE', state: 'EMPTY' },
      'bad-field',
      { talker: 'SHOE', seq: 0, type: 'ERR', code: 'JAM', text: 'none' },
      { talker: 'SHOE', seq: 0, type: 'ERR', code: 'JAM', text: 'lid' },
      'bad-field',
      'unknown-talker',
      'unknown-type',
    ]);
  });
  it('ranges replace the default range of a numeric field', () => {
    const keno = (ranges?: object) =>
      compileProfile(
        validateProfile('k.yaml', {
          name: 'k',
          talker: 'BALL',
          framing: { end: '\n' },
          messages: [{ name: 'b', pattern: 'B(?<ball>\\d+)', type: 'BALL', ...(ranges ? { ranges } : {}) }],
        }),
      );
    const balls = (d: ReturnType<typeof keno>) => d.push(Buffer.from('B0\nB80\nB81\n')).map((f) => ('reason' in f ? f.reason : f.type === 'BALL' ? f.ball : 0));
    expect(balls(keno())).toEqual(['bad-field', 80, 'bad-field']);
    expect(balls(keno({ ball: { min: 0, max: 99 } }))).toEqual([0, 80, 81]);
  });
  it('a bad reject rule is an error naming the rule', () => {
    expect(() => validateProfile('acme.yaml', { ...p, rejects: [{ name: 'oops', pattern: '(', reason: 'bad-field' }] })).toThrow(
      'acme.yaml: rejects.oops.pattern: pattern-invalid: not a valid regular expression: /(/: Unterminated group',
    );
    expect(() => validateProfile('acme.yaml', { ...p, rejects: [{ name: 'oops', pattern: 'x', reason: 'weird' }] })).toThrow(
      /acme\.yaml: rejects\.oops\.reason: /,
    );
  });
});

describe('requiredLiteral never names text a match can lack (fast-check)', () => {
  it('for random patterns of literals, classes, groups, quantifiers and escapes, over texts they match', () => {
    const atom = fc.constantFrom('a', 'b', 'C', ',', ';', '\\*', '\\.', '\\d', '[ab]', '(?:ab)', '(b|C)', '\\x41', '\\u0062', '.');
    const quant = fc.constantFrom('', '', '', '?', '*', '+', '{2}', '{0,2}');
    const patternArb = fc
      .array(
        fc.tuple(atom, quant).map(([a, q]) => a + q),
        { minLength: 1, maxLength: 8 },
      )
      .map((xs) => xs.join(''));
    const caseArb = patternArb.chain((pattern) => fc.tuple(fc.constant(pattern), fc.stringMatching(new RegExp(`^(?:${pattern})$`))));
    fc.assert(
      fc.property(caseArb, ([pattern, text]) => {
        expect(new RegExp(`^(?:${pattern})$`).test(text)).toBe(true);
        expect(text.includes(requiredLiteral(pattern)), `${pattern} ~ ${JSON.stringify(text)}`).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });
});
