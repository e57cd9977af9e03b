/**
 * DICE (sic bo dice sensor) frames: `SHAKE`, `ROLL,<d1>,<d2>,<d3>,<bounces>` (dice 1..6, bounces
 * 0..99), `COCKED`, `NOREAD` + HB/ERR/VER. Whether a roll has enough bounces is the game's call.
 */
import type { CommonFrame, DiceBodyFrame, FrameReject } from '../../src/core/vocabulary/frames.js';
import { bodyReject, checkCount, decodeCommonBody, parseUint } from './common-codec.js';

export function decodeDiceBody(type: string, fields: readonly string[]): DiceBodyFrame | CommonFrame | FrameReject {
  switch (type) {
    case 'SHAKE':
      return checkCount(type, fields, 0) ?? { type: 'SHAKE' };
    case 'COCKED':
      return checkCount(type, fields, 0) ?? { type: 'COCKED' };
    case 'NOREAD':
      return checkCount(type, fields, 0) ?? { type: 'NOREAD' };
    case 'ROLL': {
      const bad = checkCount(type, fields, 4);
      if (bad) return bad;
      const d1 = parseUint(fields[0], 1, 1, 6);
      const d2 = parseUint(fields[1], 1, 1, 6);
      const d3 = parseUint(fields[2], 1, 1, 6);
      const bounces = parseUint(fields[3], 2, 0, 99);
      if (d1 < 0 || d2 < 0 || d3 < 0 || bounces < 0) return bodyReject('bad-field', type, fields);
      return { type: 'ROLL', dice: [d1, d2, d3], bounces };
    }
    default:
      return decodeCommonBody(type, fields);
  }
}
