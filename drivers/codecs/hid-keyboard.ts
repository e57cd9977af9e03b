/**
 * Barcode scanner in keyboard-wedge mode (HID boot keyboard), device-protocols.md §2a.
 *
 * Input reports are 8 bytes `[modifiers, reserved, key1..key6]`. Only key-DOWN transitions type a
 * character: a key present in a report but not in the previous one. A key held across reports is
 * one keypress; released and pressed again is two. Characters use the US layout (letters, digits,
 * the printable symbols, space, the keypad with Num Lock on); Shift = modifier bits 0x02 / 0x20.
 * Enter (0x28, or keypad Enter 0x58) completes the barcode. Keys pressed while Ctrl, Alt or GUI is
 * held, and keys with no printable meaning (Tab, Escape, arrows, ...), are ignored. A report
 * reporting ErrorRollOver (0x01..0x03 in a key slot) is a phantom state and is ignored whole.
 */
import { parseCard } from '../../src/core/vocabulary/card.js';
import type { Card } from '../../src/core/vocabulary/card.js';
import type { FrameReject } from '../../src/core/vocabulary/frames.js';
import { describeBytes, describeText, reject } from './reject.js';
import { mustCompileUserPattern } from '../profiles/linear-pattern.js';

export const HID_KEYBOARD_REPORT_BYTES = 8;
/** A barcode longer than this is dropped with a `too-long` reject (up to the next Enter). */
export const MAX_BARCODE_CHARS = 256;

export const MOD_LEFT_SHIFT = 0x02;
export const MOD_RIGHT_SHIFT = 0x20;
const MOD_SHIFT = MOD_LEFT_SHIFT | MOD_RIGHT_SHIFT;
/** Ctrl, Alt, GUI on both sides. */
const MOD_NON_SHIFT = 0xff & ~MOD_SHIFT;

export const KEY_ENTER = 0x28;
export const KEY_KEYPAD_ENTER = 0x58;

/** usage -> [unshifted, shifted]; '' where the key types nothing. */
const PLAIN: string[] = new Array(256).fill('');
const SHIFTED: string[] = new Array(256).fill('');
for (let i = 0; i < 26; i++) {
  PLAIN[0x04 + i] = String.fromCharCode(0x61 + i);
  SHIFTED[0x04 + i] = String.fromCharCode(0x41 + i);
}
const DIGITS_SHIFTED = '!@#$%^&*()';
for (let i = 0; i < 10; i++) {
  // 0x1E..0x26 = '1'..'9', 0x27 = '0'
  PLAIN[0x1e + i] = i === 9 ? '0' : String(i + 1);
  SHIFTED[0x1e + i] = DIGITS_SHIFTED[i];
}
const SYMBOLS: Array<[number, string, string]> = [
  [0x2c, ' ', ' '],
  [0x2d, '-', '_'],
  [0x2e, '=', '+'],
  [0x2f, '[', '{'],
  [0x30, ']', '}'],
  [0x31, '\\', '|'],
  [0x33, ';', ':'],
  [0x34, "'", '"'],
  [0x35, '`', '~'],
  [0x36, ',', '<'],
  [0x37, '.', '>'],
  [0x38, '/', '?'],
  // keypad, Num Lock on (shift does not change them here)
  [0x54, '/', '/'],
  [0x55, '*', '*'],
  [0x56, '-', '-'],
  [0x57, '+', '+'],
  [0x59, '1', '1'],
  [0x5a, '2', '2'],
  [0x5b, '3', '3'],
  [0x5c, '4', '4'],
  [0x5d, '5', '5'],
  [0x5e, '6', '6'],
  [0x5f, '7', '7'],
  [0x60, '8', '8'],
  [0x61, '9', '9'],
  [0x62, '0', '0'],
  [0x63, '.', '.'],
];
for (const [usage, plain, shifted] of SYMBOLS) {
  PLAIN[usage] = plain;
  SHIFTED[usage] = shifted;
}

/** The character a key types under the US layout, or '' (exported for simulators/tests). */
export function usageToChar(usage: number, shift: boolean): string {
  return (shift ? SHIFTED : PLAIN)[usage & 0xff];
}

/** character -> the key that types it (main-block keys before the keypad: a digit on the top row) */
const KEY_OF = new Map<string, { usage: number; shift: boolean }>();
for (const [from, to] of [
  [0x04, 0x38],
  [0x54, 0x63],
] as const) {
  for (let u = from; u <= to; u++) {
    for (const shift of [false, true]) {
      const ch = usageToChar(u, shift);
      if (ch !== '' && !KEY_OF.has(ch)) KEY_OF.set(ch, { usage: u, shift });
    }
  }
}

/**
 * What a keyboard-wedge scanner sends for `text` and Enter: per character a key-down report
 * `[modifiers, 0, key, 0, 0, 0, 0, 0]` (Left Shift for upper case and shifted symbols), then the
 * all-keys-up report. Throws a RangeError on a character a US keyboard cannot type.
 */
export function keyboardReports(text: string): Buffer[] {
  const out: Buffer[] = [];
  const release = Buffer.alloc(HID_KEYBOARD_REPORT_BYTES);
  const press = (usage: number, mods: number): void => {
    const down = Buffer.alloc(HID_KEYBOARD_REPORT_BYTES);
    down[0] = mods;
    down[2] = usage;
    out.push(down, release);
  };
  for (const ch of text) {
    const k = KEY_OF.get(ch);
    if (!k) throw new RangeError(`cannot type ${JSON.stringify(ch)} on a US keyboard`);
    press(k.usage, k.shift ? MOD_LEFT_SHIFT : 0);
  }
  press(KEY_ENTER, 0);
  return out;
}

export class KeyboardWedgeDecoder {
  private readonly prev = new Uint8Array(6);
  private text = '';
  private overflow = false;

  /**
   * Feeds one input report; returns the barcodes it completed (usually zero or one), and a
   * `malformed` reject for a report that is not 8 bytes (or a `too-long` one for a runaway barcode).
   */
  push(report: Uint8Array): Array<string | FrameReject> {
    if (report.length !== HID_KEYBOARD_REPORT_BYTES) return [reject('malformed', describeBytes(report))];
    for (let k = 2; k < 8; k++) {
      const key = report[k];
      if (key >= 0x01 && key <= 0x03) return []; // ErrorRollOver / POSTFail / ErrorUndefined
    }
    const mods = report[0];
    const shift = (mods & MOD_SHIFT) !== 0;
    const chorded = (mods & MOD_NON_SHIFT) !== 0;
    let out: Array<string | FrameReject> | null = null;
    for (let k = 2; k < 8; k++) {
      const key = report[k];
      if (key === 0 || this.wasDown(key)) continue;
      let repeated = false;
      for (let m = 2; m < k; m++) if (report[m] === key) repeated = true;
      if (repeated) continue;
      const r = this.keyDown(key, shift, chorded);
      if (r !== null) {
        out ??= [];
        out.push(r);
      }
    }
    this.prev.set(report.subarray(2, 8));
    return out ?? [];
  }

  /** Forget held keys and any partial barcode. */
  reset(): void {
    this.prev.fill(0);
    this.text = '';
    this.overflow = false;
  }

  private wasDown(key: number): boolean {
    const p = this.prev;
    return p[0] === key || p[1] === key || p[2] === key || p[3] === key || p[4] === key || p[5] === key;
  }

  private keyDown(key: number, shift: boolean, chorded: boolean): string | FrameReject | null {
    if (key === KEY_ENTER || key === KEY_KEYPAD_ENTER) {
      const done = this.text;
      const dropped = this.overflow;
      this.text = '';
      this.overflow = false;
      return done === '' || dropped ? null : done;
    }
    if (chorded || this.overflow) return null;
    const ch = shift ? SHIFTED[key] : PLAIN[key];
    if (ch === '') return null;
    if (this.text.length >= MAX_BARCODE_CHARS) {
      this.overflow = true;
      const r = reject('too-long', describeText(this.text));
      this.text = '';
      return r;
    }
    this.text += ch;
    return null;
  }
}

/**
 * How a table maps a barcode to a card (config `barcode`): a regex with a named group `card`,
 * and/or a lookup table barcode -> card code. Patterns (default or custom) are matched against the
 * UPPER-CASED barcode; table keys are looked up as scanned, then upper-cased.
 */
export interface BarcodeMapping {
  pattern?: string;
  table?: Record<string, string>;
}

export const DEFAULT_BARCODE_PATTERN = '^(?<card>[A2-9TJQK][SHDC])$';

/** a barcode -> the text of its `card` group, or undefined */
type CardMatcher = (barcode: string) => string | undefined;

/** the default pattern is the gateway's own (fixed, linear on the backtracking engine too) */
const DEFAULT_RE = new RegExp(DEFAULT_BARCODE_PATTERN);
const defaultMatcher: CardMatcher = (b) => DEFAULT_RE.exec(b)?.groups?.card;

const patternCache = new Map<string, CardMatcher>();

/**
 * A configured pattern, on the linear-time engine (drivers/profiles/linear-pattern.ts): a
 * scanned barcode cannot make it run long. Throws PatternRefusal for a pattern that is invalid or
 * that engine cannot run (a config error; `check-config` reports it at its key path).
 */
function compilePattern(pattern: string): CardMatcher {
  let m = patternCache.get(pattern);
  if (m === undefined) {
    const re = mustCompileUserPattern(pattern, '', 'barcode.pattern');
    const slot = re.names.get('card');
    m = slot === undefined ? () => undefined : (b) => re.exec(b)?.[slot];
    if (patternCache.size >= 64) patternCache.clear();
    patternCache.set(pattern, m);
  }
  return m;
}

/**
 * The card a barcode stands for, or null (an unmapped barcode: a `bad-frame` alert upstream).
 * - `table` given: its entry for the barcode (exact, then upper-cased) wins;
 * - then `pattern` if given, or the default pattern when neither `pattern` nor `table` is given.
 * The resulting text must be a card code (case-insensitive), else null.
 * Throws PatternRefusal for a custom pattern that is invalid or cannot run on the linear-time engine.
 */
export function barcodeToCard(barcode: string, mapping: BarcodeMapping = {}): Card | null {
  const upper = barcode.toUpperCase();
  const table = mapping.table;
  if (table !== undefined) {
    const hit = Object.hasOwn(table, barcode) ? table[barcode] : Object.hasOwn(table, upper) ? table[upper] : undefined;
    if (hit !== undefined) return typeof hit === 'string' ? parseCard(hit) : null;
    if (mapping.pattern === undefined) return null;
  }
  const card = (mapping.pattern === undefined ? defaultMatcher : compilePattern(mapping.pattern))(upper);
  return card === undefined ? null : parseCard(card);
}

/** Validates a mapping once (throws PatternRefusal on a bad pattern) and returns the mapper. */
export function createBarcodeMapper(mapping: BarcodeMapping = {}): (barcode: string) => Card | null {
  if (mapping.pattern !== undefined) compilePattern(mapping.pattern);
  return (barcode) => barcodeToCard(barcode, mapping);
}
