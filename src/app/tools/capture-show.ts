/**
 * `tablegw capture show <file>`: a capture as a hex view (docs/DEVICES.md, "Teach the gateway a
 * new device"). One row group per chunk as it arrived: its time, the gap since the chunk before,
 * the offset of its first byte in the stream, the bytes in hex and as ASCII (`.` for a byte that
 * is not printable). A chunk longer than a row continues on the next rows. Pure: capture in, lines out.
 */
import type { Capture } from './capture-file.js';

export interface ShowOptions {
  /** bytes per row (default 16) */
  width?: number;
  /** at most this many chunks (default all); a last line says how many were left out */
  limit?: number;
}

const ascii = (b: Uint8Array): string => [...b].map((x) => (x >= 0x20 && x < 0x7f ? String.fromCharCode(x) : '.')).join('');
const hex = (b: Uint8Array): string => [...b].map((x) => x.toString(16).padStart(2, '0')).join(' ');

/** the column titles of the hex view */
export function hexViewColumns(width = 16): string {
  return `${'chunk'.padStart(6)}  ${'t (ms)'.padStart(10)}  ${'+ms'.padStart(7)}  ${'offset'.padEnd(8)}  ${'hex'.padEnd(width * 3 - 1)}  ascii`;
}

/**
 * The rows of one chunk: its number (`index` + 1), time, the gap since `prevT`, the stream offset
 * of its first byte, hex and ASCII; a chunk longer than `width` continues on the next rows.
 * `tablegw learn` prints each frame it hears with it as it arrives.
 */
export function chunkRows(c: { t: number; bytes: Uint8Array }, index: number, prevT: number | undefined, offset: number, width = 16): string[] {
  const out: string[] = [];
  for (let at = 0; at < c.bytes.length || at === 0; at += width) {
    const row = c.bytes.subarray(at, at + width);
    const gap = prevT === undefined ? '' : `+${(c.t - prevT).toFixed(0)}`;
    const lead =
      at === 0
        ? `${String(index + 1).padStart(6)}  ${c.t.toFixed(1).padStart(10)}  ${gap.padStart(7)}`
        : `${''.padStart(6)}  ${''.padStart(10)}  ${''.padStart(7)}`;
    out.push(`${lead}  ${(offset + at).toString(16).padStart(8, '0')}  ${hex(row).padEnd(width * 3 - 1)}  ${ascii(row)}`);
    if (c.bytes.length === 0) break;
  }
  return out;
}

export function captureHexView(capture: Capture, o: ShowOptions = {}): string[] {
  const width = o.width ?? 16;
  const limit = o.limit ?? Number.POSITIVE_INFINITY;
  const h = capture.header;
  const total = capture.chunks.reduce((n, c) => n + c.bytes.length, 0);
  const settings = Object.entries(h.settings)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  const out = [
    `${h.transport} ${h.port}${settings ? ` (${settings})` : ''}, started ${h.startedAt}, ${h.tool}`,
    `${capture.chunks.length} chunk(s), ${total} byte(s)`,
    hexViewColumns(width),
  ];
  let offset = 0;
  let prev: number | undefined;
  capture.chunks.forEach((c, k) => {
    if (k >= limit) return;
    out.push(...chunkRows(c, k, prev, offset, width));
    offset += c.bytes.length;
    prev = c.t;
  });
  if (capture.chunks.length > limit) out.push(`... ${capture.chunks.length - limit} more chunk(s) (--limit)`);
  return out;
}
