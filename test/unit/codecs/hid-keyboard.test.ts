import { describe, it, expect } from 'vitest';
import { KeyboardWedgeDecoder, barcodeToCard, createBarcodeMapper, keyboardReports } from '../../../drivers/codecs/hid-keyboard.js';
import { PatternRefusal } from '../../../drivers/profiles/linear-pattern.js';

const R = (mods: number, ...keys: number[]) => Buffer.from([mods, 0, ...keys, 0, 0, 0, 0, 0, 0].slice(0, 8));
const UP = R(0);
const LSHIFT = 0x02;
const RSHIFT = 0x20;
const ENTER = 0x28;

/** Feeds reports, returns everything emitted. */
function feed(...reports: Buffer[]) {
  const d = new KeyboardWedgeDecoder();
  return reports.flatMap((r) => d.push(r));
}

describe('KeyboardWedgeDecoder', () => {
  it('decodes a shifted barcode "AS" + Enter from real report sequences', () => {
    expect(
      feed(
        R(LSHIFT, 0x04),
        UP, // 'A'
        R(LSHIFT, 0x16),
        UP, // 'S'
        R(0, ENTER),
        UP,
      ),
    ).toEqual(['AS']);
  });

  it('types lower case without shift and honours the right shift bit', () => {
    expect(feed(R(0, 0x07), UP, R(RSHIFT, 0x07), UP, R(0, ENTER), UP)).toEqual(['dD']);
  });

  it('digits 0x1E..0x27 map to 1..9,0; shifted to !@#$%^&*()', () => {
    const digits = [0x1e, 0x1f, 0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27];
    expect(feed(...digits.flatMap((k) => [R(0, k), UP]), R(0, ENTER))).toEqual(['1234567890']);
    expect(feed(...digits.flatMap((k) => [R(LSHIFT, k), UP]), R(0, ENTER))).toEqual(['!@#$%^&*()']);
  });

  it('printable symbols with and without shift', () => {
    const keys = [0x2c, 0x2d, 0x2e, 0x2f, 0x30, 0x31, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38];
    expect(feed(...keys.flatMap((k) => [R(0, k), UP]), R(0, ENTER))).toEqual([" -=[]\\;'`,./"]);
    expect(feed(...keys.flatMap((k) => [R(LSHIFT, k), UP]), R(0, ENTER))).toEqual([' _+{}|:"~<>?']);
  });

  it('a key held across reports is one keypress; released and pressed again is two', () => {
    expect(feed(R(0, 0x04), R(0, 0x04), R(0, 0x04), UP, R(0, ENTER), UP)).toEqual(['a']);
    expect(feed(R(0, 0x04), UP, R(0, 0x04), UP, R(0, ENTER), UP)).toEqual(['aa']);
    // shift changing while the key is held does not retype it
    expect(feed(R(0, 0x04), R(LSHIFT, 0x04), UP, R(0, ENTER))).toEqual(['a']);
  });

  it('rolling key presses: a new key added while another is held types only the new one', () => {
    expect(feed(R(LSHIFT, 0x17), R(LSHIFT, 0x17, 0x07), R(LSHIFT, 0x07), UP, R(0, ENTER))).toEqual(['TD']);
    // two new keys in one report type in slot order
    expect(feed(R(0, 0x1e, 0x1f), UP, R(0, ENTER))).toEqual(['12']);
  });

  it('several barcodes in a row; an Enter with nothing typed yields nothing', () => {
    expect(feed(R(0, ENTER), UP, R(0, 0x24), UP, R(LSHIFT, 0x0b), UP, R(0, ENTER), UP, R(LSHIFT, 0x17), UP, R(LSHIFT, 0x06), UP, R(0, 0x58), UP)).toEqual([
      '7H',
      'TC',
    ]);
  });

  it('Enter held across reports ends the barcode once', () => {
    expect(feed(R(0, 0x04), UP, R(0, ENTER), R(0, ENTER), UP)).toEqual(['a']);
  });

  it('ignores Ctrl/Alt chords, non-printable keys and ErrorRollOver reports', () => {
    expect(feed(R(0x01, 0x04), UP, R(0, 0x2b), UP, R(0, 0x29), UP, R(0, 0x05), UP, R(0, ENTER))).toEqual(['b']);
    // a phantom (rollover) report does not count as a release
    expect(feed(R(0, 0x04), R(0, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01), R(0, 0x04), UP, R(0, ENTER))).toEqual(['a']);
  });

  it('reports that are not 8 bytes are rejects', () => {
    const d = new KeyboardWedgeDecoder();
    expect(d.push(Buffer.from([0, 0, 4]))).toEqual([{ reason: 'malformed', raw: '\\x00\\x00\\x04' }]);
    expect(d.push(Buffer.alloc(9))).toMatchObject([{ reason: 'malformed' }]);
    expect(d.push(Buffer.alloc(0))).toMatchObject([{ reason: 'malformed' }]);
  });

  it('drops a runaway barcode with one too-long reject', () => {
    const reports: Buffer[] = [];
    for (let i = 0; i < 300; i++) reports.push(R(0, 0x04), UP);
    reports.push(R(0, ENTER), UP, R(0, 0x05), UP, R(0, ENTER));
    const out = feed(...reports);
    expect(out).toHaveLength(2);
    expect(out[0]).toMatchObject({ reason: 'too-long' });
    expect(out[1]).toBe('b');
  });

  it('reset() forgets held keys and partial text', () => {
    const d = new KeyboardWedgeDecoder();
    d.push(R(0, 0x04));
    d.reset();
    expect([...d.push(R(0, 0x04)), ...d.push(R(0, ENTER))]).toEqual(['a']);
  });
});

describe('barcodeToCard', () => {
  it('default pattern on the upper-cased barcode', () => {
    expect(barcodeToCard('AS', {})).toBe('AS');
    expect(barcodeToCard('as')).toBe('AS');
    expect(barcodeToCard('tD')).toBe('TD');
    for (const bad of ['1S', '10S', 'AS ', 'ASX', '', 'A', 'XS']) expect(barcodeToCard(bad), bad).toBeNull();
  });

  it('custom pattern with a named group', () => {
    const m = { pattern: '^CARD-(?<card>[A2-9TJQK][SHDC])-\\d+$' };
    expect(barcodeToCard('card-qh-0012', m)).toBe('QH');
    expect(barcodeToCard('CARD-1H-0012', m)).toBeNull();
    expect(barcodeToCard('QH', m)).toBeNull();
    expect(barcodeToCard('X', { pattern: '^(?<other>X)$' })).toBeNull();
    expect(() => barcodeToCard('X', { pattern: '(' })).toThrow(PatternRefusal);
    expect(() => createBarcodeMapper({ pattern: '(?<card' })).toThrow(/pattern-invalid/);
    expect(() => createBarcodeMapper({ pattern: '^(?<card>..)\\k<card>$' })).toThrow(/pattern-unsupported: the backreference/);
    expect(createBarcodeMapper(m)('CARD-2C-1')).toBe('2C');
  });

  it('lookup table (exact, then upper-cased key), values must be card codes', () => {
    const m = { table: { '0001234': 'AS', ABC: 'kd', BAD: 'ZZ' } };
    expect(barcodeToCard('0001234', m)).toBe('AS');
    expect(barcodeToCard('abc', m)).toBe('KD');
    expect(barcodeToCard('BAD', m)).toBeNull();
    expect(barcodeToCard('AS', m)).toBeNull(); // table only: no default pattern
    expect(barcodeToCard('toString', m)).toBeNull(); // no prototype lookups
    expect(barcodeToCard('AS', { ...m, pattern: '^(?<card>..)$' })).toBe('AS'); // table, then pattern
  });
});

describe('keyboardReports (the encoder side of the keyboard tables)', () => {
  it('every printable ASCII character a US keyboard types comes back through the decoder; others are refused', () => {
    const text = Array.from({ length: 95 }, (_, i) => String.fromCharCode(0x20 + i)).join('');
    const reports = keyboardReports(text);
    expect(reports).toHaveLength((text.length + 1) * 2);
    expect(reports.every((r, i) => r.length === 8 && (i % 2 === 0 ? r[2] !== 0 : r.every((b) => b === 0)))).toBe(true);
    const d = new KeyboardWedgeDecoder();
    expect(reports.flatMap((r) => d.push(r))).toEqual([text]);
    expect(() => keyboardReports('A\tB')).toThrow(/cannot type "\\t" on a US keyboard/);
  });
});
