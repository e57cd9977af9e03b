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
import type { Card } from '../../src/core/vocabulary/card.js';
import type { DeviceFrame, RejectReason, ShoeState, ShufflerState, Talker } from '../../src/core/vocabulary/frames.js';
import { KeyboardWedgeDecoder } from '../codecs/hid-keyboard.js';
import { describeBytes, describeText, RAW_MAX, reject } from '../codecs/reject.js';
import { SHOE_STATES } from '../codecs/shoe-codec.js';
import { SHUFFLER_STATES } from '../codecs/shuffler-codec.js';
import { type CardDecoder, cardDecoder } from './card-codes.js';
import { checksumBytes, checksumFunction } from './checksums.js';
import { mustCompileUserPattern } from './linear-pattern.js';
import type { BinaryField, DeviceProfile, FrameTypeName } from './profile-schema.js';
import { streamDecoder, streamShape } from './stream-decoder.js';
import type {
  ByteField,
  BytesRule,
  CompiledRule,
  DecodedItem,
  FieldSource,
  MatchValues,
  ProfileDecoder,
  StreamDeps,
  StreamShape,
  Value,
} from './stream-decoder-types.js';

export type { ByteField, BytesRule, CompiledRule, DecodedItem, ProfileDecoder, Value };

/** Delimiters are byte strings: each character is one byte (latin1), so `"\u00aa"` is the byte 0xAA. */
const enc = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0) & 0xff);
const HEX = '0123456789ABCDEF';

const HUNT = 0; // waiting for the start byte: everything else is noise
const FRAME = 1; // inside a frame
const SKIP = 2; // after a too-long reject: the rest of the frame is dropped up to its end or a start byte
const TRAILER = 3; // after the end sequence: the trailer bytes (a check value) taken as they come

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

/** the frame is built by buildFrame from the values as strings (mapped fields, text fields, ...) */
const FAST_NONE = 0;
/** every field is a constant: the frame does not depend on the bytes */
const FAST_PLAIN = 1;
/** a card read from one unmapped field, `rescan` a constant */
const FAST_CARD = 2;
/** a ball or count read from one unmapped field */
const FAST_INT = 3;
/** a roll read from four unmapped fields (the dice and the bounces) */
const FAST_ROLL = 4;

/** how a rule's frame can be built without its values as strings (see FAST_*) */
function fastKind(type: FrameTypeName, src: FieldSource[]): { fast: number; fastSlot: number; rescan: boolean } {
  if (src.every((f) => f.slot < 0)) return { fast: FAST_PLAIN, fastSlot: -1, rescan: false };
  const one = src.length > 0 && src[0].slot >= 0 && src[0].map === undefined && src[0].constant === undefined;
  if (type === 'CARD' && one && src[1].slot < 0) {
    const r = fieldValue(src[1], NO_VALUES);
    if (r !== BAD) return { fast: FAST_CARD, fastSlot: src[0].slot, rescan: truthy(r) };
  }
  if ((type === 'BALL' || type === 'COUNT') && one) return { fast: FAST_INT, fastSlot: src[0].slot, rescan: false };
  if (type === 'ROLL' && src.every((f) => f.slot >= 0 && f.map === undefined && f.constant === undefined))
    return { fast: FAST_ROLL, fastSlot: -1, rescan: false };
  return { fast: FAST_NONE, fastSlot: -1, rescan: false };
}

/** the decimal number written at b[s, e) as toInt reads its text: 1 to 8 digits, NaN otherwise */
function digitsAt(b: Uint8Array, s: number, e: number): number {
  if (e <= s || e - s > 8) return Number.NaN;
  let n = 0;
  for (let i = s; i < e; i++) {
    const d = b[i] - 0x30;
    if (d < 0 || d > 9) return Number.NaN;
    n = n * 10 + d;
  }
  return n;
}

/** a card decoder's answers remembered (it is a pure function of the code): by code bytes and by number */
function cardMemo(card: CardDecoder) {
  const byBytes = new Map<number, Card | null>();
  const byNumber = new Map<number, Card | null>();
  /** codes of one or two characters by index (1 + c0, or 129 + c0 * 128 + c1); undefined until asked */
  const short: Array<Card | null | undefined> = new Array(129 + 128 * 128).fill(undefined);
  /** codes of three characters: by the first two (as `short`), then the third */
  const third: Array<Array<Card | null | undefined> | undefined> = new Array(129 + 128 * 128).fill(undefined);
  let rows = 0;
  /** numeric codes 0..4095 by value */
  const small: Array<Card | null | undefined> = new Array(4096).fill(undefined);
  const LIMIT = 4096;
  return {
    /** the card of the ASCII code b[s, e) */
    bytes(b: Buffer, s: number, e: number): Card | null {
      const n = e - s;
      if (n === 0) return null;
      if (n <= 2) {
        const at = n === 1 ? 1 + b[s] : 129 + b[s] * 128 + b[s + 1];
        let c = short[at];
        if (c === undefined) c = short[at] = card(latin1(b, s, e));
        return c;
      }
      if (n === 3) {
        // by the first two characters, then the third (a row per two-character prefix seen, up to 256)
        const at = 129 + b[s] * 128 + b[s + 1];
        let row = third[at];
        if (row === undefined && rows < 256) {
          row = third[at] = new Array(128).fill(undefined);
          rows++;
        }
        if (row !== undefined) {
          let c = row[b[s + 2]];
          if (c === undefined) c = row[b[s + 2]] = card(latin1(b, s, e));
          return c;
        }
      }
      if (n > 4) return card(latin1(b, s, e));
      // n and the 7-bit codes: distinct codes get distinct keys (below 2^31)
      let key = n;
      for (let i = s; i < e; i++) key = key * 128 + b[i];
      let c = byBytes.get(key);
      if (c === undefined) {
        c = card(latin1(b, s, e));
        if (byBytes.size < LIMIT) byBytes.set(key, c);
      }
      return c;
    },
    /** the card of a numeric field's value (its decimal text) */
    number(v: number): Card | null {
      if (v >= 0 && v < 4096 && Number.isInteger(v)) {
        let c = small[v];
        if (c === undefined) c = small[v] = card(String(v));
        return c;
      }
      let c = byNumber.get(v);
      if (c === undefined) {
        c = card(String(v));
        if (byNumber.size < LIMIT) byNumber.set(v, c);
      }
      return c;
    },
  };
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
const NO_VALUES: Value[] = [];

/** Node's native latin1 slice (what `buf.toString('latin1', a, b)` ends in, without its argument checks). */
const latin1Slice = (Buffer.prototype as unknown as { latin1Slice?: (this: Buffer, s: number, e: number) => string }).latin1Slice;
const latin1 = latin1Slice
  ? (b: Buffer, s: number, e: number): string => latin1Slice.call(b, s, e)
  : (b: Buffer, s: number, e: number): string => b.toString('latin1', s, e);

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

function fieldSources(
  type: FrameTypeName,
  slotOf: (field: string) => number,
  consts: Record<string, Value>,
  maps: Record<string, Record<string, string | number | boolean>>,
  ranges: Record<string, { min: number; max: number }>,
): FieldSource[] {
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

export function compileByteField(f: BinaryField): ByteField {
  const lo = f.bits ? f.bits[0] : -1;
  const hi = f.bits ? f.bits[1] : -1;
  const mod = 2 ** (hi - lo + 1);
  return {
    at: f.at,
    width: f.width,
    le: f.order === 'le',
    lo,
    hi,
    hex: f.as === 'hex',
    div: 2 ** Math.max(lo, 0),
    mod,
    int32: f.width <= 4 && lo >= 0 && hi - lo + 1 <= 31,
  };
}

/** A binary field's value from bytes b[base + at ...]: a number (bits applied), or upper-case hex text. */
function readByteField(f: ByteField, b: Uint8Array, base: number): number | string {
  const s = base + f.at;
  if (f.hex) {
    let t = '';
    for (let i = 0; i < f.width; i++) t += HEX[b[s + i] >> 4] + HEX[b[s + i] & 15];
    return t;
  }
  if (f.width === 1 && f.lo < 0) return b[s];
  let v = 0;
  for (let i = 0; i < f.width; i++) v = v * 256 + b[f.le ? s + f.width - 1 - i : s + i];
  // (below 2 ** 32 a shift and a mask give floor(v / 2 ** lo) mod 2 ** bits exactly)
  if (f.int32) v = (v >>> f.lo) & (f.mod - 1);
  else if (f.lo >= 0) v = Math.floor(v / f.div) % f.mod;
  return v;
}

/** a binary message's text matcher: it matches bytes, never text */
const NEVER_MATCHES = (): MatchValues | null => null;

/**
 * A binary message's test and reads written out as one function: whether the payload P[s, e)
 * has the message's length and match bytes, its fields' values then left in vals (as
 * readByteField reads them). The source holds only numbers and fixed names. The interpreted
 * loops where code cannot be generated.
 */
export function generateBytesRule(length: number, minLen: number, match: BytesRule['match'], fields: ByteField[], generate = true): BytesRule['read'] {
  const interpreted: BytesRule['read'] = (P, s, e, vals) => {
    const n = e - s;
    if (length >= 0 ? n !== length : n < minLen) return false;
    for (const m of match) if ((P[s + m.at] & m.mask) !== m.value) return false;
    for (let f = 0; f < fields.length; f++) vals[f] = readByteField(fields[f], P, s);
    return true;
  };
  const int = (n: number): string => {
    if (!Number.isInteger(n)) throw new Error('bytes rule code: not an integer');
    return String(n);
  };
  if (!generate) return interpreted;
  try {
    const lines = [length >= 0 ? `if (e - s !== ${int(length)}) return false;` : `if (e - s < ${int(minLen)}) return false;`];
    for (const m of match) lines.push(`if ((P[s + ${int(m.at)}] & ${int(m.mask)}) !== ${int(m.value)}) return false;`);
    fields.forEach((f, k) => {
      if (f.hex) {
        lines.push(`vals[${int(k)}] = RF(F[${int(k)}], P, s);`);
        return;
      }
      const at = (i: number): string => `P[s + ${int(f.at + (f.le ? f.width - 1 - i : i))}]`;
      let v = at(0);
      for (let i = 1; i < f.width; i++) v = `(${v}) * 256 + ${at(i)}`;
      if (f.int32) v = `((${v}) >>> ${int(f.lo)}) & ${int(f.mod - 1)}`;
      else if (f.lo >= 0) v = `Math.floor((${v}) / ${int(f.div)}) % ${int(f.mod)}`;
      lines.push(`vals[${int(k)}] = ${v};`);
    });
    lines.push('return true;');
    const make = new Function('RF', 'F', `'use strict'; return function bytesRule(P, s, e, vals) {\n${lines.join('\n')}\n};`);
    return make(readByteField, fields) as BytesRule['read'];
  } catch {
    return interpreted;
  }
}

/**
 * The decoder of a profile. `sharedCode`: run the engine's one shared copy of the streaming code
 * (the same decoder; the tests run both on the same inputs) instead of a copy of the profile's own.
 */
export function compileProfile(p: DeviceProfile, options: { sharedCode?: boolean } = {}): ProfileDecoder {
  if (p.input === 'hid-report') return compileReportDecoder(p);
  return (options.sharedCode ? streamDecoder : ownCopy(p))(p, DEPS);
}

/** What the streaming decoder (stream-decoder.ts) uses from outside its own text. */
const DEPS: StreamDeps = {
  enc,
  HEX,
  HUNT,
  FRAME,
  SKIP,
  TRAILER,
  RAW_MAX,
  FAST_NONE,
  FAST_PLAIN,
  FAST_CARD,
  FAST_INT,
  FAST_ROLL,
  cardDecoder,
  cardMemo,
  checksumBytes,
  checksumFunction,
  mustCompileUserPattern,
  requiredLiteral,
  fieldSources,
  fastKind,
  compileByteField,
  generateBytesRule,
  NEVER_MATCHES,
  NO_MATCH_VALUES,
  NO_VALUES,
  reject,
  describeBytes,
  describeText,
  latin1,
  buildFrame,
  toInt,
  digitsAt,
  KeyboardWedgeDecoder,
  streamShape,
};
type StreamFactory = typeof streamDecoder;

/**
 * Copies of the streaming decoder's code, by the shape of the profile (what steers its branches):
 * profiles of one shape share a copy, so a process with many profiles holds a few copies, and a
 * profile's hot loops are compiled for its framing, check and messages alone. Past COPY_LIMIT
 * shapes (a learner trying many candidates) the shared code serves the rest.
 */
const copies = new Map<string, StreamFactory>();
const COPY_LIMIT = 64;
let copySource: string | undefined;

function shapeOf(p: DeviceProfile): string {
  return JSON.stringify([p.input, p.encoding, p.framing, p.integrity, p.body, p.messages.map((m) => [m.type, m.bytes !== undefined]), p.rejects.length]);
}

function ownCopy(p: DeviceProfile): StreamFactory {
  const shape = streamShape(p, DEPS);
  // (the constants are part of the key: a copy has them written in)
  const key = `${shapeOf(p)}${JSON.stringify(shape)}`;
  let f = copies.get(key);
  if (f !== undefined) return f;
  if (copies.size >= COPY_LIMIT) return streamDecoder;
  // the text is the engine's own function (no profile data in it); `__name` is the helper some
  // TypeScript runners insert to keep function names, here a no-op
  // (the number makes each text new: the engine would hand back its cached code for a text it has seen)
  try {
    f = new Function('__name', `'use strict'; // copy ${copies.size}\nreturn (${copyText(shape)});`)((g: unknown) => g) as StreamFactory;
  } catch {
    // code generation from strings disallowed (node --disallow-code-generation-from-strings): the shared code
    return streamDecoder;
  }
  copies.set(key, f);
  return f;
}

/** The shape constants of a profile's copy of the streaming code (stream-decoder.ts). */
export const shapeConstants = (p: DeviceProfile): StreamShape => streamShape(p, DEPS);

/**
 * The streaming code with the shape's constants written in as literals: the one statement that
 * reads them from `streamShape` goes, and each use of a `K_` name becomes its value, so the
 * compiler folds the branches on them. The text unchanged when that statement is not found as
 * written (a bundler renamed the names): the copy then reads them as the shared code does.
 */
export function copyText(shape: StreamShape): string {
  copySource ??= streamDecoder.toString();
  const source = copySource;
  const read = /const\s*\{([\sA-Za-z0-9_,]*)\}\s*=\s*D\.streamShape\(p,\s*D\);/;
  const m = read.exec(source);
  if (m === null) return source;
  const names = m[1]
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');
  const values = shape as unknown as Record<string, number | boolean>;
  if (names.length !== Object.keys(shape).length || names.some((x) => !(x in values))) return source;
  const text = source.replace(read, '');
  return text.replace(/(?<![.\w$])K_[A-Za-z0-9_]+(?![\w$])/g, (x) => (x in values ? `(${JSON.stringify(values[x])})` : x));
}

/** A numeric field read from a report byte (or its constant), mapped and range-checked; -1 when it does not read. */
function reportInt(s: FieldSource, r: Uint8Array, vals: ArrayLike<Value>): number {
  if (s.slot < 0) return intOf(s, NO_VALUES, false);
  if (s.slot >= r.length) return intOf(s, vals, false);
  if (s.map !== undefined) return mappedByte(s, r[s.slot]);
  const v = r[s.slot];
  return v >= s.min && v <= s.max ? v : -1;
}

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
  const memo = cardMemo(card);
  const L = layout.length;
  // a field's slot is its byte offset: values are read from the report itself; a wider or bit
  // field gets a slot after the report's bytes, filled per report
  const wide: Array<{ slot: number; field: ByteField }> = [];
  const slotOf = (f: string): number => {
    if (!Object.hasOwn(layout.fields, f)) return -1;
    const v = layout.fields[f];
    if (typeof v === 'number') return v;
    const field = compileByteField(v);
    if (field.width === 1 && field.lo < 0 && !field.hex) return field.at;
    wide.push({ slot: L + wide.length, field });
    return L + wide.length - 1;
  };
  /** type byte -> rule (256 entries, undefined for a value not in the map) */
  const byType: Array<CompiledRule | undefined> = new Array(256).fill(undefined);
  // constants, maps and ranges of a `messages` entry of the same type apply to report frames too
  for (const [value, type] of Object.entries(layout.type.map)) {
    const m = p.messages.find((x) => x.type === type);
    const src = fieldSources(type, slotOf, m?.fields ?? {}, m?.map ?? {}, m?.ranges ?? {});
    byType[Number(value) & 0xff] = {
      match: () => null,
      literal: '',
      reason: undefined,
      type,
      seqSlot: -1,
      src,
      onePass: undefined,
      ...fastKind(type, src),
    };
  }
  const cs = layout.checksum;
  // the layout's offsets as constants of the decoder (read per report otherwise, the check's width by a string test)
  const idOffset = layout.id ? layout.id.offset : -1;
  const idValue = layout.id ? layout.id.value : 0;
  const typeOffset = layout.type.offset;
  const seqOffset = layout.seq ? layout.seq.offset : -1;
  const csKind = cs ? cs.algorithm : 'none';
  const csOffset = cs ? cs.offset : -1;
  const csWidth = cs ? checksumBytes(cs.algorithm) : 0;
  const csLe = !cs || cs.order === 'le';
  const csFn = checksumFunction(csKind);
  const csFrom = cs ? cs.from : 0;
  const csTo = cs ? cs.to : 0;
  /** the report's bytes as plain values, for the frame types that go through buildFrame */
  const vals: Value[] = new Array(layout.length + wide.length).fill(0);

  function decodeReport(r: Uint8Array): DecodedItem {
    if (r.length !== L || (idOffset >= 0 && r[idOffset] !== idValue)) return reject('malformed', describeBytes(r));
    if (csOffset >= 0) {
      let want = 0;
      for (let i = 0; i < csWidth; i++) want = want * 256 + r[csLe ? csOffset + csWidth - 1 - i : csOffset + i];
      if (csFn(r, csFrom, csTo) !== want) return reject('bad-checksum', describeBytes(r));
    }
    for (let k = 0; k < wide.length; k++) vals[wide[k].slot] = readByteField(wide[k].field, r, 0);
    const rule = byType[r[typeOffset]];
    if (rule === undefined) return reject('bad-field', describeBytes(r));
    const seq = seqOffset >= 0 ? r[seqOffset] : 0;
    // numeric frames straight from the report bytes (the common case); others through buildFrame
    const src = rule.src;
    switch (rule.type) {
      case 'ROLL': {
        const d1 = reportInt(src[0], r, vals);
        const d2 = reportInt(src[1], r, vals);
        const d3 = reportInt(src[2], r, vals);
        const bounces = src[3].slot < 0 && src[3].constant === undefined ? 0 : reportInt(src[3], r, vals);
        if (d1 < 0 || d2 < 0 || d3 < 0 || bounces < 0) return reject('bad-field', describeBytes(r));
        return { talker, seq, type: 'ROLL', dice: [d1, d2, d3], bounces };
      }
      case 'BALL': {
        const ball = reportInt(src[0], r, vals);
        return ball < 0 ? reject('bad-field', describeBytes(r)) : { talker, seq, type: 'BALL', ball };
      }
      case 'COUNT': {
        const count = reportInt(src[0], r, vals);
        return count < 0 ? reject('bad-field', describeBytes(r)) : { talker, seq, type: 'COUNT', count };
      }
      default:
        if (src.length === 0) return { talker, seq, type: rule.type } as DeviceFrame;
        if (rule.fast === FAST_CARD && rule.fastSlot < L) {
          // the card from its report byte, as buildFrame reads it (the byte's decimal text), remembered per value
          const c = memo.number(r[rule.fastSlot]);
          return c === null ? reject('bad-field', describeBytes(r)) : { talker, seq, type: 'CARD', card: c, rescan: rule.rescan };
        }
        if (rule.fast === FAST_PLAIN) {
          const f = buildFrame(rule, NO_VALUES, talker, seq, false, card);
          return typeof f === 'string' ? reject(f, describeBytes(r)) : f;
        }
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
