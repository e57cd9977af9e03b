/**
 * The engine's and the pit's requests to a sic bo or keno table (mqtt-api.md): betting windows,
 * the pit's void of the round in progress, and (games.md "Corrections and voids after the result")
 * `void-round` (kind `void`) or `correction` with the corrected `dice` / `balls` of one of the last
 * completed rounds, with `by`: a superseding result (status corrected | void, supersedesSeq,
 * correction {kind, by, reason}). A refusal changes nothing.
 */
import type { MessageBody } from '../messages.js';
import type { RequestArgs } from '../../vocabulary/requests.js';
import { completedRound, pitVoid, type RequestAnswer, type RequestHandlers } from '../requests.js';
import type { NumberedContext, NumberedSettings, NumberedState } from './numbered-game.js';
import { openRound, publishRound, voidRound } from './rounds.js';

type Ctx = NumberedContext<NumberedState, NumberedSettings>;

function openBetting(ctx: Ctx, s: NumberedState, args: RequestArgs<'open-betting'>): RequestAnswer {
  const r = s.round;
  if (!ctx.settings.engine)
    return { code: 'wrong-phase', error: `this table runs without an engine (betting: none): rounds start with ${ctx.kind.roundStartsWith}` };
  if (r) return { code: 'wrong-phase', error: `round ${r.id} is still in progress` };
  const round = openRound(ctx, s, args.roundId);
  publishRound(ctx, s);
  return { data: { roundId: round.id } };
}

function closeBetting(ctx: Ctx, s: NumberedState): RequestAnswer {
  const r = s.round;
  if (!r?.bettingOpen) return { code: 'wrong-phase', error: r ? `round ${r.id} is not in betting` : 'no round is open' };
  r.bettingOpen = false;
  publishRound(ctx, s);
  return { data: { roundId: r.id } };
}

function voidRoundAsked(ctx: Ctx, s: NumberedState, args: RequestArgs<'void-round'>): RequestAnswer {
  if (args.roundId !== undefined && args.roundId !== s.round?.id) return correctCompleted(ctx, s, { ...args, kind: 'void' });
  return pitVoid(ctx, s.round?.id, args.reason, () =>
    ctx.kind.pitVoid ? ctx.kind.pitVoid(ctx, s, args.reason) : voidRound(ctx, s, 'round-void', args.reason),
  );
}

function correctionAsked(ctx: Ctx, s: NumberedState, args: RequestArgs<'correction'>): RequestAnswer {
  if (args.roundId === undefined) return { code: 'invalid-args', error: `a ${ctx.kind.name} correction names the completed round (\`roundId\`)` };
  return correctCompleted(ctx, s, args);
}

function correctCompleted(ctx: Ctx, s: NumberedState, args: Record<string, unknown>): RequestAnswer {
  const field = ctx.kind.correctionField;
  const found = completedRound(s.completed, args, ctx.settings.correctionWindowRounds ?? 1);
  if ('error' in found) return found;
  const { entry, index, list, roundId, kind, by, reason } = found;
  const correction = { kind, by, reason };
  if (kind === 'void') {
    ctx.alert('round-void', `the pit (${by}) voided completed round ${roundId}: ${reason}`, { by });
    const body: MessageBody<'result'> = {
      status: 'void',
      reason: 'round-void',
      detail: reason,
      ...ctx.kind.voidedValues(entry.values),
      outcome: null,
      supersedesSeq: entry.resultSeq,
      correction,
    };
    const env = ctx.publish('result', body, { roundId });
    s.completed = list.map((x, i) => (i === index ? { ...x, status: 'void', resultSeq: env.seq } : x));
    return { data: { roundId, supersedesSeq: entry.resultSeq } };
  }
  if (kind !== field) return { code: 'invalid-args', error: `a completed round of this table is corrected with kind "${field}" (or voided), not "${kind}"` };
  const problem = ctx.kind.checkCorrection(args[field]);
  if (problem) return { code: 'invalid-args', error: problem };
  const values = [...(args[field] as number[])];
  const outcome = ctx.kind.outcomeOf(values);
  const body: MessageBody<'result'> =
    field === 'dice'
      ? // checkCorrection passed: three faces
        { status: 'corrected', dice: values as [number, number, number], outcome, supersedesSeq: entry.resultSeq, correction }
      : { status: 'corrected', balls: values, outcome, supersedesSeq: entry.resultSeq, correction };
  const env = ctx.publish('result', body, { roundId });
  s.completed = list.map((x, i) => (i === index ? { ...x, status: 'corrected', resultSeq: env.seq, values } : x));
  ctx.log('info', `${roundId} corrected by ${by}: ${field} ${values.join(' ')}`);
  return { data: { roundId, supersedesSeq: entry.resultSeq } };
}

export const NUMBERED_REQUESTS: RequestHandlers<Ctx, NumberedState> = {
  'open-betting': openBetting,
  'close-betting': closeBetting,
  'void-round': voidRoundAsked,
  correction: correctionAsked,
};
