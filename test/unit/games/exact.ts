/**
 * Exact probabilities by enumeration, written from the rule sheets independently of the game
 * modules, for the statistical tests.
 */
import { oneDeck, type Card } from '../../../src/core/vocabulary/card.js';

/** seed 002 / games.md: the banker draws on total b when the player's third card is x (0-9) */
export const SHEET_BANKER_DRAWS: Readonly<Record<number, readonly number[]>> = {
  0: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  1: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  2: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  3: [0, 1, 2, 3, 4, 5, 6, 7, 9],
  4: [2, 3, 4, 5, 6, 7],
  5: [4, 5, 6, 7],
  6: [6, 7],
  7: [],
};

/** point-value classes 0..9 of a shoe: 0 = T/J/Q/K (16 per deck), 1..9 = 4 per deck */
export function valueCounts(decks: number): number[] {
  return [16 * decks, ...Array.from({ length: 9 }, () => 4 * decks)];
}

export interface BaccaratExact {
  banker: number;
  player: number;
  tie: number;
  natural: number;
  cards4: number;
  cards5: number;
  cards6: number;
  /** 7 Up only: at least two sevens incl. the fixed one */
  super7: number;
  /** 7 Up only: P(winning total = 7) */
  winningTotal7: number;
}

/**
 * Exact outcome probabilities of baccarat (or 7 Up, with the player's fixed 7 not taken from the
 * shoe) for a full shoe of `decks` decks, by enumerating every sequence of point values drawn.
 */
export function baccaratExact(decks: number, sevenUp = false): BaccaratExact {
  const c = valueCounts(decks);
  let rem = 52 * decks;
  const r: BaccaratExact = { banker: 0, player: 0, tie: 0, natural: 0, cards4: 0, cards5: 0, cards6: 0, super7: 0, winningTotal7: 0 };
  const draw = (f: (v: number, w: number) => void, w: number) => {
    for (let v = 0; v < 10; v++) {
      if (c[v] === 0) continue;
      const wv = (w * c[v]) / rem;
      c[v]--;
      rem--;
      f(v, wv);
      c[v]++;
      rem++;
    }
  };
  const finish = (p: number[], b: number[], w: number) => {
    const pt = p.reduce((a, x) => a + x, 0) % 10;
    const bt = b.reduce((a, x) => a + x, 0) % 10;
    if (pt > bt) r.player += w;
    else if (bt > pt) r.banker += w;
    else r.tie += w;
    const n = p.length + b.length;
    if (n === 4) r.cards4 += w;
    else if (n === 5) r.cards5 += w;
    else r.cards6 += w;
    const sevens = [...p, ...b].filter((x) => x === 7).length;
    if (sevens >= 2) r.super7 += w;
    if (Math.max(pt, bt) === 7) r.winningTotal7 += w;
  };
  const third = (p: number[], b: number[], w: number) => {
    const p2 = (p[0] + p[1]) % 10;
    const b2 = (b[0] + b[1]) % 10;
    if (p2 >= 8 || b2 >= 8) {
      r.natural += w;
      return finish(p, b, w);
    }
    if (p2 <= 5) {
      draw((x, w3) => {
        if (SHEET_BANKER_DRAWS[b2].includes(x)) draw((y, w4) => finish([...p, x], [...b, y], w4), w3);
        else finish([...p, x], b, w3);
      }, w);
    } else if (b2 <= 5) draw((y, w3) => finish(p, [...b, y], w3), w);
    else finish(p, b, w);
  };
  if (sevenUp) {
    // B1, P2, B2 from the shoe; the player's first card is the fixed 7
    draw((b1, w1) => draw((p2, w2) => draw((b2, w3) => third([7, p2], [b1, b2], w3), w2), w1), 1);
  } else {
    draw((p1, w1) => draw((b1, w2) => draw((p2, w3) => draw((b2, w4) => third([p1, p2], [b1, b2], w4), w3), w2), w1), 1);
  }
  return r;
}

/** every k-subset of one deck, as card arrays (k small) */
export function* deckSubsets(k: number): Generator<Card[]> {
  const deck = oneDeck();
  const idx = Array.from({ length: k }, (_, i) => i);
  for (;;) {
    yield idx.map((i) => deck[i]);
    let i = k - 1;
    while (i >= 0 && idx[i] === 52 - k + i) i--;
    if (i < 0) return;
    idx[i]++;
    for (let j = i + 1; j < k; j++) idx[j] = idx[j - 1] + 1;
  }
}
