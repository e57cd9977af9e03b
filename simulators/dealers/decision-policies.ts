/**
 * Decision policies of the virtual engine: legal, randomised player decisions for the games that
 * take them, usable by `dealShoe` (`decide(exp, rng, view) => action`).
 *
 * - blackjack: A-A / 8-8 split (90%) or fold; otherwise a rough basic strategy (stand on hard 17+,
 *   on 13-16 against a dealer 2-6, on 12 against 4-6; double 11 when allowed; hit soft 17 or
 *   less) with a 10% chance of any other legal action.
 * - hold'em: `play` before the flop (5% `fold`), then `bet` (40%) or `check`.
 * - three card poker: `play` with Q-6-4 or better, else `fold`, with a 5% chance of the other.
 * - any other game: the first allowed action.
 *
 * Required decisions come from the game's `expect()` (`{kind:'decision'}`). Optional ones — the
 * decision windows of hold'em and three card poker, where the round waits for `close-decisions`
 * and a decision may be sent before it — are described by `windowDecision(game, state)`.
 */
import { rankNumber, type Card } from '../../src/core/vocabulary/card.js';
import type { Rng } from '../rng.js';
import { blackjackTotal } from '../../src/core/games/evaluators/blackjack-hand.js';
import { scoreThreeCard } from '../../src/core/games/evaluators/poker.js';
import type { AnyCardGame, Expectation } from '../../src/core/games/game.js';
import { holdemWindowActions, type HoldemRound } from '../../src/core/games/holdem.js';
import { threeCardPokerWindowActions, type ThreeCardPokerRound } from '../../src/core/games/three-card-poker.js';

export type DecisionExpectation = Extract<Expectation, { kind: 'decision' }>;

/** what the engine can see when it decides: the round's cards so far */
export interface DecisionView {
  cards: Readonly<Record<string, readonly Card[]>>;
}

export type DecideFn = (exp: DecisionExpectation, rng: Rng, view?: DecisionView) => string;

const pick = (actions: readonly string[], rng: Rng) => actions[Math.floor(rng() * actions.length)];
const legal = (exp: DecisionExpectation, wanted: string, rng: Rng) => (exp.actions.includes(wanted) ? wanted : pick(exp.actions, rng));

export const decideFirst: DecideFn = (exp) => exp.actions[0];

export const decideBlackjack: DecideFn = (exp, rng, view) => {
  if (exp.actions.includes('split')) return rng() < 0.9 ? 'split' : legal(exp, 'fold', rng);
  if (rng() < 0.1) return pick(exp.actions, rng);
  const hand = view?.cards[exp.seat];
  const upCard = view?.cards.dealer?.[0];
  if (!hand || !upCard) return legal(exp, 'stand', rng);
  const { total, soft } = blackjackTotal(hand);
  const upRank = rankNumber(upCard);
  const up = upRank === 1 ? 11 : Math.min(upRank, 10);
  let want: string;
  if (soft) want = total >= 19 || (total === 18 && up <= 8) ? 'stand' : 'hit';
  else if (total >= 17) want = 'stand';
  else if (total >= 13) want = up <= 6 ? 'stand' : 'hit';
  else if (total === 12) want = up >= 4 && up <= 6 ? 'stand' : 'hit';
  else if (total === 11) want = 'double';
  else want = 'hit';
  return legal(exp, want, rng);
};

export const decideHoldem: DecideFn = (exp, rng) => {
  if (exp.actions.includes('fold')) return rng() < 0.05 ? 'fold' : legal(exp, 'play', rng);
  return rng() < 0.4 ? legal(exp, 'bet', rng) : legal(exp, 'check', rng);
};

/** Q-6-4 as a three-card score: the play/fold line of basic strategy */
const Q64 = scoreThreeCard(['QS', '6H', '4D'] as Card[]);

export const decideThreeCardPoker: DecideFn = (exp, rng, view) => {
  const hand = view?.cards.player;
  let want = 'play';
  if (hand && hand.length === 3 && scoreThreeCard(hand) < Q64) want = 'fold';
  if (rng() < 0.05) want = want === 'play' ? 'fold' : 'play';
  return legal(exp, want, rng);
};

export const DECIDE: Readonly<Record<string, DecideFn>> = {
  blackjack: decideBlackjack,
  holdem: decideHoldem,
  'three-card-poker': decideThreeCardPoker,
};

/** the policy for a game id (the first allowed action for games without one) */
export function decideFor(gameId: string): DecideFn {
  return Object.hasOwn(DECIDE, gameId) ? DECIDE[gameId] : decideFirst;
}

/**
 * An optional decision the engine may send now, inside a decision window (the round waits for
 * `close-decisions`), as a decision expectation for the policy; null when there is none.
 */
export function windowDecision(game: AnyCardGame, state: unknown): DecisionExpectation | null {
  let actions: readonly string[] | null = null;
  if (game.id === 'holdem') actions = holdemWindowActions(state as HoldemRound);
  else if (game.id === 'three-card-poker') actions = threeCardPokerWindowActions(state as ThreeCardPokerRound);
  return actions ? { kind: 'decision', seat: 'player', actions } : null;
}
