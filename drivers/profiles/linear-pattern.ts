/**
 * The one place a regular expression written by a user (a device profile's `messages[].pattern`
 * and `rejects[].pattern`, the config's `barcode.pattern`) is compiled: onto re2js, a pure
 * JavaScript port of RE2, whose matching time is linear in the text's length whatever the
 * pattern. No user pattern ever runs on JavaScript's backtracking engine, so a pattern like
 * `(a+)+$` and a frame of `a`s cannot stall the event loop (docs/DEVICES.md "Patterns").
 *
 * Patterns keep JavaScript syntax: they are checked with the JavaScript parser (a syntax error is
 * `pattern-invalid`), then translated to RE2 syntax with JavaScript's meaning (`.`, `\s`, `\uXXXX`,
 * `(?<name>...)`, ...). What a linear-time engine cannot do is refused with `pattern-unsupported`,
 * naming the key path and the construct: backreferences, lookbehinds, lookaheads other than
 * leading ones of a whole-text pattern, inline modifiers, repeat counts above 1000. A whole-text
 * pattern (the profile decoder's: the body must match entirely) may start with lookaheads
 * `(?!X)` / `(?=X)`: each is run as its own linear match of a prefix, so the shipped reference
 * profiles' "not this talker" rules keep their form.
 *
 * Refusals happen at load (schema check, `tablegw profile check`, `check-config`, start-up);
 * compiling is done once per pattern and the matcher is reused for every frame. A whole-body
 * pattern simple enough to be matched in one deterministic pass (one-pass-pattern.ts: most
 * device messages) runs on that direct matcher, the decoder's hot path; every other one on re2js.
 */
import { createRequire } from 'node:module';
import type * as Re2js from 're2js';
import { compileOnePass, type OnePassBytes } from './one-pass-pattern.js';

type RE2JS = Re2js.RE2JS;
let loaded: typeof Re2js | undefined;
/** the engine, loaded on the first user pattern (a gateway without one never loads it) */
const engine = (): typeof Re2js => {
  loaded ??= createRequire(import.meta.url)('re2js') as typeof Re2js;
  return loaded;
};

/** Stable codes of a refused pattern. */
export type PatternRefusalCode = 'pattern-invalid' | 'pattern-unsupported';

/** A user pattern that is not compiled, with the key path it came from and what stopped it. */
export class PatternRefusal extends Error {
  constructor(
    readonly code: PatternRefusalCode,
    readonly keyPath: string,
    /** the construct (or the syntax error) that stopped it */
    readonly construct: string,
  ) {
    super(
      code === 'pattern-invalid'
        ? `${keyPath}: ${code}: not a valid regular expression: ${construct}`
        : `${keyPath}: ${code}: ${construct} cannot run on the linear-time pattern engine`,
    );
    this.name = 'PatternRefusal';
  }
  /** the message without the key path (for callers that print the key path themselves) */
  get reason(): string {
    return this.code === 'pattern-invalid'
      ? `${this.code}: not a valid regular expression: ${this.construct}`
      : `${this.code}: ${this.construct} cannot run on the linear-time pattern engine`;
  }
}

/** A compiled user pattern: the small API the decoders and mappers need. */
export interface LinearPattern {
  /** the pattern as written */
  readonly source: string;
  /** what the engine runs (RE2 syntax) */
  readonly engineSource: string;
  /** capture groups (numbered as JavaScript numbers them) */
  readonly groupCount: number;
  /** named group -> its number */
  readonly names: ReadonlyMap<string, number>;
  /** whether the pattern matches (the whole text for a whole-text pattern, else anywhere in it) */
  test(text: string): boolean;
  /**
   * The match: [whole match, group 1, ...], a group that took no part `undefined` (as
   * RegExp#exec), or null. Named groups by number through `names`.
   */
  exec(text: string): Array<string | undefined> | null;
  /** a pattern on the direct one-pass matcher: the same match over latin1 bytes in place (one-pass-pattern.ts) */
  readonly bytes?: OnePassBytes;
}

export interface CompileOptions {
  /** the pattern must match the whole text (the profile decoder's rule); leading lookaheads allowed */
  whole?: boolean;
}

export type CompileResult = { ok: true; pattern: LinearPattern } | { ok: false; refusal: PatternRefusal };

/** JavaScript's `\s`: the characters RE2's `\s` lacks are spelled out */
const JS_SPACE = '\\t\\n\\x{0B}\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}';
/** JavaScript's `\S` inside a class: the complement of JS_SPACE as ranges */
const JS_NOT_SPACE =
  '\\x{0}-\\x{8}\\x{E}-\\x{1F}\\x{21}-\\x{9F}\\x{A1}-\\x{167F}\\x{1681}-\\x{1FFF}\\x{200B}-\\x{2027}\\x{202A}-\\x{202E}\\x{2030}-\\x{205E}\\x{2060}-\\x{2FFF}\\x{3001}-\\x{FEFE}\\x{FF00}-\\x{10FFFF}';
/** JavaScript's `.` without the `s` flag: anything but a line terminator */
const JS_DOT = '[^\\n\\r\\x{2028}\\x{2029}]';
const hex = (n: number): string => `\\x{${n.toString(16).toUpperCase()}}`;
const ASCII_PUNCT = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';

class Refused {
  constructor(readonly construct: string) {}
}

interface Translation {
  out: string;
  groups: number;
  names: Map<string, number>;
  /** an alternation `|` at the top level of the translated range */
  topLevelAlternation: boolean;
}

/**
 * Translates `src[from, to)` (a valid JavaScript pattern: the JavaScript parser has accepted it)
 * to RE2 syntax with the same meaning, or throws Refused naming what RE2 cannot do.
 * `groupOffset` = capture groups before the range.
 */
function translate(src: string, from: number, to: number, dotAll: boolean, groupOffset: number): Translation {
  let out = '';
  let groups = 0;
  const names = new Map<string, number>();
  let depth = 0;
  let topLevelAlternation = false;
  /** whether the last emitted item can take a quantifier (false after `(`, `|`, start, an assertion) */
  let i = from;

  /** one escape at src[i] === '\\'; returns its RE2 form; `inClass` for class members */
  const escapeAt = (inClass: boolean): string => {
    const n = src[i + 1];
    i += 2;
    switch (n) {
      case 'd':
      case 'D':
      case 'w':
      case 'W':
        return `\\${n}`;
      case 's':
        return inClass ? JS_SPACE : `[${JS_SPACE}]`;
      case 'S':
        return inClass ? JS_NOT_SPACE : `[^${JS_SPACE}]`;
      case 'b':
        return inClass ? hex(8) : '\\b';
      case 'B':
        if (inClass) throw new Refused('the escape \\B inside a class');
        return '\\B';
      case 'n':
        return '\\n';
      case 'r':
        return '\\r';
      case 't':
        return '\\t';
      case 'v':
        return hex(11);
      case 'f':
        return '\\f';
      case '0':
        if (src[i] >= '0' && src[i] <= '9') throw new Refused(`the octal escape \\0${src[i]}`);
        return hex(0);
      case 'x': {
        const h = src.slice(i, i + 2);
        if (/^[0-9A-Fa-f]{2}$/.test(h)) {
          i += 2;
          return hex(Number.parseInt(h, 16));
        }
        return 'x';
      }
      case 'u': {
        const h = src.slice(i, i + 4);
        if (/^[0-9A-Fa-f]{4}$/.test(h)) {
          i += 4;
          const code = Number.parseInt(h, 16);
          if (code >= 0xd800 && code <= 0xdfff) throw new Refused(`the surrogate escape \\u${h}`);
          return hex(code);
        }
        throw new Refused('the escape \\u not followed by four hex digits');
      }
      case 'c': {
        const c = src[i];
        if (c !== undefined && /[A-Za-z]/.test(c)) {
          i += 1;
          return hex(c.charCodeAt(0) % 32);
        }
        throw new Refused('the escape \\c not followed by a letter');
      }
      case 'k':
        throw new Refused(`the backreference \\k${src.slice(i, src.indexOf('>', i) + 1) || '<...>'}`);
      case 'p':
      case 'P':
        throw new Refused(`the escape \\${n} (a Unicode property needs the u flag)`);
      default:
        if (n >= '1' && n <= '9') {
          if (inClass) throw new Refused(`the octal escape \\${n}`);
          throw new Refused(`the backreference \\${n}`);
        }
        if (n !== undefined && ASCII_PUNCT.includes(n)) return `\\${n}`;
        if (n !== undefined && /[A-Za-z]/.test(n)) throw new Refused(`the escape \\${n}`);
        // an escaped non-ASCII character stands for itself
        return n === undefined ? '' : hex(n.codePointAt(0)!);
    }
  };

  /** a literal character outside a class, escaped when RE2 reads it as syntax */
  const literal = (c: string): string => (ASCII_PUNCT.includes(c) ? `\\${c}` : c);

  while (i < to) {
    const c = src[i];
    if (c === '\\') {
      out += escapeAt(false);
      continue;
    }
    if (c === '[') {
      i++;
      let negate = false;
      if (src[i] === '^') {
        negate = true;
        i++;
      }
      if (src[i] === ']') {
        i++;
        // `[]` never matches, `[^]` matches anything
        if (!negate) throw new Refused('the empty class []');
        out += '[\\x{0}-\\x{10FFFF}]';
        continue;
      }
      let body = '';
      while (i < to && src[i] !== ']') {
        const k = src[i];
        if (k === '\\') body += escapeAt(true);
        else {
          body += k === '[' || k === '^' || k === '&' || k === '~' ? `\\${k}` : k;
          i++;
        }
      }
      i++; // the closing ]
      out += `[${negate ? '^' : ''}${body}]`;
      continue;
    }
    if (c === '(') {
      if (src[i + 1] !== '?') {
        groups++;
        depth++;
        out += '(';
        i++;
        continue;
      }
      const kind = src.slice(i + 2, i + 4);
      if (kind[0] === ':') {
        depth++;
        out += '(?:';
        i += 3;
        continue;
      }
      if (kind === '<=' || kind === '<!') throw new Refused(`the lookbehind (?${kind}...)`);
      if (kind[0] === '=' || kind[0] === '!') throw new Refused(`the lookahead (?${kind[0]}...) (only at the very start of a profile pattern)`);
      if (kind[0] === '<') {
        const close = src.indexOf('>', i + 3);
        const name = src.slice(i + 3, close);
        groups++;
        depth++;
        names.set(name, groupOffset + groups);
        out += `(?P<${name}>`;
        i = close + 1;
        continue;
      }
      throw new Refused(`the group (?${src[i + 2] ?? ''}...)`);
    }
    if (c === ')') {
      depth--;
      out += ')';
      i++;
      continue;
    }
    if (c === '|') {
      if (depth === 0) topLevelAlternation = true;
      out += '|';
      i++;
      continue;
    }
    if (c === '.') {
      out += dotAll ? '(?s:.)' : JS_DOT;
      i++;
      continue;
    }
    if (c === '*' || c === '+' || c === '?') {
      out += c;
      i++;
      continue;
    }
    if (c === '{') {
      // a quantifier {n}, {n,}, {n,m}, else (JavaScript without the u flag) a literal brace
      const m = /^\{(\d+)(,(\d*))?\}/.exec(src.slice(i, to));
      if (m) {
        const hi = m[3] === undefined ? Number(m[1]) : m[3] === '' ? Number(m[1]) : Number(m[3]);
        if (Number(m[1]) > 1000 || hi > 1000) throw new Refused(`the repeat count ${m[0]} (at most 1000)`);
        out += m[0];
        i += m[0].length;
        continue;
      }
      out += '\\{';
      i++;
      continue;
    }
    if (c === '}' || c === ']') {
      out += `\\${c}`;
      i++;
      continue;
    }
    if (c === '^' || c === '$') {
      out += c;
      i++;
      continue;
    }
    out += literal(c);
    i++;
  }
  return { out, groups, names, topLevelAlternation };
}

/** Index just past the group opening at src[at] === '(' (escapes and classes skipped). */
function groupEnd(src: string, at: number): number {
  let depth = 0;
  let inClass = false;
  for (let i = at; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') {
      inClass = true;
      // a `]` right after `[` or `[^` is the empty class's end in JavaScript, not a member
      continue;
    }
    if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i + 1;
  }
  return src.length + 1;
}

const FLAG_NAMES = new Set(['i', 's']);

function compileEngine(source: string, flags: number): RE2JS {
  return engine().RE2JS.compile(source, flags);
}

/** the engine's matcher over one compiled program: captures read by offsets, one pass per call */
function makePattern(
  source: string,
  engineSource: string,
  re: RE2JS,
  groupCount: number,
  names: Map<string, number>,
  whole: boolean,
  lookaheads: Array<{ re: RE2JS; negative: boolean }>,
): LinearPattern {
  const { MatcherInput, RE2Set } = engine();
  const re2 = re.re2();
  const anchor = whole ? RE2Set.ANCHOR_BOTH : RE2Set.UNANCHORED;
  const ncap = 1 + groupCount;
  const heads = lookaheads.map((h) => ({ re2: h.re.re2(), negative: h.negative }));
  const headsHold = (text: string): boolean => {
    for (const h of heads) {
      const hit = h.re2.matchMachineInput(MatcherInput.utf16(text), 0, text.length, RE2Set.ANCHOR_START, 1)[0] as boolean;
      if (hit === h.negative) return false;
    }
    return true;
  };
  return {
    source,
    engineSource,
    groupCount,
    names,
    test(text) {
      if (heads.length > 0 && !headsHold(text)) return false;
      return re2.matchMachineInput(MatcherInput.utf16(text), 0, text.length, anchor, 1)[0] as boolean;
    },
    exec(text) {
      if (heads.length > 0 && !headsHold(text)) return null;
      const r = re2.matchMachineInput(MatcherInput.utf16(text), 0, text.length, anchor, ncap);
      if (!r[0]) return null;
      const caps = r[1] as ArrayLike<number>;
      const out = new Array<string | undefined>(ncap);
      for (let g = 0; g < ncap; g++) {
        const s = caps[2 * g];
        out[g] = s >= 0 ? text.slice(s, caps[2 * g + 1]) : undefined;
      }
      return out;
    },
  };
}

/** compiled patterns by flags and text (a matcher keeps no state between calls: shared freely) */
const compiled = new Map<string, LinearPattern>();

/**
 * Compiles a user pattern (JavaScript syntax, `flags` from `i` and `s`) onto the linear-time
 * engine, or refuses it naming `keyPath` and the construct. Never runs the pattern.
 */
export function compileUserPattern(source: string, flags: string, keyPath: string, options: CompileOptions = {}): CompileResult {
  const key = `${options.whole === true ? 'w' : 's'}${flags}\u0000${source}`;
  const hit = compiled.get(key);
  if (hit !== undefined) return { ok: true, pattern: hit };
  const r = compileNew(source, flags, keyPath, options);
  if (r.ok) {
    if (compiled.size >= 1024) compiled.clear();
    compiled.set(key, r.pattern);
  }
  return r;
}

function compileNew(source: string, flags: string, keyPath: string, options: CompileOptions): CompileResult {
  const refuse = (code: PatternRefusalCode, construct: string): CompileResult => ({ ok: false, refusal: new PatternRefusal(code, keyPath, construct) });
  for (const f of flags) if (!FLAG_NAMES.has(f)) return refuse('pattern-unsupported', `the flag ${f}`);
  try {
    // the JavaScript parser judges the syntax (constructing a RegExp compiles it, never runs it)
    new RegExp(source, flags);
  } catch (e) {
    return refuse('pattern-invalid', (e as Error).message.replace(/^Invalid regular expression: /, ''));
  }
  const dotAll = flags.includes('s');
  const engineFlags = flags.includes('i') ? engine().RE2JS.CASE_INSENSITIVE : 0;
  try {
    // leading lookaheads of a whole-text pattern: each a match of a prefix, run on its own
    const lookaheads: Array<{ re: RE2JS; negative: boolean }> = [];
    let at = 0;
    while (options.whole === true && (source.startsWith('(?=', at) || source.startsWith('(?!', at))) {
      const end = groupEnd(source, at);
      if (end > source.length) throw new Refused('an unclosed lookahead');
      const inner = translate(source, at + 3, end - 1, dotAll, 0);
      if (inner.groups > 0) throw new Refused('a capture group inside a lookahead');
      if (/^[*+?{]/.test(source.slice(end))) throw new Refused('a quantified lookahead');
      lookaheads.push({ re: compileEngine(`^(?:${inner.out})`, engineFlags), negative: source[at + 2] === '!' });
      at = end;
    }
    const t = translate(source, at, source.length, dotAll, 0);
    if (lookaheads.length > 0 && t.topLevelAlternation)
      throw new Refused('a leading lookahead before an alternation (it would guard the first alternative only)');
    const engineSource = options.whole ? `^(?:${t.out})$` : t.out;
    const re = compileEngine(engineSource, engineFlags);
    if (re.groupCount() !== t.groups) throw new Refused(`a group the engine counts differently (${re.groupCount()} vs ${t.groups})`);
    const general = makePattern(source, engineSource, re, t.groups, t.names, options.whole === true, lookaheads);
    // the simple unambiguous whole-body patterns (most device messages) on the direct one-pass matcher
    const direct = options.whole === true && lookaheads.length === 0 && flags === '' ? compileOnePass(source) : null;
    if (direct !== null && direct.groupCount === t.groups)
      return { ok: true, pattern: { ...general, test: direct.test, exec: direct.exec, bytes: direct.bytes } };
    return { ok: true, pattern: general };
  } catch (e) {
    if (e instanceof Refused) return refuse('pattern-unsupported', e.construct);
    // anything else the engine's parser refuses (its message names the construct)
    return refuse('pattern-unsupported', `the construct the engine reports as "${(e as Error).message}"`);
  }
}

/** compileUserPattern for a pattern already accepted at load: a refusal here throws it */
export function mustCompileUserPattern(source: string, flags: string, keyPath: string, options: CompileOptions = {}): LinearPattern {
  const r = compileUserPattern(source, flags, keyPath, options);
  if (!r.ok) throw r.refusal;
  return r.pattern;
}
