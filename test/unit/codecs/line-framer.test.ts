import { describe, it, expect } from 'vitest';
import { LineFramer, MAX_LINE_BYTES } from '../../../drivers/codecs/line-framer.js';
import type { FramerOutput } from '../../../drivers/codecs/line-framer.js';
import { buf, byteAtATime } from './ref.js';

/** Lines as latin1 strings, rejects as `!reason`. */
function summary(out: FramerOutput[]): string[] {
  return out.map((o) => ('line' in o ? o.line.toString('latin1') : `!${o.reason}`));
}

function frame(data: Buffer | string): string[] {
  return summary(new LineFramer().push(typeof data === 'string' ? buf(data) : data));
}

describe('LineFramer', () => {
  it('emits a CRLF-terminated line without its terminator', () => {
    expect(frame('$SHOE,17,CARD,AS*3D\r\n')).toEqual(['$SHOE,17,CARD,AS*3D']);
  });

  it('accepts a bare LF terminator', () => {
    expect(frame('$SHOE,0,HB*2B\n$SHOE,0,HB*2B\r\n')).toEqual(['$SHOE,0,HB*2B', '$SHOE,0,HB*2B']);
  });

  it('keeps an unterminated line pending until its newline arrives', () => {
    const f = new LineFramer();
    expect(f.push(buf('$SHOE,0,H'))).toEqual([]);
    expect(summary(f.push(buf('B*2B\r')))).toEqual([]);
    expect(summary(f.push(buf('\n')))).toEqual(['$SHOE,0,HB*2B']);
  });

  it('reports bytes before `$` as one noise reject, then the frame', () => {
    const out = new LineFramer().push(buf('xx$SHOE,17,CARD,AS*3D\r\n'));
    expect(out).toHaveLength(2);
    expect(out[0]).toEqual({ reason: 'noise', raw: 'xx' });
    expect('line' in out[1] && out[1].line.toString()).toBe('$SHOE,17,CARD,AS*3D');
  });

  it('reports a long run of junk as a single noise reject with a truncated raw', () => {
    const junk = Buffer.alloc(1000, 0x41);
    const out = new LineFramer().push(Buffer.concat([junk, buf('$SHOE,0,HB*2B\r\n')]));
    expect(summary(out)).toEqual(['!noise', '$SHOE,0,HB*2B']);
    const r = out[0] as { raw: string };
    expect(r.raw.length).toBeLessThan(100);
    expect(r.raw).toContain('1000 bytes');
  });

  it('escapes non-printable bytes in raw', () => {
    const out = new LineFramer().push(Buffer.from([0x00, 0xff, 0x0d, 0x24]));
    expect(out).toEqual([{ reason: 'noise', raw: '\\x00\\xFF\\r' }]);
  });

  it('a junk line ending in a newline is one noise reject; blank lines are ignored', () => {
    expect(frame('garbage\r\n\r\n\n$SHOE,0,HB*2B\r\n')).toEqual(['!noise', '$SHOE,0,HB*2B']);
  });

  it('resynchronises on `$` in the middle of a line', () => {
    const out = new LineFramer().push(buf('$SHOE,16,CA$SHOE,17,CARD,AS*3D\r\n'));
    expect(out[0]).toEqual({ reason: 'noise', raw: '$SHOE,16,CA' });
    expect(summary(out)).toEqual(['!noise', '$SHOE,17,CARD,AS*3D']);
  });

  it('`$$` discards the lone `$`', () => {
    expect(frame('$$SHOE,0,HB*2B\r\n')).toEqual(['!noise', '$SHOE,0,HB*2B']);
  });

  describe('128-byte limit (including `$` and the terminator)', () => {
    const lineOf = (total: number, eol: string) => '$' + 'A'.repeat(total - 1 - eol.length) + eol;

    it('accepts exactly 128 bytes with CRLF and rejects 129', () => {
      expect(lineOf(128, '\r\n').length).toBe(MAX_LINE_BYTES);
      expect(frame(lineOf(128, '\r\n'))).toEqual([lineOf(128, '\r\n').slice(0, -2)]);
      expect(frame(lineOf(129, '\r\n'))).toEqual(['!too-long']);
    });

    it('accepts exactly 128 bytes with a bare LF and rejects 129', () => {
      expect(frame(lineOf(128, '\n'))).toEqual([lineOf(128, '\n').slice(0, -1)]);
      expect(frame(lineOf(129, '\n'))).toEqual(['!too-long']);
    });

    it('reports an over-long line once, skips to the newline, then frames normally', () => {
      const long = '$' + 'B'.repeat(500) + '\r\n';
      expect(frame(long + '$SHOE,0,HB*2B\r\n')).toEqual(['!too-long', '$SHOE,0,HB*2B']);
    });

    it('reports an over-long line as soon as the limit is passed (no newline needed)', () => {
      const f = new LineFramer();
      expect(f.push(buf('$' + 'C'.repeat(126)))).toEqual([]);
      expect(summary(f.push(buf('C')))).toEqual(['!too-long']);
      expect(summary(f.push(buf('C'.repeat(300))))).toEqual([]);
    });

    it('a `$` ends the skipping after an over-long line', () => {
      expect(frame('$' + 'D'.repeat(200) + '$SHOE,0,HB*2B\n')).toEqual(['!too-long', '$SHOE,0,HB*2B']);
    });
  });

  it('gives identical results fed one byte at a time or in odd chunks', () => {
    const stream = buf(
      'noise$SHOE,17,CARD,AS*3D\r\n$SHOE,1$SHOE,0,HB*2B\n\r\n' +
        '$' +
        'E'.repeat(130) +
        '\r\n' +
        'zz\n' +
        '$' +
        'F'.repeat(126) +
        '\n' +
        '$RFID,1,HB*xx\r\n' +
        'tail',
    );
    const whole = summary(new LineFramer().push(stream));
    expect(whole).toEqual(['!noise', '$SHOE,17,CARD,AS*3D', '!noise', '$SHOE,0,HB*2B', '!too-long', '!noise', '$' + 'F'.repeat(126), '$RFID,1,HB*xx']);
    const f1 = new LineFramer();
    expect(summary(byteAtATime((c) => f1.push(c), stream))).toEqual(whole);
    for (const size of [2, 3, 7, 64, 127, 128, 129]) {
      const f = new LineFramer();
      const out: FramerOutput[] = [];
      for (let i = 0; i < stream.length; i += size) out.push(...f.push(stream.subarray(i, i + size)));
      expect(summary(out)).toEqual(whole);
    }
  });

  it('returns copies: reusing the input buffer does not change emitted lines', () => {
    const f = new LineFramer();
    const chunk = buf('$SHOE,0,HB*2B\r\n');
    const [out] = f.push(chunk);
    chunk.fill(0);
    expect('line' in out && out.line.toString()).toBe('$SHOE,0,HB*2B');
  });

  it('reset() drops a partial line', () => {
    const f = new LineFramer();
    f.push(buf('$SHOE,0,'));
    f.reset();
    expect(summary(f.push(buf('HB*2B\r\n$SHOE,0,HB*2B\r\n')))).toEqual(['!noise', '$SHOE,0,HB*2B']);
  });
});
