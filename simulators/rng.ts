/**
 * Seeded random numbers for simulators and statistics: the same seed deals the same shoes, so a
 * failing simulation can be reproduced. (Real shoes are shuffled by people and machines; the
 * gateway itself never uses randomness.)
 */
import { randomBytes } from 'node:crypto';
import type { Card } from '../src/core/vocabulary/card.js';
import { oneDeck } from '../src/core/vocabulary/card.js';

export type Rng = () => number;

function hashSeed(seed: string | number): number {
  const text = String(seed);
  let h = 2166136261 >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619) >>> 0;
  }
  return h;
}

/** sfc32 seeded from a string or number: fast, 128-bit state, good statistical quality */
export function seededRng(seed: string | number): Rng {
  let a = hashSeed(seed),
    b = hashSeed(`${seed}:b`),
    c = hashSeed(`${seed}:c`),
    d = 1;
  const next = () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    const t = (a + b + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) >>> 0;
    return t / 4294967296;
  };
  for (let i = 0; i < 15; i++) next();
  return next;
}

export function randomSeed(): string {
  return randomBytes(8).toString('hex');
}

export function randomInt(rng: Rng, n: number): number {
  return Math.floor(rng() * n);
}

/** Fisher-Yates, in place */
export function shuffleInPlace<T>(items: T[], rng: Rng): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    const tmp = items[i];
    items[i] = items[j];
    items[j] = tmp;
  }
  return items;
}

/** `decks` full decks, shuffled */
export function shuffledShoe(decks: number, rng: Rng): Card[] {
  const cards: Card[] = [];
  for (let i = 0; i < decks; i++) cards.push(...oneDeck());
  return shuffleInPlace(cards, rng);
}
