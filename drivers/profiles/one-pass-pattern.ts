/**
 * A direct matcher for the simple, unambiguous patterns most device messages are written in
 * (`SHOE,(?<seq>\d{1,5}),CARD,(?<card>[A2-9TJQK][SHDC])`): literals, character classes with
 * repeat counts, capture groups, and alternations of fixed-width choices that differ in their
 * first character. It is a linear-time engine too, and the profile decoder's hot path:
 * linear-pattern.ts uses it, when a whole-body pattern fits, in place of the general engine.
 *
 * It fits when every choice is decided by the next character alone: a class with a variable
 * repeat count shares no character with what may follow it, and the choices of an alternation
 * start with distinct characters. Then there is at most one way to match, a single left-to-right
 * pass finds it (each character looked at once), and its groups are what the backtracking engine
 * would capture. Anything else (`.`, `\s`, lazy or quantified groups, non-ASCII classes,
 * lookarounds, ...) returns null here and runs on the general engine.
 */

/** a set of UTF-16 code units: the ASCII ones by table, all others together */
interface CharSet {
  ascii: Uint8Array;
  /** whether every code unit >= 128 is in the set (else none is) */
  high: boolean;
}

type Node =
  | { kind: 'set'; set: CharSet; min: number; max: number }
  | { kind: 'alt'; alts: CharSet[][] }
  | { kind: 'open'; group: number }
  | { kind: 'close'; group: number };

export interface OnePassPattern {
  readonly groupCount: number;
  readonly names: ReadonlyMap<string, number>;
  test(text: string): boolean;
  exec(text: string): Array<string | undefined> | null;
  readonly bytes: OnePassBytes;
}

/**
 * The same pass over bytes b[s, e) read as latin1 text (one character per byte): whether the
 * pattern matches them, with group g's bounds left in caps[2g], caps[2g + 1] (offsets into b)
 * until the next run. What a decoder uses to match a body in place, without making it a string.
 */
export interface OnePassBytes {
  run(b: Uint8Array, s: number, e: number): boolean;
  readonly caps: Int32Array;
}

class NoFit extends Error {}

const emptySet = (): CharSet => ({ ascii: new Uint8Array(128), high: false });
const single = (code: number): CharSet => {
  if (code >= 128) throw new NoFit();
  const s = emptySet();
  s.ascii[code] = 1;
  return s;
};
const overlap = (a: CharSet, b: CharSet): boolean => {
  if (a.high && b.high) return true;
  for (let i = 0; i < 128; i++) if (a.ascii[i] === 1 && b.ascii[i] === 1) return true;
  return false;
};
const union = (a: CharSet, b: CharSet): CharSet => {
  const s = emptySet();
  for (let i = 0; i < 128; i++) s.ascii[i] = a.ascii[i] | b.ascii[i];
  s.high = a.high || b.high;
  return s;
};
const range = (s: CharSet, lo: number, hi: number): void => {
  if (hi >= 128 || lo > hi) throw new NoFit();
  for (let c = lo; c <= hi; c++) s.ascii[c] = 1;
};
const DIGIT = (): CharSet => {
  const s = emptySet();
  range(s, 48, 57);
  return s;
};
const WORD = (): CharSet => {
  const s = DIGIT();
  range(s, 65, 90);
  range(s, 97, 122);
  s.ascii[95] = 1;
  return s;
};
const invert = (s: CharSet): CharSet => {
  const r = emptySet();
  for (let i = 0; i < 128; i++) r.ascii[i] = s.ascii[i] ^ 1;
  r.high = !s.high;
  return r;
};
const isQuantifier = (c: string | undefined): boolean => c === '?' || c === '*' || c === '+' || c === '{';
const PUNCT = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';
const CONTROL: Record<string, number> = { t: 9, n: 10, v: 11, f: 12, r: 13 };

/** Parses `source` (already accepted by the JavaScript parser) into nodes, or throws NoFit. */
function parse(source: string): { nodes: Node[]; groups: number; names: Map<string, number> } {
  let i = 0;
  let groups = 0;
  const names = new Map<string, number>();

  /** an escape at source[i] === '\\' standing for one character set */
  const escapeAt = (): CharSet => {
    const n = source[i + 1];
    i += 2;
    if (n === 'd') return DIGIT();
    if (n === 'D') return invert(DIGIT());
    if (n === 'w') return WORD();
    if (n === 'W') return invert(WORD());
    if (n !== undefined && n in CONTROL) return single(CONTROL[n]);
    if (n === 'x' && /^[0-9A-Fa-f]{2}$/.test(source.slice(i, i + 2))) {
      i += 2;
      return single(Number.parseInt(source.slice(i - 2, i), 16));
    }
    if (n !== undefined && PUNCT.includes(n)) return single(n.charCodeAt(0));
    throw new NoFit();
  };

  const cls = (): CharSet => {
    i++; // [
    let negate = false;
    if (source[i] === '^') {
      negate = true;
      i++;
    }
    const s = emptySet();
    if (source[i] === ']') throw new NoFit();
    /** `\s` and `\S` in the class (only both together, "anything", fits) */
    let spaces = 0;
    while (source[i] !== ']') {
      if (i >= source.length) throw new NoFit();
      let lo: number;
      if (source[i] === '\\') {
        const n = source[i + 1];
        if (n === 's' || n === 'S') {
          spaces |= n === 's' ? 1 : 2;
          i += 2;
          continue;
        }
        if (n === 'd' || n === 'w') {
          const e = escapeAt();
          for (let c = 0; c < 128; c++) s.ascii[c] |= e.ascii[c];
          continue;
        }
        if (n === 'b') throw new NoFit();
        const e = escapeAt();
        lo = e.ascii.indexOf(1);
        if (lo < 0 || e.high || e.ascii.lastIndexOf(1) !== lo) throw new NoFit();
      } else {
        lo = source.charCodeAt(i);
        i++;
      }
      if (source[i] === '-' && source[i + 1] !== ']' && i + 1 < source.length) {
        i++;
        let hi: number;
        if (source[i] === '\\') {
          const e = escapeAt();
          hi = e.ascii.indexOf(1);
          if (hi < 0 || e.high || e.ascii.lastIndexOf(1) !== hi) throw new NoFit();
        } else {
          hi = source.charCodeAt(i);
          i++;
        }
        range(s, lo, hi);
      } else range(s, lo, lo);
    }
    i++; // ]
    if (spaces === 3) {
      s.ascii.fill(1);
      s.high = true;
    } else if (spaces !== 0) throw new NoFit();
    return negate ? invert(s) : s;
  };

  /** one atom standing for one character, or throws NoFit */
  const atom = (): CharSet => {
    const c = source[i];
    if (c === '\\') return escapeAt();
    if (c === '[') return cls();
    if ('.^$|?*+(){}]'.includes(c)) throw new NoFit();
    i++;
    return single(c.charCodeAt(0));
  };

  /** a quantifier after an atom (greedy only), or {1,1} */
  const quantifier = (): [number, number] => {
    const c = source[i];
    let q: [number, number] = [1, 1];
    if (c === '?') q = [0, 1];
    else if (c === '*') q = [0, Number.POSITIVE_INFINITY];
    else if (c === '+') q = [1, Number.POSITIVE_INFINITY];
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i));
      if (!m) throw new NoFit();
      const lo = Number(m[1]);
      const hi = m[2] === undefined ? lo : m[3] === '' ? Number.POSITIVE_INFINITY : Number(m[3]);
      if (hi < lo) throw new NoFit();
      i += m[0].length;
      if (source[i] === '?') throw new NoFit();
      return [lo, hi];
    } else return q;
    i++;
    if (source[i] === '?') throw new NoFit();
    return q;
  };

  /** a sequence up to `)` or the end; groups become open/close marks; an alternation only as a group's whole content */
  const sequence = (depth: number): Node[] => {
    const nodes: Node[] = [];
    while (i < source.length && source[i] !== ')') {
      const c = source[i];
      if (c === '|') throw new NoFit();
      if (c === '^' && i === 0 && depth === 0) {
        i++;
        continue;
      }
      if (c === '$' && i === source.length - 1 && depth === 0) {
        i++;
        continue;
      }
      if (c === '(') {
        let group = 0;
        if (source.startsWith('(?:', i)) i += 3;
        else if (source.startsWith('(?<', i) && source[i + 3] !== '=' && source[i + 3] !== '!') {
          const close = source.indexOf('>', i);
          group = ++groups;
          names.set(source.slice(i + 3, close), group);
          i = close + 1;
        } else if (source[i + 1] === '?') throw new NoFit();
        else {
          group = ++groups;
          i++;
        }
        const inner = groupContent(depth + 1);
        if (source[i] !== ')') throw new NoFit();
        i++;
        if (isQuantifier(source[i])) throw new NoFit();
        if (group) nodes.push({ kind: 'open', group });
        nodes.push(...inner);
        if (group) nodes.push({ kind: 'close', group });
        continue;
      }
      const set = atom();
      const [min, max] = quantifier();
      nodes.push({ kind: 'set', set, min, max });
    }
    return nodes;
  };

  /** a group's content: a sequence, or an alternation of fixed-width choices */
  const groupContent = (depth: number): Node[] => {
    const start = i;
    // a plain sequence when there is no `|` at this level
    let level = 0;
    let alternation = false;
    for (let k = i; k < source.length; k++) {
      const c = source[k];
      if (c === '\\') k++;
      else if (c === '[') {
        k++;
        if (source[k] === '^') k++;
        if (source[k] === ']') k++;
        while (k < source.length && source[k] !== ']') k += source[k] === '\\' ? 2 : 1;
      } else if (c === '(') level++;
      else if (c === ')') {
        if (level === 0) break;
        level--;
      } else if (c === '|' && level === 0) alternation = true;
    }
    if (!alternation) return sequence(depth);
    i = start;
    const alts: CharSet[][] = [[]];
    while (source[i] !== ')') {
      if (i >= source.length) throw new NoFit();
      if (source[i] === '|') {
        alts.push([]);
        i++;
        continue;
      }
      if (source[i] === '(') throw new NoFit();
      const set = atom();
      if (isQuantifier(source[i])) throw new NoFit();
      alts[alts.length - 1].push(set);
    }
    // each choice non-empty, decided by its first character
    for (let a = 0; a < alts.length; a++) {
      if (alts[a].length === 0) throw new NoFit();
      for (let b = 0; b < a; b++) if (overlap(alts[a][0], alts[b][0])) throw new NoFit();
    }
    return [{ kind: 'alt', alts }];
  };

  const nodes = sequence(0);
  if (i !== source.length) throw new NoFit();
  return { nodes, groups, names };
}

/** FIRST of a node that consumes (set or alt) */
const first = (n: Node): CharSet => (n.kind === 'set' ? n.set : n.kind === 'alt' ? n.alts.reduce((s, a) => union(s, a[0]), emptySet()) : emptySet());

/** Throws NoFit unless every variable repeat is decided by the next character. */
function checkDeterministic(nodes: Node[]): void {
  const consuming = nodes.filter((n) => n.kind !== 'open' && n.kind !== 'close');
  // follow[k]: the characters that may come right after consuming node k
  let follow = emptySet();
  for (let k = consuming.length - 1; k >= 0; k--) {
    const n = consuming[k];
    if (n.kind === 'set' && n.max > n.min && overlap(n.set, follow)) throw new NoFit();
    const f = first(n);
    follow = n.kind === 'set' && n.min === 0 ? union(f, follow) : f;
  }
}

/** The direct matcher of a whole-body pattern, or null when it does not fit (see the file's comment). */
export function compileOnePass(source: string, options: { generate?: boolean } = {}): OnePassPattern | null {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(source);
    checkDeterministic(parsed.nodes);
  } catch (e) {
    if (e instanceof NoFit) return null;
    throw e;
  }
  const { nodes, groups, names } = parsed;
  const caps = new Int32Array(2 * (groups + 1));
  // flat program: one op per step, a run of single literal characters as one string comparison
  const SET = 0;
  const ALT = 1;
  const OPEN = 2;
  const CLOSE = 3;
  const LIT = 4;
  const ops: number[] = [];
  const args: number[] = [];
  const maxes: number[] = [];
  /** per step: the set's table (128 ASCII entries, [128] = every other code unit), or the literal */
  const tables: Uint8Array[] = [];
  const literals: string[] = [];
  /** the literals' character codes (all ASCII: a literal character is one code unit below 128) */
  const literalCodes: Uint8Array[] = [];
  const alts: Uint8Array[][][] = [];
  const table = (c: CharSet): Uint8Array => {
    const t = new Uint8Array(129);
    t.set(c.ascii);
    t[128] = c.high ? 1 : 0;
    return t;
  };
  const singleChar = (n: Node): number => {
    if (n.kind !== 'set' || n.min !== 1 || n.max !== 1 || n.set.high) return -1;
    const first = n.set.ascii.indexOf(1);
    return first >= 0 && n.set.ascii.lastIndexOf(1) === first ? first : -1;
  };
  for (let k = 0; k < nodes.length; k++) {
    const n = nodes[k];
    let lit = '';
    while (k < nodes.length && singleChar(nodes[k]) >= 0) lit += String.fromCharCode(singleChar(nodes[k++]));
    if (lit !== '') {
      ops.push(LIT);
      args.push(lit.length);
      maxes.push(0);
      tables.push(new Uint8Array(0));
      literals.push(lit);
      literalCodes.push(Uint8Array.from(lit, (ch) => ch.charCodeAt(0)));
      alts.push([]);
      k--;
      continue;
    }
    ops.push(n.kind === 'set' ? SET : n.kind === 'alt' ? ALT : n.kind === 'open' ? OPEN : CLOSE);
    args.push(n.kind === 'set' ? n.min : n.kind === 'alt' ? 0 : n.group);
    maxes.push(n.kind === 'set' ? n.max : 0);
    tables.push(n.kind === 'set' ? table(n.set) : new Uint8Array(0));
    literals.push('');
    literalCodes.push(new Uint8Array(0));
    alts.push(n.kind === 'alt' ? n.alts.map((a) => a.map(table)) : []);
  }
  const count = ops.length;

  /** runs the pass; the group bounds are left in `caps` */
  function run(text: string): boolean {
    const len = text.length;
    let pos = 0;
    for (let k = 0; k < count; k++) {
      switch (ops[k]) {
        case LIT: {
          const lit = literals[k];
          if (!text.startsWith(lit, pos)) return false;
          pos += args[k];
          break;
        }
        case SET: {
          const t = tables[k];
          const max = maxes[k];
          let taken = 0;
          while (taken < max && pos < len) {
            const c = text.charCodeAt(pos);
            if (t[Math.min(c, 128)] !== 1) break;
            pos++;
            taken++;
          }
          if (taken < args[k]) return false;
          break;
        }
        case ALT: {
          if (pos >= len) return false;
          const c = text.charCodeAt(pos);
          const i = Math.min(c, 128);
          let alt: Uint8Array[] | undefined;
          for (const a of alts[k]) {
            if (a[0][i] === 1) {
              alt = a;
              break;
            }
          }
          if (alt === undefined || pos + alt.length > len) return false;
          for (let j = 1; j < alt.length; j++) {
            const cj = text.charCodeAt(pos + j);
            if (alt[j][Math.min(cj, 128)] !== 1) return false;
          }
          pos += alt.length;
          break;
        }
        case OPEN:
          caps[2 * args[k]] = pos;
          break;
        default:
          caps[2 * args[k] + 1] = pos;
      }
    }
    return pos === len;
  }

  /** run() over b[s, e) as latin1 text: each byte is the code unit it stands for */
  function runBytes(b: Uint8Array, s: number, e: number): boolean {
    let pos = s;
    for (let k = 0; k < count; k++) {
      switch (ops[k]) {
        case LIT: {
          const lit = literalCodes[k];
          const n = lit.length;
          if (pos + n > e) return false;
          for (let j = 0; j < n; j++) if (b[pos + j] !== lit[j]) return false;
          pos += n;
          break;
        }
        case SET: {
          const t = tables[k];
          const max = maxes[k];
          let taken = 0;
          while (taken < max && pos < e) {
            if (t[Math.min(b[pos], 128)] !== 1) break;
            pos++;
            taken++;
          }
          if (taken < args[k]) return false;
          break;
        }
        case ALT: {
          if (pos >= e) return false;
          const i = Math.min(b[pos], 128);
          let alt: Uint8Array[] | undefined;
          for (const a of alts[k]) {
            if (a[0][i] === 1) {
              alt = a;
              break;
            }
          }
          if (alt === undefined || pos + alt.length > e) return false;
          for (let j = 1; j < alt.length; j++) if (alt[j][Math.min(b[pos + j], 128)] !== 1) return false;
          pos += alt.length;
          break;
        }
        case OPEN:
          caps[2 * args[k]] = pos;
          break;
        default:
          caps[2 * args[k] + 1] = pos;
      }
    }
    return pos === e;
  }

  return {
    groupCount: groups,
    names,
    bytes: { run: (options.generate === false ? null : generateBytesRun(ops, args, maxes, tables, literalCodes, alts, caps)) ?? runBytes, caps },
    test: run,
    exec(text) {
      if (!run(text)) return null;
      const out = new Array<string | undefined>(groups + 1);
      out[0] = text;
      for (let g = 1; g <= groups; g++) out[g] = text.slice(caps[2 * g], caps[2 * g + 1]);
      return out;
    },
  };
}

/**
 * runBytes written out as a function of its own for one pattern: each step of the program becomes
 * straight code with its counts and byte values as constants, so the pass does no dispatch, and a
 * profile's patterns get their own compiled code (and type feedback) rather than sharing the
 * interpreter's. The source holds only numbers and fixed names: never text of the pattern. Null
 * where code cannot be generated (`--disallow-code-generation-from-strings`): the interpreter runs.
 */
function generateBytesRun(
  ops: number[],
  args: number[],
  maxes: number[],
  tables: Uint8Array[],
  literalCodes: Uint8Array[],
  alts: Uint8Array[][][],
  caps: Int32Array,
): ((b: Uint8Array, s: number, e: number) => boolean) | null {
  const int = (n: number): string => {
    if (!Number.isInteger(n)) throw new Error('one-pass code: not an integer');
    return String(n);
  };
  /** the tables the code reads, by index */
  const used: Uint8Array[] = [];
  const ref = (t: Uint8Array): string => `T[${used.push(t) - 1}]`;
  const lines: string[] = ['let pos = s;', 'let c = 0;'];
  for (let k = 0; k < ops.length; k++) {
    switch (ops[k]) {
      case 4: {
        const lit = literalCodes[k];
        lines.push(`if (pos + ${int(lit.length)} > e) return false;`);
        lines.push(`if (${Array.from(lit, (x, j) => `b[pos + ${int(j)}] !== ${int(x)}`).join(' || ')}) return false;`);
        lines.push(`pos += ${int(lit.length)};`);
        break;
      }
      case 0: {
        const t = ref(tables[k]);
        const max = maxes[k];
        const min = args[k];
        if (max === Number.POSITIVE_INFINITY) {
          lines.push(`{ const from = pos; while (pos < e && ${t}[(c = b[pos]) < 128 ? c : 128] === 1) pos++; if (pos - from < ${int(min)}) return false; }`);
        } else {
          lines.push(
            `{ const to = Math.min(e, pos + ${int(max)}); const from = pos; while (pos < to && ${t}[(c = b[pos]) < 128 ? c : 128] === 1) pos++; if (pos - from < ${int(min)}) return false; }`,
          );
        }
        break;
      }
      case 1: {
        lines.push('if (pos >= e) return false;', 'c = b[pos] < 128 ? b[pos] : 128;');
        const branches = alts[k].map((alt) => {
          const rest = alt
            .slice(1)
            .map((t, j) => `${ref(t)}[(c = b[pos + ${int(j + 1)}]) < 128 ? c : 128] !== 1`)
            .join(' || ');
          return `if (${ref(alt[0])}[c] === 1) { if (pos + ${int(alt.length)} > e${rest ? ` || ${rest}` : ''}) return false; pos += ${int(alt.length)}; }`;
        });
        lines.push(`${branches.join(' else ')} else return false;`);
        break;
      }
      case 2:
        lines.push(`caps[${int(2 * args[k])}] = pos;`);
        break;
      default:
        lines.push(`caps[${int(2 * args[k] + 1)}] = pos;`);
    }
  }
  lines.push('return pos === e;');
  try {
    const make = new Function('T', 'caps', `'use strict'; return function onePassBytes(b, s, e) {\n${lines.join('\n')}\n};`);
    return make(used, caps) as (b: Uint8Array, s: number, e: number) => boolean;
  } catch {
    return null;
  }
}
