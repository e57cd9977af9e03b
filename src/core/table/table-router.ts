/**
 * What every table does with an input, whatever its game: devices (`devices/<id>`, stale,
 * disconnected, `ERR`, `VER`), lost frames, requests, coalesced alerts, the outbox's level, the
 * `health` summary; the rest goes to the table kind (`TableKind`: a record of procedures, one per
 * kind of table: cards, numbered rounds). Pure: time comes from the input, nothing else.
 */
import type { DeviceFrame } from '../vocabulary/frames.js';
import type { MessageBody } from './messages.js';
import type { AlertKind, Severity } from '../vocabulary/alerts.js';
import type { BaseTableSettings, BaseTableState } from './base-state.js';
import { flushCoalesced, StepContext } from './context.js';
import { deviceFrame, deviceStatus, publishDevice } from './devices.js';
import { frameGap, repairFrame, repeatTimeout, type FrameSink } from './frame-repair.js';
import { tableProblems, type HealthReport } from './health.js';
import { respond, statusSnapshot, type HandledRequest, type RequestAnswer, type RequestDesk } from './requests.js';
import type { TableInput, TableOutput } from './types.js';

/**
 * A kind of table: its procedures, each working on the step's private copy of the state `s` (and
 * returning it), emitting through the context. `K` is what the kind puts in its context for its
 * procedures to call of each other (`ctx.kind`).
 */
export interface TableKind<S extends BaseTableState, Se extends BaseTableSettings, K, C extends StepContext<Se, K, S> = StepContext<Se, K, S>> {
  /** the table kind as answers name it: `card`, `sic bo`, `keno` */
  readonly name: string;
  /** the shoe and round ids an envelope carries by default */
  ids(s: S): { shoeId?: string; roundId?: string };
  /** whether the round in progress is held (privileged requests; default: never) */
  held?(s: S): boolean;
  /** `ctx.kind` of every step */
  readonly context: K;
  start(ctx: C, s: S): S;
  /** a valid frame other than HB / VER / ERR */
  gameFrame(ctx: C, s: S, deviceId: string, frame: DeviceFrame): S;
  /** a timer of the kind's own (not `coalesce:` or `repeat:`) */
  timer(ctx: C, s: S, name: string): S;
  /** a valid request other than `status` */
  request(ctx: C, s: S, req: HandledRequest): RequestAnswer;
  /** the game's part of the `status` answer */
  snapshot(ctx: C, s: S): Record<string, unknown>;
  /** a device reported an error (`ERR`) or went away, e.g. to hold the game */
  deviceTrouble?(ctx: C, s: S, deviceId: string): S;
  /** a SEQ gap that was not repaired: the severity of its `frame-gap` alert (default `warning`, play goes on) */
  unrepairedGap?(ctx: C, s: S, deviceId: string): Severity;
  /** the outbox is full (`true`) or drained again (`false`): tables with shoes hold them */
  outboxHold?(ctx: C, s: S, full: boolean): S;
  /** a device's driver raised an alert (already published) */
  deviceAlert?(ctx: C, s: S, deviceId: string, kind: AlertKind): S;
}

type AnyKind<S extends BaseTableState, Se extends BaseTableSettings, K> = TableKind<S, Se, K, StepContext<Se, K, S>>;
type Ctx<S extends BaseTableState, Se extends BaseTableSettings, K> = StepContext<Se, K, S>;

/** runs one input through a table of `kind`; `s` is the step's private copy of the state */
export function runTable<S extends BaseTableState, Se extends BaseTableSettings, K>(
  kind: AnyKind<S, Se, K>,
  settings: Se,
  s: S,
  input: TableInput,
): { state: S; outputs: TableOutput[] } {
  const ctx = new StepContext(settings, kind.context, s, input.at, kind);
  return { state: route(kind, ctx, s, input), outputs: ctx.out };
}

/** where a kind's repaired frames go, and its desk for requests: made once per kind */
const sinks = new WeakMap<object, FrameSink<never, never>>();
const desks = new WeakMap<object, RequestDesk<never, never>>();

function sinkOf<S extends BaseTableState, Se extends BaseTableSettings, K>(kind: AnyKind<S, Se, K>): FrameSink<Ctx<S, Se, K>, S> {
  let sink = sinks.get(kind) as FrameSink<Ctx<S, Se, K>, S> | undefined;
  if (!sink) {
    sink = {
      take: (ctx, s, deviceId, frame) => takeFrame(kind, ctx, s, deviceId, frame),
      unrepaired: (ctx, s, deviceId) => kind.unrepairedGap?.(ctx, s, deviceId) ?? 'warning',
    };
    sinks.set(kind, sink as FrameSink<never, never>);
  }
  return sink;
}

function deskOf<S extends BaseTableState, Se extends BaseTableSettings, K>(kind: AnyKind<S, Se, K>): RequestDesk<Ctx<S, Se, K>, S> {
  let desk = desks.get(kind) as RequestDesk<Ctx<S, Se, K>, S> | undefined;
  if (!desk) {
    desk = {
      status: (ctx, s) => statusSnapshot(ctx, s, kind.snapshot(ctx, s)),
      privilege: (s) => ({ roundId: kind.ids(s).roundId, held: kind.held?.(s) ?? false }),
      answer: (ctx, s, req) => kind.request(ctx, s, req),
    };
    desks.set(kind, desk as RequestDesk<never, never>);
  }
  return desk;
}

function route<S extends BaseTableState, Se extends BaseTableSettings, K>(kind: AnyKind<S, Se, K>, ctx: Ctx<S, Se, K>, s: S, input: TableInput): S {
  const sink = sinkOf(kind);
  switch (input.type) {
    case 'start':
      for (const [id, d] of Object.entries(s.devices)) publishDevice(ctx, s, id, d.state, d.detail);
      return kind.start(ctx, s);
    case 'frame':
      if (s.repairs?.[input.deviceId]) return repairFrame(ctx, s, sink, input.deviceId, input.frame);
      return takeFrame(kind, ctx, s, input.deviceId, input.frame);
    case 'device-status':
      if (deviceStatus(ctx, s, input.deviceId, input.state, input.detail)) return kind.deviceTrouble?.(ctx, s, input.deviceId) ?? s;
      return s;
    case 'device-alert':
      if (input.kind === 'frame-gap') return frameGap(ctx, s, sink, input.deviceId, input.detail, input.data ?? {});
      ctx.alert(input.kind, input.detail, { deviceId: input.deviceId, ...input.data });
      return kind.deviceAlert?.(ctx, s, input.deviceId, input.kind) ?? s;
    case 'device-restart':
      ctx.event('device-restart', { deviceId: input.deviceId });
      ctx.log('warn', `device ${input.deviceId} restarted (SEQ back to 0)`);
      return s;
    case 'request':
      respond(ctx, s, deskOf(kind), input);
      return s;
    case 'timer':
      if (input.name.startsWith('coalesce:')) return flushCoalesced(ctx, s, input.name.slice('coalesce:'.length));
      if (input.name.startsWith('repeat:')) return repeatTimeout(ctx, s, sink, input.name);
      return kind.timer(ctx, s, input.name);
    case 'health':
      publishHealth(ctx, s, input.report);
      return s;
    case 'gateway-alert':
      ctx.alert(input.kind, input.detail, { ...input.data });
      return s;
    case 'outbox-level':
      return outboxLevel(kind, ctx, s, input.level, input.depth, input.max);
  }
}

/** a valid frame: what it says of its device, then the game's part */
function takeFrame<S extends BaseTableState, Se extends BaseTableSettings, K>(
  kind: AnyKind<S, Se, K>,
  ctx: Ctx<S, Se, K>,
  s: S,
  deviceId: string,
  f: DeviceFrame,
): S {
  switch (deviceFrame(ctx, s, deviceId, f)) {
    case 'game':
      return kind.gameFrame(ctx, s, deviceId, f);
    case 'trouble':
      return kind.deviceTrouble?.(ctx, s, deviceId) ?? s;
    case 'done':
      return s;
  }
}

/**
 * The outbox's level, reported by the runtime as an input (so the hold it causes is journaled and
 * replayed like every other effect): `outbox-filling` at 80%, `outbox-full` (critical) at 100%;
 * a table with shoes holds them from `full` until the level is back to `ok` (`outboxHold`).
 */
function outboxLevel<S extends BaseTableState, Se extends BaseTableSettings, K>(
  kind: AnyKind<S, Se, K>,
  ctx: Ctx<S, Se, K>,
  s: S,
  level: 'ok' | 'filling' | 'full',
  depth: number,
  max: number,
): S {
  const before = s.outboxLevel ?? 'ok';
  if (level === before) return s;
  s.outboxLevel = level;
  if (level === 'filling' && before === 'ok') {
    ctx.alert('outbox-filling', `the outbox holds ${depth} undelivered messages (bound ${max}): is the broker reachable?`, { depth, max });
  } else if (level === 'full') {
    ctx.alert('outbox-full', `the outbox reached its bound of ${max} undelivered messages: the shoes are held until the broker takes them`, { depth, max });
    return kind.outboxHold?.(ctx, s, true) ?? s;
  } else if (level === 'ok') {
    ctx.log('info', `outbox back to ${depth} messages${before === 'full' ? ': releasing the shoes' : ''}`);
    return kind.outboxHold?.(ctx, s, false) ?? s;
  }
  return s;
}

/**
 * The `health` summary (docs/OPERATIONS.md): the runtime's report plus the device states as the
 * machine knows them. It goes through the machine only to get its `seq`: it changes nothing else.
 */
function publishHealth(ctx: StepContext, s: BaseTableState, report: HealthReport): void {
  const problems = tableProblems(report.mqtt === 'connected', s.devices, report.requestsSubscribed ?? true, {
    subscribing: report.subscribing,
    brokerStalled: report.brokerStalled,
  });
  const devices: MessageBody<'health'>['devices'] = {};
  for (const [id, d] of Object.entries(s.devices)) {
    const c = report.devices[id] ?? { frames: 0, rejected: 0, duplicates: 0 };
    devices[id] = {
      kind: d.kind,
      state: d.state,
      frames: c.frames,
      rejected: c.rejected,
      duplicates: c.duplicates,
      ...(c.serial ? { serial: { ...c.serial } } : {}),
    };
  }
  ctx.publish(
    'health',
    {
      status: problems.length ? 'degraded' : 'ok',
      problems,
      mqtt: report.mqtt,
      ...(report.broker ? { broker: report.broker } : {}),
      uptimeSec: report.uptimeSec,
      outboxDepth: report.outboxDepth,
      devices,
    },
    { shoeId: null, roundId: null },
  );
}
