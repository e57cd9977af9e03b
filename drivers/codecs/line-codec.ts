/**
 * The serial line codec of one device: LineFramer -> parseLine -> the talker's body codec.
 * Bytes in, typed frames (or rejects, in wire order) out. Pure and synchronous.
 *
 * Also the reverse direction for simulators and tests: encodeBody / encodeFrame.
 */
import { TALKERS } from '../../src/core/vocabulary/frames.js';
import type { DeviceFrame, DeviceFrameBody, FrameReject, Talker } from '../../src/core/vocabulary/frames.js';
import { LineFramer } from './line-framer.js';
import { encodeLine, parseLine } from './nmea-line.js';
import { describeBytes, isReject, reject } from './reject.js';
import { decodeShoeBody } from './shoe-codec.js';
import { decodeRfidBody } from './rfid-codec.js';
import { decodeShufflerBody } from './shuffler-codec.js';
import { decodeDiceBody } from './dice-codec.js';
import { decodeBallBody } from './ball-codec.js';

export { isReject } from './reject.js';

/** Maps a frame's TYPE and fields to a typed body, or a reject (unknown-type / malformed / bad-field). */
export type BodyDecoder = (type: string, fields: readonly string[]) => DeviceFrameBody | FrameReject;

export const BODY_DECODERS: Readonly<Record<Talker, BodyDecoder>> = {
  SHOE: decodeShoeBody,
  RFID: decodeRfidBody,
  SHUF: decodeShufflerBody,
  DICE: decodeDiceBody,
  BALL: decodeBallBody,
};

export function isTalker(x: string): x is Talker {
  return (TALKERS as readonly string[]).includes(x);
}

export class LineCodec {
  readonly talker: Talker;
  private readonly framer = new LineFramer();
  private readonly decodeBody: BodyDecoder;

  constructor(talker: Talker) {
    if (!isTalker(talker)) throw new RangeError(`unknown talker: ${String(talker)}`);
    this.talker = talker;
    this.decodeBody = BODY_DECODERS[talker];
  }

  /** Feeds received bytes; returns the frames and rejects completed by them, in order. */
  push(chunk: Uint8Array): Array<DeviceFrame | FrameReject> {
    const framed = this.framer.push(chunk);
    const out: Array<DeviceFrame | FrameReject> = new Array(framed.length);
    for (let k = 0; k < framed.length; k++) {
      const item = framed[k];
      out[k] = 'line' in item ? this.decodeLine(item.line) : item;
    }
    return out;
  }

  /** Decodes one complete line (`$...*CS`, terminator optional). */
  decodeLine(line: Uint8Array): DeviceFrame | FrameReject {
    const parsed = parseLine(line);
    if (isReject(parsed)) return parsed;
    if (parsed.talker !== this.talker) return reject('unknown-talker', describeBytes(line));
    const body = this.decodeBody(parsed.type, parsed.fields);
    if (isReject(body)) return reject(body.reason, describeBytes(line));
    return { talker: this.talker, seq: parsed.seq, ...body } as DeviceFrame;
  }

  /** Drops any partial line (call when the port is reopened). */
  reset(): void {
    this.framer.reset();
  }
}

/** The wire TYPE and fields of a typed body (inverse of the talker codecs). */
export function encodeBody(body: DeviceFrameBody): { type: string; fields: (string | number)[] } {
  switch (body.type) {
    case 'HB':
    case 'MISREAD':
    case 'CUT':
    case 'DROP':
    case 'SHAKE':
    case 'COCKED':
    case 'NOREAD':
    case 'START':
    case 'END':
      return { type: body.type, fields: [] };
    case 'ERR':
      return { type: 'ERR', fields: body.text === '' ? [body.code] : [body.code, body.text] };
    case 'VER':
      return { type: 'VER', fields: body.capabilities?.length ? [body.model, body.firmware, body.capabilities.join('+')] : [body.model, body.firmware] };
    case 'CARD':
      return { type: 'CARD', fields: body.rescan ? [body.card, 'R'] : [body.card] };
    case 'STATE':
      return { type: 'STATE', fields: [body.state] };
    case 'TAG':
      return { type: 'TAG', fields: [body.uid] };
    case 'SHUF_STATE':
      return { type: 'STATE', fields: [body.state] };
    case 'COUNT':
      return { type: 'COUNT', fields: [body.count] };
    case 'ROLL':
      return { type: 'ROLL', fields: [body.dice[0], body.dice[1], body.dice[2], body.bounces] };
    case 'BALL':
      return { type: 'BALL', fields: [body.ball] };
  }
}

/** The complete wire line (`$...*CS\r\n`) of a typed frame, for simulators and tests. */
export function encodeFrame(frame: DeviceFrame): string {
  const { type, fields } = encodeBody(frame);
  return encodeLine(frame.talker, frame.seq, type, fields);
}
