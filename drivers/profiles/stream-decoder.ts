/**
 * The streaming decoder of a serial (or keyboard-wedge) profile, written as one self-contained
 * function: everything it uses from outside comes in `D` (no imported values here, so the
 * compiler proves the text has no other free names). profile-decoder.ts makes each profile's
 * decoder from its own copy of this text (`new Function` over `streamDecoder.toString()`), so
 * the JIT sees one profile's framing, check and messages per copy instead of the mix of every
 * profile in the process (docs/PERFORMANCE.md "The device corpus").
 */
import type { DeviceProfile } from './profile-schema.js';
import type { FrameReject, RejectReason } from '../../src/core/vocabulary/frames.js';
import type { StreamDeps, StreamShape, DecodedItem, ProfileDecoder, CompiledRule, BytesRule, Value } from './stream-decoder-types.js';

/**
 * The settings the streaming code branches on that follow from the profile's shape alone
 * (StreamShape). profile-decoder.ts keys each copy of the code on them and writes them into the
 * copy as literals; the shared code reads them from here.
 */
export function streamShape(p: DeviceProfile, D: StreamDeps): StreamShape {
  const { enc, checksumBytes } = D;
  const binary = p.encoding === 'binary';
  const F = p.framing;
  const start = F.start ? enc(F.start) : undefined;
  const stuff = F.stuffing;
  const doubling = stuff?.mode === 'double';
  const xorStuff = stuff?.mode === 'xor' ? stuff.xor : 0;
  const rawEnds = !doubling;
  const ends = [F.end, ...F.acceptEnd].filter((e): e is string => e !== undefined).map(enc);
  const I = p.integrity;
  const cov = I.covers;
  const csBytes = checksumBytes(I.algorithm);
  const csEnc = I.encoding;
  const overStuffed = I.over === 'stuffed' && stuff !== undefined;
  const bodyXor = I.algorithm === 'xor8' && !cov.start && cov.payload && !cov.separator && !cov.end && !stuff;
  const forbids = enc(p.body.forbid).length > 0 || p.body.controls === 'reject';
  const csDecimal = csEnc === 'decimal';
  const csLen = csBytes === 0 ? 0 : csEnc.startsWith('binary') ? csBytes : csDecimal ? (I.digits ?? String(2 ** (8 * csBytes) - 1).length) : csBytes * 2;
  const fixed = F.length ?? 0;
  return {
    K_binary: binary,
    /** text bodies are matched in place when they are ASCII as they stand (not hex text of bytes, not upper-cased first) */
    K_inPlace: !binary && !p.body.uppercase,
    K_startLen: start ? start.length : 0,
    K_start0: start ? start[0] : -1,
    K_fixed: fixed,
    K_max: F.maxLength,
    K_trailer: F.trailer,
    K_esc: stuff ? stuff.escape.charCodeAt(0) & 0xff : -1,
    K_doubling: doubling,
    K_xorStuff: xorStuff,
    // with DLE doubling an end sequence is a control pair: its last byte alone ends nothing
    K_rawEnds: rawEnds,
    /** one end delimiter of one byte: a frame found by its last byte ends there when it holds more than the start */
    K_oneByteEnd: rawEnds && ends.length === 1 && ends[0].length === 1,
    // a new start byte inside a frame restarts it (text profiles, and stuffed ones, where data cannot hold it)
    K_resync: start !== undefined && (!binary || xorStuff !== 0),
    K_hasStuff: stuff !== undefined,
    K_hasLf: F.lengthField !== undefined,
    K_csLen: csLen,
    K_afterEnd: I.place === 'after-end',
    K_bodyXor: bodyXor,
    K_payloadOnly: cov.payload && !cov.start && !cov.separator && !cov.end && !overStuffed,
    // unstuffed, the covered parts are one run of the frame buffer when the payload is among them
    // (a value before the end never covers the end; one after it has no separator)
    K_contiguous: !stuff && cov.payload,
    K_overStuffed: overStuffed,
    K_sepLen: I.separator ? enc(I.separator).length : 0,
    /** whether decodeFrame reads the body byte by byte (forbidden bytes, whether it is ASCII, its XOR) */
    K_bodyPass: !binary || bodyXor || forbids,
    K_hasSplit: p.body.split !== undefined,
    K_uppercase: p.body.uppercase,
    K_csBinary: csEnc === 'binary-be' || csEnc === 'binary-le',
    K_csLittle: csEnc === 'binary-le',
    K_csUpper: !csDecimal && csEnc !== 'hex-lower',
    K_csLower: !csDecimal && csEnc !== 'hex-upper',
    K_csBase: csDecimal ? 10 : 16,
    K_ruleCount: p.messages.length + p.rejects.length,
    K_hasCheck: csLen > 0,
    K_isFixed: fixed > 0,
    K_hasEsc: stuff !== undefined,
    K_hasEnds: ends.length > 0,
    K_hasTrailer: F.trailer > 0,
    /** no start, no fixed length, no length field: a run of delimiters alone is a blank line */
    K_blankable: start === undefined && fixed === 0 && F.lengthField === undefined,
    /** some message is matched on its bytes (a binary layout) */
    K_anyBytes: p.messages.some((m) => m.bytes !== undefined),
    /** the body has bytes it may not hold */
    K_forbids: forbids,
  };
}

export function streamDecoder(p: DeviceProfile, D: StreamDeps): ProfileDecoder {
  const {
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
  } = D;
  // (one statement: profile-decoder.ts writes the values into a profile's own copy in its place)
  const {
    K_binary,
    K_inPlace,
    K_startLen,
    K_start0,
    K_fixed,
    K_max,
    K_trailer,
    K_esc,
    K_doubling,
    K_xorStuff,
    K_rawEnds,
    K_oneByteEnd,
    K_resync,
    K_hasStuff,
    K_hasLf,
    K_csLen,
    K_afterEnd,
    K_bodyXor,
    K_payloadOnly,
    K_contiguous,
    K_overStuffed,
    K_sepLen,
    K_bodyPass,
    K_hasSplit,
    K_uppercase,
    K_csBinary,
    K_csLittle,
    K_csUpper,
    K_csLower,
    K_csBase,
    K_ruleCount,
    K_hasCheck,
    K_isFixed,
    K_hasEsc,
    K_hasEnds,
    K_hasTrailer,
    K_blankable,
    K_anyBytes,
    K_forbids,
  } = D.streamShape(p, D);
  const talker = p.talker;
  const card = cardDecoder(p.cards);
  const memo = cardMemo(card);
  const seqMax = p.seq.wrap;

  // ---- framing tables
  const F = p.framing;
  const start = F.start ? enc(F.start) : undefined;
  const lf = F.lengthField;
  const stuff = F.stuffing;
  const ends = [F.end, ...F.acceptEnd]
    .filter((e): e is string => e !== undefined)
    .map(enc)
    .sort((a, b) => b.length - a.length);
  /** last bytes of the end delimiters (a frame can only end on one) */
  const terminal = new Uint8Array(256);
  /** every byte of every end delimiter (a noise run made only of these is a blank line, ignored) */
  const delimiter = new Uint8Array(256);
  for (const e of ends) {
    terminal[e[e.length - 1]] = 1;
    for (const b of e) delimiter[b] = 1;
  }
  /** bytes that need a decision inside a frame: an end delimiter's last byte, the start byte, the escape byte */
  const stop = K_rawEnds ? Uint8Array.from(terminal) : new Uint8Array(256);
  if (start) stop[start[0]] = 1;
  if (K_esc >= 0) stop[K_esc] = 1;
  /** inside a whole frame (wholeFrame): the bytes that end it or need a decision (an end's last byte, a start that resyncs, the escape) */
  const fastStop = K_rawEnds ? Uint8Array.from(terminal) : new Uint8Array(256);
  if (K_resync) fastStop[K_start0] = 1;
  if (K_esc >= 0) fastStop[K_esc] = 1;
  const interrupted: RejectReason = F.interrupted;
  /** the grammar fixes where a frame ends: silence is never used */
  const structural = ends.length > 0 || K_fixed > 0 || K_hasLf;

  // ---- integrity and body checks
  const I = p.integrity;
  const csFn = checksumFunction(I.algorithm);
  const cov = I.covers;
  const sep = I.separator ? enc(I.separator) : new Uint8Array(0);
  const forbidden = new Uint8Array(256);
  for (const b of enc(p.body.forbid)) forbidden[b] = 1;
  if (p.body.controls === 'reject') {
    for (let b = 0; b < 0x20; b++) forbidden[b] = 1;
    forbidden[0x7f] = 1;
  }
  const split = p.body.split;

  // ---- one small pattern per text message and reject rule, in order; a required literal skips most
  // (the patterns run on the linear-time engine: no body, however crafted, can stall the decoder;
  // a pattern it cannot run was refused when the profile was validated). Binary messages match bytes.
  const rules: Array<CompiledRule & { bytes: BytesRule | undefined }> = [];
  for (const m of p.messages) {
    if (m.bytes) {
      const names = Object.keys(m.bytes.fields);
      const fields = names.map((n) => compileByteField(m.bytes!.fields[n]));
      const slotOf = (f: string): number => names.indexOf(f);
      let minLen = 0;
      for (const f of fields) minLen = Math.max(minLen, f.at + f.width);
      for (const x of m.bytes.match) minLen = Math.max(minLen, x.at + 1);
      const src = fieldSources(m.type, slotOf, m.fields, m.map, m.ranges);
      rules.push({
        match: NEVER_MATCHES,
        literal: '',
        reason: undefined,
        type: m.type,
        seqSlot: m.seq ? slotOf(m.seq) : -1,
        src,
        onePass: undefined,
        ...fastKind(m.type, src),
        bytes: {
          length: m.bytes.length ?? -1,
          minLen,
          match: m.bytes.match,
          fields,
          read: generateBytesRule(m.bytes.length ?? -1, minLen, m.bytes.match, fields),
        },
      });
      continue;
    }
    const re = mustCompileUserPattern(m.pattern!, '', `messages.${m.name}.pattern`, { whole: true });
    const slotOf = (f: string): number => re.names.get(f) ?? -1;
    // every rule has the same shape (`bytes` present), so the matching loop stays monomorphic
    const src = fieldSources(m.type, slotOf, m.fields, m.map, m.ranges);
    rules.push({
      match: (t) => re.exec(t),
      literal: requiredLiteral(m.pattern!),
      reason: undefined,
      type: m.type,
      seqSlot: m.seq ? slotOf(m.seq) : -1,
      src,
      onePass: re.bytes,
      ...fastKind(m.type, src),
      bytes: undefined,
    });
  }
  for (const r of p.rejects) {
    // a reject rule captures nothing: the engine's cheaper yes/no match
    const re = mustCompileUserPattern(r.pattern, '', `rejects.${r.name}.pattern`, { whole: true });
    rules.push({
      match: (t) => (re.test(t) ? NO_MATCH_VALUES : null),
      literal: requiredLiteral(r.pattern),
      reason: r.reason,
      type: 'HB',
      seqSlot: -1,
      src: [],
      onePass: re.bytes,
      fast: FAST_PLAIN,
      fastSlot: -1,
      rescan: false,
      bytes: undefined,
    });
  }
  const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

  // ---- state
  const buf = Buffer.alloc(K_max + K_trailer + 1);
  /** the unstuffed body, and where each of its bytes began in `buf` */
  const ubuf = stuff ? Buffer.alloc(K_max + 1) : buf;
  const rawAt = stuff ? new Int32Array(K_max + 2) : new Int32Array(0);
  /** the bytes a check covers when they are not one run of one buffer */
  const scratch = Buffer.alloc(2 * K_max + 16);
  const bvals: Array<number | string | undefined> = new Array(16).fill(undefined);
  let len = 0;
  let state = start ? HUNT : FRAME;
  let escPending = false;
  /** the frame's length from its length field (-1 until read) */
  let total = -1;
  let endLen = 0;
  let trailerGot = 0;
  const noiseBuf = Buffer.alloc(RAW_MAX);
  let noiseLen = 0;
  let noiseOnlyDelimiters = true;

  /** where the frame being decoded lies: the frame buffer, or the chunk itself (a whole frame read in place) */
  let curF: Uint8Array = buf;
  let curO = 0;
  const bad = (reason: RejectReason, frameLen: number): FrameReject => reject(reason, describeBytes(curF, curO, curO + frameLen));

  /** the check value written at b[s, s + csLen) in the profile's encoding; -1 when it does not read */
  function readCheck(b: Uint8Array, s: number): number {
    let v = 0;
    if (K_csBinary) {
      for (let i = 0; i < K_csLen; i++) v = v * 256 + b[K_csLittle ? s + K_csLen - 1 - i : s + i];
      return v;
    }
    for (let i = s; i < s + K_csLen; i++) {
      const c = b[i];
      let d: number;
      if (c >= 0x30 && c <= 0x39) d = c - 0x30;
      else if (K_csUpper && c >= 0x41 && c <= 0x46) d = c - 0x37;
      else if (K_csLower && c >= 0x61 && c <= 0x66) d = c - 0x57;
      else return -1;
      v = v * K_csBase + d;
    }
    return v;
  }

  /** DLE doubling or escape-XOR undone on F[s, e) into ubuf (rawAt: where each byte began in F); the unstuffed length, -1 when a pair is not data */
  function unstuff(F: Uint8Array, s: number, e: number): number {
    let u = 0;
    for (let i = s; i < e; i++) {
      rawAt[u] = i;
      const b = F[i];
      if (b === K_esc) {
        if (i + 1 >= e) return -1;
        const n = F[++i];
        if (K_doubling) {
          if (n !== K_esc) return -1;
          ubuf[u++] = K_esc;
        } else ubuf[u++] = n ^ K_xorStuff;
      } else ubuf[u++] = b;
    }
    rawAt[u] = e;
    return u;
  }

  /**
   * Decodes `F[o, o + frameLen)` (the frame buffer, or the chunk when a whole frame is read in
   * place): start, body, `eLen` bytes of end sequence,
   * `tLen` trailer bytes. Pushes the frames (several with `body.split`) and returns null, or
   * returns the reject.
   */
  function decodeFrame(F: Buffer, o: number, frameLen: number, eLen: number, tLen: number, out: DecodedItem[]): FrameReject | null {
    curF = F;
    curO = o;
    const r = decodeFrameAt(F, o, frameLen, eLen, tLen, out);
    curF = buf;
    curO = 0;
    return r;
  }

  function decodeFrameAt(F: Buffer, o: number, frameLen: number, eLen: number, tLen: number, out: DecodedItem[]): FrameReject | null {
    for (let i = 0; i < K_startLen; i++) if (F[o + i] !== start![i]) return bad('malformed', frameLen);
    const bodyEndRaw = frameLen - tLen - eLen;
    // the payload P[ps, pe): the unstuffed body, or the body in place
    let P: Buffer = F;
    let ps = o + K_startLen;
    let pe = o + bodyEndRaw;
    if (K_hasStuff) {
      const u = unstuff(F, o + K_startLen, o + bodyEndRaw);
      if (u < 0) return bad('malformed', frameLen);
      P = ubuf;
      ps = 0;
      pe = u;
    }
    let want = 0;
    let sepStart = pe;
    if (K_hasCheck) {
      if (K_afterEnd) {
        if (tLen < K_csLen) return bad('malformed', frameLen);
        want = readCheck(F, o + frameLen - K_csLen);
      } else {
        const csStart = pe - K_csLen;
        sepStart = csStart - K_sepLen;
        if (sepStart < ps) return bad('malformed', frameLen);
        for (let i = 0; i < K_sepLen; i++) if (P[sepStart + i] !== sep[i]) return bad('malformed', frameLen);
        want = readCheck(P, csStart);
      }
      if (want < 0) return bad('malformed', frameLen);
    }
    let ascii = true;
    let xor = 0; // XOR-8 of the body, computed in the same pass (the reference protocol's check)
    // (a binary body with no forbidden byte and no XOR check needs neither: its text is hex of the bytes)
    if (K_bodyPass)
      for (let i = ps; i < sepStart; i++) {
        const b = P[i];
        if (K_forbids && forbidden[b] === 1) return bad('malformed', frameLen);
        if (b >= 0x80) ascii = false;
        if (K_bodyXor) xor ^= b;
      }
    if (K_hasCheck) {
      let got: number;
      if (K_bodyXor) got = xor;
      else if (K_payloadOnly) got = csFn(P, ps, sepStart);
      else if (K_contiguous) got = csFn(F, o + (cov.start ? 0 : K_startLen), cov.end ? o + bodyEndRaw + eLen : cov.separator ? sepStart + K_sepLen : sepStart);
      else {
        // the covered parts, in wire order, copied into one run
        let n = 0;
        const put = (b: Uint8Array, s: number, e: number): void => {
          for (let i = s; i < e; i++) scratch[n++] = b[i];
        };
        if (cov.start) put(F, o, o + K_startLen);
        if (K_overStuffed) {
          // (rawAt holds the indexes in F)
          const rs = rawAt[sepStart];
          if (cov.payload) put(F, o + K_startLen, rs);
          if (cov.separator) put(F, rs, rawAt[sepStart + K_sepLen]);
        } else {
          if (cov.payload) put(P, ps, sepStart);
          if (cov.separator) put(P, sepStart, sepStart + K_sepLen);
        }
        if (cov.end) put(F, o + bodyEndRaw, o + bodyEndRaw + eLen);
        got = csFn(scratch, 0, n);
      }
      if (got !== want) return bad('bad-checksum', frameLen);
    }
    if (!K_hasSplit) {
      const item = decodePayload(P, ps, sepStart, ascii, frameLen);
      if (item !== null && 'reason' in item) return item;
      if (item !== null) out.push(item);
      return null;
    }
    // several messages in one frame: each part is a message of its own (a part that fails is its own reject)
    const text = bodyText(P, ps, sepStart, ascii);
    if (text === null) return bad('malformed', frameLen);
    for (const part of text.split(split!)) {
      const item = matchText(part, P, ps, sepStart, frameLen);
      out.push(item);
    }
    return null;
  }

  function bodyText(P: Buffer, s: number, e: number, ascii: boolean): string | null {
    let text: string;
    if (K_binary) {
      text = '';
      for (let i = s; i < e; i++) text += HEX[P[i] >> 4] + HEX[P[i] & 15];
    } else if (ascii) {
      text = latin1(P, s, e);
    } else {
      try {
        text = utf8.decode(P.subarray(s, e));
      } catch {
        return null;
      }
    }
    return K_uppercase ? text.toUpperCase() : text;
  }

  /** the payload P[s, e) as one message: a frame or a reject */
  function decodePayload(P: Buffer, s: number, e: number, ascii: boolean, frameLen: number): DecodedItem | null {
    let text: string | null | undefined;
    for (let k = 0; k < K_ruleCount; k++) {
      const c = rules[k];
      const br = c.bytes;
      if (K_anyBytes && br !== undefined) {
        if (!br.read(P, s, e, bvals)) continue;
        return c.fast === FAST_NONE ? finish(c, bvals, frameLen) : finishValues(c, bvals, frameLen);
      }
      const op = c.onePass;
      if (K_inPlace && op !== undefined && ascii) {
        // the pattern over the body's bytes in place: the same match as over its text (one byte per character)
        if (!op.run(P, s, e)) continue;
        if (c.reason !== undefined) return bad(c.reason, frameLen);
        return finishInPlace(c, op.caps, P, s, e, frameLen);
      }
      if (text === undefined) {
        text = bodyText(P, s, e, ascii);
        if (text === null) return bad('malformed', frameLen);
      }
      if (text === null) continue;
      if (c.literal !== '' && !text.includes(c.literal)) continue;
      const r = c.match(text);
      if (r !== null) return c.reason !== undefined ? bad(c.reason, frameLen) : finish(c, r, frameLen);
    }
    return bad('unknown-type', frameLen);
  }

  function matchText(text: string, _P: Buffer, _s: number, _e: number, frameLen: number): DecodedItem {
    const t = K_uppercase ? text.toUpperCase() : text;
    for (let k = 0; k < K_ruleCount; k++) {
      const c = rules[k];
      if (c.bytes !== undefined) continue;
      if (c.literal !== '' && !t.includes(c.literal)) continue;
      const r = c.match(t);
      if (r !== null) return c.reason !== undefined ? reject(c.reason, describeText(t)) : finish(c, r, frameLen, t);
    }
    return reject('unknown-type', describeText(t));
  }

  /** a frame of a binary message whose values are read (FAST_PLAIN, FAST_CARD, FAST_INT) */
  function finishValues(rule: CompiledRule, vals: ArrayLike<Value>, frameLen: number): DecodedItem {
    let seq = 0;
    if (rule.seqSlot >= 0) {
      seq = toInt(vals[rule.seqSlot], K_binary && typeof vals[rule.seqSlot] === 'string');
      if (!(seq >= 0 && seq <= seqMax)) return bad('malformed', frameLen);
    }
    const f = rule.fast;
    if (f === FAST_CARD) {
      const v = vals[rule.fastSlot];
      const c = typeof v === 'number' ? memo.number(v) : v === undefined || v === '' ? null : card(String(v));
      return c === null ? bad('bad-field', frameLen) : { talker, seq, type: 'CARD', card: c, rescan: rule.rescan };
    }
    if (f === FAST_INT) {
      const s = rule.src[0];
      const n = toInt(vals[rule.fastSlot], K_binary);
      if (!(n >= s.min && n <= s.max)) return bad('bad-field', frameLen);
      return rule.type === 'BALL' ? { talker, seq, type: 'BALL', ball: n } : { talker, seq, type: 'COUNT', count: n };
    }
    if (f === FAST_ROLL) {
      // each value as intOf reads it; bounces that read nothing are 0, as in buildFrame
      const src = rule.src;
      const d1 = toInt(vals[src[0].slot], K_binary);
      const d2 = toInt(vals[src[1].slot], K_binary);
      const d3 = toInt(vals[src[2].slot], K_binary);
      const bv = vals[src[3].slot];
      const bounces = bv === undefined ? 0 : toInt(bv, K_binary);
      if (
        !(d1 >= src[0].min && d1 <= src[0].max) ||
        !(d2 >= src[1].min && d2 <= src[1].max) ||
        !(d3 >= src[2].min && d3 <= src[2].max) ||
        !(bv === undefined || (bounces >= src[3].min && bounces <= src[3].max))
      )
        return bad('bad-field', frameLen);
      return { talker, seq, type: 'ROLL', dice: [d1, d2, d3], bounces };
    }
    const fr = buildFrame(rule, NO_VALUES, talker, seq, K_binary, card);
    return typeof fr === 'string' ? bad(fr, frameLen) : fr;
  }

  /** a frame of a text message matched in place, its groups at caps (offsets into P) */
  function finishInPlace(rule: CompiledRule, caps: Int32Array, P: Buffer, s: number, e: number, frameLen: number): DecodedItem {
    const f = rule.fast;
    if (f === FAST_NONE || f === FAST_ROLL) {
      // the values as text, as the pattern's exec would give them
      const vals: Array<string | undefined> = [latin1(P, s, e)];
      const groups = caps.length / 2;
      for (let g = 1; g < groups; g++) vals.push(latin1(P, caps[2 * g], caps[2 * g + 1]));
      return finish(rule, vals, frameLen);
    }
    let seq = 0;
    const q = rule.seqSlot;
    if (q >= 0) {
      seq = digitsAt(P, caps[2 * q], caps[2 * q + 1]);
      if (!(seq >= 0 && seq <= seqMax)) return bad('malformed', frameLen);
    }
    if (f === FAST_CARD) {
      const k = rule.fastSlot;
      const c = memo.bytes(P, caps[2 * k], caps[2 * k + 1]);
      return c === null ? bad('bad-field', frameLen) : { talker, seq, type: 'CARD', card: c, rescan: rule.rescan };
    }
    if (f === FAST_INT) {
      const k = rule.fastSlot;
      const src = rule.src[0];
      const n = digitsAt(P, caps[2 * k], caps[2 * k + 1]);
      if (!(n >= src.min && n <= src.max)) return bad('bad-field', frameLen);
      return rule.type === 'BALL' ? { talker, seq, type: 'BALL', ball: n } : { talker, seq, type: 'COUNT', count: n };
    }
    const fr = buildFrame(rule, NO_VALUES, talker, seq, false, card);
    return typeof fr === 'string' ? bad(fr, frameLen) : fr;
  }

  function finish(rule: CompiledRule, vals: ArrayLike<Value>, frameLen: number, part?: string): DecodedItem {
    let seq = 0;
    if (rule.seqSlot >= 0) {
      seq = toInt(vals[rule.seqSlot], K_binary && typeof vals[rule.seqSlot] === 'string');
      if (!(seq >= 0 && seq <= seqMax)) return part === undefined ? bad('malformed', frameLen) : reject('malformed', describeText(part));
    }
    const f = buildFrame(rule, vals, talker, seq, K_binary, card);
    if (typeof f !== 'string') return f;
    return part === undefined ? bad(f, frameLen) : reject(f, describeText(part));
  }

  /** Length of the end delimiter `buf[0, len)` ends with, 0 when none. */
  function endLength(): number {
    for (let k = 0; k < ends.length; k++) {
      const e = ends[k];
      const n = e.length;
      if (len < n + K_startLen) continue;
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

  function restart(): void {
    len = 0;
    total = -1;
    escPending = false;
    state = start ? HUNT : FRAME;
  }

  /**
   * The frame `buf[0, len)` is complete. A frame that fails and holds a later start sequence was
   * noise in front of a frame (or a frame cut short): the bytes before that start are the reject,
   * and the rest is read again, so noise never takes a frame with it.
   */
  function emit(out: DecodedItem[], eLen: number, tLen: number): void {
    // a frame with nothing but delimiters in it (a blank line) is no frame
    let blank = K_blankable;
    if (blank) {
      for (let i = 0; i < len - eLen; i++) {
        if (delimiter[buf[i]] !== 1) {
          blank = false;
          break;
        }
      }
    }
    const frameLen = len;
    restart();
    if (blank) return;
    const r = decodeFrame(buf, 0, frameLen, eLen, tLen, out);
    if (r === null) return;
    retryFrom(out, r, frameLen);
  }

  /** a failed candidate frame buf[0, frameLen): reject it whole, or only up to a later start sequence and read the rest again */
  function retryFrom(out: DecodedItem[], r: FrameReject, frameLen: number): void {
    let k = -1;
    if (start) {
      for (let i = 1; i < frameLen; i++) {
        if (buf[i] !== K_start0) continue;
        let ok = true;
        for (let j = 1; j < K_startLen && i + j < frameLen; j++) if (buf[i + j] !== start[j]) ok = false;
        if (ok) {
          k = i;
          break;
        }
      }
    }
    if (k < 0) {
      out.push(r);
      return;
    }
    out.push(reject(r.reason, describeBytes(buf, 0, k)));
    const rest = Uint8Array.prototype.slice.call(buf, k, frameLen);
    pushBytes(rest, out);
  }

  function flushNoise(out: DecodedItem[]): void {
    out.push(reject('noise', describeBytes(noiseBuf, 0, Math.min(noiseLen, RAW_MAX), noiseLen)));
    noiseLen = 0;
    noiseOnlyDelimiters = true;
  }

  function addNoise(b: number): void {
    if (noiseLen < RAW_MAX) noiseBuf[noiseLen] = b;
    noiseLen++;
    if (delimiter[b] !== 1) noiseOnlyDelimiters = false;
  }

  /** the frame failed to become one: its length field does not read, it is too long */
  function fail(out: DecodedItem[], reason: RejectReason, extra?: string): void {
    const frameLen = len;
    const r = extra === undefined ? bad(reason, frameLen) : reject(reason, describeBytes(buf, 0, frameLen, extra));
    restart();
    retryFrom(out, r, frameLen);
  }

  function lengthFromField(): number {
    const o = lf!.offset;
    let v = 0;
    for (let i = 0; i < lf!.width; i++) v = v * 256 + buf[lf!.order === 'le' ? o + lf!.width - 1 - i : o + i];
    const head = o + lf!.width;
    const n = lf!.counts === 'frame' ? v : lf!.counts === 'following' ? head + v : head + v + K_csLen;
    return n + lf!.adjust;
  }

  /**
   * A whole frame at bytes[i] (between frames, at a start sequence or, without one, at a line's
   * first byte) that ends inside the chunk without any decision on the way (no start inside it
   * where one resyncs, no escape other than data, within maxLength): it is copied and emitted as
   * the byte-by-byte path would, and the index after it returned. 0 when it is not such a frame:
   * then nothing has changed and the byte-by-byte path reads it.
   */
  function wholeFrame(bytes: Uint8Array, i: number, n: number, out: DecodedItem[], readInChunk: boolean): number {
    if (i + K_startLen > n) return 0;
    for (let k = 1; k < K_startLen; k++) if (bytes[i + k] !== start![k]) return 0;
    let e: number;
    let eLen = 0;
    if (K_isFixed || K_hasLf) {
      if (K_hasEsc) return 0;
      let h = i + K_fixed;
      if (K_hasLf) {
        h = i + lf!.offset + lf!.width;
        if (h > n || h - i > K_max) return 0;
        for (let k = i; k < h; k++) buf[k - i] = bytes[k];
        len = h - i;
        const t = lengthFromField();
        len = 0;
        if (t < h - i || t > K_max) return 0;
        h = i + t;
      }
      e = h;
      if (e > n) return 0;
      if (K_resync) for (let k = i + 1; k < e; k++) if (bytes[k] === K_start0) return 0;
    } else if (K_hasEnds) {
      // the end: its last byte (or, with DLE doubling, the byte after a single escape) within maxLength with the trailer
      const lim = Math.min(n, i + K_max - K_trailer);
      let j = i + K_startLen;
      for (;;) {
        while (j < lim && fastStop[bytes[j]] !== 1) j++;
        if (j >= lim) return 0;
        const c = bytes[j];
        if (K_hasEsc && c === K_esc) {
          if (j + 1 >= lim) return 0;
          const d = bytes[j + 1];
          if (!K_doubling || d === K_esc) {
            j += 2;
            continue;
          }
          if (K_startLen === 2 && d === start![1]) return 0;
          eLen = endAt(bytes, i, j + 2);
          if (eLen > 0) {
            j++;
            break;
          }
          j += 2;
          continue;
        }
        if (K_resync && c === K_start0) return 0;
        eLen = K_oneByteEnd ? (j - i >= K_startLen ? 1 : 0) : endAt(bytes, i, j + 1);
        if (eLen > 0) break;
        j++;
      }
      e = j + 1 + K_trailer;
      if (e > n) return 0;
    } else return 0;
    if (noiseLen > 0) flushNoise(out);
    const tLen = K_hasTrailer && eLen > 0 ? K_trailer : 0;
    if (readInChunk) {
      // read in place, as emit() reads the frame buffer: a blank line is no frame; a reject is
      // retried from the frame buffer (a later start in it is read again)
      if (K_blankable) {
        let blank = true;
        for (let k = i; k < e - eLen; k++) {
          if (delimiter[bytes[k]] !== 1) {
            blank = false;
            break;
          }
        }
        if (blank) return e;
      }
      const r = decodeFrame(bytes as Buffer, i, e - i, eLen, tLen, out);
      if (r !== null) {
        for (let k = i; k < e; k++) buf[k - i] = bytes[k];
        retryFrom(out, r, e - i);
      }
      return e;
    }
    for (let k = i; k < e; k++) buf[k - i] = bytes[k];
    len = e - i;
    emit(out, eLen, tLen);
    return e;
  }

  /** Length of the end delimiter the frame bytes[s, e) ends with, 0 when none (endLength on the chunk). */
  function endAt(bytes: Uint8Array, s: number, e: number): number {
    for (let k = 0; k < ends.length; k++) {
      const d = ends[k];
      const m = d.length;
      if (e - s < m + K_startLen) continue;
      let ok = true;
      for (let q = 0; q < m; q++) {
        if (bytes[e - m + q] !== d[q]) {
          ok = false;
          break;
        }
      }
      if (ok) return m;
    }
    return 0;
  }

  function pushBytes(bytes: Uint8Array, out: DecodedItem[]): void {
    const n = bytes.length;
    /** whole frames are read (and unstuffed) where they lie in the chunk when it is a Buffer */
    const readInChunk = Buffer.isBuffer(bytes);
    for (let i = 0; i < n; i++) {
      if (len === 0 && !escPending && (state === HUNT ? bytes[i] === K_start0 : state === FRAME && K_startLen === 0)) {
        const e = wholeFrame(bytes, i, n, out, readInChunk);
        if (e > 0) {
          i = e - 1;
          continue;
        }
      }
      if (!K_isFixed && !K_hasLf && state === FRAME && len >= K_startLen && !escPending) {
        // the bytes inside a frame that need no decision are copied in a tight loop
        let room = K_max - 1 - len;
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
        if (len < K_startLen) {
          // inside the start sequence: a byte that breaks it makes what came so far noise
          if (b === start![len]) {
            buf[len++] = b;
            // the whole start sequence: the noise before it is a reject of its own
            if (len === K_startLen && noiseLen > 0) flushNoise(out);
            if (K_isFixed && len === K_fixed) emit(out, 0, 0);
            continue;
          }
          const again = Uint8Array.prototype.slice.call(buf, 1, len);
          addNoise(buf[0]);
          restart();
          pushBytes(again, out);
          pushBytes(Uint8Array.of(b), out);
          continue;
        }
        if (escPending) {
          escPending = false;
          buf[len++] = b;
          if (K_doubling && b !== K_esc) {
            // a control pair: the end sequence, a new start (resync), or malformed (found by unstuffing)
            if (K_startLen === 2 && b === start![1]) {
              out.push(bad(interrupted, len - 2));
              buf[0] = K_esc;
              buf[1] = b;
              len = 2;
              continue;
            }
            const e = endLength();
            if (e > 0) {
              endFound(out, e);
              continue;
            }
          }
          if (len >= K_max) fail(out, 'too-long', `>${K_max}`);
          continue;
        }
        if (b === K_esc) {
          escPending = true;
          buf[len++] = b;
          if (len >= K_max) fail(out, 'too-long', `>${K_max}`);
          continue;
        }
        if (K_resync && b === K_start0 && len > 0) {
          out.push(bad(interrupted, len));
          len = 0;
          escPending = false;
          total = -1;
          buf[len++] = b;
          if (K_startLen === 1 && K_fixed === 1) emit(out, 0, 0);
          continue;
        }
        buf[len++] = b;
        if (K_isFixed) {
          if (len === K_fixed) emit(out, 0, 0);
          continue;
        }
        if (K_hasLf) {
          if (total < 0 && len === lf!.offset + lf!.width) {
            total = lengthFromField();
            if (total < len || total > K_max) {
              fail(out, 'malformed');
              continue;
            }
          }
          if (len === total) emit(out, 0, 0);
          continue;
        }
        if (K_rawEnds && terminal[b] === 1) {
          const e = endLength();
          if (e > 0) {
            endFound(out, e);
            continue;
          }
        }
        if (len >= K_max) {
          out.push(reject('too-long', describeBytes(buf, 0, len, `>${K_max}`)));
          const hadStart = start !== undefined;
          restart();
          state = ends.length > 0 || hadStart || F.idleMs ? SKIP : FRAME;
        }
      } else if (state === TRAILER) {
        buf[len++] = b;
        if (++trailerGot === K_trailer) emit(out, endLen, K_trailer);
      } else if (state === HUNT) {
        if (b === K_start0) {
          if (noiseLen > 0 && K_startLen === 1) flushNoise(out);
          buf[0] = b;
          len = 1;
          state = FRAME;
          if (K_fixed === 1) emit(out, 0, 0);
        } else if (K_rawEnds && terminal[b] === 1) {
          if (noiseLen > 0) {
            if (noiseOnlyDelimiters) {
              noiseLen = 0;
            } else flushNoise(out);
          }
        } else addNoise(b);
      } else if (b === K_start0 && start) {
        buf[0] = b;
        len = 1;
        state = FRAME;
      } else if (terminal[b] === 1) {
        state = start ? HUNT : FRAME;
      }
    }
  }

  function endFound(out: DecodedItem[], e: number): void {
    if (K_hasTrailer) {
      // maxLength counts the whole frame, its trailer included
      if (len + K_trailer > K_max) {
        fail(out, 'too-long', `>${K_max}`);
        return;
      }
      state = TRAILER;
      endLen = e;
      trailerGot = 0;
      return;
    }
    emit(out, e, 0);
  }

  function flushIdle(): DecodedItem[] {
    const out: DecodedItem[] = [];
    if (structural) return out;
    if (state === FRAME && len > 0) emit(out, endLength(), 0);
    else if (state === HUNT && noiseLen > 0) {
      if (noiseOnlyDelimiters) noiseLen = 0;
      else flushNoise(out);
    }
    if (state === SKIP) state = start ? HUNT : FRAME;
    return out;
  }

  function endOfStream(): DecodedItem[] {
    if (F.idleMs !== undefined && !structural) return flushIdle();
    const out: DecodedItem[] = [];
    // a frame cut off by the end stays unreported, but frames after a later start sequence inside
    // it (behind a corrupted length field, say) are read: what follows is never lost with it
    while ((state === FRAME || state === TRAILER) && len > 1 && start) {
      let k = -1;
      for (let i = 1; i < len && k < 0; i++) if (buf[i] === K_start0) k = i;
      if (k < 0) break;
      const frameLen = len;
      const rest = Uint8Array.prototype.slice.call(buf, k, frameLen);
      out.push(reject('malformed', describeBytes(buf, 0, k)));
      restart();
      pushBytes(rest, out);
    }
    if (state === HUNT && noiseLen > 0) {
      if (noiseOnlyDelimiters) noiseLen = 0;
      else flushNoise(out);
    }
    return out;
  }

  function reset(): void {
    restart();
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
            if (it.length > K_max || n !== it.length) {
              out.push(reject('too-long', describeBytes(buf, 0, Math.min(n, K_max), `>${K_max}`)));
              continue;
            }
            const r = decodeFrame(buf, 0, n, 0, 0, out);
            if (r !== null) out.push(r);
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
    idleMs: structural ? undefined : F.idleMs,
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
