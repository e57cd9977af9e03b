/**
 * NMEA-style line framing (device-protocols.md §1).
 *
 * - `$` always starts a new frame, even in the middle of a line. Bytes before it (a run of junk,
 *   or an unfinished frame) are discarded and reported as ONE `noise` reject per run.
 * - A line ends at `\r\n` or a bare `\n`. Emitted lines start with `$` and exclude the terminator
 *   (`\n` and one preceding `\r`).
 * - At most 128 bytes per line including `$` and the terminator. An over-long line is one
 *   `too-long` reject (reported as soon as the 128th byte before the `\n` arrives); everything up
 *   to the next `$` or `\n` is then skipped silently.
 * - A run made only of `\r` that ends at `\n` (blank lines, stray CRs between frames) is ignored.
 * - Chunks may split anywhere: feeding one byte at a time yields exactly the same output.
 *
 * Hot path: a fixed 127-byte line buffer, no per-byte strings; the only allocations per valid
 * line are the line Buffer itself and its `{ line }` wrapper.
 */
import type { FrameReject } from '../../src/core/vocabulary/frames.js';
import { describeBytes, RAW_MAX, reject } from './reject.js';

export const MAX_LINE_BYTES = 128;
/** Bytes a line may hold before its terminating `\n` (includes `$` and an optional `\r`). */
const MAX_CONTENT = MAX_LINE_BYTES - 1;

const DOLLAR = 0x24;
const LF = 0x0a;
const CR = 0x0d;

const IDLE = 0; // between frames: anything but `$` is noise
const FRAME = 1; // inside a frame that started with `$`
const SKIP = 2; // after a too-long reject: drop until `$` or `\n`

export type FramedLine = { line: Buffer };
export type FramerOutput = FramedLine | FrameReject;

export class LineFramer {
  private readonly buf = Buffer.alloc(MAX_CONTENT);
  private len = 0;
  private state = IDLE;
  /** First RAW_MAX bytes of the current junk run (for the reject's raw text). */
  private readonly noiseBuf = Buffer.alloc(RAW_MAX);
  private noiseLen = 0;
  private noiseOnlyCr = true;

  push(chunk: Uint8Array): FramerOutput[] {
    const out: FramerOutput[] = [];
    const n = chunk.length;
    let i = 0;
    while (i < n) {
      if (this.state === FRAME) {
        let j = i;
        while (j < n) {
          const b = chunk[j];
          if (b === LF || b === DOLLAR) break;
          j++;
        }
        const take = j - i;
        if (this.len + take > MAX_CONTENT) {
          const room = MAX_CONTENT - this.len;
          this.buf.set(chunk.subarray(i, i + room), this.len);
          out.push(reject('too-long', describeBytes(this.buf, 0, MAX_CONTENT, `>${MAX_LINE_BYTES}`)));
          this.len = 0;
          this.state = SKIP;
          i = j;
          continue;
        }
        if (take > 0) {
          this.buf.set(chunk.subarray(i, j), this.len);
          this.len += take;
        }
        if (j === n) break;
        if (chunk[j] === LF) {
          const end = this.buf[this.len - 1] === CR ? this.len - 1 : this.len;
          const line = Buffer.allocUnsafe(end);
          this.buf.copy(line, 0, 0, end);
          out.push({ line });
          this.len = 0;
          this.state = IDLE;
        } else {
          // `$` inside a frame: the unfinished frame is discarded (resynchronisation)
          out.push(reject('noise', describeBytes(this.buf, 0, this.len)));
          this.len = 1; // buf[0] is already `$`
        }
        i = j + 1;
      } else if (this.state === IDLE) {
        let j = i;
        while (j < n) {
          const b = chunk[j];
          if (b === LF || b === DOLLAR) break;
          if (b !== CR) this.noiseOnlyCr = false;
          if (this.noiseLen < RAW_MAX) this.noiseBuf[this.noiseLen] = b;
          this.noiseLen++;
          j++;
        }
        if (j === n) break;
        if (this.noiseLen > 0) {
          if (!this.noiseOnlyCr || chunk[j] === DOLLAR) {
            out.push(reject('noise', describeBytes(this.noiseBuf, 0, Math.min(this.noiseLen, RAW_MAX), this.noiseLen)));
          }
          this.noiseLen = 0;
          this.noiseOnlyCr = true;
        }
        if (chunk[j] === DOLLAR) this.startFrame();
        i = j + 1;
      } else {
        let j = i;
        while (j < n) {
          const b = chunk[j];
          if (b === LF || b === DOLLAR) break;
          j++;
        }
        if (j === n) break;
        if (chunk[j] === DOLLAR) this.startFrame();
        else this.state = IDLE;
        i = j + 1;
      }
    }
    return out;
  }

  /** Forget any partial line or junk run (e.g. when the port is reopened). */
  reset(): void {
    this.len = 0;
    this.state = IDLE;
    this.noiseLen = 0;
    this.noiseOnlyCr = true;
  }

  private startFrame(): void {
    this.buf[0] = DOLLAR;
    this.len = 1;
    this.state = FRAME;
  }
}
