/** Shared helpers of the game tests: play a round from a card list, and a z-test on frequencies. */
import { expect } from 'vitest';
import type { Card } from '../../../src/core/vocabulary/card.js';
import { isRefusal, type CardGame, type Expectation, type GameRefusal, type RevealPoint } from '../../../src/core/games/game.js';

export const hand = (s: string): Card[] => (s.trim() ? (s.trim().split(/\s+/) as Card[]) : []);

export interface Placed {
  position: string;
  card: Card;
  faceDown: boolean;
  revealAt?: RevealPoint;
}

export interface Played<S> {
  state: S;
  placed: Placed[];
  /** every expectation met, in order */
  trail: Expectation[];
}

/**
 * Plays one round: cards go where `expect()` says, decisions are taken from `decisions` in
 * order, `close-decisions` is answered by itself. Throws when the round wants more cards or
 * decisions than given, or when cards are left over.
 */
export function play<S>(
  game: CardGame<S>,
  cards: string | string[],
  o: { engine?: boolean; options?: Record<string, unknown>; decisions?: string[] } = {},
): Played<S> {
  const queue = typeof cards === 'string' ? hand(cards) : ([...cards] as Card[]);
  const decisions = [...(o.decisions ?? [])];
  let state = game.newRound({ engine: o.engine ?? game.defaults.needsEngine, options: o.options });
  const placed: Placed[] = [];
  const trail: Expectation[] = [];
  for (let guard = 0; guard < 1000; guard++) {
    const e = game.expect(state);
    trail.push(e);
    if (e.kind === 'complete') {
      if (queue.length) throw new Error(`round complete with cards left: ${queue.join(' ')}`);
      return { state, placed, trail };
    }
    if (e.kind === 'card') {
      const c = queue.shift();
      if (!c) throw new Error(`round wants a card for ${e.position}, none left`);
      state = game.place(state, c);
      placed.push({ position: e.position, card: c, faceDown: e.faceDown, ...(e.revealAt ? { revealAt: e.revealAt } : {}) });
    } else if (e.kind === 'decision') {
      const d = decisions.shift();
      if (!d) throw new Error(`round wants a decision of ${e.seat} (${e.actions.join('/')}), none left`);
      const r = game.decide!(state, e.seat, d);
      if (isRefusal(r)) throw new Error(r.error);
      state = r;
    } else {
      const r = game.closeDecisions!(state);
      if (isRefusal(r)) throw new Error(r.error);
      state = r;
    }
  }
  throw new Error('round did not terminate');
}

/** deals cards until the round waits for something other than a card (or the cards run out) */
export function dealUntilWait<S>(game: CardGame<S>, state: S, cards: string | string[]): S {
  const queue = typeof cards === 'string' ? hand(cards) : ([...cards] as Card[]);
  let s = state;
  while (queue.length && game.expect(s).kind === 'card') s = game.place(s, queue.shift()!);
  if (queue.length) throw new Error(`cards left over: ${queue.join(' ')}`);
  return s;
}

/** a game module's refusal (its tagged `GameRefusal`), never a round state */
export function isError(r: unknown): r is GameRefusal {
  return isRefusal(r);
}

/** rounds the statistical tests log for the report: simulated vs exact */
export function zOf(count: number, n: number, p: number): number {
  const sd = Math.sqrt(n * p * (1 - p));
  return sd === 0 ? (count === n * p ? 0 : Infinity) : (count - n * p) / sd;
}

/** asserts a simulated count is within `bound` standard deviations of n·p; logs the comparison */
export function expectRate(label: string, count: number, n: number, p: number, bound = 4.5): void {
  const z = zOf(count, n, p);
  console.log(`${label.padEnd(44)} simulated ${(count / n).toFixed(6)}  exact ${p.toFixed(6)}  z ${z.toFixed(2)}`);
  expect(Math.abs(z), `${label}: simulated ${count}/${n} = ${(count / n).toFixed(6)}, exact ${p.toFixed(6)}, z = ${z.toFixed(2)}`).toBeLessThan(bound);
}
