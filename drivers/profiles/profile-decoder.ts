/**
 * A profile precompiled into a streaming decoder: bytes in, frames or named rejects out.
 * Regexes, card decoder and delimiters are built once per profile, never per frame.
 */
import type { DeviceFrame, FrameReject } from '../codecs/frames.js';
import { describeBytes, reject } from '../codecs/reject.js';
import { cardDecoder } from './card-codes.js';
import { checksum, checksumBytes } from './checksums.js';
import type { DeviceProfile } from './profile-schema.js';

/** Delimiters are byte strings: each character is one byte (latin1), so `"\u00aa"` is the byte 0xAA. */
const enc = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0) & 0xff);
const HEX = '0123456789ABCDEF';

export interface ProfileDecoder {
  push(bytes: Uint8Array): (DeviceFrame | FrameReject)[];
}

export function compileProfile(p: DeviceProfile): ProfileDecoder {
  const start = p.framing.start ? enc(p.framing.start) : undefined;
  const end = p.framing.end ? enc(p.framing.end) : undefined;
  const fixed = p.framing.length;
  const max = p.framing.maxLength;
  const csLen = checksumBytes(p.integrity.kind) * (p.integrity.format === 'hex' ? 2 : 1);
  const sep = p.integrity.separator ? enc(p.integrity.separator) : new Uint8Array(0);
  const card = cardDecoder(p.cards);
  const msgs = p.messages.map((m) => ({ ...m, re: new RegExp(`^(?:${m.pattern})$`) }));
  const td = new TextDecoder('utf-8', { fatal: true });
  const buf = new Uint8Array(max + 1);
  let len = 0;
  let inFrame = !start;

  function decodeFrame(f: Uint8Array): DeviceFrame | FrameReject {
    const raw = (): string => describeBytes(f);
    let bodyStart = start ? start.length : 0;
    let bodyEnd = f.length - (end && !fixed ? end.length : 0);
    if (csLen > 0) {
      const csStart = bodyEnd - csLen;
      const sepStart = csStart - sep.length;
      if (sepStart < bodyStart) return reject('malformed', raw());
      for (let i = 0; i < sep.length; i++) if (f[sepStart + i] !== sep[i]) return reject('malformed', raw());
      let want: number;
      if (p.integrity.format === 'hex') {
        want = 0;
        for (let i = csStart; i < bodyEnd; i++) {
          const d = HEX.indexOf(String.fromCharCode(f[i]).toUpperCase());
          if (d < 0) return reject('malformed', raw());
          want = want * 16 + d;
        }
      } else {
        want = csLen === 2 ? f[csStart] | (f[csStart + 1] << 8) : f[csStart];
      }
      const got = checksum(p.integrity.kind, f, p.integrity.covers === 'start-and-body' ? 0 : bodyStart, sepStart);
      if (got !== want) return reject('bad-checksum', raw());
      bodyEnd = sepStart;
    }
    let text: string;
    if (p.encoding === 'binary') {
      text = '';
      for (let i = bodyStart; i < bodyEnd; i++) text += HEX[f[i] >> 4] + HEX[f[i] & 15];
    } else {
      try {
        text = td.decode(f.subarray(bodyStart, bodyEnd));
      } catch {
        return reject('malformed', raw());
      }
    }
    bodyStart = 0;
    for (const m of msgs) {
      const r = m.re.exec(text);
      if (!r) continue;
      const g: Record<string, string | number | boolean | undefined> = { ...m.fields, ...r.groups };
      const seq = m.seq ? Number(r.groups?.[m.seq]) : 0;
      if (!Number.isInteger(seq) || seq < 0 || seq > 65535) return reject('malformed', raw());
      const base = { talker: p.talker, seq };
      switch (m.type) {
        case 'CARD': {
          const c = card(String(g.card));
          if (!c) return reject('bad-field', raw());
          return { ...base, type: 'CARD', card: c, rescan: g.rescan === true || g.rescan === 'true' };
        }
        case 'BALL': {
          const n = p.encoding === 'binary' ? parseInt(String(g.ball), 16) : Number(g.ball);
          if (!Number.isInteger(n) || n < 1 || n > 80) return reject('bad-field', raw());
          return { ...base, type: 'BALL', ball: n };
        }
        case 'ROLL': {
          const d = [g.d1, g.d2, g.d3].map((x) => (p.encoding === 'binary' ? parseInt(String(x), 16) : Number(x)));
          if (d.some((x) => !Number.isInteger(x) || x < 1 || x > 6)) return reject('bad-field', raw());
          const bounces = Number(g.bounces ?? 0);
          return { ...base, type: 'ROLL', dice: [d[0], d[1], d[2]], bounces: Number.isFinite(bounces) ? bounces : 0 };
        }
        case 'COUNT':
          return { ...base, type: 'COUNT', count: Number(g.count) };
        case 'TAG':
          return { ...base, type: 'TAG', uid: String(g.uid) };
        case 'ERR':
          return { ...base, type: 'ERR', code: String(g.code ?? ''), text: String(g.text ?? '') };
        case 'VER':
          return { ...base, type: 'VER', model: String(g.model ?? ''), firmware: String(g.firmware ?? '') };
        case 'STATE':
          return { ...base, type: 'STATE', state: String(g.state) as 'OPEN' };
        case 'SHUF_STATE':
          return { ...base, type: 'SHUF_STATE', state: String(g.state) as 'IDLE' };
        default:
          return { ...base, type: m.type } as DeviceFrame;
      }
    }
    return reject('unknown-type', raw());
  }

  function endsWithEnd(e: Uint8Array): boolean {
    if (len < e.length) return false;
    for (let i = 0; i < e.length; i++) if (buf[len - e.length + i] !== e[i]) return false;
    return true;
  }

  return {
    push(bytes) {
      const out: (DeviceFrame | FrameReject)[] = [];
      let noise: number[] = [];
      const flushNoise = (): void => {
        if (noise.length) out.push(reject('noise', describeBytes(Uint8Array.from(noise))));
        noise = [];
      };
      for (const b of bytes) {
        if (!inFrame) {
          // start must be single char for resync
          if (start && b === start[0]) {
            flushNoise();
            inFrame = true;
            buf[0] = b;
            len = 1;
          } else noise.push(b);
          continue;
        }
        if (start && b === start[0] && len > 0 && p.encoding === 'ascii') {
          out.push(reject('malformed', describeBytes(buf, 0, len)));
          buf[0] = b;
          len = 1;
          continue;
        }
        buf[len++] = b;
        const done = fixed ? len === fixed : end ? endsWithEnd(end) : false;
        if (done) {
          out.push(decodeFrame(buf.subarray(0, len)));
          len = 0;
          inFrame = !start;
        } else if (len > max) {
          out.push(reject('too-long', describeBytes(buf, 0, len)));
          len = 0;
          inFrame = !start;
        }
      }
      flushNoise();
      return out;
    },
  };
}
