/**
 * The types the profile decoder (profile-decoder.ts) and its streaming code (stream-decoder.ts)
 * share, and what the streaming code receives from outside its own text (StreamDeps).
 */
import type { Card } from '../../src/core/vocabulary/card.js';
import type { DeviceFrame, FrameReject, RejectReason, Talker } from '../../src/core/vocabulary/frames.js';
import type { KeyboardWedgeDecoder } from '../codecs/hid-keyboard.js';
import type { CardCodeOptions, CardDecoder } from './card-codes.js';
import type { ChecksumFunction, ChecksumKind } from './checksums.js';
import type { CompileOptions, LinearPattern } from './linear-pattern.js';
import type { OnePassBytes } from './one-pass-pattern.js';
import type { BinaryField, DeviceProfile, FrameTypeName } from './profile-schema.js';

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

export type Value = string | number | boolean | undefined;

/** Where one field of a message comes from: a capture (or report byte) slot, else a constant; then a value map. */
export interface FieldSource {
  slot: number;
  constant: Value;
  map: Map<string, string | number | boolean> | undefined;
  min: number;
  max: number;
}

/** the values of a match: [whole, group 1, ...] */
export type MatchValues = ArrayLike<string | undefined>;

export interface CompiledRule {
  /** the rule's pattern on the linear-time engine, matched against the whole body (null: no match) */
  match: (text: string) => MatchValues | null;
  /** a literal every match contains ('' = none): skipped when the body lacks it */
  literal: string;
  reason: RejectReason | undefined;
  type: FrameTypeName;
  seqSlot: number;
  /** sources in the order of TYPE_FIELDS[type] */
  src: FieldSource[];
  /** the pattern as a pass over the body's bytes in place (a one-pass pattern), else undefined */
  onePass: OnePassBytes | undefined;
  /** how the frame is built without strings (FAST_*), from `fastSlot`; `rescan` for a card */
  fast: number;
  fastSlot: number;
  rescan: boolean;
}

/** A binary field compiled: where it sits in the payload and how it reads. */
export interface ByteField {
  at: number;
  width: number;
  le: boolean;
  /** bits lo..hi (inclusive), -1 = the whole value */
  lo: number;
  hi: number;
  hex: boolean;
  /** 2 ** lo and 2 ** (hi - lo + 1), computed once */
  div: number;
  mod: number;
  /** bits of a value of up to 4 bytes, at most 31 of them: read with a shift and a mask (mod - 1) */
  int32: boolean;
}

export interface BytesRule {
  /** exact payload length, -1 = at least minLen */
  length: number;
  minLen: number;
  match: Array<{ at: number; value: number; mask: number }>;
  fields: ByteField[];
  /** the length test, the match bytes and the field reads as code of their own (generateBytesRule) */
  read: (P: Uint8Array, s: number, e: number, vals: Value[]) => boolean;
}

/** a card decoder's answers remembered, by code bytes and by number */
export interface CardMemo {
  bytes(b: Uint8Array, s: number, e: number): Card | null;
  number(v: number): Card | null;
}

/** What the streaming decoder uses from outside its own text (profile-decoder.ts builds it). */
export interface StreamDeps {
  enc(s: string): Uint8Array;
  HEX: string;
  HUNT: number;
  FRAME: number;
  SKIP: number;
  TRAILER: number;
  RAW_MAX: number;
  FAST_NONE: number;
  FAST_PLAIN: number;
  FAST_CARD: number;
  FAST_INT: number;
  FAST_ROLL: number;
  cardDecoder(o: CardCodeOptions): CardDecoder;
  cardMemo(card: CardDecoder): CardMemo;
  checksumBytes(kind: ChecksumKind): number;
  checksumFunction(kind: ChecksumKind): ChecksumFunction;
  mustCompileUserPattern(source: string, flags: string, keyPath: string, options?: CompileOptions): LinearPattern;
  requiredLiteral(pattern: string): string;
  fieldSources(
    type: FrameTypeName,
    slotOf: (field: string) => number,
    consts: Record<string, Value>,
    maps: Record<string, Record<string, string | number | boolean>>,
    ranges: Record<string, { min: number; max: number }>,
  ): FieldSource[];
  fastKind(type: FrameTypeName, src: FieldSource[]): { fast: number; fastSlot: number; rescan: boolean };
  compileByteField(f: BinaryField): ByteField;
  generateBytesRule(length: number, minLen: number, match: BytesRule['match'], fields: ByteField[], generate?: boolean): BytesRule['read'];
  NEVER_MATCHES: (text: string) => MatchValues | null;
  NO_MATCH_VALUES: MatchValues;
  NO_VALUES: Value[];
  reject(reason: RejectReason, raw: string): FrameReject;
  describeBytes(bytes: Uint8Array, start?: number, end?: number, total?: number | string): string;
  describeText(text: string): string;
  latin1(b: Uint8Array, s: number, e: number): string;
  buildFrame(rule: CompiledRule, vals: ArrayLike<Value>, talker: Talker, seq: number, hex: boolean, card: CardDecoder): DeviceFrame | RejectReason;
  toInt(v: Value, hex: boolean): number;
  digitsAt(b: Uint8Array, s: number, e: number): number;
  KeyboardWedgeDecoder: typeof KeyboardWedgeDecoder;
  /** the profile's shape constants (stream-decoder.ts streamShape) */
  streamShape: (p: DeviceProfile, D: StreamDeps) => StreamShape;
}

/**
 * The settings the streaming code branches on that follow from the profile's shape alone (its
 * encoding, framing, integrity, body and how many messages and rejects it has): in a profile's own
 * copy of the code each is written in as a literal, so the compiler folds the branches on it.
 */
export interface StreamShape {
  K_binary: boolean;
  K_inPlace: boolean;
  K_startLen: number;
  K_start0: number;
  K_fixed: number;
  K_max: number;
  K_trailer: number;
  K_esc: number;
  K_doubling: boolean;
  K_xorStuff: number;
  K_rawEnds: boolean;
  K_oneByteEnd: boolean;
  K_resync: boolean;
  K_hasStuff: boolean;
  K_hasLf: boolean;
  K_csLen: number;
  K_afterEnd: boolean;
  K_bodyXor: boolean;
  K_payloadOnly: boolean;
  K_contiguous: boolean;
  K_overStuffed: boolean;
  K_sepLen: number;
  K_bodyPass: boolean;
  K_hasSplit: boolean;
  K_uppercase: boolean;
  K_csBinary: boolean;
  K_csLittle: boolean;
  K_csUpper: boolean;
  K_csLower: boolean;
  K_csBase: number;
  K_ruleCount: number;
  K_hasCheck: boolean;
  K_isFixed: boolean;
  K_hasEsc: boolean;
  K_hasEnds: boolean;
  K_hasTrailer: boolean;
  K_blankable: boolean;
  K_anyBytes: boolean;
  K_forbids: boolean;
}
