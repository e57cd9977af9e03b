import { describe, expect, it } from 'vitest';
import { checksum, checksumBytes, INTEGRITY_ALGORITHMS, INTEGRITY_CATALOGUE, standardCheck } from '../../../drivers/profiles/checksums.js';

const CHECK = Buffer.from('123456789', 'latin1');

/** the published check values of "123456789", written out here independently of the catalogue's rows */
const PUBLISHED: Record<string, number> = {
  xor8: 0x31,
  sum8: 0xdd,
  lrc: 0x23,
  crc8: 0xf4,
  'crc8-maxim': 0xa1,
  'crc8-itu': 0xa1,
  'crc8-cdma2000': 0xda,
  'crc8-autosar': 0xdf,
  'crc16-modbus': 0x4b37,
  'crc16-ccitt-false': 0x29b1,
  'crc16-xmodem': 0x31c3,
  'crc16-kermit': 0x2189,
  'crc16-arc': 0xbb3d,
  'crc16-x25': 0x906e,
  crc32: 0xcbf43926,
};

describe('integrity catalogue: each algorithm against its standard check value of "123456789"', () => {
  for (const name of INTEGRITY_ALGORITHMS.filter((n) => n !== 'none')) {
    it(name, () => {
      expect(PUBLISHED[name], `no published value written for ${name}`).toBeDefined();
      expect(checksum(name, CHECK, 0, CHECK.length)).toBe(PUBLISHED[name]);
      expect(standardCheck(name)).toBe(PUBLISHED[name]);
    });
  }

  it('computes over a byte range, not the whole buffer', () => {
    const b = Buffer.from('xx123456789yy', 'latin1');
    expect(checksum('crc16-modbus', b, 2, 11)).toBe(0x4b37);
    expect(checksum('crc32', b, 2, 11)).toBe(0xcbf43926);
  });

  it('keeps the v1 name crc16-ccitt as CRC-16/CCITT-FALSE; widths follow the rows', () => {
    expect(checksum('crc16-ccitt', CHECK, 0, 9)).toBe(0x29b1);
    expect(checksumBytes('crc16-ccitt')).toBe(2);
    expect(checksumBytes('crc32')).toBe(4);
    expect(checksumBytes('xor8')).toBe(1);
    expect(checksumBytes('none')).toBe(0);
    expect(Object.keys(INTEGRITY_CATALOGUE)).toContain('crc8-maxim');
  });
});
