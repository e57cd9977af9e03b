/**
 * The step context: how a table's procedures emit their outputs. One is made per step, for the
 * step's private copy of the state; every effect goes through it as an output (a message with its
 * envelope and `seq`, an event, an alert, a log, a device command, a timer). Time is the input's
 * `at`, nothing else. Repeatable device alerts are coalesced here (one per kind per device per
 * second, with a `count`; the rest counted and published when the window ends).
 */
import type { EventBody, EventKind, MessageBody } from './messages.js';
import { isRetained, relativeTopic, type MessageType, type ParameterisedMessageType } from '../vocabulary/topics.js';
import { severityOf, type AlertKind, type Severity } from '../vocabulary/alerts.js';
import type { BaseTableSettings, BaseTableState } from './base-state.js';
import { isoTime } from './iso-time.js';
import type { Envelope, TableOutput } from './types.js';

/**
 * Alerts a device can trigger over and over (games.md): at most one per kind per device per
 * second, with a `count`; what comes within the second is counted and published when it ends
 * (a `coalesce:<kind>|<device>` timer). Uses the input's `at` only, so a replay coalesces alike.
 */
export const COALESCED_ALERTS: ReadonlySet<string> = new Set(['unexpected-rescan', 'out-of-order-card', 'unknown-tag']);
export const COALESCE_WINDOW_MS = 1000;

const ENVELOPE_KEYS: ReadonlySet<string> = new Set(['v', 'type', 'table', 'game', 'epoch', 'seq', 'ts']);

/** the shoe and round an envelope names, when not the current ones (`null`: none) */
export type EnvelopeIds = { shoeId?: string | null; roundId?: string | null };
/** the messages a table publishes on a topic of its own type (not `status`, the link's; devices and responses have their own) */
export type FixedTopicType = Exclude<MessageType, 'status' | ParameterisedMessageType>;
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type DeviceCommand = Extract<TableOutput, { type: 'device-command' }>['command'];

const logLevelOf = (severity: Severity): LogLevel => (severity === 'info' ? 'info' : severity === 'warning' ? 'warn' : 'error');

/** where the context reads the current shoe and round ids (the table kind) */
export interface IdSource<S> {
  ids(s: S): { shoeId?: string; roundId?: string };
}

/**
 * The context of one step. `state` is the step's private copy (its `seq` and `alertWindows` are
 * written here); `kind` is what the table kind's procedures call of each other through the
 * context (the card table's hooks, a numbered game's description). A plain class, made once per
 * step: its methods are shared, nothing is allocated per step but the outputs.
 */
export class StepContext<Se extends BaseTableSettings = BaseTableSettings, K = unknown, S extends BaseTableState = BaseTableState> {
  /** the outputs so far, in order */
  readonly out: TableOutput[] = [];
  private readonly ts: string;

  /** `at`: the input's time (ms) */
  constructor(
    readonly settings: Se,
    readonly kind: K,
    private readonly state: S,
    readonly at: number,
    private readonly source: IdSource<S>,
  ) {
    this.ts = isoTime(at);
  }

  /** the next envelope (`seq` taken) of a message of `type`; the shoe and round ids are the current ones unless `ids` says */
  envelope(type: MessageType, body: Record<string, unknown>, given?: EnvelopeIds): Envelope {
    const env: Envelope =
      this.settings.epoch === undefined
        ? { v: 1, type, table: this.settings.tableId, game: this.settings.gameId, seq: ++this.state.seq, ts: this.ts }
        : { v: 1, type, table: this.settings.tableId, game: this.settings.gameId, epoch: this.settings.epoch, seq: ++this.state.seq, ts: this.ts };
    const cur = this.source.ids(this.state);
    const shoeId = given && 'shoeId' in given ? given.shoeId : cur.shoeId;
    const roundId = given && 'roundId' in given ? given.roundId : cur.roundId;
    if (shoeId) env.shoeId = shoeId;
    if (roundId) env.roundId = roundId;
    // the body never overrides an envelope field (a device's own SEQ is not the table's seq)
    for (const k in body) if (!ENVELOPE_KEYS.has(k)) env[k] = body[k];
    return env;
  }

  /** a message on a topic of its own (`devices/<id>`) */
  publishOn(type: MessageType, topic: string, body: Record<string, unknown>, given?: EnvelopeIds): Envelope {
    const payload = this.envelope(type, body, given);
    this.out.push({ type: 'publish', topic, retain: isRetained(type), payload });
    return payload;
  }

  /** a message of `type` on its topic, retained or not as the topic map says (src/core/vocabulary/topics.ts) */
  publish<T extends FixedTopicType>(type: T, body: MessageBody<T>, given?: EnvelopeIds): Envelope {
    return this.publishOn(type, relativeTopic(type), body, given);
  }

  /** an event of `kind` (one of the API's event kinds) with that kind's fields */
  event<E extends EventKind>(kind: E, body: Omit<EventBody<E>, 'kind'>): void {
    this.publish('event', { kind, ...body } as MessageBody<'event'>);
  }

  alert(kind: AlertKind, detail: string, extra: Record<string, unknown> = {}, severity: Severity = severityOf(kind)): void {
    const dev = extra.deviceId;
    const s = this.state;
    if (typeof dev === 'string' && COALESCED_ALERTS.has(kind)) {
      const key = `${kind}|${dev}`;
      const w = s.alertWindows?.[key];
      if (w && this.at < w.until) {
        s.alertWindows = { ...s.alertWindows, [key]: { ...w, pending: w.pending + 1, detail, extra } };
        if (w.pending === 0) this.setTimer(`coalesce:${key}`, w.until);
        return;
      }
      s.alertWindows = { ...s.alertWindows, [key]: { until: this.at + COALESCE_WINDOW_MS, pending: 0 } };
      extra = { ...extra, count: 1 };
    }
    this.publish('alert', { kind, severity, detail, ...extra });
    this.log(logLevelOf(severity), `alert ${kind}: ${detail}`, extra);
  }

  log(level: LogLevel, msg: string, data?: Record<string, unknown>): void {
    this.out.push({ type: 'log', level, msg, ...(data ? { data } : {}) });
  }

  command(deviceId: string, command: DeviceCommand): void {
    this.out.push({ type: 'device-command', deviceId, command });
  }

  setTimer(name: string, at: number): void {
    this.out.push({ type: 'set-timer', name, at });
  }

  cancelTimer(name: string): void {
    this.out.push({ type: 'cancel-timer', name });
  }
}

/** the end of a coalescing window (`coalesce:<key>` timer): the alerts counted in it, as one alert with their `count` */
export function flushCoalesced<S extends BaseTableState>(ctx: StepContext, s: S, key: string): S {
  const w = s.alertWindows?.[key];
  if (!w) return s;
  const { [key]: _gone, ...rest } = s.alertWindows ?? {};
  if (w.pending === 0) {
    s.alertWindows = rest;
    return s;
  }
  const kind = key.slice(0, key.indexOf('|')) as AlertKind;
  s.alertWindows = { ...rest, [key]: { until: ctx.at + COALESCE_WINDOW_MS, pending: 0 } };
  const severity = severityOf(kind);
  const extra = { ...(w.extra ?? {}), count: w.pending };
  const detail = `${w.detail ?? kind} (${w.pending} in the last second)`;
  ctx.publish('alert', { kind, severity, detail, ...extra });
  ctx.log(logLevelOf(severity), `alert ${kind}: ${detail}`, extra);
  return s;
}
