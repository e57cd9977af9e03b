/**
 * The generated parts of docs/PERFORMANCE.md: a block between a begin and an end marker, written
 * by a full run (the prose around it is written by hand).
 */

/** `text` with what stands between `begin` and `end` (the markers included) replaced by `begin`, `lines`, `end`; null without both markers in order */
export function replaceBlock(text: string, begin: string, end: string, lines: readonly string[]): string | null {
  const a = text.indexOf(begin);
  const b = text.indexOf(end);
  if (a < 0 || b < a) return null;
  return text.slice(0, a) + [begin, ...lines, end].join('\n') + text.slice(b + end.length);
}
