/**
 * One NMEA-style line: `$<TALKER>,<SEQ>,<TYPE>[,<FIELD>]*<CS>` (device-protocols.md §1).
 * CS = XOR of every byte strictly between `$` and `*`, two hex digits (either case accepted,
 * upper case sent).
 */
import type { FrameReject } from '../../src/core/vocabulary/frames.js';
import { describeBytes, reject } from './reject.js';

export const MAX_SEQ = 65535;

export interface ParsedLine {
  talker: string;
  seq: number;
  type: string;
  fields: string[];
}

const DOLLAR = 0x24;
const STAR = 0x2a;
const LF = 0x0a;
const CR = 0x0d;
const HEX = '0123456789ABCDEF';
const SEQ_RE = /^[0-9]{1,5}$/;
/** Characters a talker / type / field can never contain on the wire. */
const FORBIDDEN_RE = /[$*,\r\n]/;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** XOR of the bytes (UTF-8) of `body` (the text between `$` and `*`). */
export function checksum(body: string): number {
  let x = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    if (c > 0x7f) return checksumBytes(Buffer.from(body, 'utf8'));
    x ^= c;
  }
  return x;
}

/** XOR of `bytes[start, end)`. */
export function checksumBytes(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let x = 0;
  for (let i = start; i < end; i++) x ^= bytes[i];
  return x;
}

/** Two upper-case hex digits. */
export function hex2(n: number): string {
  return HEX[(n >> 4) & 15] + HEX[n & 15];
}

/**
 * Builds a complete line `$TALKER,SEQ,TYPE[,F...]*CS\r\n` (simulators, the gateway's `GW`
 * commands). Throws a RangeError on a SEQ outside 0..65535 or on text that cannot be framed
 * (`$ * , \r \n` inside a talker, type or field, empty talker/type). Values are not checked against
 * the talker's frame table, so tests can build out-of-range frames; the 128-byte limit is not
 * enforced either.
 */
export function encodeLine(talker: string, seq: number, type: string, fields: readonly (string | number)[] = []): string {
  if (!Number.isInteger(seq) || seq < 0 || seq > MAX_SEQ) throw new RangeError(`SEQ out of range: ${seq}`);
  if (talker === '' || FORBIDDEN_RE.test(talker)) throw new RangeError(`invalid talker: ${JSON.stringify(talker)}`);
  if (type === '' || FORBIDDEN_RE.test(type)) throw new RangeError(`invalid type: ${JSON.stringify(type)}`);
  let body = talker + ',' + seq + ',' + type;
  for (const f of fields) {
    const s = String(f);
    if (FORBIDDEN_RE.test(s)) throw new RangeError(`invalid field: ${JSON.stringify(s)}`);
    body += ',' + s;
  }
  return '$' + body + '*' + hex2(checksum(body)) + '\r\n';
}

function hexVal(b: number): number {
  if (b >= 0x30 && b <= 0x39) return b - 0x30;
  if (b >= 0x41 && b <= 0x46) return b - 0x37;
  if (b >= 0x61 && b <= 0x66) return b - 0x57;
  return -1;
}

/**
 * Parses one line as produced by LineFramer (`$...*CS`; a trailing `\r\n` / `\n` is tolerated).
 * Rejects: `malformed` (no `$`, no `*CS` at the end, `*`/control bytes in the body, fewer than
 * talker+seq+type, empty talker or type, SEQ not 1..5 plain decimal digits or > 65535, invalid
 * UTF-8), `bad-checksum`. Talker and type are returned as they are; their validity is the
 * talker codec's business.
 */
export function parseLine(line: Uint8Array): ParsedLine | FrameReject {
  let end = line.length;
  // one terminator: `\n` or `\r\n` (LineFramer has already cut the `\n` and one `\r`, so a
  // second `\r` before the end is a byte of the line, not a terminator)
  if (end > 0 && line[end - 1] === LF) {
    end--;
    if (end > 0 && line[end - 1] === CR) end--;
  }
  if (end < 1 || line[0] !== DOLLAR) return reject('malformed', describeBytes(line, 0, end));
  const star = end - 3;
  if (star < 1 || line[star] !== STAR) return reject('malformed', describeBytes(line, 0, end));
  const hi = hexVal(line[star + 1]);
  const lo = hexVal(line[star + 2]);
  if (hi < 0 || lo < 0) return reject('malformed', describeBytes(line, 0, end));

  let x = 0;
  let ascii = true;
  for (let k = 1; k < star; k++) {
    const b = line[k];
    if (b < 0x20 || b === 0x7f || b === STAR || b === DOLLAR) return reject('malformed', describeBytes(line, 0, end));
    if (b >= 0x80) ascii = false;
    x ^= b;
  }
  if (x !== ((hi << 4) | lo)) return reject('bad-checksum', describeBytes(line, 0, end));

  let body: string;
  if (ascii) {
    body = Buffer.from(line.buffer, line.byteOffset, line.length).toString('latin1', 1, star);
  } else {
    try {
      body = utf8.decode(line.subarray(1, star));
    } catch {
      return reject('malformed', describeBytes(line, 0, end));
    }
  }

  const parts = body.split(',');
  if (parts.length < 3) return reject('malformed', describeBytes(line, 0, end));
  const talker = parts[0];
  const seqText = parts[1];
  const type = parts[2];
  if (talker === '' || type === '' || !SEQ_RE.test(seqText)) return reject('malformed', describeBytes(line, 0, end));
  const seq = Number(seqText);
  if (seq > MAX_SEQ) return reject('malformed', describeBytes(line, 0, end));
  parts.splice(0, 3);
  return { talker, seq, type, fields: parts };
}
