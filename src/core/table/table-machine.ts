/**
 * The table machine: ONE pure function `step(settings, state, input) -> { state, outputs }` per
 * table. No I/O, no clock, no randomness: every time comes from the input's `at`, every id from
 * counters in the state. Replaying the same inputs from the same state yields the same outputs,
 * byte for byte. A table is of one kind: cards (`card/card-table.ts`) or numbered rounds (sic bo,
 * keno: `numbered/numbered-table.ts`); `table-router.ts` runs an input through the table's kind.
 */
import { CARD_TABLE } from './card/card-table.js';
import { cardTableCounters, copyCardTableState, countsFromSnapshot, initialCardTableState } from './card/state.js';
import { KENO } from './numbered/keno.js';
import { numberedTable } from './numbered/numbered-table.js';
import { numberedRoundCounters } from './numbered/rounds.js';
import { SIC_BO } from './numbered/sic-bo.js';
import { runTable } from './table-router.js';
import type { TableCounters, TableInput, TableOutput, TableSettings, TableState } from './types.js';

export { roundSummary } from './card/round.js';
export { shoeIdOf } from './card/state.js';

export interface StepResult {
  state: TableState;
  outputs: TableOutput[];
}

const SIC_BO_TABLE = numberedTable(SIC_BO);
const KENO_TABLE = numberedTable(KENO);

/** The state of a table that has just started, continuing the persisted counters. */
export function initialTableState(settings: TableSettings, persisted: TableCounters = {}): TableState {
  switch (settings.kind) {
    case 'card':
      return initialCardTableState(settings, persisted);
    case 'sic-bo':
      return SIC_BO.initial(settings, persisted);
    case 'keno':
      return KENO.initial(settings, persisted);
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
    case 'card':
      return cardTableCounters(state);
    case 'sic-bo':
      return numberedRoundCounters(state);
    case 'keno':
      return numberedRoundCounters(state);
  }
}

/** the table started again (as after a restart) with every counter at least `floor`: a restore's jump over what the old PC may have used */
function restartAbove(settings: TableSettings, state: TableState, floor: TableCounters): TableState {
  const c: TableCounters = { ...countersOf(state) };
  for (const k in floor) c[k] = Math.max(c[k] ?? 0, floor[k]);
  return initialTableState(settings, c);
}

function mismatch(settings: TableSettings, state: TableState): never {
  throw new Error(`table state of kind ${state.kind} given to a ${settings.kind} table`);
}

/** Runs one input through the table. Never throws on bad input: it reports it. The input state is not mutated. */
export function step(settings: TableSettings, state: TableState, input: TableInput): StepResult {
  if (input.type === 'gateway-alert' && input.restartAbove) state = restartAbove(settings, state, input.restartAbove);
  switch (settings.kind) {
    case 'card':
      if (state.kind !== 'card') return mismatch(settings, state);
      return runTable(CARD_TABLE, settings, copyCardTableState(state), input);
    case 'sic-bo':
      if (state.kind !== 'sic-bo') return mismatch(settings, state);
      return runTable(SIC_BO_TABLE, settings, SIC_BO.copy(state), input);
    case 'keno':
      if (state.kind !== 'keno') return mismatch(settings, state);
      return runTable(KENO_TABLE, settings, KENO.copy(state), input);
  }
}
