/**
 * The shape every card game module has. A game module is PURE: it knows the dealing order of one
 * round, which card comes next, when the round is complete and what its outcome is. The shoe
 * procedures shared by all games (new-shoe reveal and burn, per-round burns, cut card, exposed,
 * unnecessary and dropped cards, misreads, counting) live in `src/core/table/`, not here.
 */
import type { Card } from '../vocabulary/card.js';

/** When a face-down card is turned over. `result` = when the round is complete. */
export type RevealPoint = 'close-betting' | 'close-decisions' | 'result';

/** What the round waits for next. */
export type Expectation =
  /** the next card from the shoe goes to `position` */
  | { kind: 'card'; position: string; faceDown: boolean; revealAt?: RevealPoint }
  /** a player decision (blackjack, hold'em, three card poker) for `seat` with one of `actions` */
  | { kind: 'decision'; seat: string; actions: readonly string[] }
  /** the engine must send `close-decisions` before dealing goes on */
  | { kind: 'close-decisions' }
  /** no further card: the round is complete */
  | { kind: 'complete' };

export interface GameDefaults {
  /** decks in the shoe (1 for single-deck games) */
  decks: number;
  /** per-round burn cards before the first card of every round */
  burnPerRound: number;
  /** whether those burns are drawn face down (Pok Deng) */
  burnFaceDown: boolean;
  /** single-deck games: no new-shoe reveal and burn; a fresh deck per `LOADED` */
  singleDeck: boolean;
  /** the most cards one round can take (for `deck-exhausted` on single-deck games) */
  maxCardsPerRound: number;
  /** games that need player decisions require `betting: engine` */
  needsEngine: boolean;
}

export interface RoundOptions {
  /** `true` when an engine drives betting (`betting: engine`) */
  engine: boolean;
  /** game-specific options from the table config */
  options?: Readonly<Record<string, unknown>>;
}

export type Outcome = Record<string, unknown>;

/**
 * A game module's refusal of a decision, a decision window's close or a correction. Tagged by its
 * class (check with `isRefusal`), so that no game state, whatever keys it has, is taken for one.
 * It still carries `error`, the message the table answers with.
 */
export class GameRefusal {
  readonly refused = true;
  constructor(readonly error: string) {}
}

export function refuse(error: string): GameRefusal {
  return new GameRefusal(error);
}

export function isRefusal(answer: unknown): answer is GameRefusal {
  return answer instanceof GameRefusal;
}

/** the new round state, or the game module's refusal */
export type GameAnswer<S> = S | GameRefusal;

export interface CardGame<S = unknown> {
  readonly id: string;
  /** position names in the order they appear in a result's `cards` */
  readonly positions: readonly string[];
  readonly defaults: GameDefaults;
  /** a fresh round with no cards */
  newRound(opts: RoundOptions): S;
  /** what the round expects next */
  expect(s: S): Expectation;
  /** places `card` where `expect(s)` said (only valid when it is `{kind:'card'}`) */
  place(s: S, card: Card): S;
  /** a player decision; returns the new state or the game's refusal */
  decide?(s: S, seat: string, action: string, args?: Readonly<Record<string, unknown>>): GameAnswer<S>;
  /** the decision window closed; returns the new state or the game's refusal */
  closeDecisions?(s: S): GameAnswer<S>;
  /** dealer corrections the rules allow (e.g. 3 Pictures `reverse-order`) */
  correct?(s: S, kind: string, args: Readonly<Record<string, unknown>>): GameAnswer<S>;
  /** each position -> its cards in dealing order (positions with no cards may be omitted) */
  cards(s: S): Record<string, Card[]>;
  /** the outcome of a complete round (games.md) */
  outcome(s: S): Outcome;
  /** what a void round's result still carries (Hold'em: the Bonus bet stands); null or absent: no outcome */
  voidOutcome?(s: S): Outcome | null;
}

/**
 * A card game whose round state is opaque to its holder: the table stores the state a module made
 * and hands it back to the same module only, so it needs no more than `unknown`. (The members are
 * methods, so a `CardGame<BaccaratRound>` is one.)
 */
export type AnyCardGame = CardGame<unknown>;
