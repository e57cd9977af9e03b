/**
 * The numbered round's lifecycle (sic bo, keno): rounds numbered per table with a persisted
 * counter, ids `<table>-r000042`, a phase that is `betting` or `dealing`; open (with
 * `open-betting` or the first frame), complete, void, finish; the completed rounds kept for
 * corrections.
 */
import type { MessageBody } from '../messages.js';
import type { AlertKind } from '../../vocabulary/alerts.js';
import type { TableCounters } from '../base-state.js';
import type { NumberedContext, NumberedSettings, NumberedState, RoundOf } from './numbered-game.js';

const pad6 = (n: number) => String(n).padStart(6, '0');

/** `<table>-r000042`: unique per table as long as the counters persist */
export function numberedRoundId(tableId: string, no: number): string {
  return `${tableId}-r${pad6(no)}`;
}

export function numberedRoundCounters(s: NumberedState): TableCounters {
  return { seq: s.seq, roundNo: s.roundNo };
}

export function phase(s: NumberedState): 'idle' | 'betting' | 'dealing' {
  const r = s.round;
  if (!r) return 'idle';
  return r.bettingOpen ? 'betting' : 'dealing';
}

export function openRound<S extends NumberedState, Se extends NumberedSettings>(ctx: NumberedContext<S, Se>, s: S, engineRoundId?: string): RoundOf<S> {
  s.roundNo += 1;
  const round = ctx.kind.newRound(ctx, engineRoundId ?? numberedRoundId(ctx.settings.tableId, s.roundNo), s.roundNo);
  s.round = round;
  return round;
}

/** the `round` snapshot; `phaseOverride` for the round that has just finished */
export function publishRound<S extends NumberedState, Se extends NumberedSettings>(
  ctx: NumberedContext<S, Se>,
  s: S,
  phaseOverride?: 'complete' | 'void',
  extra: Record<string, unknown> = {},
): void {
  const r = s.round;
  const body = { phase: phaseOverride ?? phase(s), roundNo: r?.no ?? null, ...ctx.kind.roundFields(ctx, s, !!phaseOverride), ...extra } as MessageBody<'round'>;
  ctx.publish('round', body, { roundId: r ? r.id : (s.lastRound?.id ?? null) });
}

/** the round's result (status `complete`), its final snapshot, the round finished */
export function completeRound<S extends NumberedState, Se extends NumberedSettings>(
  ctx: NumberedContext<S, Se>,
  s: S,
  result: MessageBody<'result'>,
  values: number[],
  roundExtra: Record<string, unknown>,
  summary: string,
): void {
  const round = s.round!;
  const env = ctx.publish('result', result);
  remember(ctx, s, round.id, env.seq, values);
  publishRound(ctx, s, 'complete', roundExtra);
  finishRound(s, 'complete');
  ctx.log('info', `${round.id}: ${summary}`);
}

export function voidRound<S extends NumberedState, Se extends NumberedSettings>(ctx: NumberedContext<S, Se>, s: S, reason: AlertKind, detail: string): void {
  const round = s.round as RoundOf<S> | null;
  if (!round) return;
  ctx.publish('result', ctx.kind.voidResult(round, reason, detail));
  publishRound(ctx, s, 'void', { reason });
  finishRound(s, 'void');
  ctx.log('warn', `${round.id} void: ${reason} (${detail})`);
}

function finishRound(s: NumberedState, status: 'complete' | 'void'): void {
  const round = s.round!;
  s.lastRound = { id: round.id, status };
  s.round = null;
}

/** the most recent completed rounds the pit may still void or correct (`correctionWindowRounds`) */
function remember(ctx: NumberedContext<NumberedState, NumberedSettings>, s: NumberedState, id: string, resultSeq: number, values: number[]): void {
  const keep = ctx.settings.correctionWindowRounds ?? 1;
  const list = [...(s.completed ?? []), { id, resultSeq, status: 'complete' as const, values: [...values] }];
  s.completed = keep > 0 ? list.slice(-keep) : [];
}
