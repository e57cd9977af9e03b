/** Capture files as `tablegw capture` writes them, for tests that feed the tools a capture. */
import { type CaptureHeader, chunkLine, headerLine } from '../../src/app/tools/capture-file.js';

/** the header of a capture of a serial device at 9600 baud */
export const SERIAL_CAPTURE_HEADER = {
  format: 'tablegw-capture',
  version: 1,
  transport: 'serial',
  port: '/dev/ttyUSB0',
  settings: { baudRate: 9600 },
  startedAt: '2026-12-01T20:00:00.000Z',
  tool: 'tablegw 0.1.0',
} as const satisfies CaptureHeader;

/** a capture file's text: the serial header, then each chunk at its time (ms) */
export function captureText(chunks: ReadonlyArray<{ t: number; bytes: Uint8Array }>): string {
  return headerLine(SERIAL_CAPTURE_HEADER) + chunks.map((c) => chunkLine(c.t, c.bytes)).join('');
}
