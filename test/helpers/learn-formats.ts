/**
 * Wire formats `tablegw profile learn` is tested and benchmarked on beside the shipped profiles
 * (device-protocols.md §3.2): hand-written profiles of a DLE-stuffed binary shoe with a CRC-16
 * after DLE ETX and a length-prefixed binary shoe with an explicit per-card code table.
 */
import { validateProfile } from '../../drivers/profiles/profile-schema.js';
import { shuffledDeck } from '../../simulators/devices/deal-capture.js';

/** DLE STX <type> <seq> <card index 1..52> DLE ETX <CRC-16/MODBUS, little endian>: stuffing needed whenever a byte is 0x10 */
export const dleCrcShoe = validateProfile('dle-crc-shoe', {
  name: 'dle-crc-shoe',
  talker: 'SHOE',
  encoding: 'binary',
  framing: { start: '\u0010\u0002', end: '\u0010\u0003', trailer: 2, stuffing: { escape: '\u0010', mode: 'double' }, maxLength: 32 },
  integrity: { algorithm: 'crc16-modbus', encoding: 'binary-le', place: 'after-end' },
  cards: { preset: 'index52' },
  seq: { wrap: 255 },
  messages: [
    { name: 'card', type: 'CARD', seq: 'seq', bytes: { length: 3, match: [{ at: 0, value: 0x43 }], fields: { seq: { at: 1 }, card: { at: 2 } } } },
    {
      name: 'rescan',
      type: 'CARD',
      seq: 'seq',
      fields: { rescan: true },
      bytes: { length: 3, match: [{ at: 0, value: 0x52 }], fields: { seq: { at: 1 }, card: { at: 2 } } },
    },
    { name: 'misread', type: 'MISREAD', seq: 'seq', bytes: { length: 2, match: [{ at: 0, value: 0x4d }], fields: { seq: { at: 1 } } } },
    { name: 'cut', type: 'CUT', seq: 'seq', bytes: { length: 2, match: [{ at: 0, value: 0x58 }], fields: { seq: { at: 1 } } } },
    {
      name: 'loaded',
      type: 'STATE',
      seq: 'seq',
      fields: { state: 'LOADED' },
      bytes: { length: 2, match: [{ at: 0, value: 0x4c }], fields: { seq: { at: 1 } } },
    },
    { name: 'heartbeat', type: 'HB', seq: 'seq', bytes: { length: 2, match: [{ at: 0, value: 0x48 }], fields: { seq: { at: 1 } } } },
  ],
});

/** a vendor byte per card, in no order a preset knows */
export const vendorTable: Record<string, string> = {};
shuffledDeck(99).forEach((card, k) => {
  vendorTable[String(0x80 + ((k * 37) % 64))] = card;
});

/** 0xA5 <len: bytes after it> <type> <seq lo> <seq hi> [<vendor card byte>] <CRC-16/CCITT-FALSE big endian> */
export const lengthTableShoe = validateProfile('length-table-shoe', {
  name: 'length-table-shoe',
  talker: 'SHOE',
  encoding: 'binary',
  framing: { start: '\u00a5', lengthField: { offset: 1, width: 1, counts: 'following' }, maxLength: 32 },
  integrity: { algorithm: 'crc16-ccitt-false', encoding: 'binary-be', place: 'before-end' },
  cards: { preset: 'table', table: vendorTable },
  messages: [
    {
      name: 'card',
      type: 'CARD',
      seq: 'seq',
      bytes: { length: 5, match: [{ at: 1, value: 0x01 }], fields: { seq: { at: 2, width: 2, order: 'le' }, card: { at: 4 } } },
    },
    {
      name: 'rescan',
      type: 'CARD',
      seq: 'seq',
      fields: { rescan: true },
      bytes: { length: 5, match: [{ at: 1, value: 0x02 }], fields: { seq: { at: 2, width: 2, order: 'le' }, card: { at: 4 } } },
    },
    { name: 'misread', type: 'MISREAD', seq: 'seq', bytes: { length: 4, match: [{ at: 1, value: 0x03 }], fields: { seq: { at: 2, width: 2, order: 'le' } } } },
    { name: 'cut', type: 'CUT', seq: 'seq', bytes: { length: 4, match: [{ at: 1, value: 0x04 }], fields: { seq: { at: 2, width: 2, order: 'le' } } } },
    {
      name: 'loaded',
      type: 'STATE',
      seq: 'seq',
      fields: { state: 'LOADED' },
      bytes: { length: 4, match: [{ at: 1, value: 0x05 }], fields: { seq: { at: 2, width: 2, order: 'le' } } },
    },
    { name: 'heartbeat', type: 'HB', seq: 'seq', bytes: { length: 4, match: [{ at: 1, value: 0x06 }], fields: { seq: { at: 2, width: 2, order: 'le' } } } },
  ],
});

/** a shoe loaded, a deal with a misread and its rescan in it, the cut card, the rest */
export function learnDeal(seed: number, decks = 1): string[] {
  const cards = shuffledDeck(seed, decks);
  return ['LOADED', ...cards.slice(0, 9), 'MISREAD', `RESCAN:${cards[9]}`, ...cards.slice(10, 30), 'CUT', ...cards.slice(30)];
}
