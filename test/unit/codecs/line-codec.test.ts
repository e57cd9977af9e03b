import { describe, it, expect } from 'vitest';
import { LineCodec, encodeFrame, isReject } from '../../../drivers/codecs/line-codec.js';
import type { DeviceFrame, FrameReject } from '../../../src/core/vocabulary/frames.js';
import { buf, byteAtATime, refLine } from './ref.js';

const summary = (xs: Array<DeviceFrame | FrameReject>) => xs.map((x) => (isReject(x) ? `!${x.reason}` : `${x.talker}/${x.seq}/${x.type}`));

describe('LineCodec', () => {
  it('yields the frame plus one noise reject for `xx$SHOE,...`', () => {
    const out = new LineCodec('SHOE').push(buf('xx$SHOE,17,CARD,AS*3D\r\n'));
    expect(out).toEqual([
      { reason: 'noise', raw: 'xx' },
      { talker: 'SHOE', seq: 17, type: 'CARD', card: 'AS', rescan: false },
    ]);
  });

  it('rejects frames of another talker as unknown-talker', () => {
    const codec = new LineCodec('SHOE');
    expect(codec.push(refLine('RFID,1,HB'))).toEqual([{ reason: 'unknown-talker', raw: '$RFID,1,HB*22' }]);
    expect(summary(codec.push(refLine('GW,1,RESCAN')))).toEqual(['!unknown-talker']);
    expect(summary(codec.push(refLine('shoe,1,HB')))).toEqual(['!unknown-talker']);
  });

  it('rejects carry the whole line as raw', () => {
    expect(new LineCodec('DICE').push(refLine('DICE,1,ROLL,7,1,1,5'))).toEqual([
      { reason: 'bad-field', raw: `$DICE,1,ROLL,7,1,1,5*${refLine('DICE,1,ROLL,7,1,1,5').toString().slice(-4, -2)}` },
    ]);
  });

  it('decodes a mixed stream identically in one chunk and byte by byte', () => {
    const stream = Buffer.concat([
      buf('\x00\x01junk'),
      refLine('SHOE,1,STATE,LOADED'),
      refLine('SHOE,2,CARD,AS'),
      buf('$SHOE,3,CARD,KH*00\r\n'), // bad checksum
      refLine('SHOE,4,MISREAD', { lower: true, eol: '\n' }),
      buf('$SHOE,5,CARD,9'), // cut off by the next `$`
      refLine('SHOE,5,CARD,9D,R'),
      buf('$' + 'X'.repeat(140) + '\r\n'),
      refLine('RFID,6,HB'),
      refLine('SHOE,7,CUT'),
    ]);
    const whole = new LineCodec('SHOE').push(stream);
    expect(summary(whole)).toEqual([
      '!noise',
      'SHOE/1/STATE',
      'SHOE/2/CARD',
      '!bad-checksum',
      'SHOE/4/MISREAD',
      '!noise',
      'SHOE/5/CARD',
      '!too-long',
      '!unknown-talker',
      'SHOE/7/CUT',
    ]);
    const c = new LineCodec('SHOE');
    expect(byteAtATime((chunk) => c.push(chunk), stream)).toEqual(whole);
  });

  it('encodeFrame is the inverse of decoding', () => {
    const frames: DeviceFrame[] = [
      { talker: 'SHOE', seq: 17, type: 'CARD', card: 'AS', rescan: false },
      { talker: 'SHOE', seq: 18, type: 'CARD', card: 'TD', rescan: true },
      { talker: 'SHUF', seq: 4, type: 'SHUF_STATE', state: 'SHUFFLING' },
      { talker: 'DICE', seq: 7, type: 'ROLL', dice: [3, 5, 6], bounces: 12 },
      { talker: 'BALL', seq: 11, type: 'BALL', ball: 81 },
      { talker: 'RFID', seq: 1, type: 'ERR', code: 'E1', text: '' },
    ];
    expect(encodeFrame(frames[0])).toBe('$SHOE,17,CARD,AS*3D\r\n');
    expect(encodeFrame(frames[1])).toBe('$SHOE,18,CARD,TD,R*4E\r\n');
    expect(encodeFrame(frames[2])).toBe('$SHUF,4,STATE,SHUFFLING*05\r\n');
    expect(encodeFrame(frames[3])).toBe('$DICE,7,ROLL,3,5,6,12*12\r\n');
    for (const f of frames) expect(new LineCodec(f.talker).push(Buffer.from(encodeFrame(f)))).toEqual([f]);
  });

  it('reset() forgets a partial line', () => {
    const c = new LineCodec('SHOE');
    c.push(buf('$SHOE,1,CA'));
    c.reset();
    expect(summary(c.push(refLine('SHOE,2,HB')))).toEqual(['SHOE/2/HB']);
  });

  it('refuses an unknown talker at construction', () => {
    expect(() => new LineCodec('GW' as never)).toThrow(RangeError);
  });

  it('isReject tells rejects from frames', () => {
    expect(isReject({ reason: 'noise', raw: 'x' })).toBe(true);
    expect(isReject({ talker: 'SHOE', seq: 1, type: 'HB' })).toBe(false);
    expect(isReject(null)).toBe(false);
    expect(isReject('noise')).toBe(false);
  });
});
