/**
 * A virtual dealer: deals a real, shuffled shoe by a game's rules and says what the shoe hardware
 * would see, as a sequence of `DealerAction`s (pure: no I/O, no clock). The virtual table plays
 * them into a simulated device at the configured pace; `simulate` runs them with no I/O at all.
 *
 * It follows the shoe procedure of games.md: `LOADED`, the reveal card and its burns (shoe games),
 * the per-round burns, rounds by the game's own dealing order, and the cut card: drawn inside a
 * round -> that round is the last; drawn before a round's first card -> no further round.
 * Single-deck games deal one shuffled deck per "shoe" (one `LOADED` each, no reveal and burn, no
 * cut card) and start a round only when the deck still holds the most cards a round can take
 * (`maxCardsPerRound` + burns).
 *
 * With an engine (`engine: true`) the dealer also asks the engine to open betting before the
 * round's burns and to close it before the first face-up card — or before the first decision or
 * `close-decisions` when every card so far was dealt face down (Pok Deng, Three Card Poker), or at
 * the end of a round dealt entirely face down. Decisions come from `decide` (default: the game's
 * policy in `decision-policies.ts`), optional decisions inside a decision window (hold'em, three
 * card poker) from `windowDecision` (default: the same module; `null` to send none).
 */
import { revealBurnCount, type Card } from '../../src/core/vocabulary/card.js';
import { shuffledShoe, type Rng } from '../rng.js';
import type { AnyCardGame } from '../../src/core/games/game.js';
import { decideFor, windowDecision as defaultWindowDecision, type DecideFn, type DecisionExpectation } from './decision-policies.js';

export type DealerAction =
  | { type: 'load' }
  | { type: 'card'; card: Card; role: string }
  | { type: 'cut' }
  /** an engine request the virtual engine sends (betting windows, decisions) */
  | { type: 'request'; command: string; args?: Record<string, unknown> }
  | { type: 'round-start'; roundNo: number }
  /** `complete`: the round reached `complete` (false when the shoe ran out mid-round); `state`: the game's final round state */
  | { type: 'round-end'; roundNo: number; complete?: boolean; state?: unknown }
  | { type: 'shoe-end' };

export interface DealerOptions {
  game: AnyCardGame;
  decks: number;
  burnPerRound: number;
  /** engine-driven betting: the dealer also asks the virtual engine to open/close betting */
  engine: boolean;
  /** cards between the cut card and the end of the shoe */
  cutCardFromEnd: number;
  /** picks a decision when the game waits for one (virtual engine); default: the game's policy */
  decide?: DecideFn;
  /** optional decisions inside decision windows; default: `decision-policies.ts`, null: none */
  windowDecision?: ((game: AnyCardGame, state: unknown) => DecisionExpectation | null) | null;
  gameOptions?: Readonly<Record<string, unknown>>;
}

const CUT: DealerAction = { type: 'cut' };
const CLOSE_BETTING: DealerAction = { type: 'request', command: 'close-betting' };

function failed(r: unknown): r is { error: string } {
  return !!r && typeof r === 'object' && 'error' in r && typeof (r as { error: unknown }).error === 'string';
}

/** Deals one whole shoe (or, for single-deck games, one deck). */
export function* dealShoe(o: DealerOptions, rng: Rng): Generator<DealerAction> {
  const g = o.game;
  const single = g.defaults.singleDeck;
  const cards = shuffledShoe(single ? 1 : o.decks, rng);
  const cutIndex = single ? Number.POSITIVE_INFINITY : Math.max(0, cards.length - o.cutCardFromEnd);
  const decide = o.decide ?? decideFor(g.id);
  const window = o.windowDecision === undefined ? defaultWindowDecision : o.windowDecision;
  let next = 0;
  let cutDrawn = false;
  /** true when the cut card is the next thing out of the shoe (it is then taken out) */
  const cutNow = (): boolean => {
    if (cutDrawn || next !== cutIndex) return false;
    cutDrawn = true;
    return true;
  };

  yield { type: 'load' };
  if (!single) {
    if (cutNow()) yield CUT;
    const reveal = cards[next++];
    yield { type: 'card', card: reveal, role: 'reveal' };
    for (let i = revealBurnCount(reveal); i > 0 && next < cards.length; i--) {
      if (cutNow()) yield CUT;
      yield { type: 'card', card: cards[next++], role: 'burn' };
    }
  }
  let roundNo = 0;
  for (;;) {
    if (cutDrawn) break; // the cut card came out during the last round: it was the last
    if (cutNow()) {
      // the cut card comes out before this round's first card: no further round in this shoe
      yield CUT;
      break;
    }
    const left = cards.length - next;
    if (single ? left < g.defaults.maxCardsPerRound + o.burnPerRound : left <= o.burnPerRound) break;
    roundNo++;
    yield { type: 'round-start', roundNo };
    if (o.engine) yield { type: 'request', command: 'open-betting' };
    let round = g.newRound({ engine: o.engine, options: o.gameOptions });
    let bettingOpen = o.engine;
    let complete = false;
    let outOfCards = false;
    for (let i = 0; i < o.burnPerRound; i++) {
      if (cutNow()) yield CUT;
      yield { type: 'card', card: cards[next++], role: 'burn' };
    }
    for (;;) {
      const e = g.expect(round);
      if (e.kind === 'card') {
        if (bettingOpen && !e.faceDown) {
          bettingOpen = false;
          yield CLOSE_BETTING;
        }
        if (cutNow()) yield CUT;
        if (next >= cards.length) {
          outOfCards = true;
          break;
        }
        const c = cards[next++];
        round = g.place(round, c);
        yield { type: 'card', card: c, role: e.position };
      } else if (e.kind === 'decision') {
        if (bettingOpen) {
          bettingOpen = false;
          yield CLOSE_BETTING;
        }
        const action = decide(e, rng, { cards: g.cards(round) });
        const r = g.decide!(round, e.seat, action);
        if (failed(r)) throw new Error(`dealer chose an illegal decision (${e.seat} ${action}): ${r.error}`);
        round = r;
        yield { type: 'request', command: 'decision', args: { seat: e.seat, action } };
      } else if (e.kind === 'close-decisions') {
        if (bettingOpen) {
          bettingOpen = false;
          yield CLOSE_BETTING;
        }
        const w = window ? window(g, round) : null;
        if (w) {
          const action = decide(w, rng, { cards: g.cards(round) });
          const r = g.decide!(round, w.seat, action);
          if (failed(r)) throw new Error(`dealer chose an illegal decision (${w.seat} ${action}): ${r.error}`);
          round = r;
          yield { type: 'request', command: 'decision', args: { seat: w.seat, action } };
          continue; // the decision may have ended the round (a hold'em fold)
        }
        const r = g.closeDecisions!(round);
        if (failed(r)) throw new Error(`close-decisions refused: ${r.error}`);
        round = r;
        yield { type: 'request', command: 'close-decisions' };
      } else {
        complete = true;
        break;
      }
    }
    if (bettingOpen) yield CLOSE_BETTING;
    yield { type: 'round-end', roundNo, complete, state: round };
    if (outOfCards) break;
  }
  yield { type: 'shoe-end' };
}
