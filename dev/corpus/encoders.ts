/**
 * The corpus encoders: for each wire format of the corpus, plain TypeScript that builds the bytes
 * a device of that family sends, written from the format's description and independent of the
 * profile engine (drivers/profiles/): no profile, no engine checksum, no engine card codes.
 */
import { ascii, crc8maxim, crc8smbus, crc16kermit, crc16modbus, crc16xmodem, hex2, hex4, lrc, sum8, xor8 } from './checks.js';

/** what a device reports (a deal is a list of these) */
export type CorpusEvent =
  | { k: 'card'; card: string }
  | { k: 'misread' }
  | { k: 'hb' }
  | { k: 'loaded' }
  | { k: 'roll'; dice: [number, number, number]; bounces: number }
  | { k: 'noread' }
  | { k: 'ball'; n: number }
  | { k: 'start' }
  | { k: 'end' }
  | { k: 'shuf'; state: 'IDLE' | 'SHUFFLING' | 'READY' | 'JAM' }
  | { k: 'count'; n: number };

export interface CorpusEncoder {
  /** the frame of one event with the device's SEQ (ignored by formats without one); null: the format has no such message */
  frame(e: CorpusEvent, seq: number): Buffer | null;
  /** the frame with its check value damaged on the line */
  badCheck(frame: Buffer): Buffer;
  /** the first part of a frame, cut short (then what the line delivers next) */
  truncated(frame: Buffer): Buffer;
  /** a burst of line noise */
  noise(): Buffer;
  /** the SEQ after `seq` (the device's wrap point) */
  next(seq: number): number;
  /** bytes per HID input report (a HID device), else undefined */
  readonly reportBytes?: number;
}

const RANK_ORDER = 'A23456789TJQK';
const rankIdx = (c: string): number => RANK_ORDER.indexOf(c[0]);
/** `TH` -> `10H` (rank then suit, ten as 10) */
const rankSuit = (c: string): string => (c[0] === 'T' ? '10' : c[0]) + c[1];
const rankText = (c: string): string => (c[0] === 'T' ? '10' : c[0]);
const wrapAt =
  (w: number) =>
  (s: number): number =>
    s >= w ? 0 : s + 1;
const cat = (...parts: (Buffer | number[])[]): Buffer => Buffer.concat(parts.map((p) => (Buffer.isBuffer(p) ? p : Buffer.from(p))));
const flipLast = (f: Buffer, fromEnd: number, mask = 0x01): Buffer => {
  const b = Buffer.from(f);
  b[b.length - 1 - fromEnd] ^= mask;
  return b;
};
/** a hex or decimal digit changed to another (the value stays text of the same kind) */
const bumpDigit = (f: Buffer, fromEnd: number): Buffer => {
  const b = Buffer.from(f);
  const i = b.length - 1 - fromEnd;
  b[i] = b[i] === 0x30 ? 0x31 : 0x30;
  return b;
};
const half = (f: Buffer): Buffer => f.subarray(0, Math.max(2, Math.floor(f.length / 2)));

/** 1. ASCII line per event, CR LF, XOR-8 as two hex digits after `*`; no start mark. */
export const asciiCrlfShoe: CorpusEncoder = {
  frame(e, seq) {
    const code = e.k === 'card' ? rankSuit(e.card) : e.k === 'misread' ? '??' : e.k === 'hb' ? 'HB' : e.k === 'loaded' ? 'NEW' : null;
    if (code === null) return null;
    const body = `S${seq}:${code}`;
    return ascii(`${body}*${hex2(xor8(ascii(body)))}\r\n`);
  },
  badCheck: (f) => bumpDigit(f, 2),
  // without a start mark the cut line ends where the line's next CR LF is
  truncated: (f) => cat(half(f), ascii('\r\n')),
  noise: () => ascii('\x00\xff~~~\r\n'),
  next: wrapAt(999),
};

/** 2. STX <seq:4> <type> [<suit><rank>] ETX LRC: the LRC one binary byte after ETX, over the body and ETX. */
export const stxEtxLrcShoe: CorpusEncoder = {
  frame(e, seq) {
    const t = e.k === 'card' ? `D${e.card[1]}${rankText(e.card)}` : e.k === 'misread' ? 'E' : e.k === 'hb' ? 'I' : e.k === 'loaded' ? 'N' : null;
    if (t === null) return null;
    const body = ascii(`${String(seq).padStart(4, '0')}${t}\x03`);
    return cat([0x02], body, [lrc(body)]);
  },
  badCheck: (f) => flipLast(f, 0, 0x40),
  truncated: half,
  noise: () => Buffer.from([0x00, 0xff, 0x03, 0x41, 0x03]),
  next: wrapAt(9999),
};

const SUITS_CDHS = 'CDHS';
/** 3. DLE STX <type> <seq> [<card 1..52, suits C D H S>] DLE ETX <CRC-16/KERMIT low, high>; DLE doubled in the data. */
export const dleCrc16Shoe: CorpusEncoder = {
  frame(e, seq) {
    const p =
      e.k === 'card'
        ? [0x01, seq, SUITS_CDHS.indexOf(e.card[1]) * 13 + rankIdx(e.card) + 1]
        : e.k === 'misread'
          ? [0x02, seq]
          : e.k === 'hb'
            ? [0x03, seq]
            : e.k === 'loaded'
              ? [0x04, seq]
              : null;
    if (p === null) return null;
    const c = crc16kermit(p);
    const stuffed = p.flatMap((b) => (b === 0x10 ? [0x10, 0x10] : [b]));
    return cat([0x10, 0x02], stuffed, [0x10, 0x03, c & 0xff, c >> 8]);
  },
  badCheck: (f) => flipLast(f, 1, 0x40),
  truncated: half,
  noise: () => Buffer.from([0x00, 0xff, 0x02, 0x03, 0x55]),
  next: wrapAt(255),
};

const SUITS_SHDC = 'SHDC';
/** the length-prefixed shoe's card byte: suit (1 S, 2 H, 3 D, 4 C) in the high nibble, rank 1..13 in the low */
export const packedCard = (card: string): number => ((SUITS_SHDC.indexOf(card[1]) + 1) << 4) | (rankIdx(card) + 1);
/** 4. 0x5A <len> <type> <seq lo> <seq hi> [<card byte>] <CRC-16/MODBUS low, high>: len counts type..card; the CRC covers 0x5A..card. */
export const lengthLeShoe: CorpusEncoder = {
  frame(e, seq) {
    const t = e.k === 'card' ? 0x21 : e.k === 'misread' ? 0x22 : e.k === 'hb' ? 0x20 : e.k === 'loaded' ? 0x23 : null;
    if (t === null) return null;
    const payload = [t, seq & 0xff, seq >> 8, ...(e.k === 'card' ? [packedCard(e.card)] : [])];
    const head = [0x5a, payload.length, ...payload];
    const c = crc16modbus(head);
    return cat(head, [c & 0xff, c >> 8]);
  },
  badCheck: (f) => flipLast(f, 0),
  truncated: half,
  noise: () => Buffer.from([0x00, 0xff, 0x13, 0x37]),
  next: wrapAt(65535),
};

/** 5. Keno ball reader: 6 bytes, sync 0xEB 0x90, <type> <ball> <seq>, SUM-8 of type..seq. */
export const syncKeno: CorpusEncoder = {
  frame(e, seq) {
    const p = e.k === 'ball' ? [0x01, e.n, seq] : e.k === 'start' ? [0x02, 0, seq] : e.k === 'end' ? [0x03, 0, seq] : e.k === 'hb' ? [0x04, 0, seq] : null;
    return p === null ? null : cat([0xeb, 0x90], p, [sum8(p)]);
  },
  badCheck: (f) => flipLast(f, 0),
  truncated: (f) => f.subarray(0, 3),
  noise: () => Buffer.from([0x00, 0xff, 0x55]),
  next: wrapAt(255),
};

/** four-digit card code: suit digit (1 S, 2 H, 3 C, 4 D) then rank x 10 (A = 010 ... K = 130) */
export const fourDigit = (card: string): number => '_SHCD'.indexOf(card[1]) * 1000 + (rankIdx(card) + 1) * 10;
/**
 * 6. Modbus-RTU-like: <address 0xF7, slave 247> <function 0x04> <byte count 6> <seq> <event> <card>, three
 * big-endian 16-bit registers (event 1 card, 2 misread, 3 heartbeat, 4 loaded; card as a
 * four-digit code, 0 otherwise), then CRC-16/MODBUS low byte first over address..data.
 */
export const modbusRtuShoe: CorpusEncoder = {
  frame(e, seq) {
    const ev = e.k === 'card' ? 1 : e.k === 'misread' ? 2 : e.k === 'hb' ? 3 : e.k === 'loaded' ? 4 : 0;
    if (ev === 0) return null;
    const reg = (v: number) => [v >> 8, v & 0xff];
    const head = [0xf7, 0x04, 6, ...reg(seq), ...reg(ev), ...reg(e.k === 'card' ? fourDigit(e.card) : 0)];
    const c = crc16modbus(head);
    return cat(head, [c & 0xff, c >> 8]);
  },
  badCheck: (f) => flipLast(f, 1),
  truncated: half,
  noise: () => Buffer.from([0x00, 0xff, 0x55, 0xaa]),
  next: wrapAt(65535),
};

/** 7. Shuffler: `@<status>;` then CRC-16/XMODEM of the status as four upper-case hex digits after the `;`. */
export const hexTrailerShuffler: CorpusEncoder = {
  frame(e) {
    const s =
      e.k === 'shuf' ? { IDLE: 'IDL', SHUFFLING: 'SHF', READY: 'RDY', JAM: 'JAM' }[e.state] : e.k === 'count' ? `CNT=${e.n}` : e.k === 'hb' ? 'HB' : null;
    return s === null ? null : ascii(`@${s};${hex4(crc16xmodem(ascii(s)))}`);
  },
  badCheck: (f) => bumpDigit(f, 0),
  truncated: half,
  noise: () => ascii('\x00\xff;;zz'),
  next: (s) => s,
};

/** 8. `{<seq:3>,<suit>_<rank>/<SUM-8 as three decimal digits>}`: SUM-8 of the text before `/`. */
export const decimalSumShoe: CorpusEncoder = {
  frame(e, seq) {
    const code = e.k === 'card' ? `${e.card[1]}_${rankText(e.card)}` : e.k === 'misread' ? 'XX' : e.k === 'hb' ? 'HB' : e.k === 'loaded' ? 'LD' : null;
    if (code === null) return null;
    const body = `${String(seq).padStart(3, '0')},${code}`;
    return ascii(`{${body}/${String(sum8(ascii(body))).padStart(3, '0')}}`);
  },
  badCheck: (f) => bumpDigit(f, 1),
  truncated: half,
  noise: () => ascii('\x00\xff//9'),
  next: wrapAt(999),
};

/** 9. `[<seq:2>K<1..52>~<CRC-8/SMBUS lower-case hex>]` CR LF: index-52 cards (spades, hearts, diamonds, clubs; A..K). */
export const index52Shoe: CorpusEncoder = {
  frame(e, seq) {
    const code =
      e.k === 'card'
        ? `K${SUITS_SHDC.indexOf(e.card[1]) * 13 + rankIdx(e.card) + 1}`
        : e.k === 'misread'
          ? 'M'
          : e.k === 'hb'
            ? 'P'
            : e.k === 'loaded'
              ? 'L'
              : null;
    if (code === null) return null;
    const body = `${String(seq).padStart(2, '0')}${code}`;
    return ascii(`[${body}~${hex2(crc8smbus(ascii(body))).toLowerCase()}]\r\n`);
  },
  badCheck: (f) => bumpDigit(f, 3),
  truncated: half,
  noise: () => ascii('\x00\xff~]\r\n'),
  next: wrapAt(99),
};

/** the vendor's own character for each card (an explicit table: no rule gives it) */
export const VENDOR_CHARS = 'qwertyuiopasdfghjklzxcvbnmQWERTYUIOPASDFGHJKLZXCVBNM';
/** the cards in the vendor table's order: A..K of spades, then hearts, diamonds, clubs */
export const VENDOR_CARDS = [...'SHDC'].flatMap((s) => [...RANK_ORDER].map((r) => r + s));
/** 10. `=<seq:2><vendor char>:<CRC-8/MAXIM as two hex digits>` CR; `?` misread, `.` heartbeat, `!` loaded. */
export const tableCharShoe: CorpusEncoder = {
  frame(e, seq) {
    const ch = e.k === 'card' ? VENDOR_CHARS[VENDOR_CARDS.indexOf(e.card)] : e.k === 'misread' ? '?' : e.k === 'hb' ? '.' : e.k === 'loaded' ? '!' : null;
    if (ch === null) return null;
    const body = `${String(seq).padStart(2, '0')}${ch}`;
    return ascii(`=${body}:${hex2(crc8maxim(ascii(body)))}\r`);
  },
  badCheck: (f) => bumpDigit(f, 1),
  truncated: half,
  noise: () => ascii('\x00\xff::\r'),
  next: wrapAt(99),
};

/** 11. HID card reader: 8-byte report [0x03, seq, type (1 card, 2 misread, 3 heartbeat, 4 loaded), card 1..52, 0, 0, 0, CRC-8/SMBUS of bytes 0..6]. */
export const hidCardReader: CorpusEncoder = {
  reportBytes: 8,
  frame(e, seq) {
    const t = e.k === 'card' ? 1 : e.k === 'misread' ? 2 : e.k === 'hb' ? 3 : e.k === 'loaded' ? 4 : 0;
    if (t === 0) return null;
    const r = [0x03, seq, t, e.k === 'card' ? SUITS_SHDC.indexOf(e.card[1]) * 13 + rankIdx(e.card) + 1 : 0, 0, 0, 0];
    return cat(r, [crc8smbus(r)]);
  },
  badCheck: (f) => flipLast(f, 0),
  truncated: (f) => f.subarray(0, 5),
  noise: () => Buffer.from([0xff, 0x00, 0xff]),
  next: wrapAt(255),
};

/**
 * 12. Dice reader, HDLC-like: 0x7E <type> <seq> <lo> <hi> <CRC-8/MAXIM> 0x7F, with 0x7D, 0x7E and
 * 0x7F in the data sent as 0x7D then the byte XOR 0x20. Roll (type 0x10): a little-endian word,
 * d1 bits 0-2, d2 bits 3-5, d3 bits 6-8, bounces bits 9-13; 0x11 no-read, 0x12 heartbeat.
 */
export const bitfieldDice: CorpusEncoder = {
  frame(e, seq) {
    let p: number[];
    if (e.k === 'roll') {
      const w = e.dice[0] | (e.dice[1] << 3) | (e.dice[2] << 6) | (e.bounces << 9);
      p = [0x10, seq, w & 0xff, w >> 8];
    } else if (e.k === 'noread') p = [0x11, seq, 0, 0];
    else if (e.k === 'hb') p = [0x12, seq, 0, 0];
    else return null;
    const body = [...p, crc8maxim(p)].flatMap((b) => (b >= 0x7d && b <= 0x7f ? [0x7d, b ^ 0x20] : [b]));
    return cat([0x7e], body, [0x7f]);
  },
  // the check byte (or its escaped form) changed, kept clear of the escape, start and end bytes
  badCheck(f) {
    const b = Buffer.from(f);
    const i = b.length - 2;
    const mask = [0x01, 0x02, 0x04].find((m) => (b[i] ^ m) < 0x7d || (b[i] ^ m) > 0x7f) ?? 0x08;
    b[i] ^= mask;
    return b;
  },
  truncated: half,
  noise: () => Buffer.from([0x00, 0xff, 0x7f, 0x55]),
  next: wrapAt(255),
};
