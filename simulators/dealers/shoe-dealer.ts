/**
 * A virtual dealer: deals a real, shuffled shoe by a game's rules and says what the shoe hardware
 * would see, as a sequence of `DealerAction`s (pure: no I/O, no clock). The virtual table plays
 * them into a simulated device at the configured pace; `simulate` runs them with no I/O at all.
 *
 * It follows the shoe procedure of games.md: `LOADED`, the reveal card and its burns (shoe games),
 * the per-round burns, rounds by the game's own dealing order, and the cut card: drawn inside a
 * round -> that round is the last; drawn before a round's first card -> no further round.
 */
import { revealBurnCount, type Card } from '../../src/domain/card.js';
import { shuffledShoe, type Rng } from '../../src/domain/rng.js';
import type { CardGame, Expectation } from '../../src/games/game.js';

export type DealerAction =
  | { type: 'load' }
  | { type: 'card'; card: Card; role: string }
  | { type: 'cut' }
  /** an engine request the virtual engine sends (betting windows, decisions) */
  | { type: 'request'; command: string; args?: Record<string, unknown> }
  | { type: 'round-start'; roundNo: number }
  | { type: 'round-end'; roundNo: number }
  | { type: 'shoe-end' };

export interface DealerOptions {
  game: CardGame<any>;
  decks: number;
  burnPerRound: number;
  /** engine-driven betting: the dealer also asks the virtual engine to open/close betting */
  engine: boolean;
  /** cards between the cut card and the end of the shoe */
  cutCardFromEnd: number;
  /** picks a decision when the game waits for one (virtual engine); default: the first allowed action */
  decide?: (exp: Extract<Expectation, { kind: 'decision' }>, rng: Rng) => string;
  gameOptions?: Readonly<Record<string, unknown>>;
}

/** Deals one whole shoe (or, for single-deck games, one deck). */
export function* dealShoe(o: DealerOptions, rng: Rng): Generator<DealerAction> {
  const single = o.game.defaults.singleDeck;
  const cards = shuffledShoe(single ? 1 : o.decks, rng);
  const cutIndex = single ? Number.POSITIVE_INFINITY : Math.max(0, cards.length - o.cutCardFromEnd);
  let next = 0;
  let cutDrawn = false;
  const actions: DealerAction[] = [];
  const draw = (): Card | null => {
    if (!cutDrawn && next === cutIndex) {
      cutDrawn = true;
      actions.push({ type: 'cut' });
    }
    return next < cards.length ? cards[next++] : null;
  };
  const flush = function* () {
    while (actions.length) yield actions.shift()!;
  };

  yield { type: 'load' };
  if (!single) {
    const reveal = draw()!;
    yield* flush();
    yield { type: 'card', card: reveal, role: 'reveal' };
    for (let i = revealBurnCount(reveal); i > 0; i--) {
      const c = draw()!;
      yield* flush();
      yield { type: 'card', card: c, role: 'burn' };
    }
  }
  let roundNo = 0;
  for (;;) {
    // the cut card is next: it comes out before this round's first card and ends the shoe
    if (!cutDrawn && next === cutIndex) {
      cutDrawn = true;
      yield { type: 'cut' };
      break;
    }
    if (cutDrawn || cards.length - next < o.game.defaults.maxCardsPerRound + o.burnPerRound) break;
    roundNo++;
    yield { type: 'round-start', roundNo };
    if (o.engine) yield { type: 'request', command: 'open-betting' };
    let round = o.game.newRound({ engine: o.engine, options: o.gameOptions });
    let bettingOpen = o.engine;
    for (let i = 0; i < o.burnPerRound; i++) {
      const c = draw()!;
      yield* flush();
      yield { type: 'card', card: c, role: 'burn' };
    }
    for (;;) {
      const e = o.game.expect(round);
      if (e.kind === 'card') {
        if (bettingOpen && !e.faceDown) {
          bettingOpen = false;
          yield { type: 'request', command: 'close-betting' };
        }
        const c = draw();
        if (!c) break;
        yield* flush();
        round = o.game.place(round, c);
        yield { type: 'card', card: c, role: e.position };
      } else if (e.kind === 'decision') {
        const action = o.decide ? o.decide(e, rng) : e.actions[0];
        const r = o.game.decide!(round, e.seat, action);
        if (r && typeof r === 'object' && 'error' in r) throw new Error(`dealer chose an illegal decision: ${(r as { error: string }).error}`);
        round = r;
        yield { type: 'request', command: 'decision', args: { seat: e.seat, action } };
      } else if (e.kind === 'close-decisions') {
        const r = o.game.closeDecisions!(round);
        if (r && typeof r === 'object' && 'error' in r) throw new Error(`close-decisions refused: ${(r as { error: string }).error}`);
        round = r;
        yield { type: 'request', command: 'close-decisions' };
      } else break;
    }
    if (bettingOpen) yield { type: 'request', command: 'close-betting' };
    yield { type: 'round-end', roundNo };
  }
  yield { type: 'shoe-end' };
}
