/**
 * Check values of the corpus encoders, written from the algorithms' published parameters and
 * independent of drivers/profiles/checksums.ts: a bitwise CRC, no tables, so an error in the
 * engine's table-driven CRCs cannot hide behind the same error here.
 */
export const xor8 = (b: ArrayLike<number>): number => {
  let x = 0;
  for (let i = 0; i < b.length; i++) x ^= b[i];
  return x;
};

export const sum8 = (b: ArrayLike<number>): number => {
  let s = 0;
  for (let i = 0; i < b.length; i++) s += b[i];
  return s & 0xff;
};

/** two's complement of the sum: sum + lrc = 0 mod 256 */
export const lrc = (b: ArrayLike<number>): number => (0x100 - sum8(b)) & 0xff;

const reflect = (v: number, bits: number): number => {
  let r = 0;
  for (let i = 0; i < bits; i++) if (v & (1 << i)) r |= 1 << (bits - 1 - i);
  return r >>> 0;
};

/** a CRC of up to 16 bits from its Rocksoft parameters, one bit at a time */
function crc(width: number, poly: number, init: number, refin: boolean, refout: boolean, xorout: number) {
  const top = 1 << (width - 1);
  const mask = (1 << width) - 1;
  return (b: ArrayLike<number>): number => {
    let r = init;
    for (let i = 0; i < b.length; i++) {
      const byte = refin ? reflect(b[i], 8) : b[i];
      r ^= byte << (width - 8);
      for (let k = 0; k < 8; k++) r = r & top ? ((r << 1) ^ poly) & mask : (r << 1) & mask;
    }
    return ((refout ? reflect(r, width) : r) ^ xorout) & mask;
  };
}

export const crc8smbus = crc(8, 0x07, 0x00, false, false, 0x00);
export const crc8maxim = crc(8, 0x31, 0x00, true, true, 0x00);
export const crc16modbus = crc(16, 0x8005, 0xffff, true, true, 0x0000);
export const crc16xmodem = crc(16, 0x1021, 0x0000, false, false, 0x0000);
export const crc16kermit = crc(16, 0x1021, 0x0000, true, true, 0x0000);

export const ascii = (s: string): Buffer => Buffer.from(s, 'latin1');
export const hex2 = (n: number): string => n.toString(16).toUpperCase().padStart(2, '0');
export const hex4 = (n: number): string => n.toString(16).toUpperCase().padStart(4, '0');
