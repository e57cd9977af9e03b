/**
 * Frame types every talker may send (device-protocols.md §1): `HB`, `ERR,<code>[,<text>]`,
 * `VER,<model>,<firmware>`; plus the small field helpers the talker codecs share.
 *
 * Conventions of every talker codec `(type, fields) => body | FrameReject`:
 * - an unknown type is `unknown-type`;
 * - a wrong number of fields (missing or extra) is `malformed`;
 * - a field present but not matching its syntax / range exactly is `bad-field`.
 * The codecs see fields already split on `,` by parseLine; their rejects carry the body text as
 * `raw` (LineCodec replaces it with the whole line).
 */
import type { CommonFrame, FrameReject, RejectReason } from '../../src/core/vocabulary/frames.js';
import { describeText, reject } from './reject.js';

const ERR_CODE_RE = /^[A-Z0-9_]{1,16}$/;

/** A reject whose raw text is `TYPE,F1,F2...`. */
export function bodyReject(reason: RejectReason, type: string, fields: readonly string[]): FrameReject {
  return reject(reason, describeText(fields.length === 0 ? type : type + ',' + fields.join(',')));
}

/** Checks the field count; returns a `malformed` reject when it is outside [min, max]. */
export function checkCount(type: string, fields: readonly string[], min: number, max = min): FrameReject | null {
  return fields.length < min || fields.length > max ? bodyReject('malformed', type, fields) : null;
}

/**
 * Parses a plain unsigned decimal (digits only, no sign, no spaces, at most `maxDigits` digits,
 * leading zeros allowed) in [min, max]; -1 when it is not one.
 */
export function parseUint(text: string, maxDigits: number, min: number, max: number): number {
  const n = text.length;
  if (n === 0 || n > maxDigits) return -1;
  let v = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i) - 0x30;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v >= min && v <= max ? v : -1;
}

/** HB / ERR / VER, or `unknown-type` for anything else. */
export function decodeCommonBody(type: string, fields: readonly string[]): CommonFrame | FrameReject {
  switch (type) {
    case 'HB':
      return checkCount(type, fields, 0) ?? { type: 'HB' };
    case 'ERR': {
      const bad = checkCount(type, fields, 1, 2);
      if (bad) return bad;
      if (!ERR_CODE_RE.test(fields[0])) return bodyReject('bad-field', type, fields);
      return { type: 'ERR', code: fields[0], text: fields.length > 1 ? fields[1] : '' };
    }
    case 'VER': {
      // VER,<model>,<firmware>[,<capabilities>]: capabilities a `+`-joined list (REPEAT+LOCK+RESCAN)
      const bad = checkCount(type, fields, 2, 3);
      if (bad) return bad;
      if (fields[0] === '' || fields[1] === '') return bodyReject('bad-field', type, fields);
      if (fields.length === 3) {
        const caps = fields[2].split('+');
        if (caps.some((c) => !/^[A-Z0-9_]{1,16}$/.test(c))) return bodyReject('bad-field', type, fields);
        return { type: 'VER', model: fields[0], firmware: fields[1], capabilities: caps };
      }
      return { type: 'VER', model: fields[0], firmware: fields[1] };
    }
    default:
      return bodyReject('unknown-type', type, fields);
  }
}
