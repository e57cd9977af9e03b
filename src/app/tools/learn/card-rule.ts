/**
 * Card codes of the learner that are numbers built from the card (a binary shoe packing the suit
 * in one nibble and the rank in the other, or numbering each suit's cards in a run): every card's
 * code is its suit's offset plus its rank times a stride. Fitted to the known cards, the rule gives
 * the explicit table of all 52 from a deal with fewer, where no preset reads the codes.
 */
import type { CardCodeOptions } from '../../../../drivers/profiles/card-codes.js';

const RANKS = 'A23456789TJQK';
const SUITS = 'SHDC';

export interface CardRule {
  cards: CardCodeOptions;
  note: string;
  /** the ranks no known card had: their codes come from the rule alone */
  unseenRanks: string[];
}

/**
 * The rule `code = offset[suit] + stride x rank` (A = 0 .. K = 12) that reads every known code
 * (decimal numbers, `maxCode` the largest the field holds) as its card, or undefined when none
 * does or the known cards do not fix it: every suit must occur, and the stride must follow from
 * two cards of one suit in at least two suits (or three ranks of one).
 */
export function solveCardRule(codes: string[], cards: string[], maxCode: number): CardRule | undefined {
  if (codes.length === 0 || codes.some((c) => !/^\d+$/.test(c))) return undefined;
  const bySuit = new Map<string, Map<number, number>>();
  for (let k = 0; k < codes.length; k++) {
    const r = RANKS.indexOf(cards[k][0]);
    const s = cards[k][1];
    if (r < 0 || !SUITS.includes(s)) return undefined;
    const m = bySuit.get(s) ?? new Map<number, number>();
    if ((m.get(r) ?? Number(codes[k])) !== Number(codes[k])) return undefined;
    m.set(r, Number(codes[k]));
    bySuit.set(s, m);
  }
  if (bySuit.size < 4) return undefined;
  // the stride: the same from every pair of ranks within a suit
  let stride: number | undefined;
  let witnesses = 0;
  let suitsWithTwo = 0;
  for (const m of bySuit.values()) {
    const rs = [...m.keys()].sort((a, b) => a - b);
    if (rs.length >= 2) suitsWithTwo++;
    for (let i = 1; i < rs.length; i++) {
      const d = (m.get(rs[i])! - m.get(rs[0])!) / (rs[i] - rs[0]);
      if (!Number.isInteger(d) || d === 0) return undefined;
      if (stride !== undefined && d !== stride) return undefined;
      stride = d;
      witnesses++;
    }
  }
  if (stride === undefined || (suitsWithTwo < 2 && witnesses < 2)) return undefined;
  const offset = new Map<string, number>();
  for (const [s, m] of bySuit) {
    const [r, c] = [...m.entries()][0];
    offset.set(s, c - stride * r);
  }
  const table: Record<string, string> = {};
  for (const s of SUITS)
    for (let r = 0; r < 13; r++) {
      const code = offset.get(s)! + stride * r;
      if (code < 0 || code > maxCode || String(code) in table) return undefined;
      table[String(code)] = RANKS[r] + s;
    }
  const seen = new Set([...bySuit.values()].flatMap((m) => [...m.keys()]));
  const unseenRanks = [...RANKS].filter((_, r) => !seen.has(r));
  const sorted = Object.fromEntries(Object.entries(table).sort((a, b) => Number(a[0]) - Number(b[0])));
  const offs = SUITS.split('')
    .map((s) => `${s} ${offset.get(s)}`)
    .join(', ');
  return {
    cards: { preset: 'table', table: sorted },
    note: `card codes: an explicit table of 52 from the rule suit offset (${offs}) + ${stride} x rank (A 0 .. K 12), which reads all ${codes.length} known cards`,
    unseenRanks,
  };
}
