/**
 * What the tables without a shoe share (sic bo, keno): rounds numbered per table with a
 * persisted counter, ids `<table>-r000042`, a phase that is `betting` or `dealing`, and the round
 * lifecycle: open (with `open-betting` or the first frame), close betting, complete, void, finish,
 * corrections of completed rounds, and the requests that drive them.
 */
import type { MessageBody } from './messages.js';
import type { RequestArgs } from '../vocabulary/requests.js';
import type { AlertKind } from '../vocabulary/alerts.js';
import { answerRequest, TableStepBase, type HandledRequest, type RequestAnswer, type RequestHandlers } from './table-base.js';
import type { BaseTableSettings, BaseTableState, TableCounters } from './types.js';

export interface NumberedRoundState extends BaseTableState {
  /** rounds numbered so far (persisted: ids never repeat across restarts) */
  roundNo: number;
  round: { id: string; no: number; bettingOpen: boolean } | null;
  lastRound: { id: string; status: 'complete' | 'void' } | null;
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

type NumberedRoundStepOfAnyKind = NumberedRoundStep<NumberedRoundState, BaseTableSettings>;

export abstract class NumberedRoundStep<St extends NumberedRoundState, Se extends BaseTableSettings> extends TableStepBase<St, Se> {
  private static readonly handlers: RequestHandlers<NumberedRoundStepOfAnyKind> = {
    'open-betting': (table, args) => table.openBetting(args),
    'close-betting': (table) => table.closeBetting(),
    'void-round': (table, args) => table.voidRoundAsked(args),
    correction: (table, args) => table.correctionAsked(args),
  };

  /** the table kind as answers name it: `sic bo`, `keno` */
  protected abstract readonly tableKind: string;
  /** what a round starts with when there is no engine: `the dice`, `the draw` */
  protected abstract readonly roundStartsWith: string;
  /** the result field a correction replaces, its check and the outcome of the corrected values */
  protected abstract readonly correctionField: 'dice' | 'balls';
  protected abstract checkCorrection(values: unknown): string | null;
  protected abstract outcomeOf(values: number[]): Record<string, unknown>;
  /** what a voided completed round's result carries in that field (games.md Corrections): keno its balls as drawn, sic bo `dice: null` */
  protected abstract voidedValues(values: number[]): { balls: number[] } | { dice: null };
  /** a fresh round of this kind (id and number given) */
  protected abstract newRoundData(id: string, no: number): NonNullable<St['round']>;
  /** the `round` snapshot; `phaseOverride` for the round that has just finished */
  protected abstract publishRound(phaseOverride?: 'complete' | 'void', extra?: Partial<MessageBody<'round'>>): void;
  /** a void round's `result` body */
  protected abstract voidResultBody(round: NonNullable<St['round']>, reason: AlertKind, detail: string): MessageBody<'result'>;

  protected currentIds(): { shoeId?: string; roundId?: string } {
    return { roundId: this.state.round?.id };
  }

  protected handleRequest(req: HandledRequest): RequestAnswer {
    return answerRequest(NumberedRoundStep.handlers, this, req, this.tableKind);
  }

  protected openRound(engineRoundId?: string): NonNullable<St['round']> {
    this.state.roundNo += 1;
    const round = this.newRoundData(engineRoundId ?? numberedRoundId(this.settings.tableId, this.state.roundNo), this.state.roundNo);
    this.state.round = round;
    return round;
  }

  /** the round's result (status `complete`), its final snapshot, the round finished */
  protected completeRound(result: MessageBody<'result'>, values: number[], roundExtra: Partial<MessageBody<'round'>>, summary: string): void {
    const round = this.state.round!;
    const env = this.publish('result', result);
    this.remember(round.id, env.seq, values);
    this.publishRound('complete', roundExtra);
    this.finishRound('complete');
    this.log('info', `${round.id}: ${summary}`);
  }

  protected voidRound(reason: AlertKind, detail: string): void {
    const round = this.state.round as NonNullable<St['round']> | null;
    if (!round) return;
    this.publish('result', this.voidResultBody(round, reason, detail));
    this.publishRound('void', { reason });
    this.finishRound('void');
    this.log('warn', `${round.id} void: ${reason} (${detail})`);
  }

  protected finishRound(status: 'complete' | 'void'): void {
    const round = this.state.round!;
    this.state.lastRound = { id: round.id, status };
    this.state.round = null;
  }

  /** the pit's `void-round` of the round in progress */
  protected voidRoundByPit(reason: string): void {
    this.voidRound('round-void', reason);
  }

  protected openBetting(args: RequestArgs<'open-betting'>): RequestAnswer {
    const r = this.state.round;
    if (!this.settings.engine) return { code: 'wrong-phase', error: `this table runs without an engine (betting: none): rounds start with ${this.roundStartsWith}` };
    if (r) return { code: 'wrong-phase', error: `round ${r.id} is still in progress` };
    const round = this.openRound(args.roundId);
    this.publishRound();
    return { data: { roundId: round.id } };
  }

  protected closeBetting(): RequestAnswer {
    const r = this.state.round;
    if (!r || !r.bettingOpen) return { code: 'wrong-phase', error: r ? `round ${r.id} is not in betting` : 'no round is open' };
    r.bettingOpen = false;
    this.publishRound();
    return { data: { roundId: r.id } };
  }

  protected voidRoundAsked(args: RequestArgs<'void-round'>): RequestAnswer {
    if (args.roundId !== undefined && args.roundId !== this.state.round?.id) return this.correctCompleted({ ...args, kind: 'void' });
    return this.pitVoid(args.reason, () => this.voidRoundByPit(args.reason));
  }

  protected correctionAsked(args: RequestArgs<'correction'>): RequestAnswer {
    if (args.roundId === undefined) return { code: 'invalid-args', error: `a ${this.tableKind} correction names the completed round (\`roundId\`)` };
    return this.correctCompleted(args);
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
  protected correctCompleted(args: Record<string, unknown>): RequestAnswer {
    const field = this.correctionField;
    const found = this.completedRound(this.state.completed, args, this.settings.correctionWindowRounds ?? 1);
    if ('error' in found) return found;
    const { entry, index, list, roundId, kind, by, reason } = found;
    const correction = { kind, by, reason };
    if (kind === 'void') {
      this.alert('round-void', `the pit (${by}) voided completed round ${roundId}: ${reason}`, { by });
      const body: MessageBody<'result'> = { status: 'void', reason: 'round-void', detail: reason, ...this.voidedValues(entry.values), outcome: null, supersedesSeq: entry.resultSeq, correction };
      const env = this.publish('result', body, { roundId });
      this.state.completed = list.map((x, i) => (i === index ? { ...x, status: 'void', resultSeq: env.seq } : x));
      return { data: { roundId, supersedesSeq: entry.resultSeq } };
    }
    if (kind !== field) return { code: 'invalid-args', error: `a completed round of this table is corrected with kind "${field}" (or voided), not "${kind}"` };
    const problem = this.checkCorrection(args[field]);
    if (problem) return { code: 'invalid-args', error: problem };
    const values = [...(args[field] as number[])];
    const outcome = this.outcomeOf(values);
    const body: MessageBody<'result'> = field === 'dice'
      // checkCorrection passed: three faces
      ? { status: 'corrected', dice: values as [number, number, number], outcome, supersedesSeq: entry.resultSeq, correction }
      : { status: 'corrected', balls: values, outcome, supersedesSeq: entry.resultSeq, correction };
    const env = this.publish('result', body, { roundId });
    this.state.completed = list.map((x, i) => (i === index ? { ...x, status: 'corrected', resultSeq: env.seq, values } : x));
    this.log('info', `${roundId} corrected by ${by}: ${field} ${values.join(' ')}`);
    return { data: { roundId, supersedesSeq: entry.resultSeq } };
  }

  protected phase(): 'idle' | 'betting' | 'dealing' {
    const r = this.state.round;
    if (!r) return 'idle';
    return r.bettingOpen ? 'betting' : 'dealing';
  }
}
