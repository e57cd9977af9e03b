/** Framings of the learner: candidates from the bytes' statistics, and the stream cut into raw frames by one. */
export interface Framing {
  start?: Buffer;
  end?: Buffer;
  trailer: number;
  stuffing?: { escape: number; mode: 'double' | 'xor'; xor: number };
  length?: number;
  lengthField?: { offset: number; width: 1 | 2; order: 'be' | 'le'; counts: 'frame' | 'following' | 'payload'; adjust: number };
  /** resynchronise on a start byte inside a frame (text frames) */
  resync: boolean;
  /** fewer is simpler */
  cost: number;
}

export interface RawFrame {
  start: Buffer;
  /** between start and end (or the frame's end), unstuffed */
  inner: Buffer;
  /** the same, as sent */
  innerStuffed: Buffer;
  end: Buffer;
  trailer: Buffer;
}

export const hx = (b: Uint8Array | undefined): string => (b ? [...b].map((x) => `0x${x.toString(16).padStart(2, '0')}`).join(' ') : '-');
export const printable = (x: number): boolean => x >= 0x20 && x < 0x7f;

export function describeFraming(f: Framing): string {
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

export function indexOfSeq(s: Buffer, seq: Buffer, from: number): number {
  return seq.length === 1 ? s.indexOf(seq[0], from) : s.indexOf(seq, from);
}

export function countSeq(s: Buffer, seq: Buffer): number {
  let n = 0;
  for (let i = indexOfSeq(s, seq, 0); i >= 0; i = indexOfSeq(s, seq, i + seq.length)) n++;
  return n;
}

export const MAX_FRAME = 512;

/** cuts the stream into frames the way the framing says (a learner's approximation; the real decoder verifies) */
export function split(s: Buffer, f: Framing): RawFrame[] {
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
    if (freq[b] >= minHits && (b < 0x20 || b === 0x7f || (textish && ';#|!}'.includes(String.fromCharCode(b))))) endCands.push(Buffer.of(b));
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
      // nor the second half of a longer end sequence (CR as the end and LF as the start of CR LF lines)
      const isEndByte = best && (end.includes(best[0]) || (trailer === 0 && endCands.some((e2) => e2.equals(Buffer.concat([end, Buffer.of(best[0])])))));
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
                for (let c = -8; c <= 12; c++)
                  if (v + c > offset + width && (atSet.has(p + v + c) || p + v + c === s.length)) score.set(c, (score.get(c) ?? 0) + 1);
              }
              const best = [...score.entries()].sort((x, y) => y[1] - x[1])[0];
              if (best && best[1] >= Math.max(minHits, at.length * 0.5)) {
                const c = best[0];
                const head = offset + width;
                const lf =
                  c - head >= -255 && c - head <= 255 && c !== 0 ? { counts: 'following' as const, adjust: c - head } : { counts: 'frame' as const, adjust: c };
                if (c === head) Object.assign(lf, { counts: 'following', adjust: 0 });
                add({
                  start: sp,
                  trailer: 0,
                  lengthField: { offset, width, order, ...lf },
                  resync: false,
                  cost: 3 + sl / 10 + (width - 1) / 20 + Math.abs(lf.adjust) / 100,
                });
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
