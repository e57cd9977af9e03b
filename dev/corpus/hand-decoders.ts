/**
 * A hand-written decoder per corpus format: what a programmer would write for that one device,
 * straight code with table-driven checks. The bench (dev/bench/profiles-bench.ts) holds the
 * profile engine to within 2x of these on the same frames. Each reads a buffer of whole frames
 * (the bench's chunks) and returns one item per frame: the card (or roll, ball, count) and SEQ,
 * or null for a frame that fails its check.
 */
import { VENDOR_CARDS, VENDOR_CHARS } from './encoders.js';

export type HandItem = { seq: number; v: string | number } | null;
export type HandDecoder = (b: Buffer) => HandItem[];

function table(width: number, poly: number, refin: boolean): Uint32Array {
  const t = new Uint32Array(256);
  const mask = width === 32 ? 0xffffffff : (1 << width) - 1;
  for (let i = 0; i < 256; i++) {
    let r: number;
    if (refin) {
      let rp = 0;
      for (let k = 0; k < width; k++) if (poly & (1 << k)) rp |= 1 << (width - 1 - k);
      r = i;
      for (let k = 0; k < 8; k++) r = r & 1 ? (r >>> 1) ^ rp : r >>> 1;
    } else {
      r = i << (width - 8);
      for (let k = 0; k < 8; k++) r = r & (1 << (width - 1)) ? ((r << 1) ^ poly) & mask : (r << 1) & mask;
    }
    t[i] = r >>> 0;
  }
  return t;
}
const T_MODBUS = table(16, 0x8005, true);
const T_KERMIT = table(16, 0x1021, true);
const T_XMODEM = table(16, 0x1021, false);
const T_SMBUS = table(8, 0x07, false);
const T_MAXIM = table(8, 0x31, true);
const crcRef = (t: Uint32Array, init: number, b: Uint8Array, s: number, e: number): number => {
  let c = init;
  for (let i = s; i < e; i++) c = (c >>> 8) ^ t[(c ^ b[i]) & 0xff];
  return c;
};
const crc16Msb = (t: Uint32Array, b: Uint8Array, s: number, e: number): number => {
  let c = 0;
  for (let i = s; i < e; i++) c = ((c << 8) & 0xffff) ^ t[((c >> 8) ^ b[i]) & 0xff];
  return c;
};
const crc8Msb = (t: Uint32Array, b: Uint8Array, s: number, e: number): number => {
  let c = 0;
  for (let i = s; i < e; i++) c = t[c ^ b[i]];
  return c;
};
const hexv = (c: number): number => (c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x57);
const RANKS = 'A23456789TJQK';
const SUITS = 'SHDC';
const dec = (b: Uint8Array, s: number, e: number): number => {
  let n = 0;
  for (let i = s; i < e; i++) n = n * 10 + b[i] - 0x30;
  return n;
};
/** rank text (A, 2..10, J, Q, K) at [s, e) */
const rankAt = (b: Uint8Array, s: number, e: number): string => (e - s === 2 ? 'T' : String.fromCharCode(b[s]));
const idx52 = (n: number, suits: string): string => RANKS[(n - 1) % 13] + suits[Math.floor((n - 1) / 13)];

export const HAND_DECODERS: Record<string, HandDecoder> = {
  'ascii-crlf-shoe': (b) => {
    const out: HandItem[] = [];
    let s = 0;
    for (let i = 0; i < b.length - 1; i++) {
      if (b[i] !== 0x0d || b[i + 1] !== 0x0a) continue;
      const star = i - 3;
      let x = 0;
      for (let k = s; k < star; k++) x ^= b[k];
      const colon = b.indexOf(0x3a, s);
      out.push(
        b[star] === 0x2a && x === hexv(b[star + 1]) * 16 + hexv(b[star + 2])
          ? { seq: dec(b, s + 1, colon), v: rankAt(b, colon + 1, star - 1) + String.fromCharCode(b[star - 1]) }
          : null,
      );
      s = i + 2;
      i++;
    }
    return out;
  },
  'stx-etx-lrc-shoe': (b) => {
    const out: HandItem[] = [];
    for (let s = 0; s < b.length; ) {
      const etx = b.indexOf(0x03, s + 1);
      let sum = 0;
      for (let k = s + 1; k <= etx; k++) sum += b[k];
      out.push(((sum + b[etx + 1]) & 0xff) === 0 ? { seq: dec(b, s + 1, s + 5), v: rankAt(b, s + 7, etx) + String.fromCharCode(b[s + 6]) } : null);
      s = etx + 2;
    }
    return out;
  },
  'dle-crc16-shoe': (b) => {
    const out: HandItem[] = [];
    const p = new Uint8Array(16);
    for (let s = 2; s < b.length; ) {
      let n = 0;
      let i = s;
      for (; !(b[i] === 0x10 && b[i + 1] === 0x03); i++) {
        p[n++] = b[i];
        if (b[i] === 0x10) i++;
      }
      const c = crcRef(T_KERMIT, 0, p, 0, n);
      out.push(c === (b[i + 2] | (b[i + 3] << 8)) ? { seq: p[1], v: idx52(p[2], 'CDHS') } : null);
      s = i + 6;
    }
    return out;
  },
  'length-le-shoe': (b) => {
    const out: HandItem[] = [];
    for (let s = 0; s < b.length; ) {
      const len = b[s + 1];
      const e = s + 2 + len;
      const c = crcRef(T_MODBUS, 0xffff, b, s, e);
      const card = b[s + 5];
      out.push(c === (b[e] | (b[e + 1] << 8)) ? { seq: b[s + 3] | (b[s + 4] << 8), v: RANKS[(card & 15) - 1] + SUITS[(card >> 4) - 1] } : null);
      s = e + 2;
    }
    return out;
  },
  'sync-keno': (b) => {
    const out: HandItem[] = [];
    for (let s = 0; s + 6 <= b.length; s += 6)
      out.push(b[s] === 0xeb && b[s + 1] === 0x90 && ((b[s + 2] + b[s + 3] + b[s + 4]) & 0xff) === b[s + 5] ? { seq: b[s + 4], v: b[s + 3] } : null);
    return out;
  },
  'modbus-rtu-shoe': (b) => {
    const out: HandItem[] = [];
    for (let s = 0; s < b.length; ) {
      const e = s + 3 + b[s + 2];
      const c = crcRef(T_MODBUS, 0xffff, b, s, e);
      const code = (b[s + 7] << 8) | b[s + 8];
      out.push(
        c === (b[e] | (b[e + 1] << 8)) ? { seq: (b[s + 3] << 8) | b[s + 4], v: RANKS[(code % 1000) / 10 - 1] + '_SHCD'[Math.floor(code / 1000)] } : null,
      );
      s = e + 2;
    }
    return out;
  },
  'hex-trailer-shuffler': (b) => {
    const out: HandItem[] = [];
    for (let s = 0; s < b.length; ) {
      const semi = b.indexOf(0x3b, s);
      const c = crc16Msb(T_XMODEM, b, s + 1, semi);
      const want = (hexv(b[semi + 1]) << 12) | (hexv(b[semi + 2]) << 8) | (hexv(b[semi + 3]) << 4) | hexv(b[semi + 4]);
      out.push(c === want ? { seq: 0, v: dec(b, s + 5, semi) } : null);
      s = semi + 5;
    }
    return out;
  },
  'decimal-sum-shoe': (b) => {
    const out: HandItem[] = [];
    for (let s = 0; s < b.length; ) {
      const slash = b.indexOf(0x2f, s);
      let sum = 0;
      for (let k = s + 1; k < slash; k++) sum += b[k];
      out.push(
        (sum & 0xff) === dec(b, slash + 1, slash + 4) ? { seq: dec(b, s + 1, s + 4), v: rankAt(b, s + 7, slash) + String.fromCharCode(b[s + 5]) } : null,
      );
      s = slash + 5;
    }
    return out;
  },
  'index52-shoe': (b) => {
    const out: HandItem[] = [];
    for (let s = 0; s < b.length; ) {
      const tilde = b.indexOf(0x7e, s);
      const c = crc8Msb(T_SMBUS, b, s + 1, tilde);
      out.push(c === hexv(b[tilde + 1]) * 16 + hexv(b[tilde + 2]) ? { seq: dec(b, s + 1, s + 3), v: idx52(dec(b, s + 4, tilde), 'SHDC') } : null);
      s = tilde + 6;
    }
    return out;
  },
  'table-char-shoe': (() => {
    const cards: string[] = new Array(128).fill('');
    for (let i = 0; i < 52; i++) cards[VENDOR_CHARS.charCodeAt(i)] = VENDOR_CARDS[i];
    return (b: Buffer) => {
      const out: HandItem[] = [];
      for (let s = 0; s + 8 <= b.length; s += 8) {
        const c = crcRef(T_MAXIM, 0, b, s + 1, s + 4);
        out.push(c === hexv(b[s + 5]) * 16 + hexv(b[s + 6]) ? { seq: dec(b, s + 1, s + 3), v: cards[b[s + 3]] } : null);
      }
      return out;
    };
  })(),
  'hid-card-reader': (b) => [b[0] === 0x03 && crc8Msb(T_SMBUS, b, 0, 7) === b[7] ? { seq: b[1], v: idx52(b[3], 'SHDC') } : null],
  'bitfield-dice': (b) => {
    const out: HandItem[] = [];
    const p = new Uint8Array(8);
    for (let s = 0; s < b.length; ) {
      let n = 0;
      let i = s + 1;
      for (; b[i] !== 0x7f; i++) p[n++] = b[i] === 0x7d ? b[++i] ^ 0x20 : b[i];
      const w = p[2] | (p[3] << 8);
      out.push(crcRef(T_MAXIM, 0, p, 0, 4) === p[4] ? { seq: p[1], v: `${w & 7},${(w >> 3) & 7},${(w >> 6) & 7}/${(w >> 9) & 31}` } : null);
      s = i + 1;
    }
    return out;
  },
};
