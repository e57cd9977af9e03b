/**
 * RFID card shoe frames: `TAG,<uid>` (8..24 hex digits, either case on the wire, normalised to
 * upper case so deck-registry lookups are case-free) + MISREAD / CUT / DROP / STATE as for SHOE
 * + HB/ERR/VER. `CARD` is not an RFID frame (`unknown-type`).
 */
import type { CommonFrame, FrameReject, RfidBodyFrame } from '../../src/core/vocabulary/frames.js';
import { bodyReject, checkCount } from './common-codec.js';
import { decodeShoeSharedBody } from './shoe-codec.js';

const UID_RE = /^[0-9A-Fa-f]{8,24}$/;

export function decodeRfidBody(type: string, fields: readonly string[]): RfidBodyFrame | CommonFrame | FrameReject {
  if (type === 'CARD') return bodyReject('unknown-type', type, fields);
  if (type !== 'TAG') return decodeShoeSharedBody(type, fields);
  const bad = checkCount(type, fields, 1);
  if (bad) return bad;
  if (!UID_RE.test(fields[0])) return bodyReject('bad-field', type, fields);
  return { type: 'TAG', uid: fields[0].toUpperCase() };
}
