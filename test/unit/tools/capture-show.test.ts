import { describe, expect, it } from 'vitest';
import { captureHexView } from '../../../src/app/tools/capture-show.js';
import { SERIAL_CAPTURE_HEADER } from '../../helpers/capture-text.js';

const header = SERIAL_CAPTURE_HEADER;

describe('captureHexView', () => {
  it('shows each chunk with its time, gap, stream offset, hex and ASCII; long chunks wrap', () => {
    const lines = captureHexView(
      {
        header,
        chunks: [
          { t: 0, bytes: Buffer.from('\x021,C,AS\x03', 'latin1') },
          { t: 12.5, bytes: Buffer.from('0123456789abcdefXY', 'latin1') },
        ],
      },
      { width: 8 },
    );
    expect(lines[0]).toBe('serial /dev/ttyUSB0 (baudRate=9600), started 2026-12-01T20:00:00.000Z, tablegw 0.1.0');
    expect(lines[1]).toBe('2 chunk(s), 26 byte(s)');
    expect(lines[3]).toBe('     1         0.0           00000000  02 31 2c 43 2c 41 53 03  .1,C,AS.');
    expect(lines[4]).toBe('     2        12.5      +13  00000008  30 31 32 33 34 35 36 37  01234567');
    expect(lines[5]).toBe(`${' '.repeat(29)}00000010  38 39 61 62 63 64 65 66  89abcdef`);
    expect(lines[6]).toBe(`${' '.repeat(29)}00000018  58 59                    XY`);
    expect(lines).toHaveLength(7);
  });
  it('stops after --limit chunks and says how many are left', () => {
    const chunks = [0, 1, 2].map((t) => ({ t, bytes: Buffer.of(t) }));
    const lines = captureHexView({ header, chunks }, { limit: 2 });
    expect(lines.at(-1)).toBe('... 1 more chunk(s) (--limit)');
  });
});
