/**
 * A hand-written decoder per corpus format: what a programmer would write for that one device,
 * straight code with table-driven checks. They are the yardstick of the bench
 * (dev/bench/profiles-bench.ts holds the profile engine to within 2x of these on the same
 * frames), so each does the whole work of a real decoder for its wire: it streams (a frame may
 * arrive split over any number of chunks), finds the start again after noise, checks the length
 * limit and the check value, reports every noise run and every bad frame as a reject with the
 * profile engine's reason code and raw text, and returns the same frames (`DeviceFrame`) as the
 * engine. test/corpus/hand-decoders.test.ts holds each to the engine's items on the capture of
 * its deal with line faults, however it is chunked.
 *
 * Written from the formats' descriptions (encoders.ts) without the profile engine's code: only
 * its vocabulary (frames, `reject`, `describeBytes`) is shared.
 */
import { describeBytes, RAW_MAX, reject } from '../../drivers/codecs/reject.js';
import type { Card } from '../../src/core/vocabulary/card.js';
import type { DeviceFrame, FrameReject, RejectReason, Talker } from '../../src/core/vocabulary/frames.js';
import { VENDOR_CARDS, VENDOR_CHARS } from './encoders.js';

export type HandItem = DeviceFrame | FrameReject;
export interface HandDecoder {
  /** bytes as they arrive (a HID reader: one report, or several whole ones); the completed items in order */
  push(chunk: Uint8Array): HandItem[];
  /** the input ended: a pending noise run is reported, a frame cut off stays unreported (frames after a later start in it are read) */
  end(): HandItem[];
}

// ---- checks, table-driven
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

// ---- text fields
/** hex digit values (either case); -1 for anything else */
const HEXV = new Int8Array(256).fill(-1);
for (let i = 0; i < 10; i++) HEXV[0x30 + i] = i;
for (let i = 0; i < 6; i++) HEXV[0x41 + i] = HEXV[0x61 + i] = 10 + i;
/** the same, upper-case only / lower-case only */
const HEX_UP = Int8Array.from(HEXV, (v, c) => (c >= 0x61 ? -1 : v));
const HEX_LO = Int8Array.from(HEXV, (v, c) => (c >= 0x41 && c <= 0x46 ? -1 : v));
/** the decimal number at b[s, e) (digits only), -1 otherwise */
function decimal(b: Uint8Array, s: number, e: number): number {
  if (e <= s) return -1;
  let n = 0;
  for (let i = s; i < e; i++) {
    const d = b[i] - 0x30;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

// ---- cards
const RANKS = 'A23456789TJQK';
/** rank 0..12 x suit (0 S, 1 H, 2 D, 3 C) -> the card's text, built once */
const CARDS: Card[] = [];
for (let r = 0; r < 13; r++) for (const s of 'SHDC') CARDS.push((RANKS[r] + s) as Card);
const cardOf = (rank: number, suit: number): Card => CARDS[rank * 4 + suit];
/** a rank letter (A 2..9 J Q K) -> 0..12, -1 otherwise; `10` is read by `rankAt` */
const RANK_CHAR = new Int8Array(256).fill(-1);
for (let r = 0; r < 13; r++) if (RANKS[r] !== 'T') RANK_CHAR[RANKS.charCodeAt(r)] = r;
/** S H D C -> 0..3, -1 otherwise */
const SUIT_CHAR = new Int8Array(256).fill(-1);
for (let s = 0; s < 4; s++) SUIT_CHAR['SHDC'.charCodeAt(s)] = s;
/** the rank written at b[s, e) (one character, or `10`): 0..12, -1 otherwise */
const rankAt = (b: Uint8Array, s: number, e: number): number => (e - s === 1 ? RANK_CHAR[b[s]] : e - s === 2 && b[s] === 0x31 && b[s + 1] === 0x30 ? 9 : -1);
/** index 1..52 in a suit order (suit indexes in SHDC order) -> the card, null out of range */
const index52 = (n: number, suits: readonly number[]): Card | null => (n >= 1 && n <= 52 ? cardOf((n - 1) % 13, suits[Math.floor((n - 1) / 13)]) : null);
const SHDC = [0, 1, 2, 3];
const CDHS = [3, 2, 1, 0];

// ---- frames
const cardFrame = (seq: number, card: Card): DeviceFrame => ({ talker: 'SHOE', seq, type: 'CARD', card, rescan: false });
const plain = (talker: Talker, seq: number, type: 'MISREAD' | 'HB' | 'NOREAD' | 'START' | 'END'): DeviceFrame => ({ talker, seq, type }) as DeviceFrame;
const loaded = (seq: number): DeviceFrame => ({ talker: 'SHOE', seq, type: 'STATE', state: 'LOADED' });
const bad = (reason: RejectReason, b: Uint8Array, s: number, e: number): FrameReject => reject(reason, describeBytes(b, s, e));

/** a run of noise between frames: its first RAW_MAX bytes and its length */
class Noise {
  private readonly buf = new Uint8Array(RAW_MAX);
  private len = 0;
  private onlyEnds = true;
  /** `endByte`: a byte of an end sequence (a run of nothing else is a blank line, not noise) */
  add(b: number, endByte = false): void {
    if (this.len < RAW_MAX) this.buf[this.len] = b;
    this.len++;
    if (!endByte) this.onlyEnds = false;
  }
  addRun(b: Uint8Array, s: number, e: number): void {
    for (let i = s; i < e; i++) this.add(b[i]);
  }
  /** a frame starts: the run before it is a reject */
  flush(out: HandItem[]): void {
    if (this.len > 0) out.push(reject('noise', describeBytes(this.buf, 0, Math.min(this.len, RAW_MAX), this.len)));
    this.len = 0;
    this.onlyEnds = true;
  }
  /** an end byte outside a frame: the run so far is a reject, unless it was only end bytes */
  flushAtEnd(out: HandItem[]): void {
    if (this.onlyEnds) {
      this.len = 0;
      return;
    }
    this.flush(out);
  }
}

/**
 * One pass over the bytes at hand: the scanner reads whole frames (and noise) from `b` and
 * returns where it stopped, the start of a frame not complete yet; those bytes wait for the next
 * chunk. `laterStart(b, s, e)` finds a start inside a cut-off frame at the end of the input.
 */
type Scan = (b: Buffer, out: HandItem[]) => number;
function streaming(scan: Scan, laterStart: (b: Buffer, s: number, e: number) => number, noise: Noise | null): HandDecoder {
  let carry: Buffer | null = null;
  const asBuffer = (c: Uint8Array): Buffer => (Buffer.isBuffer(c) ? c : Buffer.from(c.buffer, c.byteOffset, c.byteLength));
  return {
    push(chunk) {
      const out: HandItem[] = [];
      const b = carry === null ? asBuffer(chunk) : Buffer.concat([carry, chunk]);
      const k = scan(b, out);
      carry = k < b.length ? Buffer.from(b.subarray(k)) : null;
      return out;
    },
    end() {
      const out: HandItem[] = [];
      while (carry !== null && carry.length > 1) {
        const k = laterStart(carry, 1, carry.length);
        if (k < 0) break;
        out.push(bad('malformed', carry, 0, k));
        const rest = carry.subarray(k);
        const stop = scan(rest, out);
        carry = stop < rest.length ? Buffer.from(rest.subarray(stop)) : null;
      }
      carry = null;
      noise?.flushAtEnd(out);
      return out;
    },
  };
}

/** the first `s0` (a one-byte start) in b[s, e), -1 if none */
const byteAt =
  (s0: number) =>
  (b: Buffer, s: number, e: number): number => {
    const k = b.indexOf(s0, s);
    return k >= 0 && k < e ? k : -1;
  };
/** the first two-byte start `s0 s1` in b[s, e) (`s0` as the last byte counts: the rest may follow), -1 if none */
const pairAt =
  (s0: number, s1: number) =>
  (b: Buffer, s: number, e: number): number => {
    for (let i = s; i < e; i++) if (b[i] === s0 && (i + 1 === e || b[i + 1] === s1)) return i;
    return -1;
  };

/**
 * A text format framed by a one-byte start and an end byte (or sequence ending in `endLast`):
 * noise until the start (an end byte outside a frame ends a noise run), a start inside a frame
 * begins the frame again (the bytes before it are malformed), `max` bytes without an end are
 * too long (then everything up to an end byte or a start is dropped). `frameEnd(b, j, s)` says
 * whether the end byte at j ends the frame begun at s (0: no; else the index after the frame, or
 * -1 when the trailer after it has not arrived yet); `decode` reads the frame b[s, e).
 */
function delimitedText(
  start: number,
  endLast: number,
  endBytes: string,
  max: number,
  frameEnd: (b: Buffer, j: number, s: number) => number,
  decode: (b: Buffer, s: number, e: number) => HandItem,
): () => HandDecoder {
  return () => {
    const noise = new Noise();
    const isEnd = new Uint8Array(256);
    for (const c of endBytes) isEnd[c.charCodeAt(0)] = 1;
    let skipping = false;
    const scan: Scan = (b, out) => {
      const n = b.length;
      let i = 0;
      while (i < n) {
        const c = b[i];
        if (c !== start) {
          if (c === endLast) {
            if (skipping) skipping = false;
            else noise.flushAtEnd(out);
          } else if (!skipping) noise.add(c, isEnd[c] === 1);
          i++;
          continue;
        }
        skipping = false;
        noise.flush(out);
        let e = 0;
        let j = i + 1;
        const limit = Math.min(n, i + max);
        for (; j < limit; j++) {
          const d = b[j];
          if (d === start) break;
          if (d === endLast) {
            e = frameEnd(b, j, i);
            if (e !== 0) break;
          }
        }
        if (e < 0) return i; // the trailer is still on its way
        if (e > 0) {
          if (e - i > max) {
            // the trailer would pass the limit: the frame up to its end is too long, the trailer read as what follows
            out.push(reject('too-long', describeBytes(b, i, j + 1, `>${max}`)));
            i = j + 1;
            continue;
          }
          {
            const item = decode(b, i, e);
            // a failed frame with a start byte in its trailer: the bytes from that start are read again
            if ('reason' in item) {
              const k = b.indexOf(start, i + 1);
              if (k > 0 && k < e) {
                out.push(bad(item.reason, b, i, k));
                i = k;
                continue;
              }
            }
            out.push(item);
          }
          i = e;
          continue;
        }
        if (j < n && b[j] === start) {
          out.push(bad('malformed', b, i, j));
          i = j;
          continue;
        }
        if (j === i + max) {
          out.push(reject('too-long', describeBytes(b, i, j, `>${max}`)));
          skipping = true;
          i = j;
          continue;
        }
        return i; // the frame goes on in the next chunk
      }
      return n;
    };
    return streaming(scan, byteAt(start), noise);
  };
}
/** an end byte that ends the frame at once (no trailer) */
const endsHere = (_b: Buffer, j: number): number => j + 1;

// ---- the formats

/** 1. `S<seq>:<code>*<XOR-8 hex>` CR LF, no start mark: a line that does not read is malformed (noise too) */
function asciiCrlfShoe(): HandDecoder {
  const MAX = 32;
  let skipping = false;
  const line = (b: Buffer, s: number, e: number): HandItem | null => {
    let blank = true;
    for (let i = s; i < e - 2 && blank; i++) if (b[i] !== 0x0d && b[i] !== 0x0a) blank = false;
    if (blank) return null;
    const star = e - 5;
    if (star < s || b[star] !== 0x2a) return bad('malformed', b, s, e);
    const hi = HEXV[b[star + 1]];
    const lo = HEXV[b[star + 2]];
    if (hi < 0 || lo < 0) return bad('malformed', b, s, e);
    let x = 0;
    for (let i = s; i < star; i++) x ^= b[i];
    if (x !== hi * 16 + lo) return bad('bad-checksum', b, s, e);
    const colon = b.indexOf(0x3a, s);
    const seq = b[s] === 0x53 && colon > s + 1 && colon <= s + 4 && colon < star ? decimal(b, s + 1, colon) : -1;
    if (seq < 0) return bad('unknown-type', b, s, e);
    const c = colon + 1;
    const len = star - c;
    if (len >= 2 && len <= 3) {
      const suit = SUIT_CHAR[b[star - 1]];
      const rank = rankAt(b, c, star - 1);
      if (suit >= 0 && rank >= 0 && !(len === 2 && b[c] === 0x31)) return cardFrame(seq, cardOf(rank, suit));
    }
    if (len === 2 && b[c] === 0x3f && b[c + 1] === 0x3f) return plain('SHOE', seq, 'MISREAD');
    if (len === 2 && b[c] === 0x48 && b[c + 1] === 0x42) return plain('SHOE', seq, 'HB');
    if (len === 3 && b[c] === 0x4e && b[c + 1] === 0x45 && b[c + 2] === 0x57) return loaded(seq);
    return bad('unknown-type', b, s, e);
  };
  const scan: Scan = (b, out) => {
    const n = b.length;
    let s = 0;
    while (s < n) {
      if (skipping) {
        const nl = b.indexOf(0x0a, s);
        if (nl < 0) return n;
        skipping = false;
        s = nl + 1;
        continue;
      }
      let e = -1;
      for (let p = s; ; ) {
        const nl = b.indexOf(0x0a, p);
        if (nl < 0 || nl + 1 - s > MAX) break;
        if (nl > s && b[nl - 1] === 0x0d) {
          e = nl + 1;
          break;
        }
        p = nl + 1;
      }
      if (e < 0) {
        if (n - s < MAX) return s;
        out.push(reject('too-long', describeBytes(b, s, s + MAX, `>${MAX}`)));
        skipping = true;
        s += MAX;
        continue;
      }
      const item = line(b, s, e);
      if (item !== null) out.push(item);
      s = e;
    }
    return n;
  };
  return streaming(scan, () => -1, null);
}

/** 2. STX <seq:4> <D suit rank | E | I | N> ETX <LRC over body and ETX> */
const stxEtxLrcShoe = delimitedText(
  0x02,
  0x03,
  '\x03',
  24,
  (b, j) => (j + 2 <= b.length ? j + 2 : -1),
  (b, s, e) => {
    const etx = e - 2;
    let sum = b[e - 1];
    for (let i = s + 1; i <= etx; i++) sum += b[i];
    if ((sum & 0xff) !== 0) return bad('bad-checksum', b, s, e);
    const seq = etx - s >= 6 ? decimal(b, s + 1, s + 5) : -1;
    if (seq >= 0) {
      const t = b[s + 5];
      const len = etx - (s + 6);
      if (t === 0x44 && len >= 2 && len <= 3) {
        const suit = SUIT_CHAR[b[s + 6]];
        const rank = rankAt(b, s + 7, etx);
        if (suit >= 0 && rank >= 0) return cardFrame(seq, cardOf(rank, suit));
      }
      if (len === 0 && t === 0x45) return plain('SHOE', seq, 'MISREAD');
      if (len === 0 && t === 0x49) return plain('SHOE', seq, 'HB');
      if (len === 0 && t === 0x4e) return loaded(seq);
    }
    return bad('unknown-type', b, s, e);
  },
);

/** 3. DLE STX <type> <seq> [<card>] DLE ETX <CRC-16/KERMIT lo hi>, DLE doubled in the data */
function dleCrc16Shoe(): HandDecoder {
  const DLE = 0x10;
  const MAX = 24;
  const START = Buffer.from([DLE, 0x02]);
  const noise = new Noise();
  const p = new Uint8Array(MAX);
  let skipping = false;
  const decode = (b: Buffer, s: number, e: number, u: number): HandItem => {
    if (u < 0) return bad('malformed', b, s, e);
    if (crcRef(T_KERMIT, 0, p, 0, u) !== (b[e - 2] | (b[e - 1] << 8))) return bad('bad-checksum', b, s, e);
    const t = p[0];
    if (t === 1 && u === 3) {
      const card = index52(p[2], CDHS);
      return card === null ? bad('bad-field', b, s, e) : cardFrame(p[1], card);
    }
    if (u === 2 && t === 2) return plain('SHOE', p[1], 'MISREAD');
    if (u === 2 && t === 3) return plain('SHOE', p[1], 'HB');
    if (u === 2 && t === 4) return loaded(p[1]);
    return bad('unknown-type', b, s, e);
  };
  const scan: Scan = (b, out) => {
    const n = b.length;
    let i = 0;
    while (i < n) {
      if (skipping) {
        // after a frame too long: everything up to its DLE ETX (or a new DLE STX) goes
        let j = i;
        while (j + 1 < n && !(b[j] === DLE && (b[j + 1] === 0x03 || b[j + 1] === 0x02))) j += b[j] === DLE ? 2 : 1;
        if (j + 1 >= n) return j < n && b[j] === DLE ? j : n;
        skipping = false;
        i = b[j + 1] === 0x03 ? j + 2 : j;
        continue;
      }
      const s = b.indexOf(START, i);
      if (s < 0) {
        const keep = b[n - 1] === DLE ? n - 1 : n;
        noise.addRun(b, i, keep);
        return keep;
      }
      noise.addRun(b, i, s);
      noise.flush(out);
      // the data, unstuffed into p, up to DLE ETX
      let u = 0;
      let j = s + 2;
      let end = -1;
      let cut = -1;
      let broken = false;
      const limit = s + MAX;
      while (j < n && j < limit) {
        const c = b[j];
        if (c !== DLE) {
          p[u++] = c;
          j++;
          continue;
        }
        if (j + 1 >= n) break;
        const d = b[j + 1];
        if (d === 0x03) {
          end = j + 2;
          break;
        }
        if (d === 0x02) {
          cut = j;
          break;
        }
        if (d === DLE) p[u++] = DLE;
        else broken = true; // DLE and anything else is no data: the frame is malformed
        j += 2;
      }
      if (cut >= 0) {
        out.push(bad('malformed', b, s, cut));
        i = cut;
        continue;
      }
      if (end < 0) {
        if (j >= limit) {
          out.push(reject('too-long', describeBytes(b, s, limit, `>${MAX}`)));
          skipping = true;
          i = limit;
          continue;
        }
        return s;
      }
      const e = end + 2;
      if (e > n) return s;
      if (e - s > MAX) out.push(reject('too-long', describeBytes(b, s, e, `>${MAX}`)));
      else out.push(decode(b, s, e, broken ? -1 : u));
      i = e;
    }
    return n;
  };
  return streaming(scan, pairAt(DLE, 0x02), noise);
}

/**
 * A binary frame whose length is known from its first bytes (a length byte, or a fixed length),
 * with a start but no end: noise until the start; a frame that fails is a reject only up to a
 * later start in it, and the bytes from there are read again (a frame cut short takes bytes of
 * the next one and fails its check: the next one is found again).
 */
function lengthFramed(
  startAt: (b: Buffer, s: number, e: number) => number,
  startLen: number,
  /** the frame's whole length from its first `headLen` bytes; -1 when that cannot be */
  headLen: number,
  total: (b: Buffer, s: number) => number,
  decode: (b: Buffer, s: number, e: number) => HandItem,
): () => HandDecoder {
  return () => {
    const noise = new Noise();
    const scan: Scan = (b, out) => {
      const n = b.length;
      let i = 0;
      while (i < n) {
        const s = startAt(b, i, n);
        if (s < 0) {
          noise.addRun(b, i, n);
          return n;
        }
        noise.addRun(b, i, s);
        if (s + startLen > n) return s;
        noise.flush(out);
        if (s + headLen > n) return s;
        const t = total(b, s);
        let e = s + headLen;
        let item: HandItem;
        if (t < 0) item = bad('malformed', b, s, e);
        else {
          e = s + t;
          if (e > n) return s;
          item = decode(b, s, e);
        }
        if ('reason' in item) {
          const k = startAt(b, s + 1, e);
          if (k > 0) {
            out.push(bad(item.reason, b, s, k));
            i = k;
            continue;
          }
        }
        out.push(item);
        i = e;
      }
      return n;
    };
    return streaming(scan, startAt, noise);
  };
}

/** 4. 0x5A <len> <type> <seq lo hi> [<card>] <CRC-16/MODBUS lo hi> */
const LE_CARDS = new Array<Card | null>(256).fill(null);
for (let s = 0; s < 4; s++) for (let r = 0; r < 13; r++) LE_CARDS[((s + 1) << 4) | (r + 1)] = cardOf(r, s);
const lengthLeShoe = lengthFramed(
  byteAt(0x5a),
  1,
  2,
  (b, s) => (b[s + 1] + 4 <= 16 ? b[s + 1] + 4 : -1),
  (b, s, e) => {
    if (crcRef(T_MODBUS, 0xffff, b, s, e - 2) !== (b[e - 2] | (b[e - 1] << 8))) return bad('bad-checksum', b, s, e);
    const len = b[s + 1];
    const t = b[s + 2];
    const seq = b[s + 3] | (b[s + 4] << 8);
    if (len === 4 && t === 0x21) {
      const card = LE_CARDS[b[s + 5]];
      return card === null ? bad('bad-field', b, s, e) : cardFrame(seq, card);
    }
    if (len === 3 && t === 0x22) return plain('SHOE', seq, 'MISREAD');
    if (len === 3 && t === 0x20) return plain('SHOE', seq, 'HB');
    if (len === 3 && t === 0x23) return loaded(seq);
    return bad('unknown-type', b, s, e);
  },
);

/** 5. 0xEB 0x90 <type> <ball> <seq> <SUM-8 of type..seq>, six bytes */
const syncKeno = lengthFramed(
  pairAt(0xeb, 0x90),
  2,
  6,
  () => 6,
  (b, s, e) => {
    if (((b[s + 2] + b[s + 3] + b[s + 4]) & 0xff) !== b[s + 5]) return bad('bad-checksum', b, s, e);
    const t = b[s + 2];
    const seq = b[s + 4];
    if (t === 1) {
      const ball = b[s + 3];
      return ball >= 1 && ball <= 80 ? { talker: 'BALL', seq, type: 'BALL', ball } : bad('bad-field', b, s, e);
    }
    if (t === 2) return plain('BALL', seq, 'START');
    if (t === 3) return plain('BALL', seq, 'END');
    if (t === 4) return plain('BALL', seq, 'HB');
    return bad('unknown-type', b, s, e);
  },
);

/** 6. 0xF7 0x04 <count 6> <seq> <event> <card as four digits>, 16-bit big-endian registers, CRC-16/MODBUS lo hi */
const modbusRtuShoe = lengthFramed(
  byteAt(0xf7),
  1,
  3,
  (b, s) => (b[s + 2] + 5 <= 16 ? b[s + 2] + 5 : -1),
  (b, s, e) => {
    if (crcRef(T_MODBUS, 0xffff, b, s, e - 2) !== (b[e - 2] | (b[e - 1] << 8))) return bad('bad-checksum', b, s, e);
    const ev = b[s + 6];
    if (e - s !== 11 || b[s + 1] !== 0x04 || b[s + 5] !== 0 || ev < 1 || ev > 4) return bad('unknown-type', b, s, e);
    const seq = (b[s + 3] << 8) | b[s + 4];
    if (ev === 1) {
      const code = (b[s + 7] << 8) | b[s + 8];
      const suit = Math.floor(code / 1000);
      const r = code % 1000;
      // suit digit 1 S, 2 H, 3 C, 4 D; the rank times ten
      return suit >= 1 && suit <= 4 && r % 10 === 0 && r >= 10 && r <= 130
        ? cardFrame(seq, cardOf(r / 10 - 1, [0, 1, 3, 2][suit - 1]))
        : bad('bad-field', b, s, e);
    }
    return ev === 2 ? plain('SHOE', seq, 'MISREAD') : ev === 3 ? plain('SHOE', seq, 'HB') : loaded(seq);
  },
);

/** 7. `@<status>;` then the CRC-16/XMODEM of the status as four upper-case hex digits */
const SHUF_STATES: Record<string, 'IDLE' | 'SHUFFLING' | 'READY' | 'JAM'> = { IDL: 'IDLE', SHF: 'SHUFFLING', RDY: 'READY', JAM: 'JAM' };
const hexTrailerShuffler = delimitedText(
  0x40,
  0x3b,
  ';',
  24,
  (b, j) => (j + 5 <= b.length ? j + 5 : -1),
  (b, s, e) => {
    const semi = e - 5;
    let want = 0;
    for (let i = semi + 1; i < e; i++) {
      const d = HEX_UP[b[i]];
      if (d < 0) return bad('malformed', b, s, e);
      want = want * 16 + d;
    }
    if (crc16Msb(T_XMODEM, b, s + 1, semi) !== want) return bad('bad-checksum', b, s, e);
    const len = semi - s - 1;
    if (len === 3) {
      const st = SHUF_STATES[b.toString('latin1', s + 1, semi)];
      if (st !== undefined) return { talker: 'SHUF', seq: 0, type: 'SHUF_STATE', state: st };
    }
    if (len >= 5 && len <= 7 && b[s + 1] === 0x43 && b[s + 2] === 0x4e && b[s + 3] === 0x54 && b[s + 4] === 0x3d) {
      const count = decimal(b, s + 5, semi);
      if (count >= 0) return { talker: 'SHUF', seq: 0, type: 'COUNT', count };
    }
    if (len === 2 && b[s + 1] === 0x48 && b[s + 2] === 0x42) return plain('SHUF', 0, 'HB');
    return bad('unknown-type', b, s, e);
  },
);

/** 8. `{<seq:3>,<suit>_<rank>/<SUM-8 as three decimal digits>}` */
const decimalSumShoe = delimitedText(0x7b, 0x7d, '}', 24, endsHere, (b, s, e) => {
  const slash = e - 5;
  if (slash <= s || b[slash] !== 0x2f) return bad('malformed', b, s, e);
  const want = decimal(b, slash + 1, e - 1);
  if (want < 0) return bad('malformed', b, s, e);
  let sum = 0;
  for (let i = s + 1; i < slash; i++) sum += b[i];
  if ((sum & 0xff) !== want) return bad('bad-checksum', b, s, e);
  const seq = slash - s > 5 && b[s + 4] === 0x2c ? decimal(b, s + 1, s + 4) : -1;
  const c = s + 5;
  const len = slash - c;
  if (seq >= 0 && len >= 3 && len <= 4 && b[c + 1] === 0x5f) {
    const suit = SUIT_CHAR[b[c]];
    const rank = rankAt(b, c + 2, slash);
    if (suit >= 0 && rank >= 0) return cardFrame(seq, cardOf(rank, suit));
  }
  if (seq >= 0 && len === 2) {
    const x = b[c];
    const y = b[c + 1];
    if (x === 0x58 && y === 0x58) return plain('SHOE', seq, 'MISREAD');
    if (x === 0x48 && y === 0x42) return plain('SHOE', seq, 'HB');
    if (x === 0x4c && y === 0x44) return loaded(seq);
  }
  return bad('unknown-type', b, s, e);
});

/** 9. `[<seq:2>K<1..52>~<CRC-8/SMBUS lower-case hex>]` CR LF */
const index52Shoe = delimitedText(
  0x5b,
  0x0a,
  ']\r\n',
  24,
  (b, j, s) => (j - 2 > s && b[j - 1] === 0x0d && b[j - 2] === 0x5d ? j + 1 : 0),
  (b, s, e) => {
    const tilde = e - 6;
    if (tilde <= s || b[tilde] !== 0x7e) return bad('malformed', b, s, e);
    const hi = HEX_LO[b[tilde + 1]];
    const lo = HEX_LO[b[tilde + 2]];
    if (hi < 0 || lo < 0) return bad('malformed', b, s, e);
    if (crc8Msb(T_SMBUS, b, s + 1, tilde) !== hi * 16 + lo) return bad('bad-checksum', b, s, e);
    const seq = tilde - s >= 4 ? decimal(b, s + 1, s + 3) : -1;
    const t = b[s + 3];
    const len = tilde - (s + 4);
    if (seq >= 0 && t === 0x4b && len >= 1 && len <= 2) {
      const n = decimal(b, s + 4, tilde);
      if (n >= 0) {
        const card = index52(n, SHDC);
        return card === null ? bad('bad-field', b, s, e) : cardFrame(seq, card);
      }
    }
    if (seq >= 0 && len === 0 && t === 0x4d) return plain('SHOE', seq, 'MISREAD');
    if (seq >= 0 && len === 0 && t === 0x50) return plain('SHOE', seq, 'HB');
    if (seq >= 0 && len === 0 && t === 0x4c) return loaded(seq);
    return bad('unknown-type', b, s, e);
  },
);

/** 10. `=<seq:2><vendor char>:<CRC-8/MAXIM hex>` CR */
const VENDOR = new Array<Card | null>(256).fill(null);
for (let i = 0; i < 52; i++) VENDOR[VENDOR_CHARS.charCodeAt(i)] = VENDOR_CARDS[i] as Card;
const tableCharShoe = delimitedText(0x3d, 0x0d, '\r', 16, endsHere, (b, s, e) => {
  const colon = e - 4;
  if (colon <= s || b[colon] !== 0x3a) return bad('malformed', b, s, e);
  const hi = HEXV[b[colon + 1]];
  const lo = HEXV[b[colon + 2]];
  if (hi < 0 || lo < 0) return bad('malformed', b, s, e);
  if (crcRef(T_MAXIM, 0, b, s + 1, colon) !== hi * 16 + lo) return bad('bad-checksum', b, s, e);
  const seq = colon - s === 4 ? decimal(b, s + 1, s + 3) : -1;
  if (seq >= 0) {
    const c = b[s + 3];
    const card = VENDOR[c];
    if (card !== null) return cardFrame(seq, card);
    if (c === 0x3f) return plain('SHOE', seq, 'MISREAD');
    if (c === 0x2e) return plain('SHOE', seq, 'HB');
    if (c === 0x21) return loaded(seq);
  }
  return bad('unknown-type', b, s, e);
});

/** 11. HID reports of 8 bytes: [0x03, seq, type, card 1..52, 0, 0, 0, CRC-8/SMBUS of bytes 0..6] */
function hidCardReader(): HandDecoder {
  const report = (r: Uint8Array, s: number): HandItem => {
    if (r[s] !== 0x03) return bad('malformed', r, s, s + 8);
    if (crc8Msb(T_SMBUS, r, s, s + 7) !== r[s + 7]) return bad('bad-checksum', r, s, s + 8);
    const seq = r[s + 1];
    switch (r[s + 2]) {
      case 1: {
        const card = index52(r[s + 3], SHDC);
        return card === null ? bad('bad-field', r, s, s + 8) : cardFrame(seq, card);
      }
      case 2:
        return plain('SHOE', seq, 'MISREAD');
      case 3:
        return plain('SHOE', seq, 'HB');
      case 4:
        return loaded(seq);
      default:
        return bad('bad-field', r, s, s + 8);
    }
  };
  return {
    push(b) {
      if (b.length === 8) return [report(b, 0)];
      // several whole reports batched, or one of the wrong size
      if (b.length % 8 !== 0) return [bad('malformed', b, 0, b.length)];
      const out: HandItem[] = [];
      for (let s = 0; s < b.length; s += 8) out.push(report(b, s));
      return out;
    },
    end: () => [],
  };
}

/** 12. 0x7E <type> <seq> <lo> <hi> <CRC-8/MAXIM> 0x7F, 0x7D x sent for 0x7D..0x7F (x = byte XOR 0x20) */
function bitfieldDice(): HandDecoder {
  const MAX = 16;
  const noise = new Noise();
  const p = new Uint8Array(MAX);
  let skipping = false;
  const decode = (b: Buffer, s: number, e: number): HandItem => {
    let u = 0;
    for (let i = s + 1; i < e - 1; i++) p[u++] = b[i] === 0x7d ? b[++i] ^ 0x20 : b[i];
    if (u < 1) return bad('malformed', b, s, e);
    if (crcRef(T_MAXIM, 0, p, 0, u - 1) !== p[u - 1]) return bad('bad-checksum', b, s, e);
    if (u !== 5) return bad('unknown-type', b, s, e);
    const seq = p[1];
    if (p[0] === 0x10) {
      const w = p[2] | (p[3] << 8);
      const d1 = w & 7;
      const d2 = (w >> 3) & 7;
      const d3 = (w >> 6) & 7;
      const bounces = (w >> 9) & 31;
      if (d1 < 1 || d1 > 6 || d2 < 1 || d2 > 6 || d3 < 1 || d3 > 6) return bad('bad-field', b, s, e);
      return { talker: 'DICE', seq, type: 'ROLL', dice: [d1, d2, d3], bounces };
    }
    if (p[0] === 0x11) return plain('DICE', seq, 'NOREAD');
    if (p[0] === 0x12) return plain('DICE', seq, 'HB');
    return bad('unknown-type', b, s, e);
  };
  const scan: Scan = (b, out) => {
    const n = b.length;
    let i = 0;
    while (i < n) {
      const c = b[i];
      if (c !== 0x7e) {
        if (c === 0x7f) {
          if (skipping) skipping = false;
          else noise.flushAtEnd(out);
        } else if (!skipping) noise.add(c);
        i++;
        continue;
      }
      skipping = false;
      noise.flush(out);
      let j = i + 1;
      let e = -1;
      const limit = Math.min(n, i + MAX);
      while (j < limit) {
        const d = b[j];
        if (d === 0x7e) break;
        if (d === 0x7f) {
          e = j + 1;
          break;
        }
        j += d === 0x7d ? 2 : 1;
      }
      if (e > 0) {
        out.push(decode(b, i, e));
        i = e;
        continue;
      }
      if (j < n && b[j] === 0x7e) {
        out.push(bad('malformed', b, i, j));
        i = j;
        continue;
      }
      if (j >= i + MAX) {
        out.push(reject('too-long', describeBytes(b, i, i + MAX, `>${MAX}`)));
        skipping = true;
        i += MAX;
        continue;
      }
      return i;
    }
    return n;
  };
  return streaming(scan, byteAt(0x7e), noise);
}

/** a new decoder (with its own stream state) for each corpus format, by name */
export const HAND_DECODERS: Record<string, () => HandDecoder> = {
  'ascii-crlf-shoe': asciiCrlfShoe,
  'stx-etx-lrc-shoe': stxEtxLrcShoe,
  'dle-crc16-shoe': dleCrc16Shoe,
  'length-le-shoe': lengthLeShoe,
  'sync-keno': syncKeno,
  'modbus-rtu-shoe': modbusRtuShoe,
  'hex-trailer-shuffler': hexTrailerShuffler,
  'decimal-sum-shoe': decimalSumShoe,
  'index52-shoe': index52Shoe,
  'table-char-shoe': tableCharShoe,
  'hid-card-reader': hidCardReader,
  'bitfield-dice': bitfieldDice,
};
