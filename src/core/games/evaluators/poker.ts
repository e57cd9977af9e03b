/**
 * Poker hand evaluators: Three Card Poker (3 cards) and best five of 5..7 cards (Hold'em,
 * 6 Card Bonus).
 *
 * Pure functions, no I/O, no state visible to callers. The hot paths (`scoreBest`,
 * `scoreThreeCard`) read the two-character card codes with `charCodeAt`, work on 13-bit rank
 * masks and allocate nothing; the object-returning functions decode a score into the spec's
 * `{ category, ranks }` shape.
 *
 * Rank numbers are poker ranks: 2..13 for 2..K, A = 14 (the wheel / A-2-3 report the straight's
 * top card, 5 / 3). Suits never break ties.
 *
 * Score layout (both evaluators): `category << 20 | r1 << 16 | r2 << 12 | r3 << 8 | r4 << 4 | r5`
 * where r1..r5 are the hand's significant ranks, most significant first, 0 when unused. A higher
 * score is a better hand, equal scores are a tie.
 */
import type { Card } from '../../vocabulary/card.js';

// ---------------------------------------------------------------------------------------------
// Card decoding tables (char code -> rank bit index 0..12 for 2..A, suit 0..3)
// ---------------------------------------------------------------------------------------------

const RANK_BIT = new Int8Array(128).fill(-1);
const SUIT_IDX = new Int8Array(128).fill(-1);
'23456789TJQKA'.split('').forEach((ch, i) => {
  RANK_BIT[ch.charCodeAt(0)] = i;
});
'SHDC'.split('').forEach((ch, i) => {
  SUIT_IDX[ch.charCodeAt(0)] = i;
});

function badCard(card: unknown): never {
  throw new RangeError(`not a card code: ${String(card)}`);
}

// ---------------------------------------------------------------------------------------------
// Precomputed 13-bit mask tables
// ---------------------------------------------------------------------------------------------

/** Top card (poker rank 5..14) of the best straight in a rank mask, 0 when none. */
const STRAIGHT_TOP = new Uint8Array(8192);
/** The (up to) five highest ranks of a mask as nibbles r1<<16|r2<<12|r3<<8|r4<<4|r5. */
const TOP5 = new Int32Array(8192);

{
  const WHEEL = (1 << 12) | 0b1111; // A,2,3,4,5
  for (let m = 0; m < 8192; m++) {
    let top = 0;
    for (let hi = 12; hi >= 4; hi--) {
      const run = 0b11111 << (hi - 4);
      if ((m & run) === run) {
        top = hi + 2;
        break;
      }
    }
    if (top === 0 && (m & WHEEL) === WHEEL) top = 5;
    STRAIGHT_TOP[m] = top;
    let enc = 0;
    let n = 0;
    for (let b = 12; b >= 0 && n < 5; b--) {
      if (m & (1 << b)) {
        enc |= (b + 2) << (16 - 4 * n);
        n++;
      }
    }
    TOP5[m] = enc;
  }
}

/** Index (0..12) of the highest set bit of a non-zero mask. */
function hiBit(m: number): number {
  return 31 - Math.clz32(m);
}

// ---------------------------------------------------------------------------------------------
// Five-card categories
// ---------------------------------------------------------------------------------------------

export type FiveCardCategory =
  | 'royal-flush'
  | 'straight-flush'
  | 'four-of-a-kind'
  | 'full-house'
  | 'flush'
  | 'straight'
  | 'three-of-a-kind'
  | 'two-pair'
  | 'pair'
  | 'high-card';

/** Five-card categories from lowest (index 0) to highest; the index is the score's category. */
export const FIVE_CARD_CATEGORIES: readonly FiveCardCategory[] = [
  'high-card',
  'pair',
  'two-pair',
  'three-of-a-kind',
  'straight',
  'flush',
  'full-house',
  'four-of-a-kind',
  'straight-flush',
  'royal-flush',
];

/** How many significant ranks each five-card category reports (indexed like the list above). */
const FIVE_RANK_COUNT = [5, 4, 3, 3, 1, 5, 2, 2, 1, 1];

const HIGH = 0;
const PAIR = 1;
const TWO_PAIR = 2;
const TRIPS = 3;
const STRAIGHT = 4;
const FLUSH = 5;
const FULL_HOUSE = 6;
const QUADS = 7;
const STRAIGHT_FLUSH = 8;
const ROYAL = 9;

export interface PokerHand {
  category: FiveCardCategory;
  /** Significant ranks, most significant first (A = 14, wheel straight -> [5]). */
  ranks: number[];
}

/**
 * The best five-card hand when `fm` (the ranks of the flush suit) holds 5+ cards. Only valid for
 * at most 7 cards: with 7 or fewer cards a flush excludes quads and full houses.
 */
function scoreFlush(fm: number): number {
  const sf = STRAIGHT_TOP[fm];
  if (sf === 14) return (ROYAL << 20) | (14 << 16);
  if (sf !== 0) return (STRAIGHT_FLUSH << 20) | (sf << 16);
  return (FLUSH << 20) | TOP5[fm];
}

/**
 * Scores the best five-card hand without a flush from rank-occurrence masks.
 * m1..m4: ranks seen at least 1..4 times.
 */
function scoreRanks(m1: number, m2: number, m3: number, m4: number): number {
  if (m4 !== 0) {
    const q = hiBit(m4);
    return (QUADS << 20) | ((q + 2) << 16) | ((hiBit(m1 & ~(1 << q)) + 2) << 12);
  }
  if (m3 !== 0) {
    const t = hiBit(m3);
    const rest2 = m2 & ~(1 << t);
    if (rest2 !== 0) return (FULL_HOUSE << 20) | ((t + 2) << 16) | ((hiBit(rest2) + 2) << 12);
    const st = STRAIGHT_TOP[m1];
    if (st !== 0) return (STRAIGHT << 20) | (st << 16);
    return (TRIPS << 20) | ((t + 2) << 16) | ((TOP5[m1 & ~(1 << t)] & 0xff000) >>> 4);
  }
  const st = STRAIGHT_TOP[m1];
  if (st !== 0) return (STRAIGHT << 20) | (st << 16);
  if (m2 !== 0) {
    const p1 = hiBit(m2);
    const restPairs = m2 & ~(1 << p1);
    if (restPairs !== 0) {
      const p2 = hiBit(restPairs);
      const k = hiBit(m1 & ~((1 << p1) | (1 << p2)));
      return (TWO_PAIR << 20) | ((p1 + 2) << 16) | ((p2 + 2) << 12) | ((k + 2) << 8);
    }
    return (PAIR << 20) | ((p1 + 2) << 16) | ((TOP5[m1 & ~(1 << p1)] & 0xfff00) >>> 4);
  }
  return (HIGH << 20) | TOP5[m1];
}

/**
 * Per-suit card counts packed in nibbles (suit s at bits 4s..4s+3, at most 7 cards so no carry):
 * adding 3 to every nibble sets its bit 3 exactly when that suit has 5 or more cards. A flush is
 * rare, so the common path never builds per-suit masks (no data-dependent branch per card).
 */
const FLUSH_PROBE = 0x3333;
const FLUSH_BITS = 0x8888;

/** index (0..3) of the suit with 5+ cards, from the nibble counters (only called on a flush) */
function flushSuit(counts: number): number {
  const hits = (counts + FLUSH_PROBE) & FLUSH_BITS;
  return (31 - Math.clz32(hits)) >> 2;
}

/**
 * The comparable integer score of the best five-card hand among 5..7 card codes.
 * Higher is better; equal is a tie. Allocation-free.
 */
export function scoreBest(cards: readonly Card[]): number {
  const n = cards.length;
  if (n < 5 || n > 7) throw new RangeError(`scoreBest needs 5 to 7 cards, got ${n}`);
  let m1 = 0,
    m2 = 0,
    m3 = 0,
    m4 = 0;
  let counts = 0;
  for (let i = 0; i < n; i++) {
    const c = cards[i];
    const r = RANK_BIT[c.charCodeAt(0) & 127];
    const s = SUIT_IDX[c.charCodeAt(1) & 127];
    if (r < 0 || s < 0 || c.length !== 2) badCard(c);
    const b = 1 << r;
    m4 |= m3 & b;
    m3 |= m2 & b;
    m2 |= m1 & b;
    m1 |= b;
    counts += 1 << (s << 2);
  }
  if (((counts + FLUSH_PROBE) & FLUSH_BITS) !== 0) {
    const fs = flushSuit(counts);
    let fm = 0;
    for (let i = 0; i < n; i++) if (SUIT_IDX[cards[i].charCodeAt(1) & 127] === fs) fm |= 1 << RANK_BIT[cards[i].charCodeAt(0) & 127];
    return scoreFlush(fm);
  }
  return scoreRanks(m1, m2, m3, m4);
}

/**
 * Integer card ids for callers that keep cards as numbers: id = rankBit * 4 + suit, where
 * rankBit is 0..12 for 2..A and suit 0..3 for S,H,D,C.
 */
export function cardId(card: Card): number {
  const r = RANK_BIT[card.charCodeAt(0) & 127];
  const s = SUIT_IDX[card.charCodeAt(1) & 127];
  if (r < 0 || s < 0 || card.length !== 2) badCard(card);
  return (r << 2) | s;
}

/** `scoreBest` over integer card ids (see `cardId`); 5..7 ids, first `n` of `ids` when given. */
export function scoreBestIds(ids: ArrayLike<number>, n: number = ids.length): number {
  if (n < 5 || n > 7) throw new RangeError(`scoreBestIds needs 5 to 7 cards, got ${n}`);
  let m1 = 0,
    m2 = 0,
    m3 = 0,
    m4 = 0;
  let counts = 0;
  for (let i = 0; i < n; i++) {
    const id = ids[i];
    const b = 1 << (id >>> 2);
    m4 |= m3 & b;
    m3 |= m2 & b;
    m2 |= m1 & b;
    m1 |= b;
    counts += 1 << ((id & 3) << 2);
  }
  if (((counts + FLUSH_PROBE) & FLUSH_BITS) !== 0) {
    const fs = flushSuit(counts);
    let fm = 0;
    for (let i = 0; i < n; i++) if ((ids[i] & 3) === fs) fm |= 1 << (ids[i] >>> 2);
    return scoreFlush(fm);
  }
  return scoreRanks(m1, m2, m3, m4);
}

/** The five-card category index (0 = high card … 9 = royal flush) of a score. */
export function scoreCategoryIndex(score: number): number {
  return score >>> 20;
}

/** Decodes a `scoreBest` score into the spec's hand shape. */
export function scoreToHand(score: number): PokerHand {
  const cat = score >>> 20;
  const category = FIVE_CARD_CATEGORIES[cat];
  if (category === undefined) throw new RangeError(`not a five-card score: ${score}`);
  const count = FIVE_RANK_COUNT[cat];
  const ranks: number[] = new Array(count);
  for (let i = 0; i < count; i++) ranks[i] = (score >>> (16 - 4 * i)) & 15;
  return { category, ranks };
}

/** Encodes a hand (category + ranks) back into its score. */
export function handToScore(hand: PokerHand): number {
  const cat = FIVE_CARD_CATEGORIES.indexOf(hand.category);
  if (cat < 0) throw new RangeError(`not a five-card category: ${String(hand.category)}`);
  let score = cat << 20;
  const n = Math.min(hand.ranks.length, 5);
  for (let i = 0; i < n; i++) score |= (hand.ranks[i] & 15) << (16 - 4 * i);
  return score;
}

/** Best five-card hand of 5, 6 or 7 cards. */
export function bestFive(cards: readonly Card[]): PokerHand {
  return scoreToHand(scoreBest(cards));
}

/** Exactly five cards. */
export function evaluateFive(cards: readonly Card[]): PokerHand {
  if (cards.length !== 5) throw new RangeError(`evaluateFive needs 5 cards, got ${cards.length}`);
  return scoreToHand(scoreBest(cards));
}

/** Best five of exactly six cards (6 Card Bonus). */
export function bestOfSix(cards: readonly Card[]): PokerHand {
  if (cards.length !== 6) throw new RangeError(`bestOfSix needs 6 cards, got ${cards.length}`);
  return scoreToHand(scoreBest(cards));
}

/** Best five of exactly seven cards (Hold'em: two hole cards + five board cards). */
export function bestOfSeven(cards: readonly Card[]): PokerHand {
  if (cards.length !== 7) throw new RangeError(`bestOfSeven needs 7 cards, got ${cards.length}`);
  return scoreToHand(scoreBest(cards));
}

function sign(d: number): -1 | 0 | 1 {
  return d > 0 ? 1 : d < 0 ? -1 : 0;
}

/**
 * Compares two five-card hands: each either 5..7 card codes (best five is taken) or an already
 * evaluated `PokerHand`. 1 when `a` is better, -1 when `b` is better, 0 for a tie.
 */
export function compareHands(a: readonly Card[] | PokerHand, b: readonly Card[] | PokerHand): -1 | 0 | 1 {
  const sa = Array.isArray(a) ? scoreBest(a as readonly Card[]) : handToScore(a as PokerHand);
  const sb = Array.isArray(b) ? scoreBest(b as readonly Card[]) : handToScore(b as PokerHand);
  return sign(sa - sb);
}

/** True when `category` ranks at least as high as `min` (e.g. 6 Card Bonus: three-of-a-kind). */
export function isAtLeastFive(category: FiveCardCategory, min: FiveCardCategory): boolean {
  return FIVE_CARD_CATEGORIES.indexOf(category) >= FIVE_CARD_CATEGORIES.indexOf(min);
}

// ---------------------------------------------------------------------------------------------
// Three Card Poker
// ---------------------------------------------------------------------------------------------

export type ThreeCardCategory = 'straight-flush' | 'three-of-a-kind' | 'straight' | 'flush' | 'pair' | 'high-card';

/** Three-card categories from lowest (index 0) to highest: a straight beats a flush here. */
export const THREE_CARD_CATEGORIES: readonly ThreeCardCategory[] = ['high-card', 'pair', 'flush', 'straight', 'three-of-a-kind', 'straight-flush'];

const T_HIGH = 0;
const T_PAIR = 1;
const T_FLUSH = 2;
const T_STRAIGHT = 3;
const T_TRIPS = 4;
const T_SF = 5;
const THREE_RANK_COUNT = [3, 2, 3, 1, 1, 1];

export interface ThreeCardHand {
  category: ThreeCardCategory;
  /** Significant ranks, most significant first (A = 14; A-2-3 -> [3], A-K-Q -> [14]). */
  ranks: number[];
  /** Present (true) only for A-K-Q suited. */
  miniRoyal?: true;
}

/**
 * Comparable integer score of a three-card hand: `category << 20 | r1 << 16 | r2 << 12 | r3 << 8`
 * with the category index of `THREE_CARD_CATEGORIES`. Allocation-free.
 */
export function scoreThreeCard(cards: readonly Card[]): number {
  if (cards.length !== 3) throw new RangeError(`a three-card hand needs 3 cards, got ${cards.length}`);
  const c0 = cards[0],
    c1 = cards[1],
    c2 = cards[2];
  let a = RANK_BIT[c0.charCodeAt(0) & 127];
  let b = RANK_BIT[c1.charCodeAt(0) & 127];
  let c = RANK_BIT[c2.charCodeAt(0) & 127];
  const sa = SUIT_IDX[c0.charCodeAt(1) & 127];
  const sb = SUIT_IDX[c1.charCodeAt(1) & 127];
  const sc = SUIT_IDX[c2.charCodeAt(1) & 127];
  if (a < 0 || sa < 0 || c0.length !== 2) badCard(c0);
  if (b < 0 || sb < 0 || c1.length !== 2) badCard(c1);
  if (c < 0 || sc < 0 || c2.length !== 2) badCard(c2);
  // sort descending: a >= b >= c (rank bit indices, 0 = deuce, 12 = ace)
  let t: number;
  if (a < b) {
    t = a;
    a = b;
    b = t;
  }
  if (b < c) {
    t = b;
    b = c;
    c = t;
  }
  if (a < b) {
    t = a;
    a = b;
    b = t;
  }
  const flush = sa === sb && sb === sc;
  if (a === c) return (T_TRIPS << 20) | ((a + 2) << 16);
  if (a === b) return (T_PAIR << 20) | ((a + 2) << 16) | ((c + 2) << 12);
  if (b === c) return (T_PAIR << 20) | ((b + 2) << 16) | ((a + 2) << 12);
  let top = 0;
  if (a - c === 2) top = a + 2;
  else if (a === 12 && b === 1 && c === 0) top = 3; // A-2-3: the lowest straight
  if (top !== 0) return ((flush ? T_SF : T_STRAIGHT) << 20) | (top << 16);
  return ((flush ? T_FLUSH : T_HIGH) << 20) | ((a + 2) << 16) | ((b + 2) << 12) | ((c + 2) << 8);
}

/** Decodes a `scoreThreeCard` score into the spec's hand shape. */
export function threeCardScoreToHand(score: number): ThreeCardHand {
  const cat = score >>> 20;
  const category = THREE_CARD_CATEGORIES[cat];
  if (category === undefined) throw new RangeError(`not a three-card score: ${score}`);
  const count = THREE_RANK_COUNT[cat];
  const ranks: number[] = new Array(count);
  for (let i = 0; i < count; i++) ranks[i] = (score >>> (16 - 4 * i)) & 15;
  if (cat === T_SF && ranks[0] === 14) return { category, ranks, miniRoyal: true };
  return { category, ranks };
}

function threeCardHandToScore(hand: ThreeCardHand): number {
  const cat = THREE_CARD_CATEGORIES.indexOf(hand.category);
  if (cat < 0) throw new RangeError(`not a three-card category: ${String(hand.category)}`);
  let score = cat << 20;
  const n = Math.min(hand.ranks.length, 3);
  for (let i = 0; i < n; i++) score |= (hand.ranks[i] & 15) << (16 - 4 * i);
  return score;
}

/** Evaluates a Three Card Poker hand (also the Pair Plus / 3 Pictures pair-plus category). */
export function evaluateThreeCard(cards: readonly Card[]): ThreeCardHand {
  return threeCardScoreToHand(scoreThreeCard(cards));
}

/**
 * Compares two three-card hands (card codes or evaluated hands): 1 when `a` is better, -1 when
 * `b` is better, 0 for a tie (suits never break ties).
 */
export function compareThreeCard(a: readonly Card[] | ThreeCardHand, b: readonly Card[] | ThreeCardHand): -1 | 0 | 1 {
  const sa = Array.isArray(a) ? scoreThreeCard(a as readonly Card[]) : threeCardHandToScore(a as ThreeCardHand);
  const sb = Array.isArray(b) ? scoreThreeCard(b as readonly Card[]) : threeCardHandToScore(b as ThreeCardHand);
  return sign(sa - sb);
}

/** Three Card Poker dealer qualification: Q-high or better (any pair or better qualifies). */
export function threeCardQualifies(hand: readonly Card[] | ThreeCardHand): boolean {
  const h = Array.isArray(hand) ? evaluateThreeCard(hand as readonly Card[]) : (hand as ThreeCardHand);
  return h.category !== 'high-card' || h.ranks[0] >= 12;
}

/** True when `category` ranks at least as high as `min` in Three Card Poker order. */
export function isAtLeastThree(category: ThreeCardCategory, min: ThreeCardCategory): boolean {
  return THREE_CARD_CATEGORIES.indexOf(category) >= THREE_CARD_CATEGORIES.indexOf(min);
}

/** Pair Plus: the category when pair or better, else null. */
export function pairPlusCategory(cards: readonly Card[]): ThreeCardCategory | null {
  const cat = scoreThreeCard(cards) >>> 20;
  return cat >= T_PAIR ? THREE_CARD_CATEGORIES[cat] : null;
}

/** Ante Bonus: the category when straight or better, else null. */
export function anteBonusCategory(cards: readonly Card[]): ThreeCardCategory | null {
  const cat = scoreThreeCard(cards) >>> 20;
  return cat >= T_STRAIGHT ? THREE_CARD_CATEGORIES[cat] : null;
}
