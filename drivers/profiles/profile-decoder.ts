/**
 * A profile precompiled into a streaming decoder: bytes in, frames or named rejects out
 * (device-protocols.md §3, docs/DEVICES.md "Device profiles").
 *
 * Everything is built once per profile: the delimiters as byte tables, the card decoder, and per
 * message / reject rule its pattern on the linear-time engine (linear-pattern.ts: no body can
 * make a match take more than time linear in its length) plus a literal every match must
 * contain, so a body skips the rules it cannot match with one `includes` and runs (usually) one
 * match. A frame longer than `framing.maxLength` is a `too-long` reject before any pattern sees
 * it. The hot path has no TextDecoder for ASCII bodies, no object spread.
 *
 * The decoder is clock-free: a frame that ends by silence (`framing.idleMs`) ends when the owner
 * calls `flushIdle()` after that much silence (drivers/device-driver.ts `idleFlushMs`).
 */
import type { DeviceFrame, FrameReject, RejectReason, ShoeState, ShufflerState, Talker } from '../../src/core/vocabulary/frames.js';
import { KeyboardWedgeDecoder } from '../codecs/hid-keyboard.js';
import { describeBytes, RAW_MAX, reject } from '../codecs/reject.js';
import { SHOE_STATES } from '../codecs/shoe-codec.js';
import { SHUFFLER_STATES } from '../codecs/shuffler-codec.js';
import { type CardDecoder, cardDecoder } from './card-codes.js';
import { checksum, checksumBytes } from './checksums.js';
import { mustCompileUserPattern } from './linear-pattern.js';
import type { DeviceProfile, FrameTypeName } from './profile-schema.js';

export type DecodedItem = DeviceFrame | FrameReject;

export interface ProfileDecoder {
  /** Feeds received bytes (HID profiles: whole input reports); returns completed frames and rejects in order. */
  push(bytes: Uint8Array): DecodedItem[];
  /** The line has been silent for `framing.idleMs`: ends the pending frame (and a pending noise run). */
  flushIdle(): DecodedItem[];
  /**
   * The input has ended (the end of a capture, `tablegw profile check`): a pending noise run is
   * reported; a frame cut off by the end stays unreported (it never completed), except that a
   * profile whose frames end by silence (`idleMs`) ends it as the silence would.
   */
  endOfStream(): DecodedItem[];
  /** Forgets any partial frame (the port was reopened). */
  reset(): void;
  /** `framing.idleMs` of the profile, when frames end by silence. */
  readonly idleMs: number | undefined;
}

/** Delimiters are byte strings: each character is one byte (latin1), so `"\u00aa"` is the byte 0xAA. */
const enc = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0) & 0xff);
const HEX = '0123456789ABCDEF';

const HUNT = 0; // waiting for the start byte: everything else is noise
const FRAME = 1; // inside a frame
const SKIP = 2; // after a too-long reject: the rest of the frame is dropped up to its end or a start byte

const DEFAULT_RANGES: Record<string, [number, number]> = { ball: [1, 80], d1: [1, 6], d2: [1, 6], d3: [1, 6], bounces: [0, 99], count: [0, 999] };

/** The fields each frame type reads. */
const TYPE_FIELDS: Partial<Record<FrameTypeName, string[]>> = {
  CARD: ['card', 'rescan'],
  TAG: ['uid'],
  ROLL: ['d1', 'd2', 'd3', 'bounces'],
  COUNT: ['count'],
  BALL: ['ball'],
  ERR: ['code', 'text'],
  VER: ['model', 'firmware', 'capabilities'],
  STATE: ['state'],
  SHUF_STATE: ['state'],
};

type Value = string | number | boolean | undefined;

/** Where one field of a message comes from: a capture (or report byte) slot, else a constant; then a value map. */
interface FieldSource {
  slot: number;
  constant: Value;
  map: Map<string, string | number | boolean> | undefined;
  min: number;
  max: number;
}

/** the values of a match: [whole, group 1, ...] */
type MatchValues = ArrayLike<string | undefined>;

interface CompiledRule {
  /** the rule's pattern on the linear-time engine, matched against the whole body (null: no match) */
  match: (text: string) => MatchValues | null;
  /** a literal every match contains ('' = none): skipped when the body lacks it */
  literal: string;
  reason: RejectReason | undefined;
  type: FrameTypeName;
  seqSlot: number;
  /** sources in the order of TYPE_FIELDS[type] */
  src: FieldSource[];
}

/**
 * The longest literal text every match of `pattern` must contain ('' when there is none, e.g. a
 * top-level alternation): a body without it cannot match, so the rule is skipped with one
 * `includes` instead of a regex run. Escaped punctuation counts as literal; a quantified
 * character, a class, a group or an escape class ends a run.
 */
export function requiredLiteral(pattern: string): string {
  let best = '';
  let run = '';
  let depth = 0;
  let inClass = false;
  const flush = (): void => {
    if (run.length > best.length) best = run;
    run = '';
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (inClass) {
      if (c === '\\') i++;
      else if (c === ']') inClass = false;
      continue;
    }
    if (c === '\\') {
      const n = pattern[i + 1] ?? '';
      i++;
      if (depth === 0 && n !== '' && '\\^$.|?*+()[]{}/-,;:=!<>#&%@~\'"'.includes(n)) {
        run += n;
        continue;
      }
      if (depth === 0) flush();
      // skip the escape's own argument: \k<name>, \uXXXX / \u{...}, \xHH, \cX, \12
      if (n === 'k' && pattern[i + 1] === '<') i = Math.max(i, pattern.indexOf('>', i));
      else if (n === 'u' && pattern[i + 1] === '{') i = Math.max(i, pattern.indexOf('}', i));
      else if (n === 'u') i += 4;
      else if (n === 'x') i += 2;
      else if (n === 'c') i += 1;
      else if (n >= '0' && n <= '9') while (pattern[i + 1] >= '0' && pattern[i + 1] <= '9') i++;
      continue;
    }
    if (c === '[') {
      inClass = true;
      if (depth === 0) flush();
      continue;
    }
    if (c === '(') {
      if (depth === 0) flush();
      depth++;
      continue;
    }
    if (c === ')') {
      depth--;
      continue;
    }
    if (depth > 0) continue;
    if (c === '|') return '';
    if (c === '?' || c === '*' || c === '+' || c === '{') {
      // the quantified character is not required as such; `{n,m}` is skipped whole
      run = run.slice(0, -1);
      flush();
      if (c === '{') {
        const close = pattern.indexOf('}', i);
        if (close > 0) i = close;
      }
      continue;
    }
    if (c === '^' || c === '$' || c === '.') {
      flush();
      continue;
    }
    run += c;
  }
  flush();
  return best;
}

function toMap(m: Record<string, string | number | boolean> | undefined): Map<string, string | number | boolean> | undefined {
  return m ? new Map(Object.entries(m)) : undefined;
}

/** Strict integer: a number, or digits only (hex digits when `hex`). NaN otherwise. */
function toInt(v: Value, hex: boolean): number {
  if (typeof v === 'number') return Number.isInteger(v) ? v : Number.NaN;
  if (typeof v !== 'string' || v.length === 0 || v.length > 8) return Number.NaN;
  let n = 0;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    let d: number;
    if (c >= 0x30 && c <= 0x39) d = c - 0x30;
    else if (hex && c >= 0x41 && c <= 0x46) d = c - 0x37;
    else if (hex && c >= 0x61 && c <= 0x66) d = c - 0x57;
    else return Number.NaN;
    n = n * (hex ? 16 : 10) + d;
  }
  return n;
}

const BAD = Symbol('bad-field');
/** what a matched reject rule yields: it captures nothing */
const NO_MATCH_VALUES: MatchValues = [];

/** Node's native latin1 slice (what `buf.toString('latin1', a, b)` ends in, without its argument checks). */
const latin1Slice = (Buffer.prototype as unknown as { latin1Slice?: (this: Buffer, s: number, e: number) => string }).latin1Slice;
const latin1 = latin1Slice ? (b: Buffer, s: number, e: number): string => latin1Slice.call(b, s, e) : (b: Buffer, s: number, e: number): string => b.toString('latin1', s, e);

/** The field's value: the captured text (or report byte), else the constant; mapped when a map is given. */
function fieldValue(s: FieldSource, vals: ArrayLike<Value>): Value | typeof BAD {
  let v = s.slot >= 0 ? vals[s.slot] : undefined;
  if (v === undefined) v = s.constant;
  if (v !== undefined && s.map !== undefined) {
    const m = s.map.get(String(v));
    if (m === undefined) return BAD;
    v = m;
  }
  return v;
}

function intOf(s: FieldSource, vals: ArrayLike<Value>, hex: boolean): number {
  const v = fieldValue(s, vals);
  if (v === BAD) return -1;
  const n = toInt(v, hex);
  return n >= s.min && n <= s.max ? n : -1;
}

function textOf(s: FieldSource, vals: ArrayLike<Value>): string | null {
  const v = fieldValue(s, vals);
  if (v === BAD) return null;
  return v === undefined ? '' : String(v);
}

function truthy(v: Value | typeof BAD): boolean {
  if (typeof v === 'string') return v !== '' && v !== 'false' && v !== '0';
  if (typeof v === 'number') return v !== 0;
  return v === true;
}

/**
 * Builds the typed frame of a matched message from its values (capture texts or report bytes).
 * Returns the reject reason when a field does not read.
 */
function buildFrame(rule: CompiledRule, vals: ArrayLike<Value>, talker: Talker, seq: number, hex: boolean, card: CardDecoder): DeviceFrame | RejectReason {
  const s = rule.src;
  switch (rule.type) {
    case 'CARD': {
      const code = textOf(s[0], vals);
      const c = code ? card(code) : null;
      if (c === null) return 'bad-field';
      const r = fieldValue(s[1], vals);
      if (r === BAD) return 'bad-field';
      return { talker, seq, type: 'CARD', card: c, rescan: truthy(r) };
    }
    case 'BALL': {
      const ball = intOf(s[0], vals, hex);
      return ball < 0 ? 'bad-field' : { talker, seq, type: 'BALL', ball };
    }
    case 'ROLL': {
      const d1 = intOf(s[0], vals, hex);
      const d2 = intOf(s[1], vals, hex);
      const d3 = intOf(s[2], vals, hex);
      const b = fieldValue(s[3], vals);
      const bounces = b === undefined ? 0 : intOf(s[3], vals, hex);
      if (d1 < 0 || d2 < 0 || d3 < 0 || bounces < 0) return 'bad-field';
      return { talker, seq, type: 'ROLL', dice: [d1, d2, d3], bounces };
    }
    case 'COUNT': {
      const count = intOf(s[0], vals, hex);
      return count < 0 ? 'bad-field' : { talker, seq, type: 'COUNT', count };
    }
    case 'TAG': {
      const uid = textOf(s[0], vals);
      return uid ? { talker, seq, type: 'TAG', uid: uid.toUpperCase() } : 'bad-field';
    }
    case 'ERR': {
      const code = textOf(s[0], vals);
      const text = textOf(s[1], vals);
      if (code === null || text === null) return 'bad-field';
      return { talker, seq, type: 'ERR', code, text };
    }
    case 'VER': {
      const model = textOf(s[0], vals);
      const firmware = textOf(s[1], vals);
      const caps = textOf(s[2], vals);
      if (model === null || firmware === null || caps === null) return 'bad-field';
      if (caps === '') return { talker, seq, type: 'VER', model, firmware };
      return { talker, seq, type: 'VER', model, firmware, capabilities: caps.split('+') };
    }
    case 'STATE': {
      const state = textOf(s[0], vals);
      if (state === null || !(SHOE_STATES as readonly string[]).includes(state)) return 'bad-field';
      return { talker, seq, type: 'STATE', state: state as ShoeState };
    }
    case 'SHUF_STATE': {
      const state = textOf(s[0], vals);
      if (state === null || !(SHUFFLER_STATES as readonly string[]).includes(state)) return 'bad-field';
      return { talker, seq, type: 'SHUF_STATE', state: state as ShufflerState };
    }
    default:
      return { talker, seq, type: rule.type } as DeviceFrame;
  }
}

function fieldSources(type: FrameTypeName, slotOf: (field: string) => number, consts: Record<string, Value>, maps: Record<string, Record<string, string | number | boolean>>, ranges: Record<string, { min: number; max: number }>): FieldSource[] {
  return (TYPE_FIELDS[type] ?? []).map((f) => {
    const r = ranges[f];
    const d = DEFAULT_RANGES[f];
    return {
      slot: slotOf(f),
      constant: Object.hasOwn(consts, f) ? consts[f] : undefined,
      map: toMap(Object.hasOwn(maps, f) ? maps[f] : undefined),
      min: r ? r.min : d ? d[0] : 0,
      max: r ? r.max : d ? d[1] : 0,
    };
  });
}

export function compileProfile(p: DeviceProfile): ProfileDecoder {
  if (p.input === 'hid-report') return compileReportDecoder(p);
  const talker = p.talker;
  const card = cardDecoder(p.cards);
  const binary = p.encoding === 'binary';

  // ---- framing tables
  const start = p.framing.start ? enc(p.framing.start) : undefined;
  const start0 = start ? start[0] : -1;
  const startLen = start ? start.length : 0;
  const fixed = p.framing.length ?? 0;
  const max = p.framing.maxLength;
  const ends = [p.framing.end, ...p.framing.acceptEnd].filter((e): e is string => e !== undefined).map(enc).sort((a, b) => b.length - a.length);
  /** last bytes of the end delimiters (a frame can only end on one) */
  const terminal = new Uint8Array(256);
  /** every byte of every end delimiter (a noise run made only of these is a blank line, ignored) */
  const delimiter = new Uint8Array(256);
  for (const e of ends) {
    terminal[e[e.length - 1]] = 1;
    for (const b of e) delimiter[b] = 1;
  }
  /** bytes that need a decision inside a frame: an end delimiter's last byte or the start byte */
  const stop = Uint8Array.from(terminal);
  if (start) stop[start[0]] = 1;
  // a new start byte inside a frame restarts it (text profiles only: binary data may contain it)
  const resync = start !== undefined && !binary;
  const interrupted: RejectReason = p.framing.interrupted;

  // ---- integrity and body checks
  const csLen = checksumBytes(p.integrity.kind) * (p.integrity.format === 'hex' ? 2 : 1);
  const csHex = p.integrity.format === 'hex';
  const csKind = p.integrity.kind;
  const csFromStart = p.integrity.covers === 'start-and-body';
  const bodyXor = csKind === 'xor8' && !csFromStart;
  const sep = p.integrity.separator ? enc(p.integrity.separator) : new Uint8Array(0);
  const forbidden = new Uint8Array(256);
  for (const b of enc(p.body.forbid)) forbidden[b] = 1;
  if (p.body.controls === 'reject') {
    for (let b = 0; b < 0x20; b++) forbidden[b] = 1;
    forbidden[0x7f] = 1;
  }
  const uppercase = p.body.uppercase;

  // ---- one small regex per message and reject rule, in order; a required literal skips most
  // (the patterns run on the linear-time engine: no body, however crafted, can stall the decoder;
  // a pattern it cannot run was refused when the profile was validated)
  const rules: CompiledRule[] = [];
  for (const m of p.messages) {
    const re = mustCompileUserPattern(m.pattern, '', `messages.${m.name}.pattern`, { whole: true });
    const slotOf = (f: string): number => re.names.get(f) ?? -1;
    rules.push({ match: (t) => re.exec(t), literal: requiredLiteral(m.pattern), reason: undefined, type: m.type, seqSlot: m.seq ? slotOf(m.seq) : -1, src: fieldSources(m.type, slotOf, m.fields, m.map, m.ranges) });
  }
  for (const r of p.rejects) {
    // a reject rule captures nothing: the engine's cheaper yes/no match
    const re = mustCompileUserPattern(r.pattern, '', `rejects.${r.name}.pattern`, { whole: true });
    rules.push({ match: (t) => (re.test(t) ? NO_MATCH_VALUES : null), literal: requiredLiteral(r.pattern), reason: r.reason, type: 'HB', seqSlot: -1, src: [] });
  }
  const ruleCount = rules.length;
  const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

  // ---- state
  const buf = Buffer.alloc(max + 1);
  let len = 0;
  let state = start ? HUNT : FRAME;
  const noiseBuf = Buffer.alloc(RAW_MAX);
  let noiseLen = 0;
  let noiseOnlyDelimiters = true;

  /** Decodes `buf[0, frameLen)` whose last `endLen` bytes are the end delimiter. */
  function decodeFrame(frameLen: number, endLen: number): DecodedItem {
    let bodyStart = startLen;
    let bodyEnd = frameLen - endLen;
    for (let i = 0; i < startLen; i++) if (buf[i] !== start![i]) return reject('malformed', describeBytes(buf, 0, frameLen));
    let sepStart = bodyEnd;
    let want = 0;
    if (csLen > 0) {
      const csStart = bodyEnd - csLen;
      sepStart = csStart - sep.length;
      if (sepStart < bodyStart) return reject('malformed', describeBytes(buf, 0, frameLen));
      for (let i = 0; i < sep.length; i++) if (buf[sepStart + i] !== sep[i]) return reject('malformed', describeBytes(buf, 0, frameLen));
      if (csHex) {
        for (let i = csStart; i < bodyEnd; i++) {
          const c = buf[i];
          const d = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x41 && c <= 0x46 ? c - 0x37 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1;
          if (d < 0) return reject('malformed', describeBytes(buf, 0, frameLen));
          want = want * 16 + d;
        }
      } else {
        want = csLen === 2 ? buf[csStart] | (buf[csStart + 1] << 8) : buf[csStart];
      }
    }
    let ascii = true;
    let xor = 0; // XOR-8 of the body, computed in the same pass (the reference protocol's check)
    for (let i = bodyStart; i < sepStart; i++) {
      const b = buf[i];
      if (forbidden[b] === 1) return reject('malformed', describeBytes(buf, 0, frameLen));
      if (b >= 0x80) ascii = false;
      xor ^= b;
    }
    if (csLen > 0) {
      const got = bodyXor ? xor : checksum(csKind, buf, csFromStart ? 0 : bodyStart, sepStart);
      if (got !== want) return reject('bad-checksum', describeBytes(buf, 0, frameLen));
      bodyEnd = sepStart;
    }
    let text: string;
    if (binary) {
      text = '';
      for (let i = bodyStart; i < bodyEnd; i++) text += HEX[buf[i] >> 4] + HEX[buf[i] & 15];
    } else if (ascii) {
      text = latin1(buf, bodyStart, bodyEnd);
    } else {
      try {
        text = utf8.decode(buf.subarray(bodyStart, bodyEnd));
      } catch {
        return reject('malformed', describeBytes(buf, 0, frameLen));
      }
    }
    if (uppercase) text = text.toUpperCase();
    bodyStart = 0;
    let r: MatchValues | null = null;
    let rule: CompiledRule | undefined;
    for (let k = 0; k < ruleCount; k++) {
      const c = rules[k];
      if (c.literal !== '' && !text.includes(c.literal)) continue;
      r = c.match(text);
      if (r !== null) {
        rule = c;
        break;
      }
    }
    if (rule === undefined || r === null) return reject('unknown-type', describeBytes(buf, 0, frameLen));
    if (rule.reason !== undefined) return reject(rule.reason, describeBytes(buf, 0, frameLen));
    let seq = 0;
    if (rule.seqSlot >= 0) {
      seq = toInt(r[rule.seqSlot], binary);
      if (!(seq >= 0 && seq <= 65535)) return reject('malformed', describeBytes(buf, 0, frameLen));
    }
    const f = buildFrame(rule, r, talker, seq, binary, card);
    return typeof f === 'string' ? reject(f, describeBytes(buf, 0, frameLen)) : f;
  }

  /** Length of the end delimiter `buf[0, len)` ends with, 0 when none. */
  function endLength(): number {
    for (let k = 0; k < ends.length; k++) {
      const e = ends[k];
      const n = e.length;
      if (len < n + startLen) continue;
      let ok = true;
      for (let i = 0; i < n; i++) {
        if (buf[len - n + i] !== e[i]) {
          ok = false;
          break;
        }
      }
      if (ok) return n;
    }
    return 0;
  }

  function emit(out: DecodedItem[], endLen: number): void {
    // a frame with nothing but delimiters in it (a blank line) is no frame
    let blank = startLen === 0 && fixed === 0;
    if (blank) {
      for (let i = 0; i < len - endLen; i++) {
        if (delimiter[buf[i]] !== 1) {
          blank = false;
          break;
        }
      }
    }
    if (!blank) out.push(decodeFrame(len, endLen));
    len = 0;
    state = start ? HUNT : FRAME;
  }

  function flushNoise(out: DecodedItem[]): void {
    out.push(reject('noise', describeBytes(noiseBuf, 0, Math.min(noiseLen, RAW_MAX), noiseLen)));
    noiseLen = 0;
    noiseOnlyDelimiters = true;
  }

  function pushBytes(bytes: Uint8Array, out: DecodedItem[]): void {
    const n = bytes.length;
    for (let i = 0; i < n; i++) {
      if (state === FRAME && fixed === 0) {
        // the bytes inside a frame that need no decision are copied in a tight loop
        let room = max - 1 - len;
        while (i < n && room > 0) {
          const c = bytes[i];
          if (stop[c] === 1) break;
          buf[len++] = c;
          i++;
          room--;
        }
        if (i === n) break;
      }
      const b = bytes[i];
      if (state === FRAME) {
        if (resync && b === start0 && len > 0) {
          out.push(reject(interrupted, describeBytes(buf, 0, len)));
          buf[0] = b;
          len = 1;
          continue;
        }
        buf[len++] = b;
        if (fixed > 0) {
          if (len === fixed) emit(out, 0);
          continue;
        }
        if (terminal[b] === 1) {
          const e = endLength();
          if (e > 0) {
            emit(out, e);
            continue;
          }
        }
        if (len >= max) {
          out.push(reject('too-long', describeBytes(buf, 0, len, `>${max}`)));
          len = 0;
          state = ends.length > 0 || start || p.framing.idleMs ? SKIP : FRAME;
        }
      } else if (state === HUNT) {
        if (b === start0) {
          if (noiseLen > 0) flushNoise(out);
          buf[0] = b;
          len = 1;
          state = FRAME;
          if (fixed === 1) emit(out, 0);
        } else if (terminal[b] === 1) {
          if (noiseLen > 0) {
            if (noiseOnlyDelimiters) {
              noiseLen = 0;
            } else flushNoise(out);
          }
        } else {
          if (noiseLen < RAW_MAX) noiseBuf[noiseLen] = b;
          noiseLen++;
          if (delimiter[b] !== 1) noiseOnlyDelimiters = false;
        }
      } else if (b === start0 && start) {
        buf[0] = b;
        len = 1;
        state = FRAME;
      } else if (terminal[b] === 1) {
        state = start ? HUNT : FRAME;
      }
    }
  }

  function flushIdle(): DecodedItem[] {
    const out: DecodedItem[] = [];
    if (state === FRAME && len > 0) emit(out, endLength());
    else if (state === HUNT && noiseLen > 0) {
      if (noiseOnlyDelimiters) noiseLen = 0;
      else flushNoise(out);
    }
    if (state === SKIP) state = start ? HUNT : FRAME;
    return out;
  }

  function endOfStream(): DecodedItem[] {
    if (p.framing.idleMs !== undefined) return flushIdle();
    const out: DecodedItem[] = [];
    if (state === HUNT && noiseLen > 0) {
      if (noiseOnlyDelimiters) noiseLen = 0;
      else flushNoise(out);
    }
    return out;
  }

  function reset(): void {
    len = 0;
    state = start ? HUNT : FRAME;
    noiseLen = 0;
    noiseOnlyDelimiters = true;
    wedge?.reset();
  }

  // ---- keyboard-wedge input: reports -> barcodes (hid-keyboard.ts) -> frames without delimiters
  const wedge = p.input === 'hid-keyboard' ? new KeyboardWedgeDecoder() : undefined;
  if (wedge) {
    return {
      idleMs: undefined,
      push(bytes) {
        const out: DecodedItem[] = [];
        // a chunk is one report, or several whole ones (batched); anything else is one malformed report
        if (bytes.length % 8 !== 0) return [reject('malformed', describeBytes(bytes))];
        for (let at = 0; at < bytes.length; at += 8) {
          const items = wedge.push(bytes.length === 8 ? bytes : bytes.subarray(at, at + 8));
          if (items.length === 0) continue;
          for (const it of items) {
            if (typeof it !== 'string') {
              out.push(it);
              continue;
            }
            const n = buf.write(it, 0, 'latin1');
            if (it.length > max || n !== it.length) {
              out.push(reject('too-long', describeBytes(buf, 0, Math.min(n, max), `>${max}`)));
              continue;
            }
            len = n;
            out.push(decodeFrame(len, 0));
            len = 0;
          }
        }
        return out;
      },
      flushIdle: () => [],
      endOfStream: () => [],
      reset,
    };
  }

  return {
    idleMs: p.framing.idleMs,
    push(bytes) {
      const out: DecodedItem[] = [];
      pushBytes(bytes, out);
      return out;
    },
    flushIdle,
    endOfStream,
    reset,
  };
}

/** A numeric field read from a report byte (or its constant), mapped and range-checked; -1 when it does not read. */
function reportInt(s: FieldSource, r: Uint8Array): number {
  if (s.slot < 0) return intOf(s, NO_VALUES, false);
  if (s.map !== undefined) return mappedByte(s, r[s.slot]);
  const v = r[s.slot];
  return v >= s.min && v <= s.max ? v : -1;
}
const NO_VALUES: Value[] = [];

/** A report byte through the field's value map, then range-checked. */
function mappedByte(s: FieldSource, byte: number): number {
  const m = s.map?.get(String(byte));
  const n = m === undefined ? Number.NaN : toInt(m, false);
  return n >= s.min && n <= s.max ? n : -1;
}

/** Vendor HID input reports (device-protocols.md §2b): one report per `report.length` bytes. */
function compileReportDecoder(p: DeviceProfile): ProfileDecoder {
  const layout = p.report!;
  const talker = p.talker;
  const card = cardDecoder(p.cards);
  const L = layout.length;
  // a field's slot is its byte offset: values are read from the report itself
  const slotOf = (f: string): number => (Object.hasOwn(layout.fields, f) ? layout.fields[f] : -1);
  /** type byte -> rule (256 entries, undefined for a value not in the map) */
  const byType: Array<CompiledRule | undefined> = new Array(256).fill(undefined);
  // constants, maps and ranges of a `messages` entry of the same type apply to report frames too
  for (const [value, type] of Object.entries(layout.type.map)) {
    const m = p.messages.find((x) => x.type === type);
    byType[Number(value) & 0xff] = { match: () => null, literal: '', reason: undefined, type, seqSlot: -1, src: fieldSources(type, slotOf, m?.fields ?? {}, m?.map ?? {}, m?.ranges ?? {}) };
  }
  const cs = layout.checksum;
  // the layout's offsets as constants of the decoder (read per report otherwise, the check's width by a string test)
  const idOffset = layout.id ? layout.id.offset : -1;
  const idValue = layout.id ? layout.id.value : 0;
  const typeOffset = layout.type.offset;
  const seqOffset = layout.seq ? layout.seq.offset : -1;
  const csKind = cs ? cs.kind : 'none';
  const csOffset = cs ? cs.offset : -1;
  const csWide = !!cs && cs.kind.startsWith('crc16');
  const csFrom = cs ? cs.from : 0;
  const csTo = cs ? cs.to : 0;
  /** the report's bytes as plain values, for the frame types that go through buildFrame */
  const vals: Value[] = new Array(layout.length).fill(0);

  function decodeReport(r: Uint8Array): DecodedItem {
    if (r.length !== L || (idOffset >= 0 && r[idOffset] !== idValue)) return reject('malformed', describeBytes(r));
    if (csOffset >= 0) {
      const want = csWide ? r[csOffset] | (r[csOffset + 1] << 8) : r[csOffset];
      if (checksum(csKind, r, csFrom, csTo) !== want) return reject('bad-checksum', describeBytes(r));
    }
    const rule = byType[r[typeOffset]];
    if (rule === undefined) return reject('bad-field', describeBytes(r));
    const seq = seqOffset >= 0 ? r[seqOffset] : 0;
    // numeric frames straight from the report bytes (the common case); others through buildFrame
    const src = rule.src;
    switch (rule.type) {
      case 'ROLL': {
        const d1 = reportInt(src[0], r);
        const d2 = reportInt(src[1], r);
        const d3 = reportInt(src[2], r);
        const bounces = src[3].slot < 0 && src[3].constant === undefined ? 0 : reportInt(src[3], r);
        if (d1 < 0 || d2 < 0 || d3 < 0 || bounces < 0) return reject('bad-field', describeBytes(r));
        return { talker, seq, type: 'ROLL', dice: [d1, d2, d3], bounces };
      }
      case 'BALL': {
        const ball = reportInt(src[0], r);
        return ball < 0 ? reject('bad-field', describeBytes(r)) : { talker, seq, type: 'BALL', ball };
      }
      case 'COUNT': {
        const count = reportInt(src[0], r);
        return count < 0 ? reject('bad-field', describeBytes(r)) : { talker, seq, type: 'COUNT', count };
      }
      default:
        if (src.length === 0) return { talker, seq, type: rule.type } as DeviceFrame;
    }
    for (let k = 0; k < r.length; k++) vals[k] = r[k];
    const f = buildFrame(rule, vals, talker, seq, false, card);
    return typeof f === 'string' ? reject(f, describeBytes(r)) : f;
  }

  return {
    idleMs: undefined,
    push(bytes) {
      // a chunk is one report, or several whole ones (batched); anything else is one malformed report
      if (bytes.length === L) return [decodeReport(bytes)];
      if (bytes.length % L !== 0) return [reject('malformed', describeBytes(bytes))];
      const out: DecodedItem[] = [];
      for (let at = 0; at < bytes.length; at += L) out.push(decodeReport(bytes.subarray(at, at + L)));
      return out;
    },
    flushIdle: () => [],
    endOfStream: () => [],
    reset() {},
  };
}
