/** The SEQ field of the learner: the number in each frame that counts up; frames compared with it masked out. */
export interface Valid {
  payload: Buffer;
}

export interface SeqField {
  /** text: the index of the digit run; binary: offset, width, order */
  run?: number;
  digits?: number;
  at?: number;
  width?: 1 | 2;
  order?: 'be' | 'le';
  wrap: number;
}

export const digitRuns = (t: string): Array<{ i: number; s: string }> => [...t.matchAll(/\d+/g)].map((m) => ({ i: m.index ?? 0, s: m[0] }));

export function findSeq(valid: Valid[], text: boolean): SeqField | undefined {
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
    return widenSeq(valid, { at, width: 1, order: 'be', wrap: 255 });
  }
  return undefined;
}

/**
 * A one-byte SEQ next to a byte that is 0 in every frame is the low byte of a 16-bit SEQ that has
 * not reached 256 yet (big-endian when the zero byte is before it, else little-endian): read as
 * one byte, the profile would match that 0 and reject every frame from SEQ 256 on.
 */
export function widenSeq(valid: Valid[], seq: SeqField): SeqField {
  if (seq.at === undefined || seq.width !== 1) return seq;
  const at = seq.at;
  const zero = (k: number): boolean => k >= 0 && valid.every((v) => k < v.payload.length && v.payload[k] === 0);
  if (zero(at - 1)) return { at: at - 1, width: 2, order: 'be', wrap: 65535 };
  if (zero(at + 1)) return { at, width: 2, order: 'le', wrap: 65535 };
  return seq;
}

/** the body with the SEQ taken out: a placeholder in text, masked bytes in binary */
export function masked(p: Buffer, seq: SeqField | undefined, text: boolean): string {
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
