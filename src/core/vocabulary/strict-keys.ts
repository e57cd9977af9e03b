/**
 * Strict keys with a helpful error (device-protocols.md §3.1 "Strict"; the config alike): every
 * unknown key of a strict zod object is reported at its own key path with the closest valid key
 * (`framing.idelMs: unknown key; did you mean idleMs?`). Pure: used by the profile schema and the
 * config loader.
 *
 * Use: parse with `{ error: strictKeyErrors }`, then turn the issues into lines with `issueLines`.
 */
import type * as z from 'zod';

/** Edit distance with adjacent transpositions (optimal string alignment), case-insensitive. */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const m = s.length;
  const n = t.length;
  if (m === 0) return n;
  if (n === 0) return m;
  let prev2: number[] = [];
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  for (let i = 1; i <= m; i++) {
    const cur = [i];
    for (let j = 1; j <= n; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
      cur.push(v);
    }
    prev2 = prev;
    prev = cur;
  }
  return prev[n];
}

/**
 * The valid key closest to `key`, or null when none is close: within a third of the key's length
 * (at least 2 edits), or a key that one is a prefix of (`card` for `cards`). Ties: the first.
 */
export function closestKey(key: string, valid: readonly string[]): string | null {
  let best: string | null = null;
  let bestD = Number.POSITIVE_INFINITY;
  const limit = Math.max(2, Math.floor(key.length / 3));
  for (const v of valid) {
    let d = editDistance(key, v);
    const k = key.toLowerCase();
    const w = v.toLowerCase();
    if (d > limit && (w.startsWith(k) || k.startsWith(w)) && Math.min(k.length, w.length) >= 3) d = limit;
    if (d < bestD) {
      bestD = d;
      best = v;
    }
  }
  return bestD <= limit ? best : null;
}

/** `unknown key; did you mean idleMs?` (or `unknown key (valid: a, b, c)` when nothing is close) */
export function unknownKeyText(key: string, valid: readonly string[]): string {
  const near = closestKey(key, valid);
  if (near !== null) return `unknown key; did you mean ${near}?`;
  return valid.length ? `unknown key (valid here: ${valid.join(', ')})` : 'unknown key';
}

/** The keys a strict object schema accepts (its shape), from the issue's schema instance. */
function shapeKeys(inst: unknown): string[] {
  const def = (inst as { _zod?: { def?: { shape?: Record<string, unknown> } } } | undefined)?._zod?.def;
  return def?.shape ? Object.keys(def.shape) : [];
}

/**
 * A zod error map: an `unrecognized_keys` issue gets one line per unknown key, each with its
 * suggestion (joined by newlines, split again by `issueLines`). Other issues keep zod's message.
 */
export const strictKeyErrors: z.core.$ZodErrorMap = (iss) => {
  if (iss.code !== 'unrecognized_keys') return undefined;
  const valid = shapeKeys(iss.inst);
  return iss.keys.map((k) => unknownKeyText(k, valid)).join('\n');
};

/** `tables[0].devices[1].transport` (numbers as indexes), `(root)` for the empty path */
export function pathText(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out || '(root)';
}

/**
 * One line per problem, `<path>: <message>`; an unknown key is reported at its own path
 * (`framing.idelMs: unknown key; did you mean idleMs?`). `at` renders a path (default pathText).
 */
export function issueLines(issues: readonly z.core.$ZodIssue[], at: (path: readonly PropertyKey[]) => string = pathText): string[] {
  const out: string[] = [];
  for (const i of issues) {
    if (i.code === 'unrecognized_keys') {
      const msgs = i.message.split('\n');
      i.keys.forEach((k, n) => {
        const m = msgs.length === i.keys.length ? msgs[n] : 'unknown key';
        out.push(`${at([...i.path, k])}: ${m}`);
      });
    } else {
      out.push(`${at(i.path)}: ${i.message}`);
    }
  }
  return out;
}
