/**
 * The table machine: ONE pure function `step(settings, state, input) -> { state, outputs }` per
 * table. No I/O, no clock, no randomness: every time comes from the input's `at`, every id from
 * counters in the state. Replaying the same inputs from the same state yields the same outputs,
 * byte for byte. Each kind of table (cards, dice, keno) has its own step class; this file picks it.
 */
import { cardTableCounters, copyCardTableState, CardTableStep, initialCardTableState } from './card-table.js';
import type { TableCounters, TableInput, TableOutput, TableSettings, TableState } from './types.js';

export { roundSummary, shoeIdOf } from './card-table.js';

export interface StepResult {
  state: TableState;
  outputs: TableOutput[];
}

/** The state of a table that has just started, continuing the persisted counters. */
export function initialTableState(settings: TableSettings, persisted: TableCounters = {}): TableState {
  switch (settings.kind) {
    case 'card': return initialCardTableState(settings, persisted);
  }
}

/** The numbers to persist after a step (they must never go back). */
export function countersOf(state: TableState): TableCounters {
  switch (state.kind) {
    case 'card': return cardTableCounters(state);
  }
}

/** Runs one input through the table. Never throws on bad input: it reports it. The input state is not mutated. */
export function step(settings: TableSettings, state: TableState, input: TableInput): StepResult {
  switch (settings.kind) {
    case 'card': {
      const t = new CardTableStep(settings, copyCardTableState(state), input.at);
      t.run(input);
      return { state: t.s, outputs: t.out };
    }
  }
}
