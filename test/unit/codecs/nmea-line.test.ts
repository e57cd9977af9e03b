import { describe, it, expect } from 'vitest';
import { checksum, encodeLine, parseLine } from '../../../drivers/codecs/nmea-line.js';
import { buf, refLine, refXor } from './ref.js';

describe('checksum', () => {
  it('matches independently computed values', () => {
    // Literal values computed outside the project (XOR of the ASCII bytes).
    expect(checksum('SHOE,17,CARD,AS')).toBe(0x3d);
    expect(checksum('SHOE,0,HB')).toBe(0x2b);
    expect(checksum('DICE,7,ROLL,3,5,6,12')).toBe(0x12);
    // and by a hand-written byte XOR
    const body = 'SHOE,17,CARD,AS';
    let x = 0;
    for (let i = 0; i < body.length; i++) x ^= body.charCodeAt(i);
    expect(checksum(body)).toBe(x);
    expect(checksum('RFID,1,ERR,E1,température')).toBe(refXor('RFID,1,ERR,E1,température'));
  });
});

describe('encodeLine', () => {
  it('builds the exact reference bytes', () => {
    expect(encodeLine('SHOE', 17, 'CARD', ['AS'])).toBe('$SHOE,17,CARD,AS*3D\r\n');
    expect(encodeLine('SHOE', 0, 'HB')).toBe('$SHOE,0,HB*2B\r\n');
    expect(encodeLine('DICE', 7, 'ROLL', [3, 5, 6, 12])).toBe('$DICE,7,ROLL,3,5,6,12*12\r\n');
    expect(encodeLine('SHUF', 5, 'COUNT', [416])).toBe('$SHUF,5,COUNT,416*61\r\n');
  });

  it('writes the checksum as two upper-case hex digits', () => {
    // SHOE,1,HB -> 0x2B ^ '0' ^ '1' = 0x2A
    expect(encodeLine('SHOE', 1, 'HB')).toBe('$SHOE,1,HB*2A\r\n');
    expect(encodeLine('GW', 3, 'RESCAN')).toBe(refLine('GW,3,RESCAN').toString());
    expect(encodeLine('GW', 3, 'RESCAN')).toMatch(/\*[0-9A-F]{2}\r\n$/);
  });

  it('refuses what cannot be framed', () => {
    expect(() => encodeLine('SHOE', 65536, 'HB')).toThrow(RangeError);
    expect(() => encodeLine('SHOE', -1, 'HB')).toThrow(RangeError);
    expect(() => encodeLine('SHOE', 1.5, 'HB')).toThrow(RangeError);
    expect(() => encodeLine('SHOE', 1, 'ERR', ['E1', 'a,b'])).toThrow(RangeError);
    expect(() => encodeLine('SHOE', 1, 'ERR', ['E1', 'a*b'])).toThrow(RangeError);
    expect(() => encodeLine('', 1, 'HB')).toThrow(RangeError);
    expect(encodeLine('SHOE', 65535, 'HB')).toBe(refLine('SHOE,65535,HB').toString());
  });
});

describe('parseLine', () => {
  it('parses talker, seq, type and fields', () => {
    expect(parseLine(buf('$SHOE,17,CARD,AS*3D'))).toEqual({ talker: 'SHOE', seq: 17, type: 'CARD', fields: ['AS'] });
    expect(parseLine(buf('$SHOE,0,HB*2B'))).toEqual({ talker: 'SHOE', seq: 0, type: 'HB', fields: [] });
    expect(parseLine(buf('$DICE,7,ROLL,3,5,6,12*12'))).toEqual({ talker: 'DICE', seq: 7, type: 'ROLL', fields: ['3', '5', '6', '12'] });
  });

  it('tolerates the line terminator', () => {
    expect(parseLine(buf('$SHOE,0,HB*2B\r\n'))).toMatchObject({ type: 'HB' });
    expect(parseLine(buf('$SHOE,0,HB*2B\n'))).toMatchObject({ type: 'HB' });
  });

  it('accepts a lower-case checksum', () => {
    expect(parseLine(buf('$SHOE,17,CARD,AS*3d'))).toEqual({ talker: 'SHOE', seq: 17, type: 'CARD', fields: ['AS'] });
    expect(parseLine(buf('$SHOE,0,HB*2b'))).toMatchObject({ type: 'HB' });
  });

  it('rejects a bad checksum', () => {
    expect(parseLine(buf('$SHOE,17,CARD,AS*3E'))).toEqual({ reason: 'bad-checksum', raw: '$SHOE,17,CARD,AS*3E' });
    expect(parseLine(buf('$SHOE,17,CARD,KS*3D'))).toMatchObject({ reason: 'bad-checksum' });
  });

  it('rejects lines without a proper `*CS` tail as malformed', () => {
    for (const s of [
      '$SHOE,17,CARD,AS',
      '$SHOE,17,CARD,AS*3',
      '$SHOE,17,CARD,AS*3G',
      '$SHOE,17,CARD,AS*3D0',
      '$SHOE,17,CARD,AS 3D',
      'SHOE,17,CARD,AS*3D',
      '$',
      '',
      '$*00',
    ]) {
      expect(parseLine(buf(s)), s).toMatchObject({ reason: 'malformed' });
    }
  });

  it('rejects a `*` inside the body', () => {
    expect(parseLine(refLine('SHOE,1,ERR,E*1', { eol: '' }))).toMatchObject({ reason: 'malformed' });
  });

  it('requires talker, seq and type', () => {
    for (const body of ['SHOE,17', 'SHOE', ',17,HB', 'SHOE,17,', 'SHOE,,HB']) {
      expect(parseLine(refLine(body, { eol: '' })), body).toMatchObject({ reason: 'malformed' });
    }
  });

  it('accepts SEQ 0..65535 as plain decimal only', () => {
    expect(parseLine(refLine('SHOE,65535,HB', { eol: '' }))).toMatchObject({ seq: 65535 });
    expect(parseLine(refLine('SHOE,00017,HB', { eol: '' }))).toMatchObject({ seq: 17 });
    for (const seq of ['65536', '99999', '123456', '-1', '+1', ' 1', '1 ', '0x1', '1e3', '1.0', 'A']) {
      expect(parseLine(refLine(`SHOE,${seq},HB`, { eol: '' })), seq).toMatchObject({ reason: 'malformed' });
    }
  });

  it('rejects invalid UTF-8 (with a correct checksum) as malformed', () => {
    const body = Buffer.concat([buf('SHOE,1,ERR,E1,'), Buffer.from([0xc3, 0x28])]);
    let x = 0;
    for (const b of body) x ^= b;
    const line = Buffer.concat([buf('$'), body, buf('*' + x.toString(16).toUpperCase().padStart(2, '0'))]);
    expect(parseLine(line)).toMatchObject({ reason: 'malformed' });
    const overlong = Buffer.concat([buf('SHOE,1,ERR,E1,'), Buffer.from([0xc0, 0xaf])]);
    let y = 0;
    for (const b of overlong) y ^= b;
    expect(parseLine(Buffer.concat([buf('$'), overlong, buf('*' + y.toString(16).padStart(2, '0'))]))).toMatchObject({ reason: 'malformed' });
  });

  it('accepts valid UTF-8 text', () => {
    expect(parseLine(refLine('SHOE,1,ERR,E1,température', { eol: '' }))).toEqual({ talker: 'SHOE', seq: 1, type: 'ERR', fields: ['E1', 'température'] });
  });

  it('rejects control bytes inside the body', () => {
    expect(parseLine(refLine('SHOE,1,ERR,E1,a\tb', { eol: '' }))).toMatchObject({ reason: 'malformed' });
    expect(parseLine(refLine('SHOE,1,HB\r', { eol: '' }))).toMatchObject({ reason: 'malformed' });
  });

  it('works on a view into a larger buffer', () => {
    const big = buf('xxxx$SHOE,0,HB*2Byyyy');
    expect(parseLine(big.subarray(4, 17))).toMatchObject({ talker: 'SHOE', type: 'HB' });
  });
});
