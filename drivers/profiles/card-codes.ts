/**
 * Card-code presets of device profiles (device-protocols.md §3), turning a vendor code into the
 * gateway's two-character card (`AS`, `TH`). Each returns null for a code it cannot read.
 *
 * - `rank-suit`: `AS`, `10S`, `TS`; `suit-rank`: `SA`, `H10`; `suit_rank`: `S_K`, `C_10`;
 * - `four-digit`: suit digit (1=S 2=H 3=C 4=D) then the rank x 10 as three digits: `1010` = A of
 *   spades, `2130` = K of hearts (rank 1..13 times ten);
 * - `index52`: 1..52 in the profile's suit order, ranks A..K within each suit (default S,H,D,C);
 * - `custom`: a rank map and a suit map, code = rank part + suit part (`order: rank-suit`) or the reverse;
 * - `table`: an explicit table of 52 entries, the device's code (text, or a binary field's decimal value) -> card.
 */
import { RANKS, type Card, type Rank, type Suit } from '../../src/core/vocabulary/card.js';

export type CardPreset = 'rank-suit' | 'suit-rank' | 'suit_rank' | 'four-digit' | 'index52' | 'custom' | 'table';

export interface CardCodeOptions {
  preset: CardPreset;
  suitOrder?: Suit[];
  rankOrder?: Rank[];
  ranks?: Record<string, Rank>;
  suits?: Record<string, Suit>;
  order?: 'rank-suit' | 'suit-rank';
  table?: Record<string, string>;
}

/** a card's rank as written (`A` or `1`, `T` or `10`, ...) -> its rank letter */
export const RANK_OF: Record<string, Rank> = {
  A: 'A',
  '1': 'A',
  '2': '2',
  '3': '3',
  '4': '4',
  '5': '5',
  '6': '6',
  '7': '7',
  '8': '8',
  '9': '9',
  T: 'T',
  '10': 'T',
  J: 'J',
  Q: 'Q',
  K: 'K',
};
const SUIT_OF: Record<string, Suit> = { S: 'S', H: 'H', D: 'D', C: 'C' };
const FOUR_SUIT: Record<string, Suit> = { '1': 'S', '2': 'H', '3': 'C', '4': 'D' };

export type CardDecoder = (code: string) => Card | null;

/** char code -> rank / suit index + 1 (either case), 0 when it is none */
const RANK_INDEX = new Uint8Array(128);
const SUIT_INDEX = new Uint8Array(128);
RANKS.forEach((r, i) => {
  RANK_INDEX[r.charCodeAt(0)] = i + 1;
  RANK_INDEX[r.toLowerCase().charCodeAt(0)] = i + 1;
});
RANK_INDEX[0x31] = 1; // `1` = ace
'SHDC'.split('').forEach((s, i) => {
  SUIT_INDEX[s.charCodeAt(0)] = i + 1;
  SUIT_INDEX[s.toLowerCase().charCodeAt(0)] = i + 1;
});
/** the 52 card strings, built once (rank index * 4 + suit index) */
const CARD_TEXT: Card[] = RANKS.flatMap((r) => ['S', 'H', 'D', 'C'].map((s) => r + s));

/** A two-character code `<rank><suit>` (order 'rs') or `<suit><rank>` ('sr') without building strings. */
function twoChar(c: string, order: 'rs' | 'sr'): Card | null {
  const a = c.charCodeAt(0);
  const b = c.charCodeAt(1);
  if (a > 127 || b > 127) return null;
  const r = order === 'rs' ? RANK_INDEX[a] : RANK_INDEX[b];
  const s = order === 'rs' ? SUIT_INDEX[b] : SUIT_INDEX[a];
  return r && s ? CARD_TEXT[(r - 1) * 4 + s - 1] : null;
}

/** the ten of the suit written at c[i] (either case; a character whose upper case is a suit letter too) */
function tenOf(c: string, i: number): Card | null {
  const code = c.charCodeAt(i);
  if (code < 128) return SUIT_INDEX[code] ? CARD_TEXT[9 * 4 + SUIT_INDEX[code] - 1] : null;
  const s = SUIT_OF[c[i].toUpperCase()];
  return s ? `T${s}` : null;
}

export function cardDecoder(o: CardCodeOptions): CardDecoder {
  switch (o.preset) {
    // a rank of two characters can only be `10`: three characters are `10` and a suit, longer ones no card
    case 'rank-suit':
      return (c) => {
        if (c.length === 2) return twoChar(c, 'rs');
        if (c.length !== 3 || c.charCodeAt(0) !== 0x31 || c.charCodeAt(1) !== 0x30) return null;
        return tenOf(c, 2);
      };
    case 'suit-rank':
      return (c) => {
        if (c.length === 2) return twoChar(c, 'sr');
        if (c.length !== 3 || c.charCodeAt(1) !== 0x31 || c.charCodeAt(2) !== 0x30) return null;
        return tenOf(c, 0);
      };
    case 'suit_rank':
      return (c) => {
        const i = c.indexOf('_');
        if (i !== 1) return null;
        const s = SUIT_OF[c[0].toUpperCase()];
        const r = RANK_OF[c.slice(2).toUpperCase()];
        return r && s ? r + s : null;
      };
    case 'four-digit':
      return (c) => {
        if (!/^[1-4]\d{3}$/.test(c)) return null;
        const n = Number(c.slice(1));
        if (n % 10 !== 0 || n < 10 || n > 130) return null;
        return RANKS[n / 10 - 1] + FOUR_SUIT[c[0]];
      };
    case 'index52': {
      const suits = o.suitOrder ?? ['S', 'H', 'D', 'C'];
      const ranks = o.rankOrder ?? [...RANKS];
      return (c) => {
        if (!/^\d{1,2}$/.test(c)) return null;
        const n = Number(c);
        if (n < 1 || n > 52) return null;
        return ranks[(n - 1) % 13] + suits[Math.floor((n - 1) / 13)];
      };
    }
    case 'table': {
      const t = new Map(Object.entries(o.table ?? {}));
      return (c) => t.get(c) ?? null;
    }
    case 'custom': {
      const rm = o.ranks ?? {};
      const sm = o.suits ?? {};
      const suitFirst = o.order === 'suit-rank';
      const suitKeys = Object.keys(sm);
      return (c) => {
        for (const k of suitKeys) {
          if (suitFirst ? c.startsWith(k) : c.endsWith(k)) {
            const rest = suitFirst ? c.slice(k.length) : c.slice(0, c.length - k.length);
            const r = rm[rest];
            if (r) return r + sm[k];
          }
        }
        return null;
      };
    }
  }
}
