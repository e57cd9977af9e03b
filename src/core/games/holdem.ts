/**
 * Texas Hold'em against the dealer (games.md, seed 000): one deck, one player position.
 *
 * Dealing: player, player, dealer, dealer (the dealer's hole cards face down until the result),
 * then — each street only after `close-decisions` for the previous betting step — the flop (3
 * board cards), the turn and the river. No burns.
 *
 * Decision windows (with an engine): after the hole cards (`play` = the 2x Flop bet, or `fold`),
 * after the flop and after the turn (`bet` or `check`); none after the river. The round waits
 * for `close-decisions` in each window; a `decision` for seat `player` is optional (every online
 * player decides for themself and the engine settles them; the sheet makes a missing choice a
 * fold before the flop and a check after it, per player). One decision per window. A `fold` —
 * accepted only before the flop, when the whole position folds — ends the round: no board is
 * dealt, the result has `folded: true`, `winner: 'dealer'` and no hands (`bonus` and
 * `bonusDealerAA` still reported: they depend on the hole cards only).
 *
 * Without an engine the streets follow one another with no window (the table config requires an
 * engine for hold'em; this mode exists for simulations).
 */
import type { Card } from '../vocabulary/card.js';
import { bonusDealerAA, holdemBonus, type HoldemBonus } from './evaluators/holdem-bonus.js';
import { bestOfSeven, compareHands, isAtLeastFive, type PokerHand } from './evaluators/poker.js';
import { refuse, type CardGame, type Expectation } from './game.js';

export interface HoldemRound {
  readonly engine: boolean;
  readonly player: readonly Card[];
  readonly dealer: readonly Card[];
  readonly board: readonly Card[];
  /** `close-decisions` received so far (0 preflop, 1 after the flop window, 2 after the turn window) */
  readonly closed: number;
  /** the decision taken in each window (index = window), null when none */
  readonly decisions: readonly (string | null)[];
  readonly folded: boolean;
}

/** board cards that may be out before window `w` closes: 0 preflop, 3 after flop, 4 after turn */
const BOARD_BEFORE_WINDOW = [0, 3, 4] as const;

/** the open decision window (0 preflop, 1 flop, 2 turn) or -1 */
function openWindow(s: HoldemRound): number {
  if (!s.engine || s.folded || s.player.length < 2 || s.dealer.length < 2) return -1;
  const w = s.closed;
  if (w > 2) return -1;
  return s.board.length === BOARD_BEFORE_WINDOW[w] ? w : -1;
}

/** the actions a `decision` may carry now, or null when no window is open */
export function holdemWindowActions(s: HoldemRound): readonly string[] | null {
  const w = openWindow(s);
  if (w < 0 || s.decisions[w] != null) return null;
  return w === 0 ? ['play', 'fold'] : ['bet', 'check'];
}

export interface HoldemFacts {
  playerHand: PokerHand | null;
  dealerHand: PokerHand | null;
  winner: 'player' | 'dealer' | 'tie';
  anteWins: boolean;
  bonus: HoldemBonus | null;
  bonusDealerAA: boolean;
  folded: boolean;
}

export function holdemFacts(player: readonly Card[], dealer: readonly Card[], board: readonly Card[], folded = false): HoldemFacts {
  const bonus = holdemBonus(player);
  const dealerAA = bonusDealerAA(player, dealer);
  if (folded) return { playerHand: null, dealerHand: null, winner: 'dealer', anteWins: false, bonus, bonusDealerAA: dealerAA, folded: true };
  const playerHand = bestOfSeven([...player, ...board]);
  const dealerHand = bestOfSeven([...dealer, ...board]);
  const cmp = compareHands(playerHand, dealerHand);
  const winner = cmp > 0 ? 'player' : cmp < 0 ? 'dealer' : 'tie';
  return {
    playerHand,
    dealerHand,
    winner,
    anteWins: winner === 'player' && isAtLeastFive(playerHand.category, 'straight'),
    bonus,
    bonusDealerAA: dealerAA,
    folded: false,
  };
}

export const holdem: CardGame<HoldemRound> = {
  id: 'holdem',
  positions: ['player', 'dealer', 'board'],
  defaults: { decks: 1, burnPerRound: 0, burnFaceDown: false, singleDeck: true, maxCardsPerRound: 9, needsEngine: true },
  newRound: (opts) => ({ engine: opts.engine, player: [], dealer: [], board: [], closed: 0, decisions: [null, null, null], folded: false }),
  expect(s): Expectation {
    if (s.player.length < 2) return { kind: 'card', position: 'player', faceDown: false };
    if (s.dealer.length < 2) return { kind: 'card', position: 'dealer', faceDown: true, revealAt: 'result' };
    if (s.folded || s.board.length >= 5) return { kind: 'complete' };
    if (openWindow(s) >= 0) return { kind: 'close-decisions' };
    return { kind: 'card', position: 'board', faceDown: false };
  },
  place(s, card) {
    if (s.player.length < 2) return { ...s, player: [...s.player, card] };
    if (s.dealer.length < 2) return { ...s, dealer: [...s.dealer, card] };
    if (s.folded || s.board.length >= 5 || openWindow(s) >= 0) throw new Error('holdem: no card expected');
    return { ...s, board: [...s.board, card] };
  },
  decide(s, seat, action) {
    if (seat !== 'player') return refuse(`holdem has one position, "player" (got "${seat}")`);
    const w = openWindow(s);
    if (w < 0) return refuse('no decision window is open');
    if (s.decisions[w] != null) return refuse(`the player already decided in this window (${s.decisions[w]})`);
    const allowed = w === 0 ? ['play', 'fold'] : ['bet', 'check'];
    if (!allowed.includes(action))
      return refuse(
        `holdem: action must be ${allowed.join(' or ')} ${w === 0 ? 'before the flop' : w === 1 ? 'after the flop' : 'after the turn'}, got "${action}"`,
      );
    const decisions = [...s.decisions];
    decisions[w] = action;
    return { ...s, decisions, folded: action === 'fold' };
  },
  closeDecisions(s) {
    if (openWindow(s) < 0) return refuse('no decision window is open');
    return { ...s, closed: s.closed + 1 };
  },
  cards: (s) => ({ player: [...s.player], dealer: [...s.dealer], board: [...s.board] }),
  outcome: (s) => ({ ...holdemFacts(s.player, s.dealer, s.board, s.folded) }),
  // games.md Hold'em, sheet 000: a jam (or any void) after the player's two hole cards leaves the
  // Bonus bet standing, paid normally; `bonusDealerAA` once the dealer's hole cards are in.
  voidOutcome: (s) =>
    s.player.length < 2
      ? null
      : {
          bonus: holdemBonus(s.player),
          bonusDealerAA: s.dealer.length < 2 ? null : bonusDealerAA(s.player, s.dealer),
        },
};
