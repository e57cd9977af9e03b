/**
 * The integrity catalogue of device profiles (device-protocols.md §3.1): every algorithm a profile
 * may name, with its standard parameters. A CRC is one row (width, polynomial, initial value,
 * reflected in / out, final XOR, and the standard check value of the ASCII bytes "123456789");
 * adding one is adding a row. The simple sums are rows too. Pure functions over bytes[start, end).
 */

export interface CrcParams {
  width: 8 | 16 | 32;
  poly: number;
  init: number;
  refin: boolean;
  refout: boolean;
  xorout: number;
}

interface Row {
  /** bytes of the check value */
  width: 0 | 1 | 2 | 4;
  /** the value of the ASCII bytes "123456789" (the catalogue's standard check) */
  check: number;
  crc?: CrcParams;
  /** a non-CRC sum */
  sum?: 'xor8' | 'sum8' | 'lrc' | 'none';
}

const crc = (width: 8 | 16 | 32, poly: number, init: number, refin: boolean, refout: boolean, xorout: number, check: number): Row => ({
  width: (width / 8) as 1 | 2 | 4,
  check,
  crc: { width, poly, init, refin, refout, xorout },
});

/** The catalogue, by the name a profile uses (`integrity.algorithm`). */
export const INTEGRITY_CATALOGUE = {
  none: { width: 0, check: 0, sum: 'none' },
  /** XOR of the bytes */
  xor8: { width: 1, check: 0x31, sum: 'xor8' },
  /** sum of the bytes mod 256 */
  sum8: { width: 1, check: 0xdd, sum: 'sum8' },
  /** two's-complement of the sum mod 256 (the sum of the bytes and the LRC is 0) */
  lrc: { width: 1, check: 0x23, sum: 'lrc' },
  /** CRC-8/SMBUS */
  crc8: crc(8, 0x07, 0x00, false, false, 0x00, 0xf4),
  /** CRC-8/MAXIM-DOW (1-Wire) */
  'crc8-maxim': crc(8, 0x31, 0x00, true, true, 0x00, 0xa1),
  /** CRC-8/I-432-1 (ITU) */
  'crc8-itu': crc(8, 0x07, 0x00, false, false, 0x55, 0xa1),
  'crc8-cdma2000': crc(8, 0x9b, 0xff, false, false, 0x00, 0xda),
  'crc8-autosar': crc(8, 0x2f, 0xff, false, false, 0xff, 0xdf),
  'crc16-modbus': crc(16, 0x8005, 0xffff, true, true, 0x0000, 0x4b37),
  'crc16-ccitt-false': crc(16, 0x1021, 0xffff, false, false, 0x0000, 0x29b1),
  'crc16-xmodem': crc(16, 0x1021, 0x0000, false, false, 0x0000, 0x31c3),
  'crc16-kermit': crc(16, 0x1021, 0x0000, true, true, 0x0000, 0x2189),
  /** CRC-16/ARC (IBM) */
  'crc16-arc': crc(16, 0x8005, 0x0000, true, true, 0x0000, 0xbb3d),
  /** CRC-16/IBM-SDLC (X.25) */
  'crc16-x25': crc(16, 0x1021, 0xffff, true, true, 0xffff, 0x906e),
  /** CRC-32 (ISO-HDLC, zip, Ethernet) */
  crc32: crc(32, 0x04c11db7, 0xffffffff, true, true, 0xffffffff, 0xcbf43926),
} as const satisfies Record<string, Row>;

export type IntegrityAlgorithm = keyof typeof INTEGRITY_CATALOGUE;
export const INTEGRITY_ALGORITHMS = Object.keys(INTEGRITY_CATALOGUE) as IntegrityAlgorithm[];

/** The names of profile language v1 (`integrity.kind`): `crc16-ccitt` is CRC-16/CCITT-FALSE. */
export type ChecksumKind = IntegrityAlgorithm | 'crc16-ccitt';
const canonical = (k: ChecksumKind): IntegrityAlgorithm => (k === 'crc16-ccitt' ? 'crc16-ccitt-false' : k);

function reflect(v: number, bits: number): number {
  let r = 0;
  for (let i = 0; i < bits; i++) if (v & (2 ** i)) r += 2 ** (bits - 1 - i);
  return r;
}

/** A table-driven CRC over bytes[start, end): 256 entries built once per algorithm. */
function crcFunction(p: CrcParams): (b: ArrayLike<number>, start: number, end: number) => number {
  const { width, refin, refout, xorout } = p;
  const mask = width === 32 ? 0xffffffff : (1 << width) - 1;
  const table = new Uint32Array(256);
  if (refin) {
    const rpoly = reflect(p.poly, width);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ rpoly : c >>> 1;
      table[n] = c >>> 0;
    }
    // the register is kept reflected: init reflected in, result reflected out unless refout differs
    const init = reflect(p.init, width);
    return (b, start, end) => {
      let c = init;
      for (let i = start; i < end; i++) c = (table[(c ^ b[i]) & 0xff] ^ (c >>> 8)) >>> 0;
      if (!refout) c = reflect(c, width);
      return ((c ^ xorout) & mask) >>> 0;
    };
  }
  const top = width - 8;
  for (let n = 0; n < 256; n++) {
    let c = width === 32 ? (n << 24) >>> 0 : n << top;
    const hi = 2 ** (width - 1);
    for (let k = 0; k < 8; k++) c = c & hi ? ((c * 2) ^ p.poly) & mask : (c * 2) & mask;
    table[n] = c >>> 0;
  }
  return (b, start, end) => {
    let c = p.init;
    for (let i = start; i < end; i++) c = (table[((c >>> top) ^ b[i]) & 0xff] ^ (c << 8)) & mask;
    c = c >>> 0;
    if (refout) c = reflect(c, width);
    return ((c ^ xorout) & mask) >>> 0;
  };
}

export type ChecksumFunction = (b: ArrayLike<number>, start: number, end: number) => number;

const built = new Map<IntegrityAlgorithm, ChecksumFunction>();

/** The function computing an algorithm of the catalogue over bytes[start, end). */
export function checksumFunction(kind: ChecksumKind): ChecksumFunction {
  const name = canonical(kind);
  let f = built.get(name);
  if (f) return f;
  const row: Row = INTEGRITY_CATALOGUE[name];
  if (row.crc) f = crcFunction(row.crc);
  else if (row.sum === 'xor8')
    f = (b, s, e) => {
      let v = 0;
      for (let i = s; i < e; i++) v ^= b[i];
      return v;
    };
  else if (row.sum === 'sum8')
    f = (b, s, e) => {
      let v = 0;
      for (let i = s; i < e; i++) v = (v + b[i]) & 0xff;
      return v;
    };
  else if (row.sum === 'lrc')
    f = (b, s, e) => {
      let v = 0;
      for (let i = s; i < e; i++) v = (v + b[i]) & 0xff;
      return (0x100 - v) & 0xff;
    };
  else f = () => 0;
  built.set(name, f);
  return f;
}

export function checksum(kind: ChecksumKind, b: ArrayLike<number>, start: number, end: number): number {
  return checksumFunction(kind)(b, start, end);
}

/** Width of the check value in bytes (binary); hex text doubles it. */
export function checksumBytes(kind: ChecksumKind): number {
  return INTEGRITY_CATALOGUE[canonical(kind)].width;
}

/** The catalogue's standard check value of an algorithm (its value over the ASCII "123456789"). */
export function standardCheck(kind: ChecksumKind): number {
  return INTEGRITY_CATALOGUE[canonical(kind)].check;
}
