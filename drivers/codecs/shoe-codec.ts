/**
 * SHOE (barcode / optical card shoe) frames, device-protocols.md §1:
 * `CARD,<card>[,R]`, `MISREAD`, `CUT`, `DROP`, `STATE,<LOADED|OPEN|CLOSED|EMPTY>` + HB/ERR/VER.
 * The card code must be exactly upper-case rank + suit (`AS`, `TD`); `as` is a bad field.
 */
import { isCard } from '../../src/core/vocabulary/card.js';
import type { CommonFrame, FrameReject, ShoeBodyFrame, ShoeState } from '../../src/core/vocabulary/frames.js';
import { bodyReject, checkCount, decodeCommonBody } from './common-codec.js';

export const SHOE_STATES: readonly ShoeState[] = ['LOADED', 'OPEN', 'CLOSED', 'EMPTY'];

export type ShoeSharedBodyFrame = Exclude<ShoeBodyFrame, { type: 'CARD' }>;

/** MISREAD / CUT / DROP / STATE + common types: what SHOE and RFID shoes share. */
export function decodeShoeSharedBody(type: string, fields: readonly string[]): ShoeSharedBodyFrame | CommonFrame | FrameReject {
  switch (type) {
    case 'MISREAD':
      return checkCount(type, fields, 0) ?? { type: 'MISREAD' };
    case 'CUT':
      return checkCount(type, fields, 0) ?? { type: 'CUT' };
    case 'DROP':
      return checkCount(type, fields, 0) ?? { type: 'DROP' };
    case 'STATE': {
      const bad = checkCount(type, fields, 1);
      if (bad) return bad;
      const state = fields[0] as ShoeState;
      if (!SHOE_STATES.includes(state)) return bodyReject('bad-field', type, fields);
      return { type: 'STATE', state };
    }
    default:
      return decodeCommonBody(type, fields);
  }
}

export function decodeShoeBody(type: string, fields: readonly string[]): ShoeBodyFrame | CommonFrame | FrameReject {
  if (type !== 'CARD') return decodeShoeSharedBody(type, fields);
  const bad = checkCount(type, fields, 1, 2);
  if (bad) return bad;
  const card = fields[0];
  if (!isCard(card)) return bodyReject('bad-field', type, fields);
  if (fields.length === 2 && fields[1] !== 'R') return bodyReject('bad-field', type, fields);
  return { type: 'CARD', card, rescan: fields.length === 2 };
}
