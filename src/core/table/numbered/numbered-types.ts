/**
 * Settings and state of the tables whose rounds are numbered per table (no shoe): sic bo and keno
 * (the numbered-round machine, this folder). Plain JSON data.
 */
import type { BaseTableSettings, BaseTableState } from '../base-state.js';

/** Settings of a sic bo table (numbered/sic-bo.ts). */
export interface DiceTableSettings extends BaseTableSettings {
  kind: 'sic-bo';
  /** a ROLL with fewer bounces is void (default 1) */
  minBounces: number;
}

/** Settings of a keno table (numbered/keno.ts). */
export interface KenoTableSettings extends BaseTableSettings {
  kind: 'keno';
}

/** One round of a sic bo table. */
export interface DiceRoundData {
  id: string;
  no: number;
  bettingOpen: boolean;
  shakes: number;
  /** void attempts before the valid roll: no-bounce rolls, cocked dice, no-reads */
  attempts: Array<{ kind: 'no-bounce' | 'cocked' | 'noread'; dice?: [number, number, number]; bounces?: number }>;
}

/** The state of a sic bo table. */
export interface DiceTableState extends BaseTableState {
  kind: 'sic-bo';
  /** rounds numbered so far (persisted: ids never repeat across restarts) */
  roundNo: number;
  round: DiceRoundData | null;
  lastRound: { id: string; status: 'complete' | 'void' } | null;
  /** the most recent completed rounds, newest last, for corrections (games.md Corrections) */
  completed?: NumberedCompletedRound[];
}

/** One round (draw) of a keno table. */
export interface KenoRoundData {
  id: string;
  no: number;
  bettingOpen: boolean;
  /** `START` seen */
  started: boolean;
  balls: number[];
}

/** The state of a keno table. */
export interface KenoTableState extends BaseTableState {
  kind: 'keno';
  roundNo: number;
  round: KenoRoundData | null;
  lastRound: { id: string; status: 'complete' | 'void' } | null;
  /** the machine is mid-draw (START seen, no END yet) but its balls belong to no round: ignore them quietly */
  strayDraw: boolean;
  /** the most recent completed rounds, newest last, for corrections (games.md Corrections) */
  completed?: NumberedCompletedRound[];
}

/** a completed round of a sic bo or keno table: its dice or balls and the `seq` of its standing result */
export interface NumberedCompletedRound {
  id: string;
  resultSeq: number;
  status: 'complete' | 'corrected' | 'void';
  values: number[];
}
