/**
 * The seam between a virtual device and its wire format (docs/DEVICES.md, "Simulators with
 * profiles"). A virtual device says what happens in the reference vocabulary — a frame type and
 * its fields, as device-protocols.md §1 lists them (`CARD,AS,R`, `STATE,LOADED`, `ROLL,3,4,5,2`)
 * — and its wire writes it:
 * - `referenceWire`: the NMEA-style line of §1 (`$SHOE,17,CARD,AS*CS\r\n`);
 * - `profileWire(profile)`: the same frame in a device profile's format (§3), through the
 *   profile encoder. A frame the profile has no message for (a `VER` or `HB` of a device that
 *   sends neither) is not sent: the real device would not send it either.
 * A HID profile's wire (`input: hid-keyboard` / `hid-report`) writes input reports: a barcode as
 * typed keyboard reports, a roll as one vendor report (`writeFrame` writes one report per chunk).
 * The wire also reads the gateway's commands back (RESCAN, LOCK, UNLOCK, REPEAT) and makes the
 * line faults of the format: a burst of noise, a frame with a bad check, a frame cut short.
 */
import { checksum, encodeLine, hex2 } from '../../drivers/codecs/nmea-line.js';
import type { Talker } from '../../src/core/vocabulary/frames.js';
import { createProfileEncoder, type EncodableFrame } from '../../drivers/profiles/profile-encoder.js';
import type { DeviceProfile } from '../../drivers/profiles/profile-schema.js';

export type WireCommand = { command: 'rescan' | 'lock' | 'unlock' } | { command: 'repeat'; from: number };

export interface FrameWire {
  /** `reference` or the profile's name */
  readonly format: string;
  /** the bytes of one frame; null when the format cannot say it (then the device does not send it) */
  encode(talker: Talker, seq: number, type: string, fields?: readonly (string | number)[]): string | Buffer | null;
  /** any body framed and checked as the format frames its messages (a barcode, a scenario's raw frame) */
  raw(body: string): string | Buffer;
  /** the commands in bytes the gateway wrote */
  commands(bytes: Buffer): WireCommand[];
  /** line noise that resynchronisation discards (or, in a format without a start mark, a frame of its own; on a HID wire, a report of the wrong size) */
  noise(): string | Buffer;
  /** a HID profile's wire: bytes per input report (a frame is whole reports, written one per chunk as a HID device delivers them) */
  readonly reportBytes?: number;
}

/** writes a frame as its device delivers it: on a HID wire one input report per write, else in one piece */
export function writeFrame(wire: FrameWire | undefined, write: (bytes: string | Buffer) => void, frame: string | Buffer): void {
  const n = wire?.reportBytes;
  if (n === undefined || typeof frame === 'string' || frame.length <= n) {
    write(frame);
    return;
  }
  for (let at = 0; at < frame.length; at += n) write(frame.subarray(at, at + n));
}

const NOISE = '\x00\xff#noise#';

export const referenceWire: FrameWire = {
  format: 'reference',
  encode: (talker, seq, type, fields = []) => encodeLine(talker, seq, type, fields),
  raw: (body) => `$${body}*${hex2(checksum(body))}\r\n`,
  commands(bytes) {
    const out: WireCommand[] = [];
    for (const m of bytes.toString('latin1').matchAll(/,(RESCAN|LOCK|UNLOCK|REPEAT)(?:,(\d{1,5}))?\*/g)) {
      out.push(m[1] === 'REPEAT' ? { command: 'repeat', from: Number(m[2]) } : { command: m[1].toLowerCase() as 'rescan' });
    }
    return out;
  },
  noise: () => NOISE,
};

/**
 * A reference frame (type and fields, §1) as the gateway's typed frame — what the profile encoder
 * takes. Returns null for a frame type the reference protocol does not have.
 */
export function referenceFrame(talker: Talker, type: string, fields: readonly (string | number)[] = []): EncodableFrame | null {
  const f = fields.map(String);
  switch (type) {
    case 'CARD':
      return { type: 'CARD', card: f[0], rescan: f[1] === 'R' };
    case 'STATE':
      return talker === 'SHUF' ? { type: 'SHUF_STATE', state: f[0] as 'IDLE' } : { type: 'STATE', state: f[0] as 'LOADED' };
    case 'ROLL':
      return { type: 'ROLL', dice: [Number(f[0]), Number(f[1]), Number(f[2])], bounces: Number(f[3] ?? 0) };
    case 'BALL':
      return { type: 'BALL', ball: Number(f[0]) };
    case 'COUNT':
      return { type: 'COUNT', count: Number(f[0]) };
    case 'TAG':
      return { type: 'TAG', uid: f[0] };
    case 'ERR':
      return { type: 'ERR', code: f[0] ?? '', text: f[1] ?? '' };
    case 'VER':
      return { type: 'VER', model: f[0] ?? '', firmware: f[1] ?? '' };
    case 'MISREAD':
    case 'CUT':
    case 'DROP':
    case 'HB':
    case 'SHAKE':
    case 'COCKED':
    case 'NOREAD':
    case 'START':
    case 'END':
      return { type };
    default:
      return null;
  }
}

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** wires standing in for a profile's encoder, by profile name (useWireFor) */
const wireHooks = new Map<string, FrameWire>();

/**
 * Makes the virtual devices whose profile is named `profileName` write through `wire` instead of
 * the profile encoder: a device family's own encoder (the device corpus, dev/corpus/) then feeds
 * the gateway, which still decodes with the profile. Returns the function that undoes it.
 */
export function useWireFor(profileName: string, wire: FrameWire): () => void {
  wireHooks.set(profileName, wire);
  return () => {
    if (wireHooks.get(profileName) === wire) wireHooks.delete(profileName);
  };
}

export function profileWire(profile: DeviceProfile): FrameWire {
  const hooked = wireHooks.get(profile.name);
  if (hooked) return hooked;
  const encoder = createProfileEncoder(profile);
  const binary = profile.encoding === 'binary';
  // each downlink template as a pattern over what the gateway wrote ({seq} any number, {from} captured)
  const downlinks = Object.entries(profile.downlink).map(([command, template]) => {
    const text = escapeRegex(template!)
      .replace(/\\\{seq\\\}/g, '\\d{1,5}')
      .replace(/\\\{from\\\}/g, '(\\d{1,5})');
    return { command: command as WireCommand['command'], re: new RegExp(text, 'g') };
  });
  const start = profile.framing.start ?? '';
  return {
    format: profile.name,
    ...(encoder.reportBytes !== undefined ? { reportBytes: encoder.reportBytes } : {}),
    encode(_talker, seq, type, fields = []) {
      const frame = referenceFrame(profile.talker, type, fields);
      if (!frame || !encoder.canEncode(frame)) return null;
      return encoder.encode({ ...frame, seq });
    },
    raw: (body) => encoder.wrap(body),
    commands(bytes) {
      const text = binary ? bytes.toString('hex').toUpperCase() : bytes.toString('latin1');
      const out: Array<{ at: number; c: WireCommand }> = [];
      for (const d of downlinks) {
        for (const m of text.matchAll(d.re))
          out.push({ at: m.index ?? 0, c: d.command === 'repeat' ? { command: 'repeat', from: Number(m[1]) } : { command: d.command } });
      }
      return out.sort((a, b) => a.at - b.at).map((x) => x.c);
    },
    noise() {
      // without a start mark nothing resynchronises inside a frame: the noise ends with the frame end
      const junk = Buffer.from(NOISE.replaceAll(start, ''), 'latin1');
      return start || profile.framing.length ? junk : Buffer.concat([junk, Buffer.from(profile.framing.end ?? '', 'latin1')]);
    },
  };
}

/**
 * Faults of the line itself, made in the device's format (the scenario runner's `badChecksum` and
 * `truncated` steps): the frame with its check value damaged, or only its first half.
 */
export function damagedFrame(frame: string | Buffer, how: 'bad-check' | 'truncated', profile?: DeviceProfile): Buffer {
  const b = Buffer.from(typeof frame === 'string' ? Buffer.from(frame, 'latin1') : frame);
  if (how === 'truncated') return b.subarray(0, Math.max(1, Math.floor(b.length / 2)));
  if (!profile) {
    // reference line: the first checksum digit after `*`
    const star = b.lastIndexOf(0x2a);
    b[star + 1] = b[star + 1] === 0x30 ? 0x31 : 0x30;
    return b;
  }
  if (profile.integrity.algorithm === 'none') throw new Error(`profile ${profile.name} has no integrity check to damage`);
  // the check value sits just before the end (or at the very end of a fixed-length frame, or after the end as its trailer)
  const endLen = profile.framing.length || profile.integrity.place === 'after-end' ? 0 : Buffer.from(profile.framing.end ?? '', 'latin1').length;
  const i = b.length - endLen - 1;
  if (!profile.integrity.encoding.startsWith('binary')) b[i] = b[i] === 0x30 ? 0x31 : 0x30;
  else {
    // a stuffed frame: flip a bit that keeps the byte clear of the escape, start and end bytes
    b[i] ^= profile.framing.stuffing ? 0x40 : 0xff;
  }
  return b;
}
