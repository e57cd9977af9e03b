import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cardDecoder } from '../../../drivers/profiles/card-codes.js';
import { checksum } from '../../../drivers/profiles/checksums.js';
import { compileProfile } from '../../../drivers/profiles/profile-decoder.js';
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
      validateProfile('profiles/acme.yaml', { name: 'acme', talker: 'SHOE', framing: { end: '\r' }, messages: [{ name: 'card', pattern: 'C(?<x>..)', type: 'CARD' }] }),
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
