/**
 * Binary framings of the learner whose frames end by their length (a length field, or a fixed
 * length behind a sync word): the stream cut the way the gateway's decoder cuts it once the check
 * value is known. A frame that fails its check is read again from the next start inside it (the
 * decoder's resync), so a frame cut short does not take the frame behind it along.
 */
import { checksum, checksumBytes, INTEGRITY_ALGORITHMS } from '../../../../drivers/profiles/checksums.js';
import { describeFraming, type Framing, indexOfSeq, MAX_FRAME, type RawFrame } from './framing.js';
import { checkLen, type Integrity } from './integrity.js';

/** does the framing end its frames by their length (not by an end sequence) */
export const endsByLength = (f: Framing): boolean => f.start !== undefined && (f.length !== undefined || f.lengthField !== undefined);

/** the total length of the frame at `i` under the framing, or undefined when it cannot be read there */
export function frameLengthAt(s: Buffer, i: number, f: Framing): number | undefined {
  let total = f.length ?? 0;
  const lf = f.lengthField;
  if (lf) {
    if (i + lf.offset + lf.width > s.length) return undefined;
    const v = lf.width === 1 ? s[i + lf.offset] : lf.order === 'be' ? s.readUInt16BE(i + lf.offset) : s.readUInt16LE(i + lf.offset);
    total = v + lf.adjust + (lf.counts === 'following' ? lf.offset + lf.width : 0);
  }
  return total;
}

/**
 * The frames of a length-ended framing, where `ok` says whether a frame verifies: a frame that
 * verifies is taken whole, one that does not is a reject and the search goes on at the next start
 * after its first byte.
 */
export function splitResync(s: Buffer, f: Framing, ok: (fr: RawFrame) => boolean): RawFrame[] {
  const out: RawFrame[] = [];
  const start = f.start;
  if (!start || !endsByLength(f)) return out;
  const sl = start.length;
  const empty = Buffer.alloc(0);
  let i = indexOfSeq(s, start, 0);
  while (i >= 0 && i < s.length) {
    const total = frameLengthAt(s, i, f);
    if (total === undefined) break;
    if (total <= sl || total > MAX_FRAME || i + total > s.length) {
      i = indexOfSeq(s, start, i + 1);
      continue;
    }
    const inner = s.subarray(i + sl, i + total);
    const fr: RawFrame = { start, inner, innerStuffed: inner, end: empty, trailer: empty };
    if (ok(fr)) {
      out.push(fr);
      i = indexOfSeq(s, start, i + total);
    } else i = indexOfSeq(s, start, i + 1);
  }
  return out;
}

/** a length field that counts the bytes after it but the check value is said as counting the payload (`counts: payload`) */
export function payloadCounted(f: Framing, i: Integrity): Framing {
  const lf = f.lengthField;
  if (lf?.counts !== 'following' || i.algorithm === 'none' || lf.adjust !== checkLen(i.algorithm, i.encoding)) return f;
  return { ...f, lengthField: { ...lf, counts: 'payload', adjust: 0 } };
}

/**
 * Length fields found by their check value: a frequent byte as the start (a sync byte, a slave
 * address), a one-byte length 1 to 3 bytes after it that counts the bytes up to a binary check
 * value, kept where that check value (any algorithm of the catalogue, either byte order, over
 * the whole frame from its start) verifies over the cut it makes for at least three
 * frames and a third of the start byte's places. Unlike a length that points at the next frame,
 * this holds where other traffic (a master's polls on a Modbus line, noise) sits between frames.
 */
export function checkedLengthCandidates(s: Buffer): Framing[] {
  const freq = new Array<number>(256).fill(0);
  for (const x of s) freq[x]++;
  const tops = [...freq.keys()]
    .filter((b) => freq[b] >= 3)
    .sort((a, b) => freq[b] - freq[a])
    .slice(0, 8);
  const algorithms = INTEGRITY_ALGORITHMS.filter((a) => a !== 'none');
  const out: Framing[] = [];
  for (const b of tops) {
    const at: number[] = [];
    for (let i = s.indexOf(b); i >= 0; i = s.indexOf(b, i + 1)) at.push(i);
    for (let offset = 1; offset <= 3; offset++) {
      for (const a of algorithms) {
        const w = checksumBytes(a);
        let hits = 0;
        for (const p of at) {
          if (p + offset >= s.length) continue;
          const total = offset + 1 + s[p + offset] + w;
          if (total > MAX_FRAME || p + total > s.length) continue;
          const cs = p + total - w;
          let be = 0;
          let le = 0;
          for (let k = 0; k < w; k++) {
            be = be * 256 + s[cs + k];
            le = le * 256 + s[cs + w - 1 - k];
          }
          const c = checksum(a, s, p, cs);
          if (c === be || c === le) hits++;
        }
        if (hits >= 3 && hits >= at.length / 3)
          out.push({
            start: Buffer.of(b),
            trailer: 0,
            lengthField: { offset, width: 1, order: 'be', counts: 'following', adjust: w },
            resync: false,
            cost: 3.1 + w / 100,
          });
      }
    }
  }
  return out;
}

/** the framing candidates and the length fields found by their check value, once each, simplest first */
export function withCheckedLengths(candidates: Framing[], s: Buffer): Framing[] {
  // text lines carry no binary length
  let text = 0;
  for (const x of s) if ((x >= 0x20 && x < 0x7f) || x === 0x0d || x === 0x0a || x === 0x09) text++;
  if (text > s.length * 0.6) return candidates;
  const seen = new Set(candidates.map(describeFraming));
  const more = checkedLengthCandidates(s).filter((f) => {
    const k = describeFraming(f);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  return more.length === 0 ? candidates : [...candidates, ...more].sort((a, b) => a.cost - b.cost);
}
