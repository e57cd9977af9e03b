/**
 * Example profiles of the v1.2 frame grammar beyond the shipped ones (device-protocols.md §3.1):
 * the constructs the shipped profiles do not use (a trailer after the end, DLE and escape-XOR
 * stuffing, a length field, bit fields), for property tests that hold every grammar to the same
 * rules as the shipped profiles.
 */
import { type DeviceProfile, validateProfile } from '../../drivers/profiles/profile-schema.js';

export const GRAMMAR_PROFILES: Record<string, DeviceProfile> = {
  'stx-etx-bcc': validateProfile('stx-etx-bcc.yaml', {
    name: 'stx-etx-bcc',
    talker: 'SHOE',
    framing: { start: '\u0002', end: '\u0003', trailer: 1, maxLength: 32 },
    integrity: { algorithm: 'xor8', encoding: 'binary-be', place: 'after-end', covers: { payload: true, end: true } },
    messages: [
      { name: 'card', pattern: 'C(?<card>[A2-9TJQK][SHDC])', type: 'CARD', emit: 'C{card}' },
      { name: 'misread', pattern: 'M', type: 'MISREAD', emit: 'M' },
      { name: 'hb', pattern: 'H', type: 'HB', emit: 'H' },
    ],
  }),
  'dle-crc16': validateProfile('dle-crc16.yaml', {
    name: 'dle-crc16',
    talker: 'BALL',
    encoding: 'binary',
    framing: { start: '\u0010\u0002', end: '\u0010\u0003', trailer: 2, stuffing: { escape: '\u0010', mode: 'double' }, maxLength: 32 },
    integrity: { algorithm: 'crc16-xmodem', encoding: 'binary-be', place: 'after-end' },
    messages: [
      { name: 'ball', bytes: { length: 3, match: [{ at: 0, value: 0x42 }], fields: { ball: { at: 1 }, seq: { at: 2 } } }, seq: 'seq', type: 'BALL' },
      { name: 'start', bytes: { length: 1, match: [{ at: 0, value: 0x10 }] }, type: 'START' },
    ],
    seq: { wrap: 255 },
  }),
  'escape-xor-crc8': validateProfile('escape-xor-crc8.yaml', {
    name: 'escape-xor-crc8',
    talker: 'BALL',
    encoding: 'binary',
    framing: { start: '\u007e', end: '\u007f', stuffing: { escape: '\u007d', mode: 'xor' }, maxLength: 32 },
    integrity: { algorithm: 'crc8-maxim', encoding: 'binary-be' },
    messages: [{ name: 'ball', bytes: { length: 2, match: [{ at: 0, value: 0x7e }], fields: { ball: { at: 1 } } }, type: 'BALL' }],
  }),
  'length-crc16-le': validateProfile('length-crc16-le.yaml', {
    name: 'length-crc16-le',
    talker: 'DICE',
    encoding: 'binary',
    framing: { start: '\u00a5', lengthField: { offset: 1, width: 1, counts: 'payload' }, maxLength: 64 },
    integrity: { algorithm: 'crc16-modbus', encoding: 'binary-le', covers: { start: true, payload: true } },
    messages: [
      {
        name: 'roll',
        bytes: {
          match: [{ at: 1, value: 0x01 }],
          fields: { d1: { at: 2, bits: [0, 3] }, d2: { at: 2, bits: [4, 7] }, d3: { at: 3 }, seq: { at: 4, width: 2, order: 'le' } },
        },
        seq: 'seq',
        type: 'ROLL',
        fields: { bounces: 2 },
      },
      { name: 'hb', bytes: { length: 2, match: [{ at: 1, value: 0x00 }] }, type: 'HB' },
    ],
  }),
  'crc32-text': validateProfile('crc32-text.yaml', {
    name: 'crc32-text',
    talker: 'SHOE',
    framing: { start: '<', end: '>\r\n', maxLength: 48 },
    integrity: { algorithm: 'crc32', encoding: 'hex-lower', separator: '#', covers: { start: true, payload: true, separator: true } },
    cards: { preset: 'index52' },
    body: { split: ';' },
    messages: [
      { name: 'card', pattern: 'K(?<card>\\d{1,2})', type: 'CARD', emit: 'K{card}' },
      { name: 'hb', pattern: 'Z', type: 'HB', emit: 'Z' },
    ],
  }),
};
