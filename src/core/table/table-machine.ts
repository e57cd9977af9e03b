/**
 * The table machine: ONE pure function `step(settings, state, input) -> { state, outputs }` per
 * table. No I/O, no clock, no randomness: every time comes from the input's `at`, every id from
 * counters in the state. Replaying the same inputs from the same state yields the same outputs,
 * byte for byte. Each kind of table (cards, dice, keno) has its own step class; this file picks it.
 */
import { CardTableStep } from './card/card-table.js';
import { cardTableCounters, copyCardTableState, countsFromSnapshot, initialCardTableState } from './card/state.js';
import { copyDiceTableState, DiceTableStep, initialDiceTableState } from './dice-table.js';
import { copyKenoTableState, initialKenoTableState, KenoTableStep } from './keno-table.js';
import { numberedRoundCounters } from './numbered-rounds.js';
import type { TableCounters, TableInput, TableOutput, TableSettings, TableState } from './types.js';

export { roundSummary } from './card/round.js';
export { shoeIdOf } from './card/state.js';

export interface StepResult {
  state: TableState;
  outputs: TableOutput[];
}

/** The state of a table that has just started, continuing the persisted counters. */
export function initialTableState(settings: TableSettings, persisted: TableCounters = {}): TableState {
  switch (settings.kind) {
    case 'card': return initialCardTableState(settings, persisted);
    case 'sic-bo': return initialDiceTableState(settings, persisted);
    case 'keno': return initialKenoTableState(settings, persisted);
  }
}

/**
 * A state read back from a snapshot (parsed JSON) in this build's form: a card table's shoe
 * counts, an object keyed by card in the snapshots of earlier builds, become the array of slots.
 */
export function stateFromSnapshot(state: TableState): TableState {
  if (state.kind !== 'card' || !state.shoe) return state;
  const counts = countsFromSnapshot(state.shoe.counts as unknown);
  return counts === state.shoe.counts ? state : { ...state, shoe: { ...state.shoe, counts } };
}

/** The numbers to persist after a step (they must never go back). */
export function countersOf(state: TableState): TableCounters {
  switch (state.kind) {
    case 'card': return cardTableCounters(state);
    case 'sic-bo': return numberedRoundCounters(state);
    case 'keno': return numberedRoundCounters(state);
  }
}

function mismatch(settings: TableSettings, state: TableState): never {
  throw new Error(`table state of kind ${state.kind} given to a ${settings.kind} table`);
}

/** Runs one input through the table. Never throws on bad input: it reports it. The input state is not mutated. */
export function step(settings: TableSettings, state: TableState, input: TableInput): StepResult {
  switch (settings.kind) {
    case 'card': {
      if (state.kind !== 'card') return mismatch(settings, state);
      const t = new CardTableStep(settings, copyCardTableState(state), input.at);
      t.run(input);
      return { state: t.state, outputs: t.out };
    }
    case 'sic-bo': {
      if (state.kind !== 'sic-bo') return mismatch(settings, state);
      const t = new DiceTableStep(settings, copyDiceTableState(state), input.at);
      t.run(input);
      return { state: t.state, outputs: t.out };
    }
    case 'keno': {
      if (state.kind !== 'keno') return mismatch(settings, state);
      const t = new KenoTableStep(settings, copyKenoTableState(state), input.at);
      t.run(input);
      return { state: t.state, outputs: t.out };
    }
  }
}
