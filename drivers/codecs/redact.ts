/**
 * The `sample` of a `bad-frame` alert without any value a card could hide in (games.md: no
 * hidden value — nor a raw sample of the bytes that held it — in any output before its reveal).
 * A rejected line may be a corrupted face-down `CARD` or `TAG` frame, so its structure is kept
 * for the technician (`$`, commas, `*`, escapes, the talker, its SEQ and the protocol's words)
 * and every other letter or digit — card codes, tag uids, checksums, noise — becomes `?`.
 */
const WORDS: ReadonlySet<string> = new Set([
  'SHOE',
  'RFID',
  'SHUF',
  'DICE',
  'BALL',
  'GW',
  'HB',
  'VER',
  'ERR',
  'CARD',
  'MISREAD',
  'CUT',
  'DROP',
  'STATE',
  'TAG',
  'COUNT',
  'SHAKE',
  'ROLL',
  'COCKED',
  'NOREAD',
  'START',
  'END',
  'LOADED',
  'OPEN',
  'CLOSED',
  'EMPTY',
  'IDLE',
  'SHUFFLING',
  'READY',
  'JAM',
  'DOOR_OPEN',
  'ERROR',
  'RESCAN',
  'LOCK',
  'UNLOCK',
  'REPEAT',
]);
const TALKERS: ReadonlySet<string> = new Set(['SHOE', 'RFID', 'SHUF', 'DICE', 'BALL', 'GW']);

export function redactSample(raw: string): string {
  // escapes (\xHH, \r, \n, \t, \\) and the truncation suffix are kept whole; words are judged whole
  const re = /\\x[0-9A-Fa-f]{2}|\\[rnt\\]|…\(\d+ bytes\)|[A-Za-z0-9_]+|[\s\S]/g;
  let out = '';
  let prev = '';
  let prevPrev = '';
  for (const m of raw.matchAll(re)) {
    const t = m[0];
    let shown = t;
    if (/^[A-Za-z0-9_]+$/.test(t)) {
      const isSeq = /^\d{1,5}$/.test(t) && prev === ',' && TALKERS.has(prevPrev);
      if (!WORDS.has(t) && !isSeq) shown = '?'.repeat(t.length);
    }
    out += shown;
    if (t !== '') {
      prevPrev = prev;
      prev = t;
    }
  }
  return out;
}
