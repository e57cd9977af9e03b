/** Integrity checks a device profile may name (device-protocols.md §3). Pure functions over bytes[start, end). */
export type ChecksumKind = 'none' | 'xor8' | 'sum8' | 'lrc' | 'crc16-modbus' | 'crc16-ccitt';

export function checksum(kind: ChecksumKind, b: Uint8Array, start: number, end: number): number {
  let v = 0;
  switch (kind) {
    case 'none':
      return 0;
    case 'xor8':
      for (let i = start; i < end; i++) v ^= b[i];
      return v;
    case 'sum8':
      for (let i = start; i < end; i++) v = (v + b[i]) & 0xff;
      return v;
    case 'lrc':
      for (let i = start; i < end; i++) v = (v + b[i]) & 0xff;
      return (0x100 - v) & 0xff;
    case 'crc16-modbus':
      v = 0xffff;
      for (let i = start; i < end; i++) {
        v ^= b[i];
        for (let k = 0; k < 8; k++) v = v & 1 ? (v >>> 1) ^ 0xa001 : v >>> 1;
      }
      return v;
    case 'crc16-ccitt':
      v = 0xffff;
      for (let i = start; i < end; i++) {
        v ^= b[i] << 8;
        for (let k = 0; k < 8; k++) v = v & 0x8000 ? ((v << 1) ^ 0x1021) & 0xffff : (v << 1) & 0xffff;
      }
      return v;
  }
}

/** Width of the check value in bytes (binary) — hex-ASCII doubles it. */
export function checksumBytes(kind: ChecksumKind): number {
  return kind === 'none' ? 0 : kind.startsWith('crc16') ? 2 : 1;
}
