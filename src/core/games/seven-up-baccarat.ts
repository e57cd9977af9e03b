/**
 * 7 Up Baccarat (games.md, seed 000): punto banco in which the player's first card is always a 7.
 *
 * The fixed 7 is not a shoe card: it is never dealt, never in `cards.player`, but it counts in the
 * player's totals, the player pair (fixed 7 + the player's first shoe card), `cardCount` and
 * `sevens`. Order: B1, P2, B2, then the third-card rules of baccarat with the 7 counted (the
 * player's first two cards are the 7 and P2).
 */
import { rankOf, type Card } from '../vocabulary/card.js';
import { baccaratFacts, nextBaccaratPosition, type BaccaratFacts } from './baccarat.js';
import type { CardGame, Expectation } from './game.js';

export interface SevenUpRound {
  /** the player's shoe cards (P2, P3): the fixed 7 is implied */
  readonly player: readonly Card[];
  readonly banker: readonly Card[];
}

/** the implied first player card (its suit never matters: pairs compare ranks) */
export const FIXED_SEVEN = '7S' as Card;
const ORDER = ['banker', 'player', 'banker'] as const;

function next(s: SevenUpRound): 'player' | 'banker' | null {
  return nextBaccaratPosition(s.player, s.banker, 7, 1, ORDER);
}

export interface SevenUpFacts extends BaccaratFacts {
  winningTotal: number;
  sevens: number;
  super7: boolean;
}

export function sevenUpFacts(player: readonly Card[], banker: readonly Card[]): SevenUpFacts {
  const f = baccaratFacts(player, banker, [FIXED_SEVEN]);
  let sevens = 1;
  for (const c of player) if (rankOf(c) === '7') sevens++;
  for (const c of banker) if (rankOf(c) === '7') sevens++;
  const winningTotal = f.winner === 'banker' ? f.bankerTotal : f.playerTotal;
  return { ...f, winningTotal, sevens, super7: sevens >= 2 };
}

export const sevenUpBaccarat: CardGame<SevenUpRound> = {
  id: 'seven-up-baccarat',
  positions: ['player', 'banker'],
  defaults: { decks: 8, burnPerRound: 1, burnFaceDown: false, singleDeck: false, maxCardsPerRound: 5, needsEngine: false },
  newRound: () => ({ player: [], banker: [] }),
  expect(s): Expectation {
    const pos = next(s);
    return pos ? { kind: 'card', position: pos, faceDown: false } : { kind: 'complete' };
  },
  place(s, card) {
    const pos = next(s);
    if (pos === 'player') return { player: [...s.player, card], banker: s.banker };
    if (pos === 'banker') return { player: s.player, banker: [...s.banker, card] };
    throw new Error('seven-up-baccarat: no card expected');
  },
  cards: (s) => ({ player: [...s.player], banker: [...s.banker] }),
  outcome: (s) => ({ ...sevenUpFacts(s.player, s.banker) }),
};
