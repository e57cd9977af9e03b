import { describe, it, expect } from 'vitest';
import { LineCodec, isReject } from '../../../drivers/codecs/line-codec.js';
import type { Talker } from '../../../src/core/vocabulary/frames.js';
import { buf, refLine } from './ref.js';

/** Decodes one line (given as exact wire text) with a fresh codec of `talker`. */
function one(talker: Talker, wire: string | Buffer) {
  const out = new LineCodec(talker).push(typeof wire === 'string' ? buf(wire) : wire);
  expect(out).toHaveLength(1);
  return out[0];
}
/** Same, from a body with a checksum computed by the test's own XOR. */
const body = (talker: Talker, b: string) => one(talker, refLine(b));
const reason = (talker: Talker, b: string) => {
  const r = body(talker, b);
  return isReject(r) ? r.reason : 'accepted';
};

describe('reference bytes (checksums computed outside the project)', () => {
  const cases: Array<[Talker, string, object]> = [
    ['SHOE', '$SHOE,17,CARD,AS*3D\r\n', { talker: 'SHOE', seq: 17, type: 'CARD', card: 'AS', rescan: false }],
    ['SHOE', '$SHOE,18,CARD,TD,R*4E\r\n', { talker: 'SHOE', seq: 18, type: 'CARD', card: 'TD', rescan: true }],
    ['SHOE', '$SHOE,19,MISREAD*5C\r\n', { talker: 'SHOE', seq: 19, type: 'MISREAD' }],
    ['SHOE', '$SHOE,20,CUT*51\r\n', { talker: 'SHOE', seq: 20, type: 'CUT' }],
    ['SHOE', '$SHOE,21,DROP*1B\r\n', { talker: 'SHOE', seq: 21, type: 'DROP' }],
    ['SHOE', '$SHOE,22,STATE,LOADED*6D\r\n', { talker: 'SHOE', seq: 22, type: 'STATE', state: 'LOADED' }],
    ['SHOE', '$SHOE,0,HB*2B\r\n', { talker: 'SHOE', seq: 0, type: 'HB' }],
    ['SHOE', '$SHOE,1,ERR,JAM_1,lid open*18\r\n', { talker: 'SHOE', seq: 1, type: 'ERR', code: 'JAM_1', text: 'lid open' }],
    ['SHOE', '$SHOE,2,VER,OS-200,1.4.2*56\r\n', { talker: 'SHOE', seq: 2, type: 'VER', model: 'OS-200', firmware: '1.4.2' }],
    ['RFID', '$RFID,3,TAG,04A1B2C3D4E5F6*50\r\n', { talker: 'RFID', seq: 3, type: 'TAG', uid: '04A1B2C3D4E5F6' }],
    ['SHUF', '$SHUF,4,STATE,SHUFFLING*05\r\n', { talker: 'SHUF', seq: 4, type: 'SHUF_STATE', state: 'SHUFFLING' }],
    ['SHUF', '$SHUF,5,COUNT,416*61\r\n', { talker: 'SHUF', seq: 5, type: 'COUNT', count: 416 }],
    ['DICE', '$DICE,6,SHAKE*69\r\n', { talker: 'DICE', seq: 6, type: 'SHAKE' }],
    ['DICE', '$DICE,7,ROLL,3,5,6,12*12\r\n', { talker: 'DICE', seq: 7, type: 'ROLL', dice: [3, 5, 6], bounces: 12 }],
    ['DICE', '$DICE,8,COCKED*36\r\n', { talker: 'DICE', seq: 8, type: 'COCKED' }],
    ['DICE', '$DICE,9,NOREAD*21\r\n', { talker: 'DICE', seq: 9, type: 'NOREAD' }],
    ['BALL', '$BALL,10,START*42\r\n', { talker: 'BALL', seq: 10, type: 'START' }],
    ['BALL', '$BALL,11,BALL,81*25\r\n', { talker: 'BALL', seq: 11, type: 'BALL', ball: 81 }],
    ['BALL', '$BALL,12,END*4F\r\n', { talker: 'BALL', seq: 12, type: 'END' }],
  ];
  for (const [talker, wire, frame] of cases) {
    it(`${JSON.stringify(wire)}`, () => {
      expect(one(talker, wire)).toEqual(frame);
      // lower-case checksum, bare LF
      expect(
        one(
          talker,
          wire.replace(/\*([0-9A-F]{2})\r\n$/, (_m, cs: string) => `*${cs.toLowerCase()}\n`),
        ),
      ).toEqual(frame);
    });
  }
});

describe('common types on every talker', () => {
  for (const t of ['SHOE', 'RFID', 'SHUF', 'DICE', 'BALL'] as Talker[]) {
    it(t, () => {
      expect(body(t, `${t},1,HB`)).toEqual({ talker: t, seq: 1, type: 'HB' });
      expect(body(t, `${t},2,ERR,E_42`)).toEqual({ talker: t, seq: 2, type: 'ERR', code: 'E_42', text: '' });
      expect(body(t, `${t},2,ERR,E_42,`)).toEqual({ talker: t, seq: 2, type: 'ERR', code: 'E_42', text: '' });
      expect(body(t, `${t},3,ERR,ABCDEFGHIJKLMNOP,motor stall`)).toMatchObject({ code: 'ABCDEFGHIJKLMNOP', text: 'motor stall' });
      expect(body(t, `${t},4,VER,X1,2.0`)).toEqual({ talker: t, seq: 4, type: 'VER', model: 'X1', firmware: '2.0' });
      expect(reason(t, `${t},1,HB,1`)).toBe('malformed');
      expect(reason(t, `${t},1,ERR`)).toBe('malformed');
      expect(reason(t, `${t},1,ERR,E1,a,b`)).toBe('malformed');
      expect(reason(t, `${t},1,ERR,e1,x`)).toBe('bad-field');
      expect(reason(t, `${t},1,ERR,ABCDEFGHIJKLMNOPQ,x`)).toBe('bad-field');
      expect(reason(t, `${t},1,ERR,,x`)).toBe('bad-field');
      expect(reason(t, `${t},1,ERR,E-1,x`)).toBe('bad-field');
      expect(reason(t, `${t},1,VER,X1`)).toBe('malformed');
      expect(reason(t, `${t},1,VER,X1,2.0,3,4`)).toBe('malformed');
      expect(reason(t, `${t},1,VER,X1,2.0,REPEAT+LOCK`)).toBe('accepted');
      expect(reason(t, `${t},1,VER,X1,2.0,repeat`)).toBe('bad-field');
      expect(reason(t, `${t},1,VER,,2.0`)).toBe('bad-field');
      expect(reason(t, `${t},1,FOO`)).toBe('unknown-type');
      expect(reason(t, `${t},1,hb`)).toBe('unknown-type');
    });
  }
});

describe('SHOE', () => {
  it('accepts every card code in upper case only', () => {
    for (const r of 'A23456789TJQK') {
      for (const s of 'SHDC') expect(body('SHOE', `SHOE,1,CARD,${r}${s}`)).toMatchObject({ type: 'CARD', card: r + s });
    }
    for (const bad of ['as', 'aS', 'As', '1S', '10S', 'AX', 'A', 'ASD', '', ' AS']) {
      expect(reason('SHOE', `SHOE,1,CARD,${bad}`), bad).toBe('bad-field');
    }
  });

  it('rescan marker must be exactly R', () => {
    expect(reason('SHOE', 'SHOE,1,CARD,AS,r')).toBe('bad-field');
    expect(reason('SHOE', 'SHOE,1,CARD,AS,')).toBe('bad-field');
    expect(reason('SHOE', 'SHOE,1,CARD,AS,R,R')).toBe('malformed');
    expect(reason('SHOE', 'SHOE,1,CARD')).toBe('malformed');
  });

  it('states and field counts', () => {
    for (const s of ['LOADED', 'OPEN', 'CLOSED', 'EMPTY']) expect(body('SHOE', `SHOE,1,STATE,${s}`)).toMatchObject({ type: 'STATE', state: s });
    expect(reason('SHOE', 'SHOE,1,STATE,loaded')).toBe('bad-field');
    expect(reason('SHOE', 'SHOE,1,STATE,JAM')).toBe('bad-field');
    expect(reason('SHOE', 'SHOE,1,STATE')).toBe('malformed');
    expect(reason('SHOE', 'SHOE,1,MISREAD,AS')).toBe('malformed');
    expect(reason('SHOE', 'SHOE,1,CUT,1')).toBe('malformed');
    expect(reason('SHOE', 'SHOE,1,DROP,')).toBe('malformed');
    expect(reason('SHOE', 'SHOE,1,TAG,04A1B2C3')).toBe('unknown-type');
  });
});

describe('RFID', () => {
  it('TAG uid is 8..24 hex digits (normalised to upper case)', () => {
    expect(body('RFID', 'RFID,1,TAG,04a1b2c3')).toMatchObject({ type: 'TAG', uid: '04A1B2C3' });
    expect(body('RFID', `RFID,1,TAG,${'F'.repeat(24)}`)).toMatchObject({ uid: 'F'.repeat(24) });
    expect(reason('RFID', 'RFID,1,TAG,04A1B2C')).toBe('bad-field');
    expect(reason('RFID', `RFID,1,TAG,${'F'.repeat(25)}`)).toBe('bad-field');
    expect(reason('RFID', 'RFID,1,TAG,04A1B2CG')).toBe('bad-field');
    expect(reason('RFID', 'RFID,1,TAG,0x04A1B2C3')).toBe('bad-field');
    expect(reason('RFID', 'RFID,1,TAG')).toBe('malformed');
    expect(reason('RFID', 'RFID,1,TAG,04A1B2C3,1')).toBe('malformed');
  });

  it('shares MISREAD / CUT / DROP / STATE with SHOE but has no CARD', () => {
    expect(body('RFID', 'RFID,1,MISREAD')).toEqual({ talker: 'RFID', seq: 1, type: 'MISREAD' });
    expect(body('RFID', 'RFID,1,CUT')).toEqual({ talker: 'RFID', seq: 1, type: 'CUT' });
    expect(body('RFID', 'RFID,1,DROP')).toEqual({ talker: 'RFID', seq: 1, type: 'DROP' });
    expect(body('RFID', 'RFID,1,STATE,EMPTY')).toEqual({ talker: 'RFID', seq: 1, type: 'STATE', state: 'EMPTY' });
    expect(reason('RFID', 'RFID,1,CARD,AS')).toBe('unknown-type');
  });
});

describe('SHUF', () => {
  it('STATE maps to SHUF_STATE', () => {
    for (const s of ['IDLE', 'SHUFFLING', 'READY', 'JAM', 'DOOR_OPEN', 'ERROR']) {
      expect(body('SHUF', `SHUF,1,STATE,${s}`)).toEqual({ talker: 'SHUF', seq: 1, type: 'SHUF_STATE', state: s });
    }
    expect(reason('SHUF', 'SHUF,1,STATE,LOADED')).toBe('bad-field');
  });

  it('COUNT is 0..999', () => {
    expect(body('SHUF', 'SHUF,1,COUNT,0')).toMatchObject({ count: 0 });
    expect(body('SHUF', 'SHUF,1,COUNT,999')).toMatchObject({ count: 999 });
    expect(body('SHUF', 'SHUF,1,COUNT,052')).toMatchObject({ count: 52 });
    for (const bad of ['1000', '-1', '+5', '5.0', '', 'x', ' 5']) expect(reason('SHUF', `SHUF,1,COUNT,${bad}`), bad).toBe('bad-field');
    expect(reason('SHUF', 'SHUF,1,COUNT')).toBe('malformed');
    expect(reason('SHUF', 'SHUF,1,CARD,AS')).toBe('unknown-type');
  });
});

describe('DICE', () => {
  it('ROLL dice 1..6, bounces 0..99', () => {
    expect(body('DICE', 'DICE,1,ROLL,1,1,1,0')).toMatchObject({ dice: [1, 1, 1], bounces: 0 });
    expect(body('DICE', 'DICE,1,ROLL,6,6,6,99')).toMatchObject({ dice: [6, 6, 6], bounces: 99 });
    for (const bad of ['0,1,1,5', '1,7,1,5', '1,1,07,5', '1,1,1,100', '1,1,1,-1', '1,1,1,', 'a,1,1,1']) {
      expect(reason('DICE', `DICE,1,ROLL,${bad}`), bad).toBe('bad-field');
    }
    expect(reason('DICE', 'DICE,1,ROLL,1,2,3')).toBe('malformed');
    expect(reason('DICE', 'DICE,1,ROLL,1,2,3,4,5')).toBe('malformed');
    expect(reason('DICE', 'DICE,1,SHAKE,1')).toBe('malformed');
  });
});

describe('BALL', () => {
  it('BALL n accepts any integer 0..999 (the game judges 1..80)', () => {
    expect(body('BALL', 'BALL,1,BALL,1')).toMatchObject({ type: 'BALL', ball: 1 });
    expect(body('BALL', 'BALL,1,BALL,80')).toMatchObject({ ball: 80 });
    expect(body('BALL', 'BALL,1,BALL,81')).toMatchObject({ ball: 81 });
    expect(body('BALL', 'BALL,1,BALL,0')).toMatchObject({ ball: 0 });
    expect(body('BALL', 'BALL,1,BALL,999')).toMatchObject({ ball: 999 });
    for (const bad of ['1000', '-1', 'x', '', '8 1']) expect(reason('BALL', `BALL,1,BALL,${bad}`), bad).toBe('bad-field');
    expect(reason('BALL', 'BALL,1,BALL')).toBe('malformed');
    expect(reason('BALL', 'BALL,1,START,1')).toBe('malformed');
  });
});
