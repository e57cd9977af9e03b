/**
 * The request/response protocol every table shares (mqtt-api.md): a request is parsed and
 * validated, answered by the table kind's handler for its command (`status` the same by every
 * table), and the answer published as `response/<command>` (and to the request's response topic).
 * Also what the pit's voids and corrections of completed rounds share on every table.
 */
import type { CorrectionKind } from './messages.js';
import { parseRequest, type RequestArgs, type RequestCommand, type RequestErrorCode, type ValidRequest } from '../vocabulary/requests.js';
import { isRetained, relativeTopic } from '../vocabulary/topics.js';
import type { BaseTableState } from './base-state.js';
import type { StepContext } from './context.js';
import { argsWithSigner, privilegedBecause, type PrivilegeView } from './privileged.js';
import type { TableInput } from './types.js';

/** a request's answer: its data, or an error with its stable `code` (mostly `wrong-phase`: "not now") */
export type RequestAnswer = { error: string; code: RequestErrorCode } | { data?: Record<string, unknown> };

/** the commands a table kind handles itself: `status` is answered the same by every table */
export type HandledCommand = Exclude<RequestCommand, 'status'>;
export type HandledRequest = Extract<ValidRequest, { command: HandledCommand }>;

/** what a table kind does with each request it takes, by command, with that command's typed args */
export type RequestHandlers<C, S> = { readonly [Cmd in HandledCommand]?: (ctx: C, s: S, args: RequestArgs<Cmd>) => RequestAnswer };

/** answers `req` with its handler; a command the table kind has no handler for is refused with `wrong-phase` */
export function answerRequest<C, S>(handlers: RequestHandlers<C, S>, ctx: C, s: S, req: HandledRequest, tableKind: string): RequestAnswer {
  // `handlers[req.command]` takes the args of `req.command`: the lookup loses that link, not the types of either
  const handler = handlers[req.command] as ((ctx: C, s: S, args: HandledRequest['args']) => RequestAnswer) | undefined;
  return handler ? handler(ctx, s, req.args) : { code: 'wrong-phase', error: `${req.command} does not apply to a ${tableKind} table` };
}

/** the code of a request refused at the runtime's edge, for journals written before codes existed */
function refusalCode(reason: string): RequestErrorCode {
  return reason.startsWith('payload too large') ? 'too-large' : 'rate-limited';
}

/** what answers a valid request: `status` with the table's snapshot, the rest by the table kind */
export interface RequestDesk<C, S> {
  status(ctx: C, s: S): Record<string, unknown>;
  /** the round in progress and whether it is held: whether a request needs a verified signer (privileged.ts) */
  privilege(s: S): PrivilegeView;
  answer(ctx: C, s: S, req: HandledRequest): RequestAnswer;
}

/**
 * A `request` input: parsed, answered, and the answer published as the command's response. A
 * request on a completed or held round needs the signer the runtime's edge verified (`signer`,
 * privileged.ts); the handler's `by` is that signer's name, never the request's own word.
 */
export function respond<C extends StepContext, S>(ctx: C, s: S, desk: RequestDesk<C, S>, input: Extract<TableInput, { type: 'request' }>): void {
  const { command, responseTopic, correlationData, refused, signer } = input;
  if (input.replay) {
    // a retry of an answered request (docs/ENGINES.md): its first answer again, nothing executed
    publishAnswer(ctx, command, { ...input.replay.answer, command, replayed: true, replayOf: input.replay.of }, responseTopic, correlationData);
    return;
  }
  const req = parseRequest(command, input.payload);
  let answer: RequestAnswer;
  if (refused !== undefined) answer = { error: refused, code: input.refusedCode ?? refusalCode(refused) };
  else if (!req.ok) answer = { error: req.error, code: req.code };
  else if (req.command === 'status') answer = { data: desk.status(ctx, s) };
  else {
    const because = signer === undefined ? privilegedBecause(req, desk.privilege(s)) : null;
    answer = because
      ? { code: 'signature-required', error: `${command} must be signed by a key this table's config lists for it (requests.privileged): ${because}` }
      : desk.answer(ctx, s, argsWithSigner(req, signer));
  }
  const body: Record<string, unknown> = { command, transaction: req.transaction ?? null, status: 'error' in answer ? 'error' : 'ok' };
  if ('error' in answer) {
    body.code = answer.code;
    body.error = answer.error;
  } else if (answer.data) body.data = answer.data;
  publishAnswer(ctx, command, body, responseTopic, correlationData);
  if ('error' in answer) ctx.log('warn', `request ${command.slice(0, 64)} refused (${String(body.code)}): ${answer.error}`);
}

/** an answer on `response/<command>`, and a copy on the request's MQTT 5 response topic when it had one */
function publishAnswer(ctx: StepContext, command: string, body: Record<string, unknown>, responseTopic?: string, correlationData?: string): void {
  ctx.out.push({
    type: 'publish',
    topic: relativeTopic('response', command),
    retain: isRetained('response'),
    payload: ctx.envelope('response', body),
    ...(responseTopic ? { alsoTo: { topic: responseTopic, ...(correlationData ? { correlationData } : {}) } } : {}),
  });
}

/** the `status` request's answer: table, devices, and the game's own snapshot */
export function statusSnapshot(ctx: StepContext, s: BaseTableState, game: Record<string, unknown>): Record<string, unknown> {
  const settings = ctx.settings;
  return {
    table: settings.tableId,
    game: settings.gameId,
    betting: settings.engine ? 'engine' : 'none',
    devices: Object.fromEntries(Object.entries(s.devices).map(([id, d]) => [id, { kind: d.kind, state: d.state, ...(d.detail ? { detail: d.detail } : {}) }])),
    ...game,
  };
}

/** the pit's `void-round` request, the same on every table: `voidIt` voids the round in progress `roundId` */
export function pitVoid(ctx: StepContext, roundId: string | undefined, reason: string, voidIt: () => void): RequestAnswer {
  if (!roundId) return { code: 'wrong-phase', error: 'no round is in progress' };
  ctx.alert('round-void', `the pit voided round ${roundId}: ${reason}`);
  voidIt();
  return { data: { roundId } };
}

/**
 * games.md Corrections: the completed round a `void-round` / `correction` names, within the
 * correction window (the `completed` list the table keeps), with the operator who asks (`by`: the
 * verified signer's name, privileged.ts); or the error answer (`outside-window`, `invalid-args`
 * without `by`, `wrong-phase` when already void).
 */
export function completedRound<E extends { id: string; status: string }>(
  list: readonly E[] | undefined,
  args: Record<string, unknown>,
  window: number,
):
  | { error: string; code: RequestErrorCode }
  | { entry: E; index: number; list: readonly E[]; roundId: string; kind: CorrectionKind; by: string; reason: string } {
  const roundId = String(args.roundId);
  // a kind the table does not know is refused (the game's `correct`, the table's field) before any result is published
  const kind = String(args.kind) as CorrectionKind;
  const by = typeof args.by === 'string' && args.by.length > 0 ? args.by : null;
  const reason = typeof args.reason === 'string' ? args.reason : kind;
  const all = list ?? [];
  const index = all.findIndex((x) => x.id === roundId);
  if (index < 0) return { code: 'outside-window', error: `round ${roundId} is not one of the last ${window} completed rounds of this table` };
  if (!by) return { code: 'invalid-args', error: 'a correction or void of a completed round needs `by` (the operator id)' };
  const entry = all[index];
  if (entry.status === 'void') return { code: 'wrong-phase', error: `round ${roundId} has already been voided` };
  return { entry, index, list: all, roundId, kind, by, reason };
}
