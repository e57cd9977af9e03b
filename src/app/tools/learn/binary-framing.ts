/**
 * Binary framings of the learner whose frames end by their length (a length field, or a fixed
 * length behind a sync word): the stream cut the way the gateway's decoder cuts it once the check
 * value is known. A frame that fails its check is read again from the next start inside it (the
 * decoder's resync), so a frame cut short does not take the frame behind it along.
 */
import { type Framing, indexOfSeq, MAX_FRAME, type RawFrame } from './framing.js';
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
