/**
 * The inverse of the profile decoder (device-protocols.md §3): a frame of the gateway's vocabulary
 * (or a gateway command) rendered in a profile's wire format. It is what the simulators, the
 * scenario runner and the drivers' downlinks write:
 * - a message's `emit` template with its `{group}` placeholders filled from the frame, `{card}`
 *   spelled by the profile's card preset (the first spelling whose body matches the message's
 *   `pattern`, e.g. `H10` rather than `HT` when the pattern only takes `10`);
 * - a `downlink` template with `{seq}` (the gateway's command counter) and `{from}` (a REPEAT's
 *   first SEQ);
 * - then the framing (start, end, fixed length) and the integrity check (kind, hex or binary,
 *   separator, what it covers) around the body.
 * HID profiles write input reports: `input: hid-keyboard` types the framed text as 8-byte
 * boot-keyboard reports (drivers/codecs/hid-keyboard.ts `keyboardReports`: key down and all keys
 * up per character, then Enter); `input: hid-report` fills the `report` layout (id, SEQ byte, type
 * byte, field bytes, check value), and its `body` is the report as upper-case hex.
 * A rendered body that does not match its message's pattern is an error (`ProfileEncodeError`),
 * never bytes the device's own decoder would reject.
 */
import type { DeviceFrameBody } from '../../src/core/vocabulary/frames.js';
import { HID_KEYBOARD_REPORT_BYTES, keyboardReports } from '../codecs/hid-keyboard.js';
import { RANKS, type Rank, type Suit } from '../../src/core/vocabulary/card.js';
import type { CardCodeOptions } from './card-codes.js';
import { checksum, checksumBytes } from './checksums.js';
import { mustCompileUserPattern } from './linear-pattern.js';
import { compileProfile } from './profile-decoder.js';
import type { BinaryField, DeviceProfile } from './profile-schema.js';

export class ProfileEncodeError extends Error {
  readonly code = 'profile-encode';
}

export type DownlinkCommand = 'rescan' | 'lock' | 'unlock' | 'repeat';

/** what an encoded frame carries besides its body: the device's SEQ (used only if the profile has one) */
export type EncodableFrame = DeviceFrameBody & { seq?: number };

export interface ProfileEncoder {
  readonly profile: DeviceProfile;
  /** the frame as the device writes it; throws ProfileEncodeError when the profile has no message for it */
  encode(frame: EncodableFrame): Buffer;
  /** whether the profile can say this frame at all (a message of its type with an `emit`) */
  canEncode(frame: EncodableFrame): boolean;
  /** the body (inside framing and checksum) of the frame, as text (binary profiles: upper-case hex) */
  body(frame: EncodableFrame): string;
  /** the body of the frame said with one named message (a self-test of that message's template) */
  messageBody(message: string, frame: EncodableFrame): string;
  /** a body (text, or hex for binary profiles) framed and checked as the device frames it */
  wrap(body: string): Buffer;
  /** HID profiles: bytes per input report (the encoded bytes are whole reports, one per chunk on a HID line); undefined for a byte stream */
  readonly reportBytes: number | undefined;
  /** a gateway command through the profile's downlink template; null when the device takes none (HID devices take none) */
  command(command: DownlinkCommand, values?: { seq?: number; from?: number }): Buffer | null;
}

/** every spelling of a card the preset reads, the most usual first */
export function cardSpellings(card: string, o: CardCodeOptions): string[] {
  const rank = card[0] as Rank;
  const suit = card[1] as Suit;
  const rankTexts = rank === 'T' ? ['10', 'T'] : rank === 'A' ? ['A', '1'] : [rank];
  switch (o.preset) {
    case 'rank-suit':
      return rankTexts.map((r) => r + suit);
    case 'suit-rank':
      return rankTexts.map((r) => suit + r);
    case 'suit_rank':
      return rankTexts.map((r) => `${suit}_${r}`);
    case 'four-digit':
      return [`${'SHCD'.indexOf(suit) + 1}${String((RANKS.indexOf(rank) + 1) * 10).padStart(3, '0')}`];
    case 'index52': {
      const suits = o.suitOrder ?? ['S', 'H', 'D', 'C'];
      const ranks = o.rankOrder ?? RANKS;
      const n = suits.indexOf(suit) * 13 + ranks.indexOf(rank) + 1;
      return n < 10 ? [String(n), `0${n}`] : [String(n)];
    }
    case 'table':
      return Object.entries(o.table ?? {})
        .filter(([, c]) => c === card)
        .map(([k]) => k);
    case 'custom': {
      const rankKeys = Object.entries(o.ranks ?? {})
        .filter(([, r]) => r === rank)
        .map(([k]) => k);
      const suitKeys = Object.entries(o.suits ?? {})
        .filter(([, s]) => s === suit)
        .map(([k]) => k);
      const out: string[] = [];
      for (const r of rankKeys) for (const s of suitKeys) out.push(o.order === 'suit-rank' ? s + r : r + s);
      return out;
    }
  }
}

const HEX = '0123456789ABCDEF';
const hexByte = (n: number): string => HEX[(n >> 4) & 15] + HEX[n & 15];
const bytesOf = (s: string): Buffer => Buffer.from(s, 'latin1');

/** the values a frame gives to a template's placeholders (numbers as decimal text; binary profiles: one hex byte) */
function frameValues(f: EncodableFrame, binary: boolean): Record<string, string> {
  const num = (n: number): string => (binary ? hexByte(n) : String(n));
  const v: Record<string, string> = {};
  if (f.seq !== undefined) v.seq = String(f.seq);
  switch (f.type) {
    case 'ROLL':
      [v.d1, v.d2, v.d3] = f.dice.map(num);
      v.bounces = String(f.bounces);
      break;
    case 'BALL':
      v.ball = num(f.ball);
      break;
    case 'COUNT':
      v.count = String(f.count);
      break;
    case 'TAG':
      v.uid = f.uid;
      break;
    case 'ERR':
      v.code = f.code;
      v.text = f.text;
      break;
    case 'VER':
      v.model = f.model;
      v.firmware = f.firmware;
      if (f.capabilities?.length) v.capabilities = f.capabilities.join('+');
      break;
    case 'STATE':
    case 'SHUF_STATE':
      v.state = f.state;
      break;
    case 'CARD':
      v.rescan = String(f.rescan);
      break;
  }
  return v;
}

/** does a message's constant `fields` say something the frame contradicts? */
function contradicts(fields: Record<string, string | number | boolean>, f: EncodableFrame, tolerated: ReadonlySet<string> = NOTHING): boolean {
  const frame = f as unknown as Record<string, unknown>;
  for (const [k, want] of Object.entries(fields)) {
    if (tolerated.has(k)) continue;
    if (k === 'rescan') {
      if ((want === true || want === 'true') !== (f.type === 'CARD' && f.rescan)) return true;
      continue;
    }
    if (k in frame && String(frame[k]) !== String(want)) return true;
  }
  return false;
}

const NOTHING: ReadonlySet<string> = new Set();
/**
 * What a device may be unable to say, so a frame is still written without it: a rescan mark (the
 * device's card message, as an RFID shoe does) and a bounce count (a dice reader with no bounce
 * sensor reports its constant).
 */
const LOSSY: ReadonlySet<string> = new Set(['rescan', 'bounces']);

function render(template: string, values: Record<string, string>, what: string): string {
  return template.replace(/\{([A-Za-z_]\w*)\}/g, (_, name: string) => {
    const v = values[name];
    if (v === undefined) throw new ProfileEncodeError(`${what}: the template names {${name}}, which this frame does not carry`);
    return v;
  });
}

export function createProfileEncoder(profile: DeviceProfile): ProfileEncoder {
  if (profile.input === 'hid-report') return createReportEncoder(profile);
  const keyboard = profile.input === 'hid-keyboard';
  const binary = profile.encoding === 'binary';
  const start = profile.framing.start ?? '';
  const fixed = profile.framing.length;
  // each pattern on the linear-time engine, as the decoder runs it (a template cannot stall a check either)
  const messages = profile.messages.map((m) => ({
    ...m,
    re: m.pattern === undefined ? undefined : mustCompileUserPattern(m.pattern, '', `messages.${m.name}.pattern`, { whole: true }),
  }));
  let commandSeq = 0;

  const candidates = (f: EncodableFrame) => {
    const ofType = messages.filter((m) => m.type === f.type && (m.emit !== undefined || m.bytes !== undefined));
    const fitting = ofType.filter((m) => !contradicts(m.fields, f));
    // the message that says the most of the frame first (a rescan message before the plain card one)
    if (fitting.length) return fitting.sort((a, b) => Object.keys(b.fields).length - Object.keys(a.fields).length);
    return ofType.filter((m) => !contradicts(m.fields, f, LOSSY));
  };

  function body(f: EncodableFrame, only?: string): string {
    const ms = only === undefined ? candidates(f) : messages.filter((m) => m.name === only && (m.emit !== undefined || m.bytes !== undefined));
    if (!ms.length)
      throw new ProfileEncodeError(
        `profile ${profile.name}: no message with an emit template says ${f.type}${f.type === 'STATE' || f.type === 'SHUF_STATE' ? ` ${f.state}` : ''}`,
      );
    const values = frameValues(f, binary);
    const cards = f.type === 'CARD' ? cardSpellings(f.card, profile.cards) : [undefined];
    const tried: string[] = [];
    for (const m of ms) {
      if (m.bytes) {
        const hex = bytesBody(m, f, cards);
        if (hex !== null) return hex;
        tried.push(`${m.name}: a field does not fit`);
        continue;
      }
      for (const card of cards) {
        const text = render(m.emit!, card === undefined ? values : { ...values, card }, `profile ${profile.name}, message ${m.name}`);
        if (m.re!.test(text)) return text;
        tried.push(`${m.name}: "${text}"`);
      }
    }
    throw new ProfileEncodeError(`profile ${profile.name}: the rendered body does not match its message's pattern (${tried.join('; ')})`);
  }

  function wrap(text: string): Buffer {
    let payload: Buffer;
    if (binary) {
      if (!/^(?:[0-9A-Fa-f]{2})*$/.test(text)) throw new ProfileEncodeError(`profile ${profile.name}: a binary body must be hex byte pairs, got "${text}"`);
      payload = Buffer.from(text, 'hex');
    } else payload = Buffer.from(text, 'utf8');
    if (keyboard) {
      // typed, then Enter: the framed text (no end delimiter) must fit maxLength and the keyboard
      const typed = start + text + checkText(profile, payload);
      if (typed.length > profile.framing.maxLength)
        throw new ProfileEncodeError(`profile ${profile.name}: a barcode of ${typed.length} characters is over maxLength ${profile.framing.maxLength}`);
      try {
        return Buffer.concat(keyboardReports(typed));
      } catch (e) {
        throw new ProfileEncodeError(`profile ${profile.name}: ${(e as Error).message}`);
      }
    }
    const out = frameBytes(profile, payload);
    if (fixed !== undefined && out.length !== fixed)
      throw new ProfileEncodeError(`profile ${profile.name}: a frame is ${fixed} bytes, this one would be ${out.length}`);
    if (out.length > profile.framing.maxLength)
      throw new ProfileEncodeError(`profile ${profile.name}: a frame of ${out.length} bytes is over maxLength ${profile.framing.maxLength}`);
    return out;
  }

  return {
    profile,
    body: (f) => body(f),
    messageBody: (name, f) => body(f, name),
    wrap,
    encode: (f) => wrap(body(f)),
    canEncode: (f) => candidates(f).length > 0,
    reportBytes: keyboard ? HID_KEYBOARD_REPORT_BYTES : undefined,
    command(command, values = {}) {
      const template = profile.downlink[command];
      if (template === undefined || keyboard) return null;
      const seq = values.seq ?? commandSeq;
      commandSeq = (seq + 1) & 0xffff;
      const text = render(
        template,
        { seq: String(seq), ...(values.from !== undefined ? { from: String(values.from) } : {}) },
        `profile ${profile.name}, downlink ${command}`,
      );
      return wrap(text);
    },
  };
}

/** the check value of `covered` as the profile writes it (binary, hex or decimal); '' without integrity */
function checkBytes(profile: DeviceProfile, covered: Uint8Array): Buffer {
  const { algorithm, encoding, digits } = profile.integrity;
  const w = checksumBytes(algorithm);
  if (w === 0) return Buffer.alloc(0);
  const v = checksum(algorithm, covered, 0, covered.length);
  if (encoding === 'binary-be' || encoding === 'binary-le') {
    const b = Buffer.alloc(w);
    for (let i = 0; i < w; i++) b[encoding === 'binary-be' ? w - 1 - i : i] = Math.floor(v / 256 ** i) & 0xff;
    return b;
  }
  if (encoding === 'decimal') return bytesOf(String(v).padStart(digits ?? String(2 ** (8 * w) - 1).length, '0'));
  const hex = v.toString(16).padStart(w * 2, '0');
  return bytesOf(encoding === 'hex-lower' ? hex : hex.toUpperCase());
}

/** a keyboard-wedge barcode's check text (start, payload; no end) */
function checkText(profile: DeviceProfile, payload: Buffer): string {
  const i = profile.integrity;
  if (i.algorithm === 'none') return '';
  const covered = Buffer.concat([
    i.covers.start ? bytesOf(profile.framing.start ?? '') : Buffer.alloc(0),
    i.covers.payload ? payload : Buffer.alloc(0),
    i.covers.separator ? bytesOf(i.separator ?? '') : Buffer.alloc(0),
  ]);
  return bytesOf(i.separator ?? '').toString('latin1') + checkBytes(profile, covered).toString('latin1');
}

/** DLE doubling or escape-XOR applied to data bytes */
function stuffBytes(profile: DeviceProfile, b: Buffer): Buffer {
  const st = profile.framing.stuffing;
  if (!st) return b;
  const esc = st.escape.charCodeAt(0) & 0xff;
  const special = new Set<number>([esc]);
  if (st.mode === 'xor')
    for (const s of [profile.framing.start ?? '', profile.framing.end ?? '', ...profile.framing.acceptEnd]) for (const c of bytesOf(s)) special.add(c);
  const out: number[] = [];
  for (const x of b) {
    if (!special.has(x)) out.push(x);
    else if (st.mode === 'double') out.push(esc, esc);
    else out.push(esc, x ^ st.xor);
  }
  return Buffer.from(out);
}

/**
 * A payload framed by the grammar: start, (length field filled in), stuffed body with the check
 * value before the end, or the end sequence and the check value as its trailer.
 */
function frameBytes(profile: DeviceProfile, payloadIn: Buffer): Buffer {
  const F = profile.framing;
  const I = profile.integrity;
  const head = bytesOf(F.start ?? '');
  const end = bytesOf(F.end ?? '');
  const sep = bytesOf(I.separator ?? '');
  const after = I.place === 'after-end';
  const w = checksumBytes(I.algorithm);
  const csLen = w === 0 ? 0 : I.encoding.startsWith('binary') ? w : I.encoding === 'decimal' ? (I.digits ?? String(2 ** (8 * w) - 1).length) : 2 * w;
  const payload = Buffer.from(payloadIn);
  const lf = F.lengthField;
  if (lf) {
    const total = head.length + payload.length + (w ? (after ? 0 : sep.length) + csLen : 0) + end.length;
    const head2 = lf.offset + lf.width;
    let v = lf.counts === 'frame' ? total : lf.counts === 'following' ? total - head2 : total - head2 - csLen;
    v -= lf.adjust;
    const at = lf.offset - head.length;
    if (at < 0 || at + lf.width > payload.length)
      throw new ProfileEncodeError(`profile ${profile.name}: the payload has no room for the length field at offset ${lf.offset}`);
    for (let i = 0; i < lf.width; i++) payload[lf.order === 'be' ? at + lf.width - 1 - i : at + i] = Math.floor(v / 256 ** i) & 0xff;
  }
  if (w === 0) return Buffer.concat([head, stuffBytes(profile, payload), end]);
  const stuffed = I.over === 'stuffed';
  const parts: Buffer[] = [];
  if (I.covers.start) parts.push(head);
  if (I.covers.payload) parts.push(stuffed ? stuffBytes(profile, payload) : payload);
  if (I.covers.separator && !after) parts.push(stuffed ? stuffBytes(profile, sep) : sep);
  if (I.covers.end) parts.push(end);
  const cv = checkBytes(profile, Buffer.concat(parts));
  if (after) return Buffer.concat([head, stuffBytes(profile, payload), end, cv]);
  return Buffer.concat([head, stuffBytes(profile, Buffer.concat([payload, sep, cv])), end]);
}

type Message = DeviceProfile['messages'][number];

/** writes `v` into a binary field of `b` (width, order, bits) */
function putField(b: Buffer, f: BinaryField, v: number): boolean {
  const lo = f.bits ? f.bits[0] : 0;
  const bits = f.bits ? f.bits[1] - f.bits[0] + 1 : f.width * 8;
  if (!Number.isInteger(v) || v < 0 || v >= 2 ** bits) return false;
  let cur = 0;
  for (let i = 0; i < f.width; i++) cur = cur * 256 + b[f.order === 'le' ? f.at + f.width - 1 - i : f.at + i];
  const shifted = v * 2 ** lo;
  const mask = (2 ** bits - 1) * 2 ** lo;
  const next = cur - (Math.floor(cur / 2 ** lo) % 2 ** bits) * 2 ** lo + shifted;
  void mask;
  for (let i = 0; i < f.width; i++) b[f.order === 'be' ? f.at + f.width - 1 - i : f.at + i] = Math.floor(next / 256 ** i) & 0xff;
  return true;
}

/** a binary message's payload for a frame, as upper-case hex; null when a value does not fit */
function bytesBody(m: Message, f: EncodableFrame, cards: Array<string | undefined>): string | null {
  const layout = m.bytes!;
  let n = layout.length ?? 0;
  for (const x of Object.values(layout.fields)) n = Math.max(n, x.at + x.width);
  for (const x of layout.match) n = Math.max(n, x.at + 1);
  const b = Buffer.alloc(n);
  for (const x of layout.match) b[x.at] = (b[x.at] & ~x.mask) | x.value;
  const frame = f as unknown as Record<string, unknown>;
  for (const [name, field] of Object.entries(layout.fields)) {
    let v: unknown;
    if (name === 'seq' || name === m.seq) v = f.seq ?? 0;
    else if (f.type === 'ROLL' && /^d[123]$/.test(name)) v = f.dice[Number(name[1]) - 1];
    else if (f.type === 'CARD' && name === 'card') v = cards.find((c) => c !== undefined && /^\d+$/.test(c));
    else if (name in frame) v = frame[name];
    else if (name in m.fields) v = m.fields[name];
    const map = m.map[name];
    if (map && v !== undefined) v = Object.entries(map).find(([, to]) => String(to) === String(v))?.[0];
    if (v === undefined) continue;
    if (field.as === 'hex') {
      const hex = String(v);
      if (!/^(?:[0-9A-Fa-f]{2})+$/.test(hex) || hex.length !== field.width * 2) return null;
      Buffer.from(hex, 'hex').copy(b, field.at);
      continue;
    }
    if (typeof v === 'boolean') v = v ? 1 : 0;
    if (!putField(b, field, Number(v))) return null;
  }
  return b.toString('hex').toUpperCase();
}

/** the numeric value of a frame field a report byte carries (a card: its first all-digit spelling) */
function reportFieldValue(profile: DeviceProfile, f: EncodableFrame, field: string): number | string | boolean | undefined {
  const frame = f as unknown as Record<string, unknown>;
  if (f.type === 'ROLL' && /^d[123]$/.test(field)) return f.dice[Number(field[1]) - 1];
  if (f.type === 'CARD' && field === 'card') return cardSpellings(f.card, profile.cards).find((x) => /^\d{1,3}$/.test(x)) ?? f.card;
  const v = frame[field];
  return typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean' ? v : undefined;
}

/** `input: hid-report`: a frame as one vendor input report, filled by the `report` layout */
function createReportEncoder(profile: DeviceProfile): ProfileEncoder {
  const layout = profile.report!;
  const L = layout.length;
  const fail = (msg: string): never => {
    throw new ProfileEncodeError(`profile ${profile.name}: ${msg}`);
  };
  /** frame type -> its type byte (the first in the map) */
  const typeByte = new Map<string, number>();
  for (const [value, type] of Object.entries(layout.type.map)) if (!typeByte.has(type)) typeByte.set(type, Number(value));
  /** which fields each type's report carries (the decoder reads only these) */
  const FIELDS: Record<string, string[]> = {
    ROLL: ['d1', 'd2', 'd3', 'bounces'],
    BALL: ['ball'],
    COUNT: ['count'],
    CARD: ['card', 'rescan'],
    TAG: ['uid'],
    STATE: ['state'],
    SHUF_STATE: ['state'],
    ERR: ['code', 'text'],
    VER: ['model', 'firmware', 'capabilities'],
  };

  function wrap(hex: string): Buffer {
    if (!/^(?:[0-9A-Fa-f]{2})*$/.test(hex)) fail(`a report body must be hex byte pairs, got "${hex}"`);
    const r = Buffer.from(hex, 'hex');
    if (r.length !== L) fail(`a report is ${L} bytes, this one would be ${r.length}`);
    if (layout.checksum) {
      const { algorithm: kind, offset, from, to, order } = layout.checksum;
      const v = checksum(kind, r, from, to);
      const w = checksumBytes(kind);
      for (let i = 0; i < w; i++) r[order === 'le' ? offset + i : offset + w - 1 - i] = Math.floor(v / 256 ** i) & 0xff;
    }
    return r;
  }

  function report(f: EncodableFrame): Buffer {
    const t = typeByte.get(f.type);
    if (t === undefined) return fail(`the report layout has no type byte for ${f.type}`);
    const r = Buffer.alloc(L);
    if (layout.id) r[layout.id.offset] = layout.id.value;
    if (layout.seq) r[layout.seq.offset] = (f.seq ?? 0) & 0xff;
    r[layout.type.offset] = t;
    const m = profile.messages.find((x) => x.type === f.type);
    for (const field of FIELDS[f.type] ?? []) {
      if (!Object.hasOwn(layout.fields, field)) continue;
      let v = reportFieldValue(profile, f, field);
      if (v === undefined) continue;
      const map = m?.map[field];
      if (map) {
        // the byte whose mapped value is the frame's value
        const key = Object.entries(map).find(([, to]) => String(to) === String(v))?.[0];
        if (key === undefined) return fail(`no byte of map ${field} says ${String(v)}`);
        v = key;
      }
      const at = layout.fields[field];
      if (typeof at !== 'number') {
        if (at.as === 'hex') {
          const hex = String(v);
          if (!/^(?:[0-9A-Fa-f]{2})+$/.test(hex) || hex.length !== at.width * 2) return fail(`${field} ${hex} is not ${at.width} bytes of hex`);
          Buffer.from(hex, 'hex').copy(r, at.at);
        } else if (!putField(r, at, Number(v))) return fail(`${field} ${String(v)} does not fit its field`);
        continue;
      }
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0 || n > 255) return fail(`${field} ${String(v)} does not fit a report byte`);
      r[at] = n;
    }
    return wrap(r.toString('hex').toUpperCase());
  }

  const body = (f: EncodableFrame): string => report(f).toString('hex').toUpperCase();
  return {
    profile,
    body,
    messageBody: (_name, f) => body(f),
    wrap,
    encode: report,
    canEncode: (f) => typeByte.has(f.type),
    reportBytes: L,
    command: () => null,
  };
}

/** the frames a message may have to say: every card, ball, die face; both ends of the SEQ range */
function sampleFrames(m: DeviceProfile['messages'][number]): EncodableFrame[] {
  const f = m.fields;
  const seqs = m.seq ? [0, 65535] : [0];
  const each = (frames: EncodableFrame[]) => frames.flatMap((x) => seqs.map((seq) => ({ ...x, seq })));
  switch (m.type) {
    case 'CARD':
      return each(
        RANKS.flatMap((r) =>
          ['S', 'H', 'D', 'C'].map((s) => ({ type: 'CARD', card: r + s, rescan: f.rescan === true || f.rescan === 'true' }) as EncodableFrame),
        ),
      );
    case 'BALL':
      return each(Array.from({ length: 80 }, (_, i) => ({ type: 'BALL', ball: i + 1 })));
    case 'ROLL': {
      const out: EncodableFrame[] = [];
      for (let a = 1; a <= 6; a++)
        for (let b = 1; b <= 6; b++) for (let c = 1; c <= 6; c++) out.push({ type: 'ROLL', dice: [a, b, c], bounces: Number(f.bounces ?? 1) });
      return each(out);
    }
    case 'COUNT':
      return each([0, 52, 416, 999].map((count) => ({ type: 'COUNT', count })));
    case 'TAG':
      return each([{ type: 'TAG', uid: 'E0040000000000A1' }]);
    case 'STATE':
      return each(
        (f.state !== undefined ? [String(f.state)] : ['LOADED', 'OPEN', 'CLOSED', 'EMPTY']).map((state) => ({ type: 'STATE', state }) as EncodableFrame),
      );
    case 'SHUF_STATE':
      return each(
        (f.state !== undefined ? [String(f.state)] : ['IDLE', 'SHUFFLING', 'READY', 'JAM', 'DOOR_OPEN', 'ERROR']).map(
          (state) => ({ type: 'SHUF_STATE', state }) as EncodableFrame,
        ),
      );
    case 'ERR':
      return each([{ type: 'ERR', code: 'E1', text: 'fault' }]);
    case 'VER':
      return each([{ type: 'VER', model: 'M1', firmware: '1.0', ...(m.emit?.includes('{capabilities}') ? { capabilities: ['REPEAT', 'LOCK'] } : {}) }]);
    default:
      return each([{ type: m.type } as EncodableFrame]);
  }
}

/**
 * Checks every `emit` template of a profile against its own pattern for every value it may have to
 * carry (all 52 cards, balls 1..80, all 216 rolls, SEQ 0 and 65535), and that the profile's own
 * decoder reads the framed result back as one frame of that type (a start byte inside a body, or
 * an earlier message whose pattern also matches, would not): one line per message that fails,
 * with the first value it fails on. Empty: every template is sound.
 */
export function emitTemplateProblems(profile: DeviceProfile): string[] {
  const encoder = createProfileEncoder(profile);
  const problems: string[] = [];
  for (const m of profile.messages) {
    if (m.emit === undefined) continue;
    for (const frame of sampleFrames(m)) {
      let bytes: Buffer;
      try {
        bytes = encoder.wrap(encoder.messageBody(m.name, frame));
      } catch (e) {
        problems.push(`messages.${m.name}.emit: ${(e as Error).message}`);
        break;
      }
      // what the profile's own decoder makes of it: one frame of the same type (not a reject, not another message)
      const back = compileProfile(profile).push(bytes);
      const got = back.length === 1 && !('reason' in back[0]) ? back[0].type : back.map((x) => ('reason' in x ? x.reason : x.type)).join(', ') || 'nothing';
      if (got !== frame.type) {
        problems.push(`messages.${m.name}.emit: ${JSON.stringify(bytes.toString('latin1'))} decodes as ${got}, not ${frame.type}`);
        break;
      }
    }
  }
  return problems;
}
