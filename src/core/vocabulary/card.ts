/**
 * The card model shared by every layer: wire, games and MQTT all use the two-character
 * card code (rank `A23456789TJQK` + suit `SHDC`, e.g. `AS`, `TD`, `7H`).
 */
export type Rank = 'A' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9' | 'T' | 'J' | 'Q' | 'K';
export type Suit = 'S' | 'H' | 'D' | 'C';
/** A validated card code such as `AS`. Plain string at runtime, branded for the type checker. */
export type Card = string & { readonly __card?: true };

export const RANKS: readonly Rank[] = ['A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K'];
export const SUITS: readonly Suit[] = ['S', 'H', 'D', 'C'];

const CARD_RE = /^[A2-9TJQK][SHDC]$/;

export function isCard(code: string): code is Card {
  return CARD_RE.test(code);
}

/** Parses a card code (case-insensitive); returns null when it is not one. */
export function parseCard(code: string): Card | null {
  const c = code.toUpperCase();
  return CARD_RE.test(c) ? (c as Card) : null;
}

export function rankOf(card: Card): Rank {
  return card[0] as Rank;
}

export function suitOf(card: Card): Suit {
  return card[1] as Suit;
}

/** rank character code -> A=1 … K=13; 0 for anything that is not a rank character */
const RANK_NUMBER_BY_CODE = new Uint8Array(128);
RANKS.forEach((r, i) => {
  RANK_NUMBER_BY_CODE[r.charCodeAt(0)] = i + 1;
});

/** A=1 … K=13 (point games, Dragon Tiger, outcome rank numbers); 0 when not a rank. */
export function rankNumber(card: Card): number {
  // a table lookup: this runs several times per card in every point game (was RANKS.indexOf)
  const c = card.charCodeAt(0);
  return c < 128 ? RANK_NUMBER_BY_CODE[c] : 0;
}

/** suit character code -> its index in SUITS + 1; 0 for anything that is not a suit character */
const SUIT_NUMBER_BY_CODE = new Uint8Array(128);
SUITS.forEach((x, i) => {
  SUIT_NUMBER_BY_CODE[x.charCodeAt(0)] = i + 1;
});

/** the suit's index in SUITS (S=0, H=1, D=2, C=3); -1 when the second character is not a suit */
export function suitIndex(card: Card): number {
  const c = card.charCodeAt(1);
  return (c < 128 ? SUIT_NUMBER_BY_CODE[c] : 0) - 1;
}

/** A=14 high, 2..13 (poker ranks). */
export function pokerRank(card: Card): number {
  const n = rankNumber(card);
  return n === 1 ? 14 : n;
}

/** Baccarat-family point value: A=1, 2-9 face value, T/J/Q/K=0. */
export function baccaratPoints(card: Card): number {
  const n = rankNumber(card);
  return n >= 10 ? 0 : n;
}

/** New-shoe reveal value: A=1 … 9=9, T/J/Q/K=10 (the number of cards then burned). */
export function revealBurnCount(card: Card): number {
  const n = rankNumber(card);
  return Math.min(n, 10);
}

/** J, Q, K (10 is not a picture). */
export function isPicture(card: Card): boolean {
  const r = rankOf(card);
  return r === 'J' || r === 'Q' || r === 'K';
}

export function isRed(card: Card): boolean {
  const s = suitOf(card);
  return s === 'H' || s === 'D';
}

/** The 52 cards of one deck in a fixed order (ranks within suits). */
export function oneDeck(): Card[] {
  const out: Card[] = [];
  for (const s of SUITS) for (const r of RANKS) out.push((r + s) as Card);
  return out;
}
