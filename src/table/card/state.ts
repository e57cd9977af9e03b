/**
 * The card table's state: a fresh one at start-up, the counters that persist, and the private copy
 * each step works on. Plain functions over plain data (no I/O).
 */
import { initialDevices } from '../table-base.js';
import type { CardTableSettings, CardTableState, ShoeStateData, TableCounters } from '../types.js';

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

/**
 * `counts` with `card` set to `n`, as a new object (the old one may be shared with the previous
 * state). Same key order as `{ ...counts, [card]: n }` — a card counted again keeps its place, a
 * new one goes last — so snapshots stay byte for byte; the clone-then-assign is V8's fast path.
 */
export function withCount(counts: Record<string, number>, card: string, n: number): Record<string, number> {
  const next = { ...counts };
  next[card] = n;
  return next;
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
    counts: {},
    roundsStarted: 0,
    roundsCompleted: 0,
    carriedBurns: [],
  };
}
