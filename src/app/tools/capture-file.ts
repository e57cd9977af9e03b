/**
 * The capture file `tablegw capture` writes and `tablegw profile check` reads (docs/DEVICES.md,
 * "Capture files"): JSON lines. The first line is the header — what was recorded, how and when —
 * then one line per chunk of bytes as it arrived: `{"t": <ms since start>, "hex": "<bytes>"}`.
 * Chunks keep the boundaries the operating system delivered, so a check feeds the decoder the same
 * pieces the gateway would have seen. Every line is validated with zod; a bad line is a
 * `CaptureFileError` naming the line, never a crash.
 */
import { readFileSync } from 'node:fs';
import * as z from 'zod';

export const CAPTURE_FORMAT = 'tablegw-capture';
export const CAPTURE_VERSION = 1;

export const captureHeaderSchema = z.object({
  format: z.literal(CAPTURE_FORMAT),
  version: z.literal(CAPTURE_VERSION),
  /** `serial` or `hid` */
  transport: z.enum(['serial', 'hid']),
  /** the serial path, or `hid:VID:PID[:serial]` */
  port: z.string().min(1),
  /** serial line settings (baudRate, dataBits, parity, stopBits); empty for HID */
  settings: z.record(z.string(), z.union([z.string(), z.number()])).default({}),
  /** ISO time of the start */
  startedAt: z.string().min(1),
  /** `tablegw <version>` */
  tool: z.string().min(1),
});
export type CaptureHeader = z.infer<typeof captureHeaderSchema>;

export const captureChunkSchema = z.object({
  /** ms since the start of the capture (never decreasing) */
  t: z.number().nonnegative(),
  /** the bytes, two hex digits each */
  hex: z.string().regex(/^(?:[0-9a-fA-F]{2})+$/, 'must be an even number of hex digits'),
});

export interface CaptureChunk {
  t: number;
  bytes: Buffer;
}

export interface Capture {
  header: CaptureHeader;
  chunks: CaptureChunk[];
}

/** a capture file that cannot be read; `code` is stable, `message` names the file and the line */
export class CaptureFileError extends Error {
  constructor(
    readonly code: 'capture-unreadable' | 'capture-bad-header' | 'capture-bad-line' | 'capture-time-backwards',
    message: string,
  ) {
    super(message);
  }
}

export function headerLine(h: CaptureHeader): string {
  return `${JSON.stringify(captureHeaderSchema.parse(h))}\n`;
}

export function chunkLine(t: number, bytes: Uint8Array): string {
  return `${JSON.stringify({ t, hex: Buffer.from(bytes).toString('hex') })}\n`;
}

const issueText = (e: z.ZodError): string => e.issues.map((i) => `${i.path.join('.') || '(line)'}: ${i.message}`).join('; ');

/** parses the text of a capture file (`name` is for the messages) */
export function parseCapture(text: string, name = 'capture'): Capture {
  const lines = text.split('\n');
  const json = (line: string, no: number, code: 'capture-bad-header' | 'capture-bad-line'): unknown => {
    try {
      return JSON.parse(line);
    } catch {
      throw new CaptureFileError(code, `${name}: line ${no}: not a JSON line`);
    }
  };
  if (!lines[0]?.trim()) throw new CaptureFileError('capture-bad-header', `${name}: empty, not a capture file (the first line is the header)`);
  const h = captureHeaderSchema.safeParse(json(lines[0], 1, 'capture-bad-header'));
  if (!h.success)
    throw new CaptureFileError('capture-bad-header', `${name}: line 1: not a ${CAPTURE_FORMAT} v${CAPTURE_VERSION} header (${issueText(h.error)})`);
  const chunks: CaptureChunk[] = [];
  let last = 0;
  for (let i = 1; i < lines.length; i++) {
    if (!lines[i].trim()) continue;
    const c = captureChunkSchema.safeParse(json(lines[i], i + 1, 'capture-bad-line'));
    if (!c.success) throw new CaptureFileError('capture-bad-line', `${name}: line ${i + 1}: ${issueText(c.error)}`);
    if (c.data.t < last) throw new CaptureFileError('capture-time-backwards', `${name}: line ${i + 1}: t ${c.data.t} is before the previous chunk's ${last}`);
    last = c.data.t;
    chunks.push({ t: c.data.t, bytes: Buffer.from(c.data.hex, 'hex') });
  }
  return { header: h.data, chunks };
}

export function readCaptureFile(file: string): Capture {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new CaptureFileError('capture-unreadable', `${file}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  return parseCapture(text, file);
}
