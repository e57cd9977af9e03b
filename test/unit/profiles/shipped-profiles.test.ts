import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileProfile } from '../../../drivers/profiles/profile-decoder.js';
import { loadProfileFile } from '../../../drivers/profiles/profile-schema.js';

const load = (n: string) => compileProfile(loadProfileFile(join(__dirname, '../../../drivers/profiles/shipped', `${n}.yaml`)));

// Encoders written here, independently of the engine.
function modbus(bytes: number[]): number {
  let crc = 0xffff;
  for (const b of bytes) {
    crc ^= b;
    for (let i = 0; i < 8; i++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  }
  return crc;
}
const diceFrame = (t: number, d: number[]): Buffer => {
  const body = [t, ...d];
  const c = modbus(body);
  return Buffer.from([0xaa, ...body, c & 0xff, c >> 8]);
};
const xorLine = (body: string): Buffer => {
  let x = 0;
  for (const ch of body) x ^= ch.charCodeAt(0);
  return Buffer.from(`${body},${x.toString(16).toUpperCase().padStart(2, '0')}\r`);
};

describe('shipped profiles', () => {
  it('modbus-dice: a roll, a no-read, a corrupted CRC and a die of 7', () => {
    const bad = diceFrame(1, [1, 2, 3]);
    bad[6] ^= 0xff;
    const out = load('modbus-dice').push(Buffer.concat([Buffer.from([0x00]), diceFrame(1, [6, 5, 4]), diceFrame(2, [0, 0, 0]), bad, diceFrame(1, [7, 1, 1])]));
    expect(out.map((f) => ('reason' in f ? f.reason : f))).toEqual([
      'noise',
      { talker: 'DICE', seq: 0, type: 'ROLL', dice: [6, 5, 4], bounces: 0 },
      { talker: 'DICE', seq: 0, type: 'NOREAD' },
      'bad-checksum',
      'unknown-type',
    ]);
  });
  it('four-digit-shoe: 1010 is the ace of spades, 3130 the king of clubs; a bad code is bad-field', () => {
    const out = load('four-digit-shoe').push(Buffer.concat([xorLine('C1010'), xorLine('C3130'), xorLine('C1015'), Buffer.from('C2020,00\r'), xorLine('M')]));
    expect(out.map((f) => ('reason' in f ? f.reason : f.type === 'CARD' ? f.card : f.type))).toEqual(['AS', 'KC', 'bad-field', 'bad-checksum', 'MISREAD']);
  });
  it('star-keno: start, balls, end; resync after noise; an out-of-range ball is bad-field', () => {
    const out = load('star-keno').push(Buffer.from('*S;0\rzz*B;5\r*B;80\r*B;81\r*B;\r*E;0\r'));
    expect(out.map((f) => ('reason' in f ? f.reason : f.type === 'BALL' ? f.ball : f.type))).toEqual([
      'START',
      'noise',
      5,
      80,
      'bad-field',
      'unknown-type',
      'END',
    ]);
  });
  it('serial-scanner: H10 and SA lines; a garbled read is a reject, not a card', () => {
    const out = load('serial-scanner').push(Buffer.from('H10\r\nSA\r\nX9\r\nc_k\r\n'));
    expect(out.map((f) => ('reason' in f ? f.reason : f.type === 'CARD' ? f.card : f.type))).toEqual(['TH', 'AS', 'unknown-type', 'unknown-type']);
  });
});
