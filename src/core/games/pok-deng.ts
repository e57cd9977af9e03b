/**
 * Pok Deng (games.md, seed 001): 8 decks, players p1..p5 each against the banker, two cards each.
 *
 * Burn 1 face down (table setting), then P1..P5, B, P1..P5, B. The cards are dealt face down while
 * betting is open: with an engine they are revealed when betting closes (`revealAt:
 * 'close-betting'`); without one (`betting: none`) the gateway never learns when betting closed,
 * so they stay hidden until the result.
 *
 * Special hands: the sheet's table is missing from the source; `gameOptions.specialHands` is a
 * list of two-card patterns, empty by default. A pattern is two card patterns separated by space,
 * comma or '-', each a rank (`A23456789TJQK` or `*`) optionally followed by a suit (`SHDC` or
 * `*`), matched in either order: `"K Q"` (a king and a queen), `"KS QS"`, `"9* 9*"`.
 * `gameOptions.players` (1-5, default 5) limits the player positions dealt.
 */
import { rankOf, suitOf, type Card } from '../vocabulary/card.js';
import { pokDengHand, pokDengVersus, type PokDengHand, type PokDengOptions } from './evaluators/pok-deng.js';
import type { CardGame, Expectation, RoundOptions } from './game.js';

export const POK_DENG_PLAYERS = ['p1', 'p2', 'p3', 'p4', 'p5'] as const;

export interface PokDengRound {
  readonly players: number;
  readonly engine: boolean;
  readonly special: readonly string[];
  /** cards in dealing order */
  readonly dealt: readonly Card[];
}

type CardPattern = { rank: string; suit: string };

function parsePattern(text: string): [CardPattern, CardPattern] {
  const parts = text
    .trim()
    .toUpperCase()
    .split(/[\s,-]+/)
    .filter(Boolean);
  if (parts.length !== 2) throw new Error(`pok-deng special hand "${text}": two card patterns expected`);
  return parts.map((p) => {
    const rank = p[0];
    const suit = p.length > 1 ? p[1] : '*';
    if (p.length > 2 || !/^[A2-9TJQK*]$/.test(rank) || !/^[SHDC*]$/.test(suit)) throw new Error(`pok-deng special hand "${text}": bad card pattern "${p}"`);
    return { rank, suit };
  }) as [CardPattern, CardPattern];
}

const matches = (p: CardPattern, c: Card) => (p.rank === '*' || p.rank === rankOf(c)) && (p.suit === '*' || p.suit === suitOf(c));

/** a special-hands predicate from the config list (undefined when the list is empty) */
export function specialHandsPredicate(list: readonly string[]): PokDengOptions['isSpecial'] {
  if (list.length === 0) return undefined;
  const patterns = list.map(parsePattern);
  return (cards) => patterns.some(([a, b]) => (matches(a, cards[0]) && matches(b, cards[1])) || (matches(a, cards[1]) && matches(b, cards[0])));
}

function optionsOf(opts: RoundOptions): { players: number; special: string[] } {
  const o = opts.options ?? {};
  const players = o.players === undefined ? 5 : Number(o.players);
  if (!Number.isInteger(players) || players < 1 || players > 5) throw new Error(`pok-deng: players must be 1-5, got ${String(o.players)}`);
  const special = o.specialHands === undefined ? [] : o.specialHands;
  if (!Array.isArray(special) || special.some((x) => typeof x !== 'string')) throw new Error('pok-deng: specialHands must be a list of strings');
  for (const s of special) parsePattern(s as string); // validate now, not at the result
  return { players, special: special as string[] };
}

/** position of the n-th card (0-based) with `players` players: P1..Pn, B, P1..Pn, B */
function positionOf(n: number, players: number): string {
  const i = n % (players + 1);
  return i === players ? 'banker' : POK_DENG_PLAYERS[i];
}

function cardsOf(s: PokDengRound): Record<string, Card[]> {
  const out: Record<string, Card[]> = {};
  for (let i = 0; i < s.players; i++) out[POK_DENG_PLAYERS[i]] = [];
  out.banker = [];
  s.dealt.forEach((c, n) => {
    out[positionOf(n, s.players)].push(c);
  });
  return out;
}

export type PokDengPositionFacts = PokDengHand & { outcome?: 'win' | 'lose' | 'tie'; multiplier?: 0 | 1 | 2 };

const NO_SPECIALS: PokDengOptions = {};

export function pokDengFacts(
  cards: Record<string, readonly Card[]>,
  players: number,
  special: readonly string[] = [],
): { positions: Record<string, PokDengPositionFacts> } {
  const opts: PokDengOptions = special.length ? { isSpecial: specialHandsPredicate(special) } : NO_SPECIALS;
  const banker = pokDengHand(cards.banker, opts);
  const positions: Record<string, PokDengPositionFacts> = {};
  for (let i = 0; i < players; i++) {
    const pos = POK_DENG_PLAYERS[i];
    const hand: PokDengPositionFacts = pokDengHand(cards[pos], opts);
    const vs = pokDengVersus(hand, banker);
    hand.outcome = vs.outcome;
    hand.multiplier = vs.multiplier;
    positions[pos] = hand;
  }
  positions.banker = banker;
  return { positions };
}

export const pokDeng: CardGame<PokDengRound> = {
  id: 'pok-deng',
  positions: [...POK_DENG_PLAYERS, 'banker'],
  defaults: { decks: 8, burnPerRound: 1, burnFaceDown: true, singleDeck: false, maxCardsPerRound: 12, needsEngine: false },
  newRound(opts) {
    const { players, special } = optionsOf(opts);
    return { players, engine: opts.engine, special, dealt: [] };
  },
  expect(s): Expectation {
    if (s.dealt.length >= 2 * (s.players + 1)) return { kind: 'complete' };
    return { kind: 'card', position: positionOf(s.dealt.length, s.players), faceDown: true, revealAt: s.engine ? 'close-betting' : 'result' };
  },
  place(s, card) {
    if (s.dealt.length >= 2 * (s.players + 1)) throw new Error('pok-deng: no card expected');
    return { players: s.players, engine: s.engine, special: s.special, dealt: s.dealt.concat(card) };
  },
  cards: cardsOf,
  outcome: (s) => pokDengFacts(cardsOf(s), s.players, s.special),
};
