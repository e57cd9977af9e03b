/**
 * Reject helpers shared by every codec: building a FrameReject with a log-safe `raw` text.
 * Only the reject path builds strings; valid frames never touch these.
 */
import type { FrameReject, RejectReason } from '../../src/core/vocabulary/frames.js';

/** At most this many bytes / characters of the offending input are kept in `raw`. */
export const RAW_MAX = 64;

const HEX = '0123456789ABCDEF';

function escapeByte(b: number): string {
  if (b === 0x5c) return '\\\\';
  if (b >= 0x20 && b < 0x7f) return String.fromCharCode(b);
  if (b === 0x0d) return '\\r';
  if (b === 0x0a) return '\\n';
  if (b === 0x09) return '\\t';
  return '\\x' + HEX[b >> 4] + HEX[b & 15];
}

/**
 * Printable text of `bytes[start, end)`: ASCII as is, everything else escaped (`\r`, `\n`, `\xHH`),
 * cut at RAW_MAX bytes. `total` is the real size of the offending input when only a prefix was
 * kept (noise runs, over-long lines); a truncated text ends with `…(N bytes)`.
 */
export function describeBytes(bytes: Uint8Array, start = 0, end = bytes.length, total: number | string = end - start): string {
  const stop = Math.min(end, start + RAW_MAX);
  let s = '';
  for (let i = start; i < stop; i++) s += escapeByte(bytes[i]);
  const shown = stop - start;
  if (typeof total === 'string' || total > shown) s += `…(${total} bytes)`;
  return s;
}

/** Same for text that is already a string (talker-level rejects). */
export function describeText(text: string): string {
  let s = '';
  const stop = Math.min(text.length, RAW_MAX);
  for (let i = 0; i < stop; i++) {
    const c = text.charCodeAt(i);
    s += c < 0x80 ? escapeByte(c) : text[i];
  }
  if (text.length > stop) s += `…(${text.length} chars)`;
  return s;
}

export function reject(reason: RejectReason, raw: string): FrameReject {
  return { reason, raw };
}

/** True for a FrameReject (frames never carry `reason`). */
export function isReject(x: unknown): x is FrameReject {
  return (
    typeof x === 'object' &&
    x !== null &&
    typeof (x as { reason?: unknown }).reason === 'string' &&
    typeof (x as { raw?: unknown }).raw === 'string' &&
    !('type' in x)
  );
}
