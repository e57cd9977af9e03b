/**
 * "Did you mean" for the names a configuration picks from a fixed list (game ids, device kinds):
 * the known names nearest to a misspelt one by edit distance, named in the error.
 */

/**
 * the edit distance of two strings: insertions, deletions, substitutions and swaps of two
 * neighbouring characters each count 1 (optimal string alignment), compared case-insensitively
 */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  // rows i-2, i-1 and i of the table, of t.length + 1 cells each
  let older = new Array<number>(t.length + 1).fill(0);
  let prev = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const row = new Array<number>(t.length + 1);
    row[0] = i;
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let d = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) d = Math.min(d, older[j - 2] + 1);
      row[j] = d;
    }
    older = prev;
    prev = row;
  }
  return prev[t.length];
}

/**
 * the known names close enough to `name` to be what was meant, nearest first (at most 3): within
 * an edit distance of a third of the longer name (at least 1, at most 3), or, failing that, the
 * names that contain it as one of their dash-separated parts (`shoe` -> `card-shoe`, `rfid-shoe`)
 */
export function nearNames(name: string, known: readonly string[]): string[] {
  const n = name.trim().toLowerCase();
  if (!n) return [];
  const scored = known
    .map((k) => ({ k, d: editDistance(n, k) }))
    .filter(({ k, d }) => d > 0 && d <= Math.min(3, Math.max(1, Math.floor(Math.max(n.length, k.length) / 3))))
    .sort((x, y) => x.d - y.d || x.k.localeCompare(y.k));
  if (scored.length) return scored.slice(0, 3).map((x) => x.k);
  return known.filter((k) => k.toLowerCase().split('-').includes(n)).slice(0, 3);
}

/** ` (did you mean "x"?)`, ` (did you mean "x" or "y"?)`, or '' when nothing is near */
export function didYouMean(name: string, known: readonly string[]): string {
  const near = nearNames(name, known);
  if (!near.length) return '';
  const quoted = near.map((k) => `"${k}"`);
  return ` (did you mean ${quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}` : quoted[0]}?)`;
}
