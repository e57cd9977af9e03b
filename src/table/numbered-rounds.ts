/**
 * What the tables without a shoe share (sic bo, keno): rounds numbered per table with a
 * persisted counter, ids `<table>-r000042`, and a phase that is `betting` or `dealing`.
 */
import { TableStepBase, type RequestAnswer } from './table-base.js';
import type { BaseTableSettings, BaseTableState, TableCounters } from './types.js';

export interface NumberedRoundState extends BaseTableState {
  /** rounds numbered so far (persisted: ids never repeat across restarts) */
  roundNo: number;
  round: { id: string; bettingOpen: boolean } | null;
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
    return { roundId: this.state.round?.id };
  }

  /** the most recent completed rounds the pit may still void or correct (`correctionWindowRounds`) */
  protected remember(id: string, resultSeq: number, values: number[]): void {
    const keep = this.settings.correctionWindowRounds ?? 1;
    const list = [...(this.state.completed ?? []), { id, resultSeq, status: 'complete' as const, values: [...values] }];
    this.state.completed = keep > 0 ? list.slice(-keep) : [];
  }

  /**
   * games.md "Corrections and voids after the result": `void-round` (kind `void`) or `correction`
   * with the corrected `dice` / `balls` for one of the last completed rounds, with `by`: a
   * superseding result (status corrected | void, supersedesSeq, correction {kind, by, reason}).
   */
  protected correctCompleted(
    args: Record<string, unknown>, field: 'dice' | 'balls',
    check: (v: unknown) => string | null, outcome: (v: number[]) => object,
  ): RequestAnswer {
    const found = this.completedRound(this.state.completed, args, this.settings.correctionWindowRounds ?? 1);
    if ('error' in found) return found;
    const { entry, index, list, roundId, kind, by, reason } = found;
    const correction = { kind, by, reason };
    if (kind === 'void') {
      this.alert('round-void', `the pit (${by}) voided completed round ${roundId}: ${reason}`, { by });
      const env = this.publish('result', 'result', true, { status: 'void', reason: 'round-void', detail: reason, [field]: null, outcome: null, supersedesSeq: entry.resultSeq, correction }, { roundId });
      this.state.completed = list.map((x, i) => (i === index ? { ...x, status: 'void', resultSeq: env.seq } : x));
      return { data: { roundId, supersedesSeq: entry.resultSeq } };
    }
    if (kind !== field) return { code: 'invalid-args', error: `a completed round of this table is corrected with kind "${field}" (or voided), not "${kind}"` };
    const problem = check(args[field]);
    if (problem) return { code: 'invalid-args', error: problem };
    const values = [...(args[field] as number[])];
    const env = this.publish('result', 'result', true, { status: 'corrected', [field]: values, outcome: outcome(values), supersedesSeq: entry.resultSeq, correction }, { roundId });
    this.state.completed = list.map((x, i) => (i === index ? { ...x, status: 'corrected', resultSeq: env.seq, values } : x));
    this.log('info', `${roundId} corrected by ${by}: ${field} ${values.join(' ')}`);
    return { data: { roundId, supersedesSeq: entry.resultSeq } };
  }

  protected phase(): string {
    const r = this.state.round;
    if (!r) return 'idle';
    return r.bettingOpen ? 'betting' : 'dealing';
  }
}
