/**
 * The frame grammar of profile language v1.2 (device-protocols.md §3.1): each construct decoded
 * from wire bytes written out by hand here (not by the profile encoder), then the encoder checked
 * to write the same bytes.
 */
import { describe, expect, it } from 'vitest';
import type { DeviceFrame, FrameReject } from '../../../src/core/vocabulary/frames.js';
import { compileProfile } from '../../../drivers/profiles/profile-decoder.js';
import { createProfileEncoder } from '../../../drivers/profiles/profile-encoder.js';
import { readProfile, validateProfile } from '../../../drivers/profiles/profile-schema.js';

type Item = DeviceFrame | FrameReject;
const show = (items: Item[]) =>
  items.map((i) =>
    'reason' in i ? i.reason : i.type === 'CARD' ? i.card : i.type === 'BALL' ? `ball ${i.ball}` : i.type === 'ROLL' ? i.dice.join('') : i.type,
  );
const decodeAll = (p: ReturnType<typeof validateProfile>, b: Uint8Array) => {
  const d = compileProfile(p);
  return show([...d.push(b), ...d.endOfStream()]);
};
/** one byte at a time */
const decodeBytewise = (p: ReturnType<typeof validateProfile>, b: Uint8Array) => {
  const d = compileProfile(p);
  const out: Item[] = [];
  for (const x of b) out.push(...d.push(Uint8Array.of(x)));
  return show([...out, ...d.endOfStream()]);
};
const xor = (b: number[]) => b.reduce((a, x) => a ^ x, 0);
const ascii = (s: string) => [...Buffer.from(s, 'latin1')];
function modbus(b: number[]): number {
  let c = 0xffff;
  for (const x of b) {
    c ^= x;
    for (let i = 0; i < 8; i++) c = c & 1 ? (c >>> 1) ^ 0xa001 : c >>> 1;
  }
  return c;
}
function xmodem(b: number[]): number {
  let c = 0;
  for (const x of b) {
    c ^= x << 8;
    for (let i = 0; i < 8; i++) c = c & 0x8000 ? ((c << 1) ^ 0x1021) & 0xffff : (c << 1) & 0xffff;
  }
  return c;
}

describe('STX body ETX BCC: the check byte after ETX, covering body and ETX', () => {
  const p = validateProfile('bcc.yaml', {
    name: 'bcc-shoe',
    talker: 'SHOE',
    framing: { start: '\u0002', end: '\u0003', trailer: 1, maxLength: 32 },
    integrity: { algorithm: 'xor8', encoding: 'binary-be', place: 'after-end', covers: { payload: true, end: true } },
    messages: [
      { name: 'card', pattern: 'C(?<card>[A2-9TJQK][SHDC])', type: 'CARD', emit: 'C{card}' },
      { name: 'hb', pattern: 'HB[\\s\\S]*', type: 'HB' },
    ],
  });
  const frame = (body: string) => [2, ...ascii(body), 3, xor([...ascii(body), 3])];

  it('decodes frames whose check byte is any value, STX and ETX included', () => {
    const bodies = ['CAS', 'CKD', 'C7H', 'CTC'];
    // heartbeats whose BCC is the STX or the ETX byte itself
    const printable = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i));
    const hbs = printable.flatMap((a) => printable.map((b) => `HB${a}${b}`));
    const stx = hbs.find((b) => xor([...ascii(b), 3]) === 2)!;
    const etx = hbs.find((b) => xor([...ascii(b), 3]) === 3)!;
    expect(stx).toBeDefined();
    expect(etx).toBeDefined();
    bodies.push(stx, etx, 'CQS');
    const wire = Uint8Array.from(bodies.flatMap(frame));
    const want = bodies.map((b) => (b.startsWith('HB') ? 'HB' : b.slice(1)));
    expect(decodeAll(p, wire)).toEqual(want);
    expect(decodeBytewise(p, wire)).toEqual(want);
    const enc = createProfileEncoder(p);
    expect([...enc.encode({ type: 'CARD', card: 'KD', rescan: false })]).toEqual(frame('CKD'));
  });

  it('noise with a stray STX right before a frame is a reject of its own; the frame survives', () => {
    const wire = Uint8Array.from([0x02, 0x41, 0x42, ...frame('CAS'), 0x02, 0x03, 0x99, ...frame('CQH')]);
    expect(decodeAll(p, wire)).toEqual(['malformed', 'AS', 'bad-checksum', 'QH']);
    expect(decodeBytewise(p, wire)).toEqual(['malformed', 'AS', 'bad-checksum', 'QH']);
  });

  it('a bad check byte is bad-checksum', () => {
    const f = frame('CAS');
    f[f.length - 1] ^= 0x10;
    expect(decodeAll(p, Uint8Array.from(f))).toEqual(['bad-checksum']);
  });
});

describe('DLE-stuffed binary with a CRC-16 after DLE ETX', () => {
  const p = validateProfile('dle.yaml', {
    name: 'dle-balls',
    talker: 'BALL',
    encoding: 'binary',
    framing: { start: '\u0010\u0002', end: '\u0010\u0003', trailer: 2, stuffing: { escape: '\u0010', mode: 'double' }, maxLength: 32 },
    integrity: { algorithm: 'crc16-xmodem', encoding: 'binary-be', place: 'after-end' },
    messages: [
      { name: 'ball', bytes: { length: 2, match: [{ at: 0, value: 0x42 }], fields: { ball: { at: 1 } } }, type: 'BALL' },
      { name: 'start', bytes: { length: 1, match: [{ at: 0, value: 0x53 }] }, type: 'START' },
    ],
  });
  const frame = (payload: number[]) => {
    const crc = xmodem(payload);
    const stuffed = payload.flatMap((b) => (b === 0x10 ? [0x10, 0x10] : [b]));
    return [0x10, 0x02, ...stuffed, 0x10, 0x03, crc >> 8, crc & 0xff];
  };

  it('undoes the doubling before decoding; a DLE in the data is not an end', () => {
    const wire = Uint8Array.from([...frame([0x53]), ...frame([0x42, 16]), ...frame([0x42, 3]), ...frame([0x42, 80])]);
    const want = ['START', 'ball 16', 'ball 3', 'ball 80'];
    expect(decodeAll(p, wire)).toEqual(want);
    expect(decodeBytewise(p, wire)).toEqual(want);
    expect([...createProfileEncoder(p).encode({ type: 'BALL', ball: 16 })]).toEqual(frame([0x42, 16]));
  });

  it('a lone DLE pair that is no control sequence is malformed; noise before a frame stays apart', () => {
    const bad = [0x10, 0x02, 0x42, 0x10, 0x07, 0x10, 0x03, 0, 0];
    const wire = Uint8Array.from([0x10, 0x10, 0x55, ...bad, ...frame([0x42, 9])]);
    expect(decodeAll(p, wire)).toEqual(['noise', 'malformed', 'ball 9']);
    expect(decodeBytewise(p, wire)).toEqual(['noise', 'malformed', 'ball 9']);
  });
});

describe('escape-XOR stuffing (0x7E flags, 0x7D escape)', () => {
  const p = validateProfile('hdlc.yaml', {
    name: 'hdlc-balls',
    talker: 'BALL',
    encoding: 'binary',
    framing: { start: '\u007e', end: '\u007f', stuffing: { escape: '\u007d', mode: 'xor' }, maxLength: 32 },
    integrity: { algorithm: 'crc8', encoding: 'binary-be' },
    messages: [
      {
        name: 'ball',
        bytes: { length: 2, match: [{ at: 0, value: 0x7e }], fields: { ball: { at: 1 } } },
        type: 'BALL',
        ranges: { ball: { min: 1, max: 255 } },
      },
    ],
  });
  it('a data byte equal to a flag travels escaped and decodes back', () => {
    const enc = createProfileEncoder(p);
    const wire = enc.encode({ type: 'BALL', ball: 0x7d });
    // 7E | 7D 5E (0x7E) 7D 5D (0x7D) crc | 7F
    expect([...wire.subarray(0, 5)]).toEqual([0x7e, 0x7d, 0x5e, 0x7d, 0x5d]);
    expect(decodeBytewise(p, Uint8Array.from([0x31, ...wire, ...wire]))).toEqual(['noise', 'ball 125', 'ball 125']);
  });
});

describe('length-prefixed binary with a little-endian CRC', () => {
  const p = validateProfile('len.yaml', {
    name: 'len-dice',
    talker: 'DICE',
    encoding: 'binary',
    framing: { start: '\u00a5', lengthField: { offset: 1, width: 1, counts: 'payload' }, maxLength: 64 },
    integrity: { algorithm: 'crc16-modbus', encoding: 'binary-le', covers: { start: true, payload: true } },
    messages: [
      {
        name: 'roll',
        bytes: { match: [{ at: 1, value: 0x01 }], fields: { d1: { at: 2 }, d2: { at: 3 }, d3: { at: 4 }, seq: { at: 5, width: 2, order: 'le' } } },
        seq: 'seq',
        type: 'ROLL',
        fields: { bounces: 3 },
      },
      { name: 'hb', bytes: { length: 2, match: [{ at: 1, value: 0x00 }] }, type: 'HB' },
    ],
  });
  const frame = (body: number[]) => {
    const f = [0xa5, body.length, ...body];
    const c = modbus(f);
    return [...f, c & 0xff, c >> 8];
  };
  it('reads the length, then exactly that many bytes; SEQ as a 16-bit little-endian field', () => {
    const wire = Uint8Array.from([...frame([0x01, 1, 2, 3, 0x34, 0x12]), ...frame([0x00]), ...frame([0x01, 6, 6, 5, 0, 0])]);
    expect(decodeBytewise(p, wire)).toEqual(['123', 'HB', '665']);
    const f = compileProfile(p).push(wire)[0] as DeviceFrame;
    expect(f.seq).toBe(0x1234);
    expect([...createProfileEncoder(p).encode({ type: 'ROLL', dice: [1, 2, 3], bounces: 3, seq: 0x1234 })]).toEqual(frame([0x01, 1, 2, 3, 0x34, 0x12]));
  });
  it('a sync byte in noise, or a corrupted length, never takes the next frames with it', () => {
    const hbs = Array.from({ length: 12 }, () => frame([0x00])).flat();
    const wire = Uint8Array.from([0xa5, 0x30, 0x01, ...hbs, 0xa5, 0x02, 0x99, 0x98, 0x97, ...frame([0x01, 4, 4, 4, 1, 0])]);
    const want = ['bad-checksum', ...Array(12).fill('HB'), 'bad-checksum', '444'];
    expect(decodeAll(p, wire)).toEqual(want);
    expect(decodeBytewise(p, wire)).toEqual(want);
  });
});

describe('fields, messages and cards', () => {
  it('bit fields: three dice packed into two bytes', () => {
    const p = validateProfile('bits.yaml', {
      name: 'packed-dice',
      talker: 'DICE',
      encoding: 'binary',
      framing: { start: '\u00aa', length: 4 },
      integrity: { algorithm: 'sum8', encoding: 'binary-be' },
      messages: [
        { name: 'roll', bytes: { length: 2, fields: { d1: { at: 0, bits: [0, 2] }, d2: { at: 0, bits: [3, 5] }, d3: { at: 1, bits: [4, 6] } } }, type: 'ROLL' },
      ],
    });
    const b0 = 5 | (2 << 3);
    const b1 = 6 << 4;
    expect(decodeAll(p, Uint8Array.from([0xaa, b0, b1, (b0 + b1) & 0xff]))).toEqual(['526']);
    expect([...createProfileEncoder(p).encode({ type: 'ROLL', dice: [5, 2, 6], bounces: 0 })]).toEqual([0xaa, b0, b1, (b0 + b1) & 0xff]);
  });

  it('several messages in one frame (body.split), each its own frame or reject', () => {
    const p = validateProfile('batch.yaml', {
      name: 'batch',
      talker: 'SHOE',
      framing: { end: '\n' },
      body: { split: ';' },
      messages: [{ name: 'card', pattern: 'C(?<card>[A2-9TJQK][SHDC])', type: 'CARD' }],
    });
    expect(decodeAll(p, Buffer.from('CAS;CKD;XX;C9H\n'))).toEqual(['AS', 'KD', 'unknown-type', '9H']);
  });

  it('an explicit 52-entry card table, for text codes and binary bytes', () => {
    const cards = ['A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K'].flatMap((r) => ['C', 'D', 'H', 'S'].map((s) => r + s));
    // a vendor's own order: code 100 + i for the i-th card of a shuffled list
    const order = cards.map((_c, i) => cards[(i * 17) % 52]);
    const table = Object.fromEntries(order.map((c, i) => [String(100 + i), c]));
    const p = validateProfile('table.yaml', {
      name: 'table',
      talker: 'SHOE',
      encoding: 'binary',
      framing: { start: '\u00ff', length: 2 },
      cards: { preset: 'table', table },
      messages: [{ name: 'card', bytes: { length: 1, fields: { card: { at: 0 } } }, type: 'CARD' }],
    });
    expect(decodeAll(p, Uint8Array.from([0xff, 100, 0xff, 151, 0xff, 99]))).toEqual([order[0], order[51], 'bad-field']);
    expect([...createProfileEncoder(p).encode({ type: 'CARD', card: order[7], rescan: false })]).toEqual([0xff, 107]);
    expect(() =>
      validateProfile('t.yaml', {
        name: 't',
        talker: 'SHOE',
        framing: { end: '\n' },
        cards: { preset: 'table', table: { '1': 'AS', '2': 'AS' } },
        messages: [{ name: 'c', pattern: '(?<card>\\d+)', type: 'CARD' }],
      }),
    ).toThrow('t.yaml: cards.table: needs 52 entries, one per card (has 2 entries, 1 distinct cards)');
  });

  it('hex-lower and decimal check values; SEQ above the wrap point is malformed', () => {
    const body = 'B;7';
    const sum = ascii(body).reduce((a, x) => (a + x) & 0xff, 0);
    const hexLower = validateProfile('h.yaml', {
      name: 'h',
      talker: 'BALL',
      framing: { end: '\r' },
      integrity: { algorithm: 'sum8', encoding: 'hex-lower', separator: '|' },
      messages: [{ name: 'b', pattern: 'B;(?<ball>\\d+)', type: 'BALL' }],
    });
    expect(decodeAll(hexLower, Buffer.from(`${body}|${sum.toString(16).padStart(2, '0')}\r`))).toEqual(['ball 7']);
    expect(decodeAll(hexLower, Buffer.from(`${body}|${sum.toString(16).toUpperCase()}\r`))).toEqual([
      sum.toString(16) === sum.toString(16).toUpperCase() ? 'ball 7' : 'malformed',
    ]);
    const decimal = validateProfile('d.yaml', {
      name: 'd',
      talker: 'BALL',
      framing: { end: '\r' },
      seq: { wrap: 99 },
      integrity: { algorithm: 'sum8', encoding: 'decimal' },
      messages: [{ name: 'b', pattern: '(?<seq>\\d+),B;(?<ball>\\d+)', seq: 'seq', type: 'BALL' }],
    });
    const dec = (s: string) => `${s}${String(ascii(s).reduce((a, x) => (a + x) & 0xff, 0)).padStart(3, '0')}\r`;
    expect(decodeAll(decimal, Buffer.from(dec('12,B;7') + dec('100,B;7')))).toEqual(['ball 7', 'malformed']);
  });
});

describe('strict profiles: every unknown key named with the closest valid key', () => {
  const base = { name: 'x', talker: 'SHOE', framing: { end: '\r' }, messages: [{ name: 'card', pattern: '(?<card>..)', type: 'CARD' }] };
  const errors = (data: unknown) => {
    try {
      validateProfile('x.yaml', data);
      return [];
    } catch (e) {
      return (e as Error).message.split('\n');
    }
  };
  it('names the key path and suggests the key meant', () => {
    expect(errors({ ...base, framing: { end: '\r', idelMs: 40 } })).toEqual(['x.yaml: framing.idelMs: unknown key; did you mean idleMs?']);
    expect(errors({ ...base, integrity: { algorithm: 'xor8', seperator: '*' } })).toEqual([
      'x.yaml: integrity.seperator: unknown key; did you mean separator?',
    ]);
    expect(errors({ ...base, card: { preset: 'suit-rank' } })).toEqual(['x.yaml: card: unknown key; did you mean cards?']);
    expect(errors({ ...base, messages: [{ ...base.messages[0], patern: 'x' }] })).toEqual(['x.yaml: messages.card.patern: unknown key; did you mean pattern?']);
    expect(errors({ ...base, integrity: { algorithm: 'xor8', position: 'after-end' } })[0]).toMatch(
      /^x\.yaml: integrity\.position: unknown key \(valid here: algorithm, encoding, place, /,
    );
  });
  it('reads a v1 profile and says what to write instead', () => {
    const r = readProfile('v1.yaml', {
      ...base,
      integrity: { kind: 'crc16-ccitt', format: 'binary', covers: 'start-and-body' },
      framing: { start: '>', end: '\r' },
    });
    expect(r.profile.integrity).toMatchObject({ algorithm: 'crc16-ccitt-false', encoding: 'binary-le', covers: { start: true, payload: true } });
    expect(r.migrated).toEqual([
      'integrity.kind (profile language v1) read as integrity.algorithm: crc16-ccitt-false',
      'integrity.format (profile language v1) read as integrity.encoding: binary-le',
      'integrity.covers: start-and-body (profile language v1) read as integrity.covers: { start: true, payload: true }',
    ]);
  });
  it('checks the grammar across keys', () => {
    expect(errors({ ...base, integrity: { algorithm: 'xor8', place: 'after-end' } })).toEqual([
      'x.yaml: framing.trailer: needs 2 (the xor8 value, hex, follows the end sequence)',
    ]);
    expect(errors({ ...base, framing: { end: '\r', trailer: 1 } })).toEqual(['x.yaml: framing.trailer: holds nothing: integrity.algorithm is none']);
  });
});

describe('HID report layouts for every device kind', () => {
  const cards = ['A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K'].flatMap((r) => ['S', 'H', 'D', 'C'].map((x) => r + x));
  it('a card shoe (card byte through a 52-entry table), an RFID shoe (4-byte uid), a shuffler (state map and a 16-bit count)', () => {
    const shoe = validateProfile('hid-shoe.yaml', {
      name: 'hid-shoe',
      talker: 'SHOE',
      input: 'hid-report',
      cards: { preset: 'table', table: Object.fromEntries(cards.map((c, i) => [String(0x40 + i), c])) },
      report: {
        length: 4,
        seq: { offset: 0 },
        checksum: { algorithm: 'crc8', offset: 3, from: 0, to: 3 },
        type: { offset: 1, map: { '1': 'CARD', '2': 'MISREAD' } },
        fields: { card: 2 },
      },
    });
    const crc8 = (b: number[]) => {
      let c = 0;
      for (const x of b) {
        c ^= x;
        for (let i = 0; i < 8; i++) c = c & 0x80 ? ((c << 1) ^ 0x07) & 0xff : (c << 1) & 0xff;
      }
      return c;
    };
    const rep = (b: number[]) => Uint8Array.from([...b, crc8(b)]);
    const d = compileProfile(shoe);
    expect(show(d.push(rep([7, 1, 0x40 + 12])))).toEqual([cards[12]]);
    expect(show(d.push(rep([8, 2, 0])))).toEqual(['MISREAD']);
    expect(show(d.push(rep([9, 1, 0x20])))).toEqual(['bad-field']);
    expect([...createProfileEncoder(shoe).encode({ type: 'CARD', card: cards[12], rescan: false, seq: 7 })]).toEqual([...rep([7, 1, 0x40 + 12])]);

    const rfid = validateProfile('hid-rfid.yaml', {
      name: 'hid-rfid',
      talker: 'RFID',
      input: 'hid-report',
      report: {
        length: 6,
        type: { offset: 0, map: { '5': 'TAG' } },
        checksum: { algorithm: 'sum8', offset: 5, from: 0, to: 5 },
        fields: { uid: { at: 1, width: 4, as: 'hex' } },
      },
    });
    const tag = [5, 0xe0, 0x04, 0xab, 0x12];
    expect(compileProfile(rfid).push(Uint8Array.from([...tag, tag.reduce((a, x) => (a + x) & 0xff, 0)]))).toEqual([
      { talker: 'RFID', seq: 0, type: 'TAG', uid: 'E004AB12' },
    ]);

    const shuf = validateProfile('hid-shuf.yaml', {
      name: 'hid-shuf',
      talker: 'SHUF',
      input: 'hid-report',
      report: { length: 4, type: { offset: 0, map: { '1': 'SHUF_STATE', '2': 'COUNT' } }, fields: { state: 1, count: { at: 1, width: 2, order: 'le' } } },
      messages: [{ name: 'state', pattern: 'x', type: 'SHUF_STATE', map: { state: { '0': 'IDLE', '1': 'SHUFFLING', '2': 'READY' } } }],
    });
    const sd = compileProfile(shuf);
    expect(sd.push(Uint8Array.from([1, 2, 0, 0]))).toEqual([{ talker: 'SHUF', seq: 0, type: 'SHUF_STATE', state: 'READY' }]);
    expect(sd.push(Uint8Array.from([2, 0xa0, 0x01, 0]))).toEqual([{ talker: 'SHUF', seq: 0, type: 'COUNT', count: 416 }]);
  });
});
