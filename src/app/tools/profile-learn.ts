/**
 * `tablegw profile learn` (device-protocols.md §3.2): from a capture of a known deal and the
 * technician's script, find the profiles of the frame grammar that decode the capture to exactly
 * the script's events in order (heartbeats: the frame that repeats while idle; everything else:
 * rejects), prefer the simplest, and verify the one written on the capture as it arrived and
 * re-chunked. Pure apart from the clock-free decoder: capture and script in, a result out.
 *
 * The search prunes early, from the bytes themselves:
 * 1. framings: end sequences that occur, the byte that follows an end (plus a trailer of 0..4
 *    bytes) as the start, DLE / escape stuffing where its marks occur, a length field after a
 *    frequent byte whose value points at the next frame, a fixed length between sync bytes;
 * 2. per framing, the integrity variants (algorithm x encoding x place x covered parts) that
 *    verify the most frames (none only when no algorithm verifies most of them);
 * 3. per framing and integrity, the SEQ field (the number that counts up), the heartbeat (the
 *    body that repeats) and the messages, by aligning the other frames with the script's events;
 *    the card codes from a preset or, failing every preset, an explicit table solved from the
 *    known cards;
 * 4. each candidate profile decoded for real (profile-check.ts decodeCapture, rechunkCheck).
 */
import { parse as parseYaml } from 'yaml';
import type { DeviceFrame } from '../../core/vocabulary/frames.js';
import { cardDecoder, type CardCodeOptions } from '../../../drivers/profiles/card-codes.js';
import { checksum, checksumBytes, INTEGRITY_ALGORITHMS, type IntegrityAlgorithm } from '../../../drivers/profiles/checksums.js';
import { cardSpellings } from '../../../drivers/profiles/profile-encoder.js';
import { type BinaryField, type DeviceProfile, ProfileError, validateProfile } from '../../../drivers/profiles/profile-schema.js';
import type { CaptureChunk } from './capture-file.js';
import { eventKey, parseScript, type ScriptEvent } from './learn-script.js';
import { decodeCapture, rechunkCheck } from './profile-check.js';

export type LearnKind = 'card-shoe' | 'dice' | 'ball-reader';
export const LEARN_KINDS: readonly LearnKind[] = ['card-shoe', 'dice', 'ball-reader'];
const TALKER: Record<LearnKind, DeviceProfile['talker']> = { 'card-shoe': 'SHOE', dice: 'DICE', 'ball-reader': 'BALL' };

export interface LearnInput {
  /** the capture's chunks as they arrived (a `Capture`'s `chunks`) */
  capture: readonly CaptureChunk[];
  /** the script's text, or its events already parsed */
  script: string | readonly ScriptEvent[];
  kind?: LearnKind;
  /** the profile's name (default `learned-<kind>`) */
  name?: string;
}

/** one candidate tried, for the reports of exit 1 and 3 */
export interface CandidateSummary {
  /** `start 0x02, end 0x03, trailer 1; xor8 binary-be after-end over payload+end` */
  description: string;
  /** how far it got: script events decoded in order before the first difference */
  matched: number;
  /** what failed (exit 1) or what it decodes differently (exit 3) */
  problem?: string;
}

export type LearnResult =
  | {
      exit: 0;
      status: 'learned';
      profile: DeviceProfile;
      /** the profile as YAML, with comments saying what was inferred from how many frames */
      yaml: string;
      /** what was inferred, one line each (also the YAML's comments) */
      notes: string[];
      /** advice that does not stop the profile (no misread in the deal, ...) */
      warnings: string[];
      /** candidates that decoded the capture identically (the simplest was written) */
      equivalent: number;
    }
  | { exit: 3; status: 'ambiguous'; reason: string; tellApart: string[]; candidates: CandidateSummary[] }
  | { exit: 1; status: 'failed'; code: 'capture-empty' | 'script-invalid' | 'no-profile'; reason: string; closest: CandidateSummary[] };

// ---------------------------------------------------------------- framing

interface Framing {
  start?: Buffer;
  end?: Buffer;
  trailer: number;
  stuffing?: { escape: number; mode: 'double' | 'xor'; xor: number };
  length?: number;
  lengthField?: { offset: number; width: 1 | 2; order: 'be' | 'le'; counts: 'frame' | 'following'; adjust: number };
  /** resynchronise on a start byte inside a frame (text frames) */
  resync: boolean;
  /** fewer is simpler */
  cost: number;
}

interface RawFrame {
  start: Buffer;
  /** between start and end (or the frame's end), unstuffed */
  inner: Buffer;
  /** the same, as sent */
  innerStuffed: Buffer;
  end: Buffer;
  trailer: Buffer;
}

const hx = (b: Uint8Array | undefined): string => (b ? [...b].map((x) => `0x${x.toString(16).padStart(2, '0')}`).join(' ') : '-');
const printable = (x: number): boolean => x >= 0x20 && x < 0x7f;

function describeFraming(f: Framing): string {
  const p: string[] = [];
  if (f.start) p.push(`start ${hx(f.start)}`);
  if (f.end) p.push(`end ${hx(f.end)}`);
  if (f.trailer) p.push(`trailer ${f.trailer}`);
  if (f.stuffing) p.push(`stuffing ${f.stuffing.mode} ${hx(Buffer.of(f.stuffing.escape))}`);
  if (f.length) p.push(`fixed length ${f.length}`);
  if (f.lengthField)
    p.push(
      `length field at ${f.lengthField.offset} (${f.lengthField.width} byte${f.lengthField.width > 1 ? `s ${f.lengthField.order}` : ''}, ${f.lengthField.counts}${f.lengthField.adjust ? ` ${f.lengthField.adjust > 0 ? '+' : ''}${f.lengthField.adjust}` : ''})`,
    );
  return p.join(', ');
}

function indexOfSeq(s: Buffer, seq: Buffer, from: number): number {
  return seq.length === 1 ? s.indexOf(seq[0], from) : s.indexOf(seq, from);
}

function countSeq(s: Buffer, seq: Buffer): number {
  let n = 0;
  for (let i = indexOfSeq(s, seq, 0); i >= 0; i = indexOfSeq(s, seq, i + seq.length)) n++;
  return n;
}

const MAX_FRAME = 512;

/** cuts the stream into frames the way the framing says (a learner's approximation; the real decoder verifies) */
function split(s: Buffer, f: Framing): RawFrame[] {
  const out: RawFrame[] = [];
  const n = s.length;
  const st = f.stuffing;
  if (f.start && (f.length || f.lengthField)) {
    const sl = f.start.length;
    let i = indexOfSeq(s, f.start, 0);
    while (i >= 0 && i < n) {
      let total = f.length ?? 0;
      if (f.lengthField) {
        const lf = f.lengthField;
        if (i + lf.offset + lf.width > n) break;
        const v = lf.width === 1 ? s[i + lf.offset] : lf.order === 'be' ? s.readUInt16BE(i + lf.offset) : s.readUInt16LE(i + lf.offset);
        total = v + lf.adjust + (lf.counts === 'following' ? lf.offset + lf.width : 0);
      }
      if (total <= sl || total > MAX_FRAME || i + total > n) {
        i = indexOfSeq(s, f.start, i + 1);
        continue;
      }
      const inner = s.subarray(i + sl, i + total);
      out.push({ start: f.start, inner, innerStuffed: inner, end: Buffer.alloc(0), trailer: Buffer.alloc(0) });
      i = indexOfSeq(s, f.start, i + total);
    }
    return out;
  }
  if (!f.end) return out;
  const end = f.end;
  if (st && f.start) {
    let i = indexOfSeq(s, f.start, 0);
    while (i >= 0) {
      const data: number[] = [];
      let j = i + f.start.length;
      let ok = false;
      while (j < n && j - i <= MAX_FRAME) {
        const c = s[j];
        if (st.mode === 'double' && c === st.escape) {
          const d = s[j + 1];
          if (d === st.escape) {
            data.push(c);
            j += 2;
            continue;
          }
          if (d === end[1]) {
            j += 2;
            ok = true;
          }
          break;
        }
        if (st.mode === 'xor') {
          if (c === end[0]) {
            j += 1;
            ok = true;
            break;
          }
          if (c === f.start[0]) break;
          if (c === st.escape) {
            data.push(s[j + 1] ^ st.xor);
            j += 2;
            continue;
          }
        }
        data.push(c);
        j++;
      }
      if (ok && j + f.trailer <= n) {
        out.push({
          start: f.start,
          inner: Buffer.from(data),
          innerStuffed: s.subarray(i + f.start.length, j - end.length),
          end,
          trailer: s.subarray(j, j + f.trailer),
        });
        i = indexOfSeq(s, f.start, j + f.trailer);
      } else i = indexOfSeq(s, f.start, i + 1);
    }
    return out;
  }
  if (f.start) {
    let i = indexOfSeq(s, f.start, 0);
    while (i >= 0) {
      const j = i + f.start.length;
      const k = indexOfSeq(s, end, j);
      if (k < 0 || k + end.length + f.trailer > n) break;
      const again = f.resync ? indexOfSeq(s, f.start, j) : -1;
      if (again >= 0 && again < k) {
        i = again;
        continue;
      }
      const inner = s.subarray(j, k);
      if (k - i <= MAX_FRAME) out.push({ start: f.start, inner, innerStuffed: inner, end, trailer: s.subarray(k + end.length, k + end.length + f.trailer) });
      i = indexOfSeq(s, f.start, k + end.length + f.trailer);
    }
    return out;
  }
  let last = 0;
  for (let k = indexOfSeq(s, end, 0); k >= 0; k = indexOfSeq(s, end, last)) {
    if (k + end.length + f.trailer > n) break;
    const inner = s.subarray(last, k);
    if (inner.length > 0 && inner.length <= MAX_FRAME)
      out.push({ start: Buffer.alloc(0), inner, innerStuffed: inner, end, trailer: s.subarray(k + end.length, k + end.length + f.trailer) });
    last = k + end.length + f.trailer;
  }
  return out;
}

/** framing candidates from byte statistics (most frequent delimiters, the byte after an end, lengths that point at the next frame) */
export function framingCandidates(s: Buffer): Framing[] {
  const out: Framing[] = [];
  const seen = new Set<string>();
  const add = (f: Framing): void => {
    const k = describeFraming(f);
    if (!seen.has(k)) {
      seen.add(k);
      out.push(f);
    }
  };
  const textish = [...s].filter((x) => printable(x) || x === 0x0d || x === 0x0a || x === 0x09).length / Math.max(1, s.length) > 0.6;
  const minHits = 3;
  // DLE doubling: DLE STX ... DLE ETX
  for (const [a, b] of [
    [0x02, 0x03],
    [0x01, 0x04],
  ]) {
    const start = Buffer.of(0x10, a);
    const end = Buffer.of(0x10, b);
    if (countSeq(s, start) >= minHits && countSeq(s, end) >= minHits) {
      for (const trailer of [0, 1, 2, 4])
        add({ start, end, trailer, stuffing: { escape: 0x10, mode: 'double', xor: 0x20 }, resync: true, cost: 4 + trailer / 10 });
    }
  }
  // escape XOR (HDLC-like): 0x7E start, 0x7F or 0x7E end, 0x7D escape
  if (s.includes(0x7e) && countSeq(s, Buffer.of(0x7e)) >= minHits) {
    for (const e of [0x7f])
      if (countSeq(s, Buffer.of(e)) >= minHits)
        for (const trailer of [0, 1, 2])
          add({ start: Buffer.of(0x7e), end: Buffer.of(e), trailer, stuffing: { escape: 0x7d, mode: 'xor', xor: 0x20 }, resync: true, cost: 4 + trailer / 10 });
  }
  // end sequences that occur often, with the start the byte after end + trailer most often is
  const freq = new Array<number>(256).fill(0);
  for (const x of s) freq[x]++;
  const endCands: Buffer[] = [Buffer.from('\r\n', 'latin1')];
  for (let b = 0; b < 256; b++)
    if (freq[b] >= minHits && (b < 0x20 || b === 0x7f || (textish && ';#|!'.includes(String.fromCharCode(b))))) endCands.push(Buffer.of(b));
  // an end sequence with a constant punctuation byte before it is longer (`>` CR LF)
  for (const e of [...endCands]) {
    const before = new Map<number, number>();
    let n = 0;
    for (let k = indexOfSeq(s, e, 0); k >= 0; k = indexOfSeq(s, e, k + e.length)) {
      n++;
      if (k > 0) before.set(s[k - 1], (before.get(s[k - 1]) ?? 0) + 1);
    }
    const top = [...before.entries()].sort((x, y) => y[1] - x[1])[0];
    if (top && n >= minHits && top[1] >= n * 0.8 && printable(top[0]) && !/[0-9A-Za-z]/.test(String.fromCharCode(top[0])))
      endCands.push(Buffer.concat([Buffer.of(top[0]), e]));
  }
  for (const end of endCands) {
    const hits = countSeq(s, end);
    if (hits < minHits) continue;
    if (end.length === 1 && end[0] === 0x10) continue;
    for (const trailer of [0, 1, 2, 4]) {
      const after = new Map<number, number>();
      for (let k = indexOfSeq(s, end, 0); k >= 0; k = indexOfSeq(s, end, k + end.length)) {
        const b = s[k + end.length + trailer];
        if (b !== undefined) after.set(b, (after.get(b) ?? 0) + 1);
      }
      const best = [...after.entries()].sort((a, b) => b[1] - a[1])[0];
      const isEndByte = best && end.includes(best[0]);
      if (best && best[1] >= Math.max(minHits, hits * 0.4) && !isEndByte) {
        add({ start: Buffer.of(best[0]), end, trailer, resync: textish || printable(best[0]), cost: 1 + end.length / 10 + trailer / 10 });
        if (!printable(best[0])) add({ start: Buffer.of(best[0]), end, trailer, resync: false, cost: 1.05 + end.length / 10 + trailer / 10 });
      }
    }
    if (textish) add({ end, trailer: 0, resync: false, cost: 0.5 + end.length / 10 });
  }
  // a frequent byte followed (within 3 bytes) by a length that points at the next occurrence; or a fixed distance (sync word)
  if (!textish || out.length === 0) {
    const tops = [...freq.keys()]
      .filter((b) => freq[b] >= minHits)
      .sort((a, b) => freq[b] - freq[a])
      .slice(0, 8);
    for (const b of tops) {
      const pos: number[] = [];
      for (let i = s.indexOf(b); i >= 0; i = s.indexOf(b, i + 1)) pos.push(i);
      for (const sl of [1, 2]) {
        const start = sl === 1 ? Buffer.of(b) : undefined;
        let startSeq = start;
        if (sl === 2) {
          // a two-byte start: b and the byte that follows it most often
          const next = new Map<number, number>();
          for (const p of pos) if (p + 1 < s.length) next.set(s[p + 1], (next.get(s[p + 1]) ?? 0) + 1);
          const nb = [...next.entries()].sort((x, y) => y[1] - x[1])[0];
          if (!nb || nb[1] < pos.length * 0.6) continue;
          startSeq = Buffer.of(b, nb[0]);
        }
        const sp = startSeq!;
        const at: number[] = [];
        for (let i = indexOfSeq(s, sp, 0); i >= 0; i = indexOfSeq(s, sp, i + 1)) at.push(i);
        if (at.length < minHits) continue;
        const atSet = new Set(at);
        for (const width of [1, 2] as const) {
          for (const order of width === 1 ? (['be'] as const) : (['be', 'le'] as const)) {
            for (let offset = sl; offset <= sl + 1; offset++) {
              const score = new Map<number, number>();
              for (const p of at) {
                if (p + offset + width > s.length) continue;
                const v = width === 1 ? s[p + offset] : order === 'be' ? s.readUInt16BE(p + offset) : s.readUInt16LE(p + offset);
                for (let c = -8; c <= 12; c++) if (atSet.has(p + v + c) || p + v + c === s.length) score.set(c, (score.get(c) ?? 0) + 1);
              }
              const best = [...score.entries()].sort((x, y) => y[1] - x[1])[0];
              if (best && best[1] >= Math.max(minHits, at.length * 0.5)) {
                const c = best[0];
                const head = offset + width;
                const lf =
                  c - head >= -255 && c - head <= 255 && c !== 0 ? { counts: 'following' as const, adjust: c - head } : { counts: 'frame' as const, adjust: c };
                if (c === head) Object.assign(lf, { counts: 'following', adjust: 0 });
                add({ start: sp, trailer: 0, lengthField: { offset, width, order, ...lf }, resync: false, cost: 3 + sl / 10 + (lf.adjust ? 0.05 : 0) });
              }
            }
          }
        }
        // fixed distance between sync words
        const gaps = new Map<number, number>();
        for (let k = 1; k < at.length; k++) gaps.set(at[k] - at[k - 1], (gaps.get(at[k] - at[k - 1]) ?? 0) + 1);
        const g = [...gaps.entries()].sort((x, y) => y[1] - x[1])[0];
        if (g && g[0] > sl + 1 && g[1] >= Math.max(minHits, at.length * 0.5)) add({ start: sp, trailer: 0, length: g[0], resync: false, cost: 3.5 + sl / 10 });
      }
    }
  }
  return out.sort((a, b) => a.cost - b.cost);
}

// ---------------------------------------------------------------- integrity

interface Integrity {
  algorithm: IntegrityAlgorithm;
  encoding: 'binary-be' | 'binary-le' | 'hex' | 'decimal';
  place: 'before-end' | 'after-end';
  separator?: string;
  covers: { start: boolean; payload: boolean; separator: boolean; end: boolean };
  over: 'unstuffed' | 'stuffed';
  cost: number;
}

const NONE: Integrity = {
  algorithm: 'none',
  encoding: 'hex',
  place: 'before-end',
  covers: { start: false, payload: true, separator: false, end: false },
  over: 'unstuffed',
  cost: 100,
};

function describeIntegrity(i: Integrity): string {
  if (i.algorithm === 'none') return 'no integrity check';
  const parts = [i.covers.start && 'start', i.covers.payload && 'payload', i.covers.separator && 'separator', i.covers.end && 'end'].filter(Boolean).join('+');
  return `${i.algorithm} ${i.encoding} ${i.place}${i.separator ? ` after "${i.separator}"` : ''} over ${parts}${i.over === 'stuffed' ? ' (stuffed)' : ''}`;
}

const checkLen = (a: IntegrityAlgorithm, e: Integrity['encoding']): number => {
  const w = checksumBytes(a);
  return e.startsWith('binary') ? w : e === 'decimal' ? String(2 ** (8 * w) - 1).length : 2 * w;
};

function readCheck(b: Buffer, e: Integrity['encoding'], w: number): number | undefined {
  if (e === 'binary-be' || e === 'binary-le') {
    let v = 0;
    for (let k = 0; k < w; k++) v = v * 256 + b[e === 'binary-be' ? k : w - 1 - k];
    return v;
  }
  const t = b.toString('latin1');
  if (e === 'hex') return /^[0-9A-Fa-f]+$/.test(t) ? parseInt(t, 16) : undefined;
  return /^\d+$/.test(t) ? Number(t) : undefined;
}

/** the frame's payload under an integrity variant, or null when its check value does not verify */
function verifyFrame(f: RawFrame, i: Integrity): Buffer | null {
  if (i.algorithm === 'none') return f.inner;
  const w = checksumBytes(i.algorithm);
  const len = checkLen(i.algorithm, i.encoding);
  let cv: Buffer;
  let payload: Buffer;
  let sep: Buffer = Buffer.alloc(0);
  if (i.place === 'after-end') {
    if (f.trailer.length !== len) return null;
    cv = f.trailer;
    payload = f.inner;
  } else {
    const sl = i.separator?.length ?? 0;
    if (f.inner.length < len + sl) return null;
    cv = f.inner.subarray(f.inner.length - len);
    sep = f.inner.subarray(f.inner.length - len - sl, f.inner.length - len);
    if (i.separator !== undefined && sep.toString('latin1') !== i.separator) return null;
    payload = f.inner.subarray(0, f.inner.length - len - sl);
  }
  const want = readCheck(cv, i.encoding, w);
  if (want === undefined) return null;
  const parts: Buffer[] = [];
  if (i.covers.start) parts.push(f.start);
  if (i.covers.payload) parts.push(i.over === 'stuffed' ? f.innerStuffed.subarray(0, f.innerStuffed.length - (f.inner.length - payload.length)) : payload);
  if (i.covers.separator) parts.push(sep);
  if (i.covers.end) parts.push(f.end);
  const cov = Buffer.concat(parts);
  return checksum(i.algorithm, cov, 0, cov.length) === want ? payload : null;
}

function integrityCandidates(frames: RawFrame[], f: Framing): Integrity[] {
  const out: Integrity[] = [];
  const sepCands: Array<string | undefined> = [undefined];
  for (const a of INTEGRITY_ALGORITHMS) {
    if (a === 'none') continue;
    const w = checksumBytes(a);
    for (const encoding of ['binary-be', 'binary-le', 'hex', 'decimal'] as const) {
      if (encoding === 'binary-le' && w === 1) continue;
      const len = checkLen(a, encoding);
      const places: Array<'before-end' | 'after-end'> = [];
      if (f.trailer === len && f.end) places.push('after-end');
      if (f.trailer === 0) places.push('before-end');
      for (const place of places) {
        const seps = place === 'before-end' ? sepCands : [undefined];
        if (place === 'before-end' && !encoding.startsWith('binary')) {
          // a constant punctuation byte just before the value is a separator
          const counts = new Map<number, number>();
          for (const fr of frames)
            if (fr.inner.length > len) counts.set(fr.inner[fr.inner.length - len - 1], (counts.get(fr.inner[fr.inner.length - len - 1]) ?? 0) + 1);
          const top = [...counts.entries()].sort((x, y) => y[1] - x[1])[0];
          if (top && top[1] >= frames.length * 0.5 && printable(top[0]) && !/[0-9A-Za-z]/.test(String.fromCharCode(top[0])))
            seps.push(String.fromCharCode(top[0]));
        }
        for (const separator of seps) {
          for (const start of f.start ? [false, true] : [false]) {
            for (const end of place === 'after-end' ? [false, true] : [false]) {
              for (const sepCov of separator ? [false, true] : [false]) {
                for (const over of f.stuffing ? (['unstuffed', 'stuffed'] as const) : (['unstuffed'] as const)) {
                  const cost =
                    INTEGRITY_ALGORITHMS.indexOf(a) / 100 +
                    (start ? 0.3 : 0) +
                    (end ? 0.1 : 0) +
                    (sepCov ? 0.3 : 0) +
                    (over === 'stuffed' ? 0.5 : 0) +
                    (encoding === 'binary-le' ? 0.05 : 0) +
                    (separator ? 0.01 : 0);
                  out.push({
                    algorithm: a,
                    encoding,
                    place,
                    ...(separator ? { separator } : {}),
                    covers: { start, payload: true, separator: sepCov, end },
                    over,
                    cost,
                  });
                }
              }
            }
          }
        }
      }
    }
  }
  return out;
}

/** the integrity variants that verify the most frames (ties kept, simplest first); none when nothing verifies a third */
function bestIntegrity(frames: RawFrame[], f: Framing): { best: Integrity[]; verified: number } {
  let best: Integrity[] = [];
  let top = 0;
  // a sample of the frames first: only the variants that verify nearly as many of them as the best are tried on all
  const sample = frames.slice(0, 48);
  const all = integrityCandidates(frames, f);
  const onSample = all.map((i) => sample.reduce((n, fr) => (verifyFrame(fr, i) ? n + 1 : n), 0));
  const sampleTop = Math.max(0, ...onSample);
  const shortlist = sampleTop === 0 ? [] : all.filter((_, k) => onSample[k] >= sampleTop * 0.8);
  for (const i of shortlist) {
    let n = 0;
    for (const fr of frames) if (verifyFrame(fr, i)) n++;
    if (n > top) {
      top = n;
      best = [i];
    } else if (n === top && n > 0) best.push(i);
  }
  if (top < Math.max(2, frames.length / 3)) return { best: [NONE], verified: frames.length };
  return { best: best.sort((a, b) => a.cost - b.cost), verified: top };
}

// ---------------------------------------------------------------- messages

interface Valid {
  payload: Buffer;
}

interface SeqField {
  /** text: the index of the digit run; binary: offset, width, order */
  run?: number;
  digits?: number;
  at?: number;
  width?: 1 | 2;
  order?: 'be' | 'le';
  wrap: number;
}

const digitRuns = (t: string): Array<{ i: number; s: string }> => [...t.matchAll(/\d+/g)].map((m) => ({ i: m.index ?? 0, s: m[0] }));

function findSeq(valid: Valid[], text: boolean): SeqField | undefined {
  const counts = (vals: Array<number | undefined>, mod: number): boolean => {
    let pairs = 0;
    let hits = 0;
    for (let k = 1; k < vals.length; k++) {
      const a = vals[k - 1];
      const b = vals[k];
      if (a === undefined || b === undefined) continue;
      pairs++;
      const d = (((b - a) % mod) + mod) % mod;
      if (d >= 1 && d <= 4) hits++;
    }
    return pairs >= 3 && hits >= pairs * 0.85;
  };
  if (text) {
    const runs = valid.map((v) => digitRuns(v.payload.toString('latin1')));
    for (let r = 0; r < 3; r++) {
      const vals = runs.map((x) => (x[r] ? Number(x[r].s) : undefined));
      if (counts(vals, 65536)) {
        const lens = new Set(runs.map((x) => x[r]?.s.length).filter((x) => x !== undefined));
        const fixed = lens.size === 1 && runs.some((x) => x[r]?.s.startsWith('0')) ? [...lens][0] : undefined;
        return { run: r, ...(fixed ? { digits: fixed } : {}), wrap: fixed && fixed <= 4 ? 10 ** fixed - 1 : 65535 };
      }
    }
    return undefined;
  }
  const maxLen = Math.max(...valid.map((v) => v.payload.length));
  for (let at = 0; at < maxLen; at++) {
    const one = valid.map((v) => (at < v.payload.length ? v.payload[at] : undefined));
    if (!counts(one, 256)) continue;
    // a second byte that carries on counting (it changes somewhere) makes it a 16-bit SEQ
    for (const order of ['le', 'be'] as const) {
      const hiAt = order === 'le' ? at + 1 : at - 1;
      if (hiAt < 0) continue;
      const hi = valid.map((v) => (hiAt < v.payload.length ? v.payload[hiAt] : undefined));
      if (new Set(hi.filter((x) => x !== undefined)).size < 2) continue;
      const lo = Math.min(at, hiAt);
      const vals = valid.map((v) => (lo + 1 < v.payload.length ? (order === 'le' ? v.payload.readUInt16LE(lo) : v.payload.readUInt16BE(lo)) : undefined));
      if (counts(vals, 65536)) return { at: lo, width: 2, order, wrap: 65535 };
    }
    return { at, width: 1, order: 'be', wrap: 255 };
  }
  return undefined;
}

/** the body with the SEQ taken out: a placeholder in text, masked bytes in binary */
function masked(p: Buffer, seq: SeqField | undefined, text: boolean): string {
  if (text) {
    const t = p.toString('latin1');
    if (seq?.run === undefined) return t;
    const r = digitRuns(t)[seq.run];
    return r ? `${t.slice(0, r.i)}\u0000${t.slice(r.i + r.s.length)}` : t;
  }
  const b = Buffer.from(p);
  if (seq?.at !== undefined) for (let k = 0; k < (seq.width ?? 1); k++) if (seq.at + k < b.length) b[seq.at + k] = 0;
  return b.toString('hex');
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

type Message = DeviceProfile['messages'][number];

interface Learned {
  messages: Message[];
  cards: CardCodeOptions | undefined;
  seq: SeqField | undefined;
  heartbeats: number;
  notes: string[];
  warnings: string[];
  /** card codings that fit the cards seen but read other codes differently */
  cardAlternatives: string[];
  /** a reason this framing cannot be it */
  problem?: string;
}

const CARD_PRESETS: CardCodeOptions[] = [
  { preset: 'rank-suit' },
  { preset: 'suit-rank' },
  { preset: 'suit_rank' },
  { preset: 'four-digit' },
  ...permutations(['S', 'H', 'D', 'C'] as const).map((suitOrder) => ({ preset: 'index52' as const, suitOrder: [...suitOrder] })),
];

function permutations<T>(xs: readonly T[]): T[][] {
  if (xs.length <= 1) return [[...xs]];
  return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
}

const presetName = (o: CardCodeOptions): string => (o.preset === 'index52' ? `index52 (suits ${o.suitOrder?.join('')})` : o.preset);

/** does preset `b` read some spelling of preset `a` as another card */
function presetsDisagree(a: CardCodeOptions, b: CardCodeOptions): boolean {
  const db = cardDecoder(b);
  for (const r of 'A23456789TJQK') for (const s of 'SHDC') for (const sp of cardSpellings(r + s, a)) if (db(sp) !== r + s) return true;
  return false;
}

/** the card coding that reads every code as its aligned card: a preset, else an explicit table (all 52 needed) */
function solveCards(codes: string[], cards: string[]): { cards?: CardCodeOptions; alternatives: string[]; problem?: string; note: string } {
  const fits = CARD_PRESETS.filter((o) => {
    const d = cardDecoder(o);
    return codes.every((c, k) => d(c) === cards[k]);
  });
  if (fits.length > 0) {
    const alternatives = fits
      .slice(1)
      .filter((o) => presetsDisagree(fits[0], o))
      .map(presetName);
    return { cards: fits[0], alternatives, note: `card codes: preset ${presetName(fits[0])}, from ${codes.length} cards` };
  }
  // a preset that reads nearly every code: the script, not the coding, is wrong where they disagree
  for (const o of CARD_PRESETS) {
    const d = cardDecoder(o);
    const wrong = codes.map((c, k) => ({ c, k, got: d(c) })).filter((x) => x.got !== cards[x.k]);
    if (wrong.length > 0 && wrong.length <= Math.max(2, codes.length / 10)) {
      const w = wrong[0];
      return {
        alternatives: [],
        problem: `the script does not match the deal: card ${w.k + 1} of the script is ${cards[w.k]}, the device sent ${JSON.stringify(w.c)} (${w.got ?? 'no card'} in ${presetName(o)}, which reads the other ${codes.length - wrong.length} codes as the script says)`,
        note: '',
      };
    }
  }
  // codes a preset reads as cards, only not as the script's: the deal is not the script's
  for (const o of CARD_PRESETS.slice(0, 4)) {
    const d = cardDecoder(o);
    if (codes.every((c) => d(c) !== null)) {
      const k = codes.findIndex((c, i) => d(c) !== cards[i]);
      return {
        alternatives: [],
        problem: `the script does not match the deal: the device's codes read as ${presetName(o)} cards, and card ${k + 1} came as ${JSON.stringify(codes[k])} (${d(codes[k])}) where the script says ${cards[k]}`,
        note: '',
      };
    }
  }
  const table = new Map<string, string>();
  const back = new Map<string, string>();
  for (let k = 0; k < codes.length; k++) {
    if ((table.get(codes[k]) ?? cards[k]) !== cards[k])
      return { alternatives: [], problem: `the code ${JSON.stringify(codes[k])} stands for ${table.get(codes[k])} and for ${cards[k]}`, note: '' };
    if ((back.get(cards[k]) ?? codes[k]) !== codes[k])
      return { alternatives: [], problem: `${cards[k]} came as ${JSON.stringify(back.get(cards[k]))} and as ${JSON.stringify(codes[k])}`, note: '' };
    table.set(codes[k], cards[k]);
    back.set(cards[k], codes[k]);
  }
  if (table.size < 52)
    return {
      alternatives: [],
      problem: `deal more cards: the card codes fit no preset, and an explicit table needs all 52 cards (${table.size} seen)`,
      note: '',
    };
  const sorted = Object.fromEntries(
    [...table.entries()].sort((x, y) => (/^\d+$/.test(x[0]) && /^\d+$/.test(y[0]) ? Number(x[0]) - Number(y[0]) : x[0] < y[0] ? -1 : 1)),
  );
  return { cards: { preset: 'table', table: sorted }, alternatives: [], note: `card codes: an explicit table of 52, solved from ${codes.length} known cards` };
}

interface EventClass {
  key: string;
  type: DeviceProfile['messages'][number]['type'];
  fields: Record<string, string | number | boolean>;
  variable: 'card' | 'ball' | 'dice' | undefined;
  members: Array<{ payload: Buffer; event: ScriptEvent }>;
}

function classOf(e: ScriptEvent): Omit<EventClass, 'members'> {
  switch (e.type) {
    case 'CARD':
      return e.rescan
        ? { key: 'rescan', type: 'CARD', fields: { rescan: true }, variable: 'card' }
        : { key: 'card', type: 'CARD', fields: {}, variable: 'card' };
    case 'STATE':
      return { key: 'loaded', type: 'STATE', fields: { state: 'LOADED' }, variable: undefined };
    case 'BALL':
      return { key: 'ball', type: 'BALL', fields: {}, variable: 'ball' };
    case 'ROLL':
      return { key: 'roll', type: 'ROLL', fields: {}, variable: 'dice' };
    default:
      return { key: e.type.toLowerCase(), type: e.type, fields: {}, variable: undefined };
  }
}

function commonPrefix(xs: string[]): number {
  let n = 0;
  while (xs.every((x) => n < x.length && x[n] === xs[0][n])) n++;
  return n;
}
function commonSuffix(xs: string[], limit: number[]): number {
  let n = 0;
  while (xs.every((x, k) => x.length - n - 1 >= limit[k] && x[x.length - 1 - n] === xs[0][xs[0].length - 1 - n])) n++;
  return n;
}

/** a character class for the codes seen (`[0-9A-Z]{2,3}`) */
function codeClass(codes: string[]): string {
  const chars = new Set(codes.join(''));
  const parts: string[] = [];
  if ([...chars].some((c) => /\d/.test(c))) parts.push('0-9');
  if ([...chars].some((c) => /[A-Z]/.test(c))) parts.push('A-Z');
  if ([...chars].some((c) => /[a-z]/.test(c))) parts.push('a-z');
  for (const c of chars) if (!/[0-9A-Za-z]/.test(c)) parts.push(escapeRe(c) === c && c !== '-' && c !== ']' && c !== '^' ? c : `\\${c}`);
  const lens = codes.map((c) => c.length);
  const lo = Math.min(...lens);
  const hi = Math.max(...lens);
  return `[${parts.join('')}]${lo === hi ? `{${lo}}` : `{${lo},${hi}}`}`;
}

function textPattern(template: string, seq: SeqField | undefined, middle?: string): string {
  const seqRe = seq?.digits ? `(?<seq>\\d{${seq.digits}})` : '(?<seq>\\d{1,5})';
  const [a, b] = middle === undefined ? [template, undefined] : template.split('\u0001');
  const lit = (x: string): string => x.split('\u0000').map(escapeRe).join(seqRe);
  return b === undefined ? lit(a) : `${lit(a)}${middle}${lit(b)}`;
}

function learnMessages(valid: Valid[], events: readonly ScriptEvent[], text: boolean, frames: number): Learned {
  const fail = (problem: string): Learned => ({
    messages: [],
    cards: undefined,
    seq: undefined,
    heartbeats: 0,
    notes: [],
    warnings: [],
    cardAlternatives: [],
    problem,
  });
  const seq = findSeq(valid, text);
  const keys = valid.map((v) => masked(v.payload, seq, text));
  // the heartbeat: a body (SEQ aside) that repeats, such that the rest are as many as the script's events
  const counts = new Map<string, number>();
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  const hbCands = [...counts.entries()].filter(([, n]) => n >= 2 && valid.length - n === events.length).sort((x, y) => y[1] - x[1]);
  let hbKey: string | undefined;
  if (hbCands.length > 0) hbKey = hbCands[0][0];
  else if (valid.length !== events.length)
    return fail(`${valid.length} frames verify, the script has ${events.length} events and no repeating frame makes up the difference`);
  const others = valid.filter((_, k) => keys[k] !== hbKey);
  const classes = new Map<string, EventClass>();
  others.forEach((v, k) => {
    const c = classOf(events[k]);
    const cl = classes.get(c.key) ?? { ...c, members: [] };
    cl.members.push({ payload: v.payload, event: events[k] });
    classes.set(c.key, cl);
  });
  const notes: string[] = [];
  const warnings: string[] = [];
  const messages: Message[] = [];
  let cards: CardCodeOptions | undefined;
  let cardAlternatives: string[] = [];
  const seqName = seq ? { seq: 'seq' } : {};
  const seqField: Record<string, BinaryField> =
    seq?.at !== undefined ? { seq: { at: seq.at, width: seq.width ?? 1, order: seq.order ?? 'be', as: 'number' } } : {};
  // the plain card class first: the card coding comes from it
  const order = [...classes.values()].sort((a, b) => (a.key === 'card' ? -1 : b.key === 'card' ? 1 : 0));
  let cardClass: string | undefined;
  let cardSlot: { prefix: number; suffix: number } | { at: number; width: number } | undefined;
  for (const cl of order) {
    const ms = cl.members.map((m) => masked(m.payload, seq, text));
    if (!cl.variable) {
      if (new Set(ms).size !== 1)
        return fail(
          `the frames of ${cl.key} (${ms.length}) differ: ${[...new Set(ms)]
            .slice(0, 2)
            .map((x) => JSON.stringify(x))
            .join(' / ')}`,
        );
      if (hbKey !== undefined && ms[0] === hbKey) return fail(`${cl.key} looks like the heartbeat`);
      if (text)
        messages.push({
          name: cl.key,
          pattern: textPattern(ms[0], seq),
          type: cl.type,
          fields: cl.fields,
          map: {},
          ranges: {},
          ...seqName,
          emit: ms[0].replace('\u0000', '{seq}'),
        });
      else {
        const b = cl.members[0].payload;
        const match = [...b]
          .map((value, at) => ({ at, value, mask: 0xff }))
          .filter((x) => !(seq?.at !== undefined && x.at >= seq.at && x.at < seq.at + (seq.width ?? 1)));
        messages.push({
          name: cl.key,
          bytes: { length: b.length, match, fields: { ...seqField } },
          type: cl.type,
          fields: cl.fields,
          map: {},
          ranges: {},
          ...seqName,
        });
      }
      continue;
    }
    if (cl.variable === 'ball') {
      const balls = cl.members.map((m) => (m.event as { ball: number }).ball);
      if (text) {
        let pre = commonPrefix(ms);
        let suf = commonSuffix(
          ms,
          ms.map(() => pre),
        );
        while (pre > 0 && /\d/.test(ms[0][pre - 1])) pre--;
        while (suf > 0 && /\d/.test(ms[0][ms[0].length - suf])) suf--;
        const codes = ms.map((m) => m.slice(pre, m.length - suf));
        const k = codes.findIndex((c, i) => !/^\d+$/.test(c) || Number(c) !== balls[i]);
        if (k >= 0) return fail(`${cl.key}: frame ${k + 1} says ${JSON.stringify(codes[k])} where the script says ball ${balls[k]}`);
        const lens = codes.map((c) => c.length);
        const template = `${ms[0].slice(0, pre)}\u0001${ms[0].slice(ms[0].length - suf)}`;
        if (ms.some((m) => m.slice(0, pre) !== ms[0].slice(0, pre) || m.slice(m.length - suf) !== ms[0].slice(ms[0].length - suf)))
          return fail(`${cl.key}: the frames differ beyond the ball`);
        messages.push({
          name: cl.key,
          pattern: textPattern(template, seq, `(?<ball>\\d{${Math.min(...lens)},${Math.max(2, ...lens)}})`),
          type: 'BALL',
          fields: cl.fields,
          map: {},
          ranges: {},
          ...seqName,
          emit: template.replace('\u0000', '{seq}').replace('\u0001', '{ball}'),
        });
        notes.push(`balls: decimal, from ${codes.length} balls`);
      } else {
        const len = cl.members[0].payload.length;
        if (cl.members.some((m) => m.payload.length !== len)) return fail(`${cl.key}: frames of different lengths`);
        const isSeq = (at: number): boolean => seq?.at !== undefined && at >= seq.at && at < seq.at + (seq.width ?? 1);
        const at = [...Array(len).keys()].find((a) => !isSeq(a) && cl.members.every((m, i) => m.payload[a] === balls[i]));
        if (at === undefined) return fail(`${cl.key}: no byte says the script's balls`);
        const b = cl.members[0].payload;
        const match = [...b]
          .map((value, a) => ({ at: a, value, mask: 0xff }))
          .filter((x) => !isSeq(x.at) && x.at !== at && cl.members.every((m) => m.payload[x.at] === x.value));
        messages.push({
          name: cl.key,
          bytes: { length: len, match, fields: { ...seqField, ball: { at, width: 1, order: 'be', as: 'number' } } },
          type: 'BALL',
          fields: cl.fields,
          map: {},
          ranges: {},
          ...seqName,
        });
        notes.push(`balls: the byte at offset ${at}, from ${balls.length} balls`);
      }
      continue;
    }
    if (cl.variable !== 'card') return fail(`${cl.key}: learning ${cl.variable} fields is not supported yet`);
    const known = cl.members.map((m) => (m.event as { card: string }).card);
    if (text) {
      let pre: number;
      let suf: number;
      if (ms.length >= 4 || cardSlot === undefined || !cards) {
        pre = commonPrefix(ms);
        suf = commonSuffix(
          ms,
          ms.map(() => pre),
        );
      } else {
        // few frames (a rescan): the card's spelling under the coding learned from the plain cards
        const spelled = ms.map((m, k) => {
          const sp = cardSpellings(known[k], cards!).find((x) => m.includes(x));
          return sp === undefined ? undefined : { pre: m.indexOf(sp), suf: m.length - m.indexOf(sp) - sp.length };
        });
        if (spelled.some((x) => x === undefined)) return fail(`${cl.key}: the card's code is not in its frame`);
        pre = spelled[0]!.pre;
        suf = spelled[0]!.suf;
        if (spelled.some((x) => x!.pre !== pre || x!.suf !== suf)) return fail(`${cl.key}: the card's code moves within the frame`);
      }
      // a common part may belong to the codes (four-digit codes all end in 0): give back up to 3 characters on each side where a preset then reads them
      if (cl.key === 'card' || !cards) {
        let found = false;
        for (let give = 1; give <= 6 && !found; give++) {
          for (let dp = 0; dp <= Math.min(3, give, pre) && !found; dp++) {
            const ds = give - dp;
            if (ds > 3 || ds > suf) continue;
            const cs = ms.map((m) => m.slice(pre - dp, m.length - suf + ds));
            if (
              CARD_PRESETS.some((o) => cs.every((c, k) => cardDecoder(o)(c) === known[k])) &&
              !CARD_PRESETS.some((o) => ms.every((m, k) => cardDecoder(o)(m.slice(pre, m.length - suf)) === known[k]))
            ) {
              pre -= dp;
              suf -= ds;
              found = true;
            }
          }
        }
      }
      const codes = ms.map((m) => m.slice(pre, m.length - suf));
      if (codes.some((c) => c.length === 0)) return fail(`${cl.key}: no card code between the common parts of the frames`);
      if (cl.key === 'card' || !cards) {
        const solved = solveCards(codes, known);
        if (!solved.cards) return fail(solved.problem ?? 'no card coding');
        cards = solved.cards;
        cardAlternatives = solved.alternatives;
        notes.push(solved.note);
      } else {
        const d = cardDecoder(cards);
        if (codes.some((c, k) => d(c) !== known[k]))
          return fail(`${cl.key}: the codes ${codes.join(' ')} do not read as ${known.join(' ')} with the plain cards' coding`);
      }
      cardSlot = { prefix: pre, suffix: suf };
      const template = `${ms[0].slice(0, pre)}\u0001${ms[0].slice(ms[0].length - suf)}`;
      if (ms.some((m) => m.slice(0, pre) !== ms[0].slice(0, pre) || m.slice(m.length - suf) !== ms[0].slice(ms[0].length - suf)))
        return fail(`${cl.key}: the frames differ beyond the card`);
      const klass = cards.preset === 'table' ? codeClass(Object.keys(cards.table ?? {})) : cl.key !== 'card' && cardClass ? cardClass : codeClass(codes);
      if (cl.key === 'card') cardClass = klass;
      messages.push({
        name: cl.key,
        pattern: textPattern(template, seq, `(?<card>${klass})`),
        type: 'CARD',
        fields: cl.fields,
        map: {},
        ranges: {},
        ...seqName,
        emit: template.replace('\u0000', '{seq}').replace('\u0001', '{card}'),
      });
    } else {
      const lens = new Set(cl.members.map((m) => m.payload.length));
      if (lens.size !== 1) return fail(`${cl.key}: frames of ${[...lens].join(' and ')} bytes`);
      const len = [...lens][0];
      const isSeq = (at: number): boolean => seq?.at !== undefined && at >= seq.at && at < seq.at + (seq.width ?? 1);
      let lo: number;
      let hi: number;
      if (cl.members.length >= 4 || !cardSlot || !('at' in cardSlot)) {
        const vary: number[] = [];
        for (let at = 0; at < len; at++) if (!isSeq(at) && new Set(cl.members.map((m) => m.payload[at])).size > 1) vary.push(at);
        if (vary.length === 0) return fail(`${cl.key}: no byte changes with the card`);
        lo = vary[0];
        hi = vary[vary.length - 1];
        if (hi - lo >= 4) return fail(`${cl.key}: the bytes that change with the card (${vary.join(', ')}) span more than 4 bytes`);
      } else {
        lo = cardSlot.at;
        hi = cardSlot.at + cardSlot.width - 1;
        if (hi >= len) return fail(`${cl.key}: shorter than the plain card frames`);
      }
      const width = (hi - lo + 1) as 1 | 2 | 3 | 4;
      const value = (p: Buffer): number => {
        let v = 0;
        for (let k = lo; k <= hi; k++) v = v * 256 + p[k];
        return v;
      };
      const codes = cl.members.map((m) => String(value(m.payload)));
      if (cl.key === 'card' || !cards) {
        // the other card frames of the same length (a rescan) carry codes at the same place: they count for a table too
        const more = [...classes.values()].filter((c) => c !== cl && c.variable === 'card').flatMap((c) => c.members.filter((m) => m.payload.length === len));
        const solved = solveCards([...codes, ...more.map((m) => String(value(m.payload)))], [...known, ...more.map((m) => (m.event as { card: string }).card)]);
        if (!solved.cards) return fail(solved.problem ?? 'no card coding');
        cards = solved.cards;
        cardAlternatives = solved.alternatives;
        notes.push(solved.note);
      } else {
        const d = cardDecoder(cards);
        if (codes.some((c, k) => d(c) !== known[k])) return fail(`${cl.key}: the card bytes do not read as the script's cards with the plain cards' coding`);
      }
      cardSlot = { at: lo, width };
      const b = cl.members[0].payload;
      const match = [...b].map((v, at) => ({ at, value: v, mask: 0xff })).filter((x) => !isSeq(x.at) && (x.at < lo || x.at > hi));
      for (const m of cl.members) if (match.some((x) => m.payload[x.at] !== x.value)) return fail(`${cl.key}: the frames differ beyond the card`);
      messages.push({
        name: cl.key,
        bytes: { length: len, match, fields: { ...seqField, card: { at: lo, width, order: 'be', as: 'number' } } },
        type: 'CARD',
        fields: cl.fields,
        map: {},
        ranges: {},
        ...seqName,
      });
    }
  }
  let heartbeats = 0;
  if (hbKey !== undefined) {
    const hb = valid.find((_, k) => keys[k] === hbKey)!;
    heartbeats = counts.get(hbKey)!;
    if (text)
      messages.push({
        name: 'heartbeat',
        pattern: textPattern(hbKey, seq),
        type: 'HB',
        fields: {},
        map: {},
        ranges: {},
        ...seqName,
        emit: hbKey.replace('\u0000', '{seq}'),
      });
    else {
      const match = [...hb.payload]
        .map((value, at) => ({ at, value, mask: 0xff }))
        .filter((x) => !(seq?.at !== undefined && x.at >= seq.at && x.at < seq.at + (seq.width ?? 1)));
      messages.push({
        name: 'heartbeat',
        bytes: { length: hb.payload.length, match, fields: { ...seqField } },
        type: 'HB',
        fields: {},
        map: {},
        ranges: {},
        ...seqName,
      });
    }
    notes.push(`heartbeat: the frame that repeats (${heartbeats} times, SEQ aside)`);
  } else warnings.push('no heartbeat in the capture: leave the device idle for a few seconds while recording to learn it');
  if (seq)
    notes.push(
      seq.run !== undefined
        ? `SEQ: the ${ordinal(seq.run)} number of the body, counting up over ${valid.length} frames`
        : `SEQ: ${seq.width} byte${seq.width === 2 ? `s ${seq.order}` : ''} at offset ${seq.at}, counting up over ${valid.length} frames`,
    );
  notes.push(
    `messages: ${messages.map((m) => `${m.name} (${m.name === 'heartbeat' ? heartbeats : (classes.get(m.name)?.members.length ?? 0)})`).join(', ')}, from ${others.length} frames aligned with the script; ${frames - valid.length} other frames are rejects`,
  );
  if (events.some((e) => e.type === 'CARD') && !events.some((e) => e.type === 'MISREAD'))
    warnings.push('include a misread: the deal had no MISREAD, so the profile has no message for a misread (or its rescan) and would reject them');
  return { messages, cards, seq, heartbeats, notes, warnings, cardAlternatives };
}

const ordinal = (n: number): string => ['first', 'second', 'third'][n] ?? `#${n + 1}`;

// ---------------------------------------------------------------- assembling and verifying

const latin1 = (b: Buffer): string => b.toString('latin1');

function profileData(name: string, kind: LearnKind, f: Framing, i: Integrity, l: Learned, text: boolean, maxFrame: number): Record<string, unknown> {
  const framing: Record<string, unknown> = {};
  if (f.start) framing.start = latin1(f.start);
  if (f.end) framing.end = latin1(f.end);
  if (f.end && f.end.length === 2 && f.end[0] === 0x0d && f.end[1] === 0x0a) framing.acceptEnd = ['\n'];
  if (f.trailer) framing.trailer = f.trailer;
  if (f.length) framing.length = f.length;
  if (f.lengthField)
    framing.lengthField = {
      offset: f.lengthField.offset,
      width: f.lengthField.width,
      order: f.lengthField.order,
      counts: f.lengthField.counts,
      adjust: f.lengthField.adjust,
    };
  if (f.stuffing)
    framing.stuffing = { escape: String.fromCharCode(f.stuffing.escape), mode: f.stuffing.mode, ...(f.stuffing.mode === 'xor' ? { xor: f.stuffing.xor } : {}) };
  framing.maxLength = Math.max(f.length ?? 0, Math.min(1024, Math.max(32, 2 * maxFrame)));
  const integrity: Record<string, unknown> = { algorithm: i.algorithm };
  if (i.algorithm !== 'none') {
    Object.assign(integrity, {
      encoding: i.encoding,
      place: i.place,
      ...(i.separator ? { separator: i.separator } : {}),
      covers: i.covers,
      ...(i.over === 'stuffed' ? { over: 'stuffed' } : {}),
    });
  }
  const messages = l.messages.map((m) => {
    const o: Record<string, unknown> = { name: m.name };
    if (m.pattern) o.pattern = m.pattern;
    if (m.bytes) o.bytes = m.bytes;
    o.type = m.type;
    if (Object.keys(m.fields).length) o.fields = m.fields;
    if (m.seq) o.seq = m.seq;
    if (m.emit) o.emit = m.emit;
    return o;
  });
  return {
    name,
    talker: TALKER[kind],
    ...(text ? {} : { encoding: 'binary' }),
    framing,
    integrity,
    cards: l.cards ?? { preset: 'rank-suit' },
    ...(l.seq ? { seq: { wrap: l.seq.wrap } } : {}),
    messages,
  };
}

/** YAML with a comment above each part (JSON is YAML flow style: every value written exactly) */
function toYaml(data: Record<string, unknown>, header: string[], comments: Record<string, string>): string {
  const lines = header.map((h) => `# ${h}`);
  for (const [k, v] of Object.entries(data)) {
    if (comments[k]) lines.push(`# ${comments[k]}`);
    if (k === 'messages' && Array.isArray(v)) {
      lines.push('messages:');
      for (const m of v) lines.push(`  - ${JSON.stringify(m)}`);
    } else if (k === 'cards' && (v as CardCodeOptions).preset === 'table') {
      const t = (v as CardCodeOptions).table ?? {};
      lines.push('cards:', '  preset: table', '  table:');
      for (const [code, card] of Object.entries(t)) lines.push(`    ${JSON.stringify(code)}: ${card}`);
    } else lines.push(`${k}: ${JSON.stringify(v)}`);
  }
  return `${lines.join('\n')}\n`;
}

function frameKey(f: DeviceFrame): string {
  switch (f.type) {
    case 'CARD':
      return `CARD ${f.card}${f.rescan ? ' R' : ''}`;
    case 'STATE':
      return `STATE ${f.state}`;
    case 'ROLL':
      return `ROLL ${f.dice.join(',')}`;
    case 'BALL':
      return `BALL ${f.ball}`;
    default:
      return f.type;
  }
}

interface Verified {
  ok: boolean;
  matched: number;
  problem?: string;
  /** frames and rejects as keys (two candidates decode identically when these are equal) */
  signature: string;
}

function verify(profile: DeviceProfile, chunks: readonly CaptureChunk[], want: string[]): Verified {
  const r = decodeCapture(profile, chunks);
  const got: string[] = [];
  let hb = 0;
  for (const it of r.items) {
    if (!('frame' in it)) continue;
    if (it.frame.type === 'HB') hb++;
    else got.push(frameKey(it.frame));
  }
  const signature = r.items.flatMap((it) => ('frame' in it ? [frameKey(it.frame)] : [])).join('|');
  let matched = 0;
  while (matched < want.length && got[matched] === want[matched]) matched++;
  void hb;
  if (matched !== want.length || got.length !== want.length) {
    const at = matched;
    return {
      ok: false,
      matched,
      signature,
      problem: `decodes ${got.length} events where the script has ${want.length}; first difference at event ${at + 1}: ${got[at] ?? 'nothing'} where the script says ${want[at] ?? 'nothing'}`,
    };
  }
  const re = rechunkCheck(profile, chunks, r);
  if (!re.same) return { ok: false, matched, signature, problem: `re-chunked, it decodes differently: ${re.difference}` };
  return { ok: true, matched, signature };
}

interface Passing {
  profile: DeviceProfile;
  yaml: string;
  notes: string[];
  warnings: string[];
  cost: number;
  description: string;
  signature: string;
  cardAlternatives: string[];
  integrity: Integrity;
  integrityTies: Integrity[];
}

/** Learns a device profile from a capture of a known deal and its script (device-protocols.md §3.2). */
export function learnProfile(input: LearnInput): LearnResult {
  const kind = input.kind ?? 'card-shoe';
  const parsed = typeof input.script === 'string' ? parseScript(input.script) : { ok: true as const, events: [...input.script] };
  if (!parsed.ok) return { exit: 1, status: 'failed', code: 'script-invalid', reason: `the script: ${parsed.reason}`, closest: [] };
  const events = parsed.events;
  const want = events.map(eventKey);
  const chunks = input.capture;
  const stream = Buffer.concat(chunks.map((c) => c.bytes));
  if (stream.length === 0)
    return {
      exit: 1,
      status: 'failed',
      code: 'capture-empty',
      reason: 'the capture holds no bytes: record while dealing (tablegw capture), then learn',
      closest: [],
    };
  const name = input.name ?? `learned-${kind}`;
  const tried: Array<CandidateSummary & { rank: number }> = [];
  const passing: Passing[] = [];
  for (const f of framingCandidates(stream)) {
    const frames = split(stream, f);
    if (frames.length < Math.min(3, events.length)) {
      tried.push({ description: describeFraming(f), matched: 0, problem: `only ${frames.length} frames`, rank: -f.cost });
      continue;
    }
    const { best, verified } = bestIntegrity(frames, f);
    const integ = best[0];
    const valid: Valid[] = [];
    for (const fr of frames) {
      const p = verifyFrame(fr, integ);
      if (p) valid.push({ payload: p });
    }
    const desc = `${describeFraming(f)}; ${describeIntegrity(integ)}`;
    if (valid.length < events.length) {
      tried.push({
        description: desc,
        matched: 0,
        problem: `${valid.length} frames verify, fewer than the script's ${events.length} events`,
        rank: (integ.algorithm === 'none' ? 0 : 100) - f.cost,
      });
      continue;
    }
    // mostly text: a frame with bytes that are not text is noise (what a check value would have rejected)
    const isText = (v: Valid): boolean => v.payload.length > 0 && [...v.payload].every(printable);
    const textual = valid.filter(isText);
    const text = textual.length >= valid.length * 0.8;
    if (text && textual.length < valid.length) valid.splice(0, valid.length, ...textual);
    const learned = learnMessages(valid, events, text, frames.length);
    if (learned.problem) {
      tried.push({ description: desc, matched: 0, problem: learned.problem, rank: (integ.algorithm === 'none' ? 200 : 300) - f.cost });
      continue;
    }
    const maxFrame = Math.max(...frames.map((fr) => fr.start.length + fr.innerStuffed.length + fr.end.length + fr.trailer.length));
    const data = profileData(name, kind, f, integ, learned, text, maxFrame);
    const header = [
      `Learned by tablegw profile learn from a capture of ${stream.length} bytes (${chunks.length} chunks) and a script of ${events.length} events.`,
      `Verified: it decodes the capture, as it arrived and re-chunked (1-byte chunks, random cuts, all at once), to exactly the script's events.`,
    ];
    const notes = [
      `framing: ${describeFraming(f)}, from ${frames.length} frames`,
      integ.algorithm === 'none'
        ? `integrity: none (no check value verifies most of the ${frames.length} frames)`
        : `integrity: ${describeIntegrity(integ)}, verified on ${verified} of ${frames.length} frames (the others are rejects)`,
      `encoding: ${text ? 'text' : 'binary'}`,
      ...learned.notes,
    ];
    const yaml = toYaml(data, header, {
      framing: notes[0],
      integrity: notes[1],
      cards: learned.notes.find((n) => n.startsWith('card codes')) ?? '',
      seq: learned.notes.find((n) => n.startsWith('SEQ')) ?? '',
      messages: learned.notes.filter((n) => n.startsWith('messages') || n.startsWith('heartbeat')).join('; '),
    });
    let profile: DeviceProfile;
    try {
      profile = validateProfile(name, parseYaml(yaml));
    } catch (e) {
      if (!(e instanceof ProfileError)) throw e;
      tried.push({ description: desc, matched: 0, problem: `the profile it makes is invalid: ${e.message.split('\n')[0]}`, rank: 400 - f.cost });
      continue;
    }
    const v = verify(profile, chunks, want);
    if (!v.ok) {
      tried.push({ description: desc, matched: v.matched, problem: v.problem, rank: 1000 + v.matched - f.cost });
      continue;
    }
    passing.push({
      profile,
      yaml,
      notes,
      warnings: learned.warnings,
      cost: f.cost + integ.cost,
      description: desc,
      signature: v.signature,
      cardAlternatives: learned.cardAlternatives,
      integrity: integ,
      integrityTies: best.filter((b) => b.algorithm !== integ.algorithm),
    });
  }
  if (passing.length === 0) {
    const more = tried.find((t) => t.problem?.startsWith('deal more cards'));
    if (more)
      return {
        exit: 3,
        status: 'ambiguous',
        reason: `the deal does not say every card's code (${more.description})`,
        tellApart: [more.problem!],
        candidates: [{ description: more.description, matched: more.matched, problem: more.problem }],
      };
    const closest = tried
      .sort((a, b) => b.rank - a.rank)
      .slice(0, 3)
      .map(({ rank: _, ...c }) => c);
    const what =
      closest.length === 0
        ? 'no framing fits these bytes (is it a capture of this device?)'
        : 'no profile of the grammar decodes the capture to exactly the script';
    return {
      exit: 1,
      status: 'failed',
      code: 'no-profile',
      reason: `${what}: check that the capture is of this device and the script lists what was dealt, in order`,
      closest,
    };
  }
  passing.sort((a, b) => a.cost - b.cost);
  const chosen = passing[0];
  const tellApart: string[] = [];
  const differing = passing.filter((p) => p.signature !== chosen.signature);
  if (differing.length > 0)
    tellApart.push(`include a misread and some line noise: ${differing.length + 1} profiles decode the deal's events but treat the other frames differently`);
  if (chosen.cardAlternatives.length > 0)
    tellApart.push(`deal more cards: the cards seen also fit ${chosen.cardAlternatives.join(', ')}, which read other codes differently`);
  if (chosen.integrityTies.length > 0)
    tellApart.push(`deal more cards: ${[chosen.integrity, ...chosen.integrityTies].map((i) => i.algorithm).join(' and ')} both verify every frame seen`);
  if (tellApart.length > 0) {
    const candidates = [chosen, ...differing].slice(0, 4).map((p) => ({ description: p.description, matched: events.length }));
    return { exit: 3, status: 'ambiguous', reason: 'several profiles decode this deal but would decode other frames differently', tellApart, candidates };
  }
  const yaml = chosen.yaml.replace(/^(# Verified:.*)$/m, `$1\n${chosen.notes.map((n) => `# - ${n}`).join('\n')}`);
  return { exit: 0, status: 'learned', profile: chosen.profile, yaml, notes: chosen.notes, warnings: chosen.warnings, equivalent: passing.length };
}
