/**
 * Blackjack (games.md, seed 000): 8 decks, seats seat1..seat4 (`gameOptions.seats`, 1-4, default
 * 4) against the dealer, no hole card.
 *
 * Dealing: burn 4 (table setting); seat1..N first card, the dealer's up card, seat1..N second
 * card. Then each seat hand in turn acts through `decision` requests; a card arrives only after
 * `hit`, `double` (exactly one card) or `split`. The dealer then draws the second card and on to
 * 17, standing on all 17s (soft 17 included); when every seat hand is bust (or folded) the dealer
 * draws only the second card.
 *
 * Decisions for the acting hand (any other seat name is answered with an error):
 *   - first two cards A-A or 8-8 (unsplit): `split` or `fold` — the sheet's pair table offers
 *     only these two (a fold is the 20% surrender; the hand is out: `folded: true`, `lose`);
 *   - first two cards of an unsplit hand, no pair, a total of 11 or more (soft included; exactly 11
 *     with `gameOptions.doubleOn: exactly-11`): `hit`, `stand`, `double`;
 *   - otherwise: `hit`, `stand` (no double after a split, no resplit).
 * A `hit` with `keepStanding: true` (two players on one seat, one standing) keeps the seat's cards
 * so far as a standing hand `seatNs` (settled like any hand; it counts for "every seat busted").
 * After `split` the next card goes to `seatNa`, then one to `seatNb`; `seatNa` acts first. A
 * hand ends by itself at 21 (a blackjack too), at 8 cards, on a bust, after its `double` card,
 * and split aces end with their one card each.
 *
 * Outcome, per seat hand under `outcome.positions.<seatN|seatNa|seatNb>`: `cards`, `total`,
 * `soft`, `bust`, `blackjack` (A + ten in the first two cards, never after a split), `charlie`
 * (8 cards not over 21: wins unless the dealer has blackjack), `doubled`, `split`, `folded`,
 * `outcome` (`win`|`lose`|`push`), `perfectPairs` (the seat's first two cards, carried on both
 * split hands); and `dealer`: `cards`, `total`, `soft`, `bust`, `blackjack`, `perfectPairs`.
 */
import { rankOf, type Card } from '../vocabulary/card.js';
import { blackjackTotal, isBlackjack, perfectPairs, type PerfectPairs } from './evaluators/blackjack-hand.js';
import { refuse, type CardGame, type Expectation, type RoundOptions } from './game.js';

export interface BlackjackHand {
  /** position name: `seat2`, or `seat2a` / `seat2b` after a split */
  readonly pos: string;
  readonly seat: number;
  readonly cards: readonly Card[];
  readonly split: boolean;
  readonly splitAces: boolean;
  readonly doubled: boolean;
  readonly stood: boolean;
  readonly folded: boolean;
  /** a `hit` or `double` asked for a card that has not come yet */
  readonly wantsCard: boolean;
  /** the seat's first two cards (perfect pairs), kept on both hands of a split */
  readonly firstTwo: readonly Card[];
}

export interface BlackjackRound {
  readonly seats: number;
  /** cards of the initial deal so far (2 x seats + 1) */
  readonly initial: number;
  /** hands in playing order */
  readonly hands: readonly BlackjackHand[];
  readonly dealer: readonly Card[];
  /** `gameOptions.doubleOn: exactly-11` (absent: the default, a two-card total of 11 or more) */
  readonly doubleOn?: 'exactly-11';
}

/** `gameOptions.doubleOn`: `eleven-or-more` (the default) or `exactly-11` */
function doubleOnOf(opts: RoundOptions): 'exactly-11' | undefined {
  const v = opts.options?.doubleOn ?? 'eleven-or-more';
  if (v !== 'eleven-or-more' && v !== 'exactly-11') throw new Error(`blackjack: doubleOn must be eleven-or-more or exactly-11, got ${String(v)}`);
  return v === 'exactly-11' ? v : undefined;
}

function seatsOf(opts: RoundOptions): number {
  const v = opts.options?.seats ?? 4;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 4) throw new Error(`blackjack: seats must be 1-4, got ${String(v)}`);
  return n;
}

/** a hand that needs nothing more */
export function handFinished(h: BlackjackHand): boolean {
  if (h.folded || h.stood) return true;
  if (h.cards.length < 2 || h.wantsCard) return false;
  const t = blackjackTotal(h.cards);
  return t.bust || t.total === 21 || h.cards.length >= 8 || h.doubled || h.splitAces;
}

const isPairOf = (h: BlackjackHand, ranks: string) =>
  h.cards.length === 2 && !h.split && rankOf(h.cards[0]) === rankOf(h.cards[1]) && ranks.includes(rankOf(h.cards[0]));

/**
 * the actions the hand may take (it must be the acting hand). games.md (v1.2): `double` on a
 * two-card total of 11 or more, soft totals included (A-7 counts 18), or only on exactly 11 with
 * `doubleOn: exactly-11`; never on pairs (the pair table offers hit or stand) or after a split.
 */
export function blackjackActions(h: BlackjackHand, doubleOn?: 'exactly-11'): string[] {
  if (isPairOf(h, 'A8')) return ['split', 'fold'];
  const pair = h.cards.length === 2 && rankOf(h.cards[0]) === rankOf(h.cards[1]);
  if (h.cards.length === 2 && !h.split && !pair) {
    const t = blackjackTotal(h.cards);
    if (doubleOn === 'exactly-11' ? t.total === 11 : t.total >= 11) return ['hit', 'stand', 'double'];
  }
  return ['hit', 'stand'];
}

type Next =
  | { kind: 'initial'; position: string }
  | { kind: 'hand-card'; index: number }
  | { kind: 'decision'; index: number }
  | { kind: 'dealer-card' }
  | { kind: 'complete' };

function dealerNeedsCard(s: BlackjackRound): boolean {
  if (s.dealer.length < 2) return true;
  const live = s.hands.some((h) => !h.folded && !blackjackTotal(h.cards).bust);
  if (!live) return false;
  return blackjackTotal(s.dealer).total < 17;
}

function next(s: BlackjackRound): Next {
  const n = s.seats;
  if (s.initial < 2 * n + 1) {
    const i = s.initial;
    return { kind: 'initial', position: i < n ? `seat${i + 1}` : i === n ? 'dealer' : `seat${i - n}` };
  }
  const active = s.hands.findIndex((h) => !handFinished(h));
  if (active >= 0) {
    const h = s.hands[active];
    if (h.split) {
      // both hands of a split get their second card before the first one acts
      const first = s.hands.findIndex((x) => x.seat === h.seat && x.cards.length < 2);
      if (first >= 0) return { kind: 'hand-card', index: first };
    }
    if (h.wantsCard) return { kind: 'hand-card', index: active };
    return { kind: 'decision', index: active };
  }
  return dealerNeedsCard(s) ? { kind: 'dealer-card' } : { kind: 'complete' };
}

/** every hand object is built here, always with the same shape (fast property access) */
function hand(h: BlackjackHand, change: Partial<BlackjackHand>): BlackjackHand {
  return {
    pos: change.pos ?? h.pos,
    seat: h.seat,
    cards: change.cards ?? h.cards,
    split: change.split ?? h.split,
    splitAces: change.splitAces ?? h.splitAces,
    doubled: change.doubled ?? h.doubled,
    stood: change.stood ?? h.stood,
    folded: change.folded ?? h.folded,
    wantsCard: change.wantsCard ?? h.wantsCard,
    firstTwo: change.firstTwo ?? h.firstTwo,
  };
}

function newHand(seat: number): BlackjackHand {
  return { pos: `seat${seat}`, seat, cards: [], split: false, splitAces: false, doubled: false, stood: false, folded: false, wantsCard: false, firstTwo: [] };
}

function withCard(h: BlackjackHand, card: Card): BlackjackHand {
  const cards = h.cards.concat(card);
  return hand(h, { cards, wantsCard: false, firstTwo: cards.length === 2 && !h.split ? cards : h.firstTwo });
}

function replaceHand(s: BlackjackRound, index: number, ...hands: BlackjackHand[]): BlackjackRound {
  const next = s.hands.slice(0, index);
  for (const h of hands) next.push(h);
  for (let i = index + 1; i < s.hands.length; i++) next.push(s.hands[i]);
  return { ...s, hands: next };
}

export interface BlackjackHandFacts {
  cards: Card[];
  total: number;
  soft: boolean;
  bust: boolean;
  blackjack: boolean;
  charlie: boolean;
  doubled: boolean;
  split: boolean;
  folded: boolean;
  outcome: 'win' | 'lose' | 'push';
  perfectPairs: PerfectPairs | null;
}

export interface BlackjackDealerFacts {
  cards: Card[];
  total: number;
  soft: boolean;
  bust: boolean;
  blackjack: boolean;
  perfectPairs: PerfectPairs | null;
}

export function blackjackFacts(s: BlackjackRound): { positions: Record<string, BlackjackHandFacts | BlackjackDealerFacts> } {
  const d = blackjackTotal(s.dealer);
  const dealerBJ = isBlackjack(s.dealer);
  const positions: Record<string, BlackjackHandFacts | BlackjackDealerFacts> = {};
  for (const h of s.hands) {
    const t = blackjackTotal(h.cards);
    const blackjack = isBlackjack(h.cards, h.split);
    const charlie = h.cards.length >= 8 && !t.bust;
    let outcome: 'win' | 'lose' | 'push';
    if (h.folded || t.bust) outcome = 'lose';
    else if (blackjack) outcome = dealerBJ ? 'push' : 'win';
    else if (dealerBJ) outcome = 'lose';
    else if (charlie || d.bust) outcome = 'win';
    else outcome = t.total > d.total ? 'win' : t.total < d.total ? 'lose' : 'push';
    positions[h.pos] = {
      cards: [...h.cards],
      total: t.total,
      soft: t.soft,
      bust: t.bust,
      blackjack,
      charlie,
      doubled: h.doubled,
      split: h.split,
      folded: h.folded,
      outcome,
      perfectPairs: h.firstTwo.length === 2 ? perfectPairs(h.firstTwo[0], h.firstTwo[1]) : null,
    };
  }
  positions.dealer = {
    cards: [...s.dealer],
    total: d.total,
    soft: d.soft,
    bust: d.bust,
    blackjack: dealerBJ,
    perfectPairs: s.dealer.length >= 2 ? perfectPairs(s.dealer[0], s.dealer[1]) : null,
  };
  return { positions };
}

export const blackjack: CardGame<BlackjackRound> = {
  id: 'blackjack',
  positions: ['seat1', 'seat2', 'seat3', 'seat4', 'dealer'],
  defaults: { decks: 8, burnPerRound: 4, burnFaceDown: false, singleDeck: false, maxCardsPerRound: 75, needsEngine: true },
  newRound(opts) {
    const seats = seatsOf(opts);
    const doubleOn = doubleOnOf(opts);
    return { seats, initial: 0, hands: Array.from({ length: seats }, (_, i) => newHand(i + 1)), dealer: [], ...(doubleOn ? { doubleOn } : {}) };
  },
  expect(s): Expectation {
    const x = next(s);
    switch (x.kind) {
      case 'initial':
        return { kind: 'card', position: x.position, faceDown: false };
      case 'hand-card':
        return { kind: 'card', position: s.hands[x.index].pos, faceDown: false };
      case 'dealer-card':
        return { kind: 'card', position: 'dealer', faceDown: false };
      case 'decision': {
        const h = s.hands[x.index];
        return { kind: 'decision', seat: h.pos, actions: blackjackActions(h, s.doubleOn) };
      }
      case 'complete':
        return { kind: 'complete' };
    }
  },
  place(s, card) {
    const x = next(s);
    switch (x.kind) {
      case 'initial': {
        const initial = s.initial + 1;
        if (x.position === 'dealer') return { ...s, initial, dealer: [card] };
        const index = s.hands.findIndex((h) => h.pos === x.position);
        const r = replaceHand(s, index, withCard(s.hands[index], card));
        return { ...r, initial };
      }
      case 'hand-card':
        return replaceHand(s, x.index, withCard(s.hands[x.index], card));
      case 'dealer-card':
        return { ...s, dealer: s.dealer.concat(card) };
      default:
        throw new Error(`blackjack: no card expected (${x.kind === 'decision' ? `waiting for a decision of ${s.hands[x.index].pos}` : 'round complete'})`);
    }
  },
  decide(s, seat, action, args = {}) {
    const x = next(s);
    if (x.kind !== 'decision') return refuse(`no decision is expected now (${x.kind === 'complete' ? 'the round is complete' : 'waiting for a card'})`);
    const h = s.hands[x.index];
    if (seat !== h.pos) return refuse(`${seat} is not the acting hand (${h.pos} is)`);
    const actions = blackjackActions(h, s.doubleOn);
    if (!actions.includes(action)) return refuse(`${seat} cannot ${action} now (allowed: ${actions.join(', ')})`);
    if (args.keepStanding === true) {
      // games.md: two players on one seat (sheet 000): one stands while the other hits. The seat's
      // cards so far stay as the standing hand `seatNs`; the seat goes on with the hit.
      if (action !== 'hit') return refuse('keepStanding goes with action "hit" only');
      if (h.split) return refuse(`keepStanding is for an unsplit seat hand, not ${h.pos}`);
      if (s.hands.some((x) => x.pos === `${h.pos}s`)) return refuse(`${h.pos} already has a standing hand`);
      const standing = hand(h, { pos: `${h.pos}s`, stood: true, wantsCard: false });
      return replaceHand(s, x.index, hand(h, { wantsCard: true }), standing);
    }
    switch (action) {
      case 'hit':
        return replaceHand(s, x.index, hand(h, { wantsCard: true }));
      case 'stand':
        return replaceHand(s, x.index, hand(h, { stood: true }));
      case 'double':
        return replaceHand(s, x.index, hand(h, { doubled: true, wantsCard: true }));
      case 'fold':
        return replaceHand(s, x.index, hand(h, { folded: true }));
      case 'split': {
        const base = hand(h, { split: true, splitAces: rankOf(h.cards[0]) === 'A', wantsCard: false, firstTwo: h.cards.slice(0, 2) });
        return replaceHand(s, x.index, hand(base, { pos: `${h.pos}a`, cards: [h.cards[0]] }), hand(base, { pos: `${h.pos}b`, cards: [h.cards[1]] }));
      }
      default:
        return refuse(`unknown action ${action}`);
    }
  },
  cards(s) {
    const out: Record<string, Card[]> = {};
    for (const h of s.hands) out[h.pos] = [...h.cards];
    out.dealer = [...s.dealer];
    return out;
  },
  outcome: (s) => blackjackFacts(s),
};
