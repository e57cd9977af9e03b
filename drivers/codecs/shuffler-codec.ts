/**
 * SHUF (automatic shuffler) frames: `STATE,<IDLE|SHUFFLING|READY|JAM|DOOR_OPEN|ERROR>` (decoded as
 * `SHUF_STATE` so it never mixes with a shoe's STATE) and `COUNT,<0..999>` + HB/ERR/VER.
 */
import type { CommonFrame, FrameReject, ShufflerBodyFrame, ShufflerState } from '../../src/core/vocabulary/frames.js';
import { bodyReject, checkCount, decodeCommonBody, parseUint } from './common-codec.js';

export const SHUFFLER_STATES: readonly ShufflerState[] = ['IDLE', 'SHUFFLING', 'READY', 'JAM', 'DOOR_OPEN', 'ERROR'];

export function decodeShufflerBody(type: string, fields: readonly string[]): ShufflerBodyFrame | CommonFrame | FrameReject {
  switch (type) {
    case 'STATE': {
      const bad = checkCount(type, fields, 1);
      if (bad) return bad;
      const state = fields[0] as ShufflerState;
      if (!SHUFFLER_STATES.includes(state)) return bodyReject('bad-field', type, fields);
      return { type: 'SHUF_STATE', state };
    }
    case 'COUNT': {
      const bad = checkCount(type, fields, 1);
      if (bad) return bad;
      const count = parseUint(fields[0], 3, 0, 999);
      if (count < 0) return bodyReject('bad-field', type, fields);
      return { type: 'COUNT', count };
    }
    default:
      return decodeCommonBody(type, fields);
  }
}
