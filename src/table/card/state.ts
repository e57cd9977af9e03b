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

/** a private copy of the parts of the state a step may change */
export function copyCardTableState(prev: CardTableState): CardTableState {
  return {
    ...prev,
    // `tags`, `holds` and `completed` are never changed in place (a step assigns new arrays): shared
    shoe: { ...prev.shoe, burnCards: [...prev.shoe.burnCards], carriedBurns: [...prev.shoe.carriedBurns] },
    round: prev.round ? { ...prev.round, burns: [...prev.round.burns], hidden: [...prev.round.hidden], seen: [...prev.round.seen] } : null,
    pending: prev.pending ? { ...prev.pending } : null,
    devices: { ...prev.devices },
  };
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
