/** Integrity variants of the learner: algorithm x encoding x place x covered parts, and which verify the frames. */
import { checksum, checksumBytes, INTEGRITY_ALGORITHMS, type IntegrityAlgorithm } from '../../../../drivers/profiles/checksums.js';
import { type Framing, printable, type RawFrame } from './framing.js';

export interface Integrity {
  algorithm: IntegrityAlgorithm;
  encoding: 'binary-be' | 'binary-le' | 'hex' | 'decimal';
  place: 'before-end' | 'after-end';
  separator?: string;
  covers: { start: boolean; payload: boolean; separator: boolean; end: boolean };
  over: 'unstuffed' | 'stuffed';
  cost: number;
}

export const NONE: Integrity = {
  algorithm: 'none',
  encoding: 'hex',
  place: 'before-end',
  covers: { start: false, payload: true, separator: false, end: false },
  over: 'unstuffed',
  cost: 100,
};

export function describeIntegrity(i: Integrity): string {
  if (i.algorithm === 'none') return 'no integrity check';
  const parts = [i.covers.start && 'start', i.covers.payload && 'payload', i.covers.separator && 'separator', i.covers.end && 'end'].filter(Boolean).join('+');
  return `${i.algorithm} ${i.encoding} ${i.place}${i.separator ? ` after "${i.separator}"` : ''} over ${parts}${i.over === 'stuffed' ? ' (stuffed)' : ''}`;
}

export const checkLen = (a: IntegrityAlgorithm, e: Integrity['encoding']): number => {
  const w = checksumBytes(a);
  return e.startsWith('binary') ? w : e === 'decimal' ? String(2 ** (8 * w) - 1).length : 2 * w;
};

export function readCheck(b: Buffer, e: Integrity['encoding'], w: number): number | undefined {
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
export function verifyFrame(f: RawFrame, i: Integrity): Buffer | null {
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

export function integrityCandidates(frames: RawFrame[], f: Framing): Integrity[] {
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
export function bestIntegrity(frames: RawFrame[], f: Framing): { best: Integrity[]; verified: number } {
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
