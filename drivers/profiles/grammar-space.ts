/**
 * The frame grammar as a finite space a program can walk (device-protocols.md §3.1): every
 * integrity variant (algorithm x encoding x place x covered parts) and every frame boundary
 * (start/end, trailer, length field, fixed length, stuffing) as plain profile data. A learner
 * (`tablegw profile learn`, §3.2) enumerates candidates from here; the tests round-trip each one
 * through the encoder and the decoder. Pure data, no I/O.
 */
import { checksumBytes, INTEGRITY_ALGORITHMS, type IntegrityAlgorithm } from './checksums.js';

export type IntegrityEncoding = 'binary-be' | 'binary-le' | 'hex' | 'hex-upper' | 'hex-lower' | 'decimal';
export const INTEGRITY_ENCODINGS: readonly IntegrityEncoding[] = ['binary-be', 'binary-le', 'hex', 'hex-upper', 'hex-lower', 'decimal'];

export interface IntegrityVariant {
  algorithm: IntegrityAlgorithm;
  encoding: IntegrityEncoding;
  place: 'before-end' | 'after-end';
  separator?: string;
  covers: { start: boolean; payload: boolean; separator: boolean; end: boolean };
}

/** bytes of the check value as written */
export function checkWidth(v: Pick<IntegrityVariant, 'algorithm' | 'encoding'>): number {
  const w = checksumBytes(v.algorithm);
  if (w === 0) return 0;
  if (v.encoding.startsWith('binary')) return w;
  if (v.encoding === 'decimal') return String(2 ** (8 * w) - 1).length;
  return 2 * w;
}

/**
 * Every integrity variant for a frame with a start and an end sequence: each algorithm of the
 * catalogue in each encoding (little-endian only where it differs: wider than a byte), before the
 * end (with and without a separator) or after it, over the payload alone, start + payload,
 * payload + separator, or payload + end (after the end only).
 */
export function integrityVariants(separator = '*'): IntegrityVariant[] {
  const out: IntegrityVariant[] = [];
  for (const algorithm of INTEGRITY_ALGORITHMS) {
    if (algorithm === 'none') continue;
    for (const encoding of INTEGRITY_ENCODINGS) {
      if (encoding === 'binary-le' && checksumBytes(algorithm) === 1) continue;
      const payload = { start: false, payload: true, separator: false, end: false };
      out.push({ algorithm, encoding, place: 'before-end', covers: payload });
      out.push({ algorithm, encoding, place: 'before-end', covers: { ...payload, start: true } });
      out.push({ algorithm, encoding, place: 'before-end', separator, covers: payload });
      out.push({ algorithm, encoding, place: 'before-end', separator, covers: { ...payload, separator: true } });
      out.push({ algorithm, encoding, place: 'after-end', covers: payload });
      out.push({ algorithm, encoding, place: 'after-end', covers: { ...payload, end: true } });
    }
  }
  return out;
}

/** How frames are cut, as `framing` data (each with the integrity places it allows). */
export interface FramingVariant {
  name: string;
  framing: Record<string, unknown>;
  /** the check value may follow the end sequence (a trailer) */
  trailer: boolean;
  binary: boolean;
}

/** The frame boundaries of the grammar, one example each. */
export const FRAMING_VARIANTS: readonly FramingVariant[] = [
  { name: 'start and end', framing: { start: '\u0002', end: '\u0003' }, trailer: true, binary: false },
  { name: 'end only', framing: { end: '\r\n' }, trailer: false, binary: false },
  { name: 'multi-byte start', framing: { start: '$$', end: '\n' }, trailer: true, binary: false },
  {
    name: 'DLE doubling',
    framing: { start: '\u0010\u0002', end: '\u0010\u0003', stuffing: { escape: '\u0010', mode: 'double' } },
    trailer: true,
    binary: true,
  },
  { name: 'escape XOR', framing: { start: '\u007e', end: '\u007f', stuffing: { escape: '\u007d', mode: 'xor' } }, trailer: true, binary: true },
  { name: 'length field', framing: { start: '\u00a5', lengthField: { offset: 1, width: 1, counts: 'payload' } }, trailer: false, binary: true },
  {
    name: 'length field, 2 bytes le, whole frame',
    framing: { start: '\u00a5\u005a', lengthField: { offset: 2, width: 2, order: 'le', counts: 'frame' } },
    trailer: false,
    binary: true,
  },
];
