/**
 * BALL (keno ball reader) frames: `START`, `BALL,<n>`, `END` + HB/ERR/VER.
 * `BALL,<n>` accepts any integer 0..999 (at most 3 digits): a ball outside 1..80 is a VALID frame
 * carrying an invalid ball, which the keno game rejects with its own alert. Only text that is not
 * a number in that range is a `bad-field`.
 */
import type { BallBodyFrame, CommonFrame, FrameReject } from '../../src/core/vocabulary/frames.js';
import { bodyReject, checkCount, decodeCommonBody, parseUint } from './common-codec.js';

export function decodeBallBody(type: string, fields: readonly string[]): BallBodyFrame | CommonFrame | FrameReject {
  switch (type) {
    case 'START':
      return checkCount(type, fields, 0) ?? { type: 'START' };
    case 'END':
      return checkCount(type, fields, 0) ?? { type: 'END' };
    case 'BALL': {
      const bad = checkCount(type, fields, 1);
      if (bad) return bad;
      const ball = parseUint(fields[0], 3, 0, 999);
      if (ball < 0) return bodyReject('bad-field', type, fields);
      return { type: 'BALL', ball };
    }
    default:
      return decodeCommonBody(type, fields);
  }
}
