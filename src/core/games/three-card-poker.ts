/**
 * Three Card Poker with Pair Plus, Ante Bonus and 6 Card Bonus (games.md, seed 004): one deck,
 * one player position against the dealer.
 *
 * Dealing: three cards to the player, then three to the dealer (`gameOptions.dealOrder`:
 * `player-first` (default), `dealer-first`, or `alternate` = P, D, P, D, P, D). All six are dealt
 * face down while betting is open (seed 004: "the player and the dealer each receive 3 cards face
 * down; when betting time ends the player's cards are scanned and revealed").
 *   - With an engine: the player's cards are revealed at `close-betting`, the dealer's at
 *     `close-decisions`. After the sixth card the round waits straight for `close-decisions`
 *     (every online player decides play/fold for themself; the engine settles them). A
 *     `decision` (seat `player`, `play` or `fold`) is accepted while the window is open and only
 *     recorded (a decision event): the dealer's hand is needed whatever the players did (Pair
 *     Plus and 6 Card Bonus are paid even on a fold), so nothing in the deal depends on it.
 *   - Without an engine (`betting: none`): the gateway cannot know when betting closed, so all
 *     six cards stay hidden and the result follows the sixth card.
 */
import type { Card } from '../vocabulary/card.js';
import {
  anteBonusCategory,
  bestOfSix,
  compareThreeCard,
  evaluateThreeCard,
  isAtLeastFive,
  pairPlusCategory,
  threeCardQualifies,
  type FiveCardCategory,
  type ThreeCardCategory,
  type ThreeCardHand,
} from './evaluators/poker.js';
import { refuse, type CardGame, type Expectation, type RoundOptions } from './game.js';

export type ThreeCardPokerDealOrder = 'player-first' | 'dealer-first' | 'alternate';

const ORDERS: Record<ThreeCardPokerDealOrder, readonly ('player' | 'dealer')[]> = {
  'player-first': ['player', 'player', 'player', 'dealer', 'dealer', 'dealer'],
  'dealer-first': ['dealer', 'dealer', 'dealer', 'player', 'player', 'player'],
  alternate: ['player', 'dealer', 'player', 'dealer', 'player', 'dealer'],
};

export interface ThreeCardPokerRound {
  readonly order: ThreeCardPokerDealOrder;
  readonly engine: boolean;
  readonly player: readonly Card[];
  readonly dealer: readonly Card[];
  readonly decisionsClosed: boolean;
  /** the engine's recorded decision, if any */
  readonly decision: 'play' | 'fold' | null;
}

function orderOf(opts: RoundOptions): ThreeCardPokerDealOrder {
  const o = opts.options?.dealOrder ?? 'player-first';
  if (typeof o !== 'string' || !(o in ORDERS))
    throw new Error(`three-card-poker: dealOrder must be one of ${Object.keys(ORDERS).join(', ')}, got ${String(o)}`);
  return o as ThreeCardPokerDealOrder;
}

/** the actions a `decision` may carry now (the decision window is open), or null */
export function threeCardPokerWindowActions(s: ThreeCardPokerRound): readonly string[] | null {
  if (!s.engine || s.decisionsClosed || s.player.length < 3 || s.decision !== null) return null;
  return ['play', 'fold'];
}

export interface ThreeCardPokerFacts {
  playerHand: ThreeCardHand;
  dealerHand: ThreeCardHand;
  dealerQualifies: boolean;
  winner: 'player' | 'dealer' | 'standoff';
  anteBonus: ThreeCardCategory | null;
  pairPlus: ThreeCardCategory | null;
  sixCardBonus: FiveCardCategory | null;
}

export function threeCardPokerFacts(player: readonly Card[], dealer: readonly Card[]): ThreeCardPokerFacts {
  const playerHand = evaluateThreeCard(player);
  const dealerHand = evaluateThreeCard(dealer);
  const cmp = compareThreeCard(playerHand, dealerHand);
  const six = bestOfSix([...player, ...dealer]);
  return {
    playerHand,
    dealerHand,
    dealerQualifies: threeCardQualifies(dealerHand),
    winner: cmp > 0 ? 'player' : cmp < 0 ? 'dealer' : 'standoff',
    anteBonus: anteBonusCategory(player),
    pairPlus: pairPlusCategory(player),
    sixCardBonus: isAtLeastFive(six.category, 'three-of-a-kind') ? six.category : null,
  };
}

export const threeCardPoker: CardGame<ThreeCardPokerRound> = {
  id: 'three-card-poker',
  positions: ['player', 'dealer'],
  defaults: { decks: 1, burnPerRound: 0, burnFaceDown: false, singleDeck: true, maxCardsPerRound: 6, needsEngine: false },
  newRound: (opts) => ({ order: orderOf(opts), engine: opts.engine, player: [], dealer: [], decisionsClosed: false, decision: null }),
  expect(s): Expectation {
    const n = s.player.length + s.dealer.length;
    if (n < 6) {
      const position = ORDERS[s.order][n];
      const revealAt = !s.engine ? 'result' : position === 'player' ? 'close-betting' : 'close-decisions';
      return { kind: 'card', position, faceDown: true, revealAt };
    }
    if (s.engine && !s.decisionsClosed) return { kind: 'close-decisions' };
    return { kind: 'complete' };
  },
  place(s, card) {
    const n = s.player.length + s.dealer.length;
    if (n >= 6) throw new Error('three-card-poker: no card expected');
    return ORDERS[s.order][n] === 'player' ? { ...s, player: [...s.player, card] } : { ...s, dealer: [...s.dealer, card] };
  },
  decide(s, seat, action) {
    if (seat !== 'player') return refuse(`three-card-poker has one position, "player" (got "${seat}")`);
    if (!s.engine) return refuse('three-card-poker takes decisions only with an engine');
    if (s.player.length < 3) return refuse("the player's cards have not all been dealt yet");
    if (s.decisionsClosed) return refuse('the decision window is closed');
    if (s.decision !== null) return refuse(`the player already decided (${s.decision})`);
    if (action !== 'play' && action !== 'fold') return refuse(`three-card-poker: action must be play or fold, got "${action}"`);
    return { ...s, decision: action };
  },
  closeDecisions(s) {
    if (!s.engine) return refuse('three-card-poker has no decision window without an engine');
    if (s.player.length + s.dealer.length < 6) return refuse('close-decisions comes after the six cards');
    if (s.decisionsClosed) return refuse('decisions are already closed');
    return { ...s, decisionsClosed: true };
  },
  cards: (s) => ({ player: [...s.player], dealer: [...s.dealer] }),
  outcome: (s) => ({ ...threeCardPokerFacts(s.player, s.dealer) }),
};
