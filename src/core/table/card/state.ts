/**
 * The card table's state: a fresh one at start-up, the counters that persist, and the private copy
 * each step works on. Plain functions over plain data (no I/O).
 */
import { type Card, isCard, RANKS, rankNumber, SUITS, suitIndex } from '../../vocabulary/card.js';
import { initialDevices } from '../devices.js';
import type { TableCounters } from '../base-state.js';
import type { CardTableSettings, CardTableState, ShoeStateData } from './card-types.js';

export const pad4 = (n: number) => String(n).padStart(4, '0');

export function shoeIdOf(tableId: string, no: number): string {
  return `${tableId}-s${pad4(no)}`;
}

/** A card table that has just started: an unknown shoe in progress, no round. */
export function initialCardTableState(settings: CardTableSettings, persisted: TableCounters = {}): CardTableState {
  const shoeNo = (persisted.shoeNo ?? 0) + 1;
  return {
    kind: 'card',
    seq: persisted.seq ?? 0,
    shoe: newShoe(settings, shoeNo, false),
    round: null,
    lastRound: null,
    pending: null,
    nextPendingId: 1,
    devices: initialDevices(settings),
  };
}

export function cardTableCounters(s: CardTableState): TableCounters {
  return { seq: s.seq, shoeNo: s.shoe.no };
}

/**
 * A private copy of the parts of the state a step may change. Each object is cloned with a bare
 * spread and its changed members assigned after: V8 clones `{ ...x }` on its fast path (the
 * clone keeps `x`'s hidden class), where `{ ...x, k: v }` builds the object property by property.
 * `tags`, `holds`, `completed` and `shoe.counts` are never changed in place (a step assigns new
 * ones): shared with `prev`.
 */
export function copyCardTableState(prev: CardTableState): CardTableState {
  const s = { ...prev };
  const shoe = { ...prev.shoe };
  shoe.burnCards = prev.shoe.burnCards.slice();
  shoe.carriedBurns = prev.shoe.carriedBurns.slice();
  s.shoe = shoe;
  if (prev.round) {
    const round = { ...prev.round };
    round.burns = prev.round.burns.slice();
    round.hidden = prev.round.hidden.slice();
    round.seen = prev.round.seen.slice();
    s.round = round;
  }
  if (prev.pending) s.pending = { ...prev.pending };
  s.devices = { ...prev.devices };
  return s;
}

/** the number of slots in a shoe's `counts`: one per card of a deck */
export const CARD_SLOTS = RANKS.length * SUITS.length;

/** `card`'s slot in a shoe's `counts`: rank-major, suits in SUITS order (AS, AH, AD, AC, 2S, ...) */
export function cardSlot(card: Card): number {
  const r = card.length === 2 ? rankNumber(card) - 1 : -1;
  const x = r >= 0 ? suitIndex(card) : -1;
  if (x < 0) throw new Error(`not a card code: ${JSON.stringify(card)}`);
  return r * SUITS.length + x;
}

/** a shoe's counts with nothing seen */
export function emptyCounts(): number[] {
  const c: number[] = [];
  for (let i = 0; i < CARD_SLOTS; i++) c.push(0);
  return c;
}

/** how many times `card` was seen in the shoe */
export function countOf(counts: readonly number[], card: Card): number {
  return counts[cardSlot(card)];
}

/**
 * `counts` with `card` set to `n`, as a new array (the old one may be shared with the previous
 * state). An array of 52 small integers, copied with `slice()`: ~0.1 µs, where an object keyed
 * by card (the form of earlier builds' snapshots) was in V8's dictionary mode and its copy took
 * 1.7 µs, 2.4% of the event loop at 175 tables (docs/PERFORMANCE.md).
 */
export function withCount(counts: readonly number[], card: Card, n: number): number[] {
  const next = counts.slice();
  next[cardSlot(card)] = n;
  return next;
}

/**
 * A shoe's counts as a snapshot holds them: the array, or the object keyed by card that
 * snapshots of earlier builds hold (converted; anything else is treated as nothing seen).
 */
export function countsFromSnapshot(counts: unknown): number[] {
  if (Array.isArray(counts) && counts.length === CARD_SLOTS && counts.every((n) => Number.isInteger(n) && n >= 0)) return counts as number[];
  const out = emptyCounts();
  if (counts && typeof counts === 'object' && !Array.isArray(counts)) {
    for (const [card, n] of Object.entries(counts as Record<string, unknown>)) {
      if (isCard(card) && Number.isInteger(n) && (n as number) > 0) out[cardSlot(card)] = n as number;
    }
  }
  return out;
}

export function newShoe(settings: CardTableSettings, no: number, loaded: boolean): ShoeStateData {
  const single = settings.game.defaults.singleDeck;
  return {
    no,
    id: shoeIdOf(settings.tableId, no),
    state: loaded && !single ? 'burning' : 'dealing',
    loaded,
    revealCard: null,
    burnTarget: 0,
    burnCards: [],
    cardsDealt: 0,
    cutCardSeen: false,
    counts: emptyCounts(),
    roundsStarted: 0,
    roundsCompleted: 0,
    carriedBurns: [],
  };
}
