/**
 * What the tables without a shoe share (sic bo, keno): rounds numbered per table with a
 * persisted counter, ids `<table>-r000042`, and a phase that is `betting` or `dealing`.
 */
import { TableStepBase } from './table-base.js';
import type { BaseTableSettings, BaseTableState, TableCounters } from './types.js';

export interface NumberedRoundState extends BaseTableState {
  /** rounds numbered so far (persisted: ids never repeat across restarts) */
  roundNo: number;
  round: { id: string; bettingOpen: boolean } | null;
}

const pad6 = (n: number) => String(n).padStart(6, '0');

/** `<table>-r000042`: unique per table as long as the counters persist */
export function numberedRoundId(tableId: string, no: number): string {
  return `${tableId}-r${pad6(no)}`;
}

export function numberedRoundCounters(s: NumberedRoundState): TableCounters {
  return { seq: s.seq, roundNo: s.roundNo };
}

export abstract class NumberedRoundStep<St extends NumberedRoundState, Se extends BaseTableSettings> extends TableStepBase<St, Se> {
  protected currentIds(): { shoeId?: string; roundId?: string } {
    return { roundId: this.s.round?.id };
  }

  protected phase(): string {
    const r = this.s.round;
    if (!r) return 'idle';
    return r.bettingOpen ? 'betting' : 'dealing';
  }
}
