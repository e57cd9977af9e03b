/**
 * What every table machine shares, whatever its game: the envelope and `seq`, publishing events,
 * alerts and logs as outputs, device state (`devices/<id>`, stale, disconnected, `ERR`, `VER`),
 * and the request/response protocol. A table kind (cards, dice, keno) extends `TableStepBase`
 * with its own frames, requests and timers. Pure: time comes from the input, nothing else.
 */
import type { DeviceFrame } from '../vocabulary/frames.js';
import type { CorrectionKind, EventBody, EventKind, MessageBody } from './messages.js';
import { parseRequest, type RequestArgs, type RequestCommand, type RequestErrorCode, type ValidRequest } from '../vocabulary/requests.js';
import { isRetained, relativeTopic, type MessageType, type ParameterisedMessageType } from '../vocabulary/topics.js';
import { severityOf, type AlertKind, type Severity } from '../vocabulary/alerts.js';
import { tableProblems, type HealthReport } from './health.js';
import { argsWithSigner, privilegedBecause } from './privileged.js';
import type {
  BaseTableSettings, BaseTableState, DeviceRecord, DeviceState, Envelope, TableInput, TableOutput,
} from './types.js';

/**
 * Alerts a device can trigger over and over (games.md): at most one per kind per device per
 * second, with a `count`; what comes within the second is counted and published when it ends
 * (a `coalesce:<kind>|<device>` timer). Uses the input's `at` only, so a replay coalesces alike.
 */
export const COALESCED_ALERTS: ReadonlySet<string> = new Set(['unexpected-rescan', 'out-of-order-card', 'unknown-tag']);
export const COALESCE_WINDOW_MS = 1000;
/** a gap larger than this is not asked for again (devices keep at least their last 64 frames) */
const MAX_REPEAT = 1024;

const ENVELOPE_KEYS: ReadonlySet<string> = new Set(['v', 'type', 'table', 'game', 'seq', 'ts']);

/** the shoe and round an envelope names, when not the current ones (`null`: none) */
export type EnvelopeIds = { shoeId?: string | null; roundId?: string | null };
/** the messages a table machine publishes on a topic of its own type (not `status`, the link's; devices and responses have their own) */
type FixedTopicType = Exclude<MessageType, 'status' | ParameterisedMessageType>;

/** a request's answer: its data, or an error with its stable `code` (mostly `wrong-phase`: "not now") */
export type RequestAnswer = { error: string; code: RequestErrorCode } | { data?: Record<string, unknown> };

/** the commands a table kind handles itself: `status` is answered the same by every table */
export type HandledCommand = Exclude<RequestCommand, 'status'>;
export type HandledRequest = Extract<ValidRequest, { command: HandledCommand }>;

/** what a table kind does with each request it takes, by command, with that command's typed args */
export type RequestHandlers<T> = { readonly [C in HandledCommand]?: (table: T, args: RequestArgs<C>) => RequestAnswer };

/** answers `req` with its handler; a command the table kind has no handler for is refused with `wrong-phase` */
export function answerRequest<T>(handlers: RequestHandlers<T>, table: T, req: HandledRequest, tableKind: string): RequestAnswer {
  // `handlers[req.command]` takes the args of `req.command`: the lookup loses that link, not the types of either
  const handler = handlers[req.command] as ((table: T, args: HandledRequest['args']) => RequestAnswer) | undefined;
  return handler ? handler(table, req.args) : { code: 'wrong-phase', error: `${req.command} does not apply to a ${tableKind} table` };
}

/** the code of a request refused at the runtime's edge, for journals written before codes existed */
function refusalCode(reason: string): RequestErrorCode {
  return reason.startsWith('payload too large') ? 'too-large' : 'rate-limited';
}

/** Fresh device records: every configured device starts `disconnected`. */
export function initialDevices(settings: BaseTableSettings): Record<string, DeviceRecord> {
  const devices: Record<string, DeviceRecord> = {};
  for (const d of settings.devices) devices[d.id] = { kind: d.kind, state: 'disconnected' };
  return devices;
}

/** the second last formatted by isoTime() and its text up to the milliseconds (`YYYY-MM-DDTHH:MM:SS.`) */
let isoSecond = Number.NaN;
let isoSecondText = '';

/**
 * `new Date(at).toISOString()`, without building a Date and formatting it on every step: the text
 * up to the second is kept for the last second seen (inputs arrive in time order, many a second),
 * the milliseconds are appended. A pure function of `at`: same text as toISOString, byte for byte.
 */
export function isoTime(at: number): string {
  // a Date truncates a fractional time toward zero
  const ms = Math.trunc(at);
  const second = Math.floor(ms / 1000);
  if (second !== isoSecond) {
    const text = new Date(second * 1000).toISOString();
    // years beyond 0..9999 are written differently (`+010000-...`): no shortcut for them
    if (text.length !== 24) return new Date(at).toISOString();
    isoSecond = second;
    isoSecondText = text.slice(0, 20);
  }
  const frac = ms - second * 1000;
  return `${isoSecondText}${frac < 10 ? '00' : frac < 100 ? '0' : ''}${frac}Z`;
}

export abstract class TableStepBase<St extends BaseTableState, Se extends BaseTableSettings> {
  readonly out: TableOutput[] = [];
  protected readonly ts: string;

  /** `state` must already be this step's private copy of the state; `receivedAt` is the input's `at` */
  constructor(protected readonly settings: Se, readonly state: St, protected readonly receivedAt: number) {
    this.ts = isoTime(receivedAt);
  }

  /** the shoe and round ids an envelope carries by default */
  protected abstract currentIds(): { shoeId?: string; roundId?: string };
  protected abstract onStart(): void;
  /** a valid frame other than HB / VER / ERR */
  protected abstract onGameFrame(deviceId: string, frame: DeviceFrame): void;
  protected abstract onTimer(name: string): void;
  /** a valid request other than `status` (see `answerRequest`) */
  protected abstract handleRequest(req: HandledRequest): RequestAnswer;
  /** called when a device reports an error (`ERR`) or goes away, e.g. to hold the game */
  protected onDeviceTrouble(_deviceId: string): void {}
  /**
   * A SEQ gap that was not repaired (no `REPEAT`, or not in time): frames, maybe cards, are lost.
   * Returns the severity of its `frame-gap` alert; a card table holds a round in progress
   * (`critical`). Default: `warning`, play goes on (games.md "Lost frames").
   */
  protected onUnrepairedGap(_deviceId: string): Severity {
    return 'warning';
  }

  // ---------------------------------------------------------------- lost frames (games.md)
  // The driver reports a gap (`frame-gap` device alert with `fromSeq`, `missing`, `deviceSeq`).
  // A device whose VER announced `REPEAT` is asked to re-send from `fromSeq` (a `REPEAT,<seq>`
  // device command); its frames are then taken in SEQ order: the ones that revealed the gap wait
  // for the missing ones. All missing frames within `repeatTimeoutMs`: `frame-gap` info,
  // `repaired: true`. Otherwise (or without REPEAT) the game decides (`onUnrepairedGap`).

  private onFrameGap(deviceId: string, detail: string, data: Record<string, unknown>): void {
    const fromSeq = typeof data.fromSeq === 'number' ? data.fromSeq : undefined;
    const missing = typeof data.missing === 'number' ? data.missing : 0;
    const canRepeat = !!this.state.devices[deviceId]?.capabilities?.includes('REPEAT');
    const busy = !!this.state.repairs?.[deviceId] && !this.state.repairs[deviceId].expired;
    if (canRepeat && !busy && fromSeq !== undefined && missing > 0 && missing <= MAX_REPEAT) {
      const no = (this.state.repairNo ?? 0) + 1;
      this.state.repairNo = no;
      const modulus = typeof data.modulus === 'number' ? data.modulus : 65536;
      this.state.repairs = { ...this.state.repairs, [deviceId]: { fromSeq, missing, filled: 0, queued: [], no, since: this.receivedAt, modulus } };
      this.out.push({ type: 'device-command', deviceId, command: `REPEAT,${fromSeq}` });
      this.out.push({ type: 'set-timer', name: `repeat:${deviceId}:${no}`, at: this.receivedAt + (this.settings.repeatTimeoutMs ?? 500) });
      this.log('warn', `device ${deviceId}: ${detail}; asked it to repeat from SEQ ${fromSeq}`);
      return;
    }
    const severity = this.onUnrepairedGap(deviceId);
    this.alert('frame-gap', detail, { deviceId, ...data, repaired: false }, severity);
  }

  private modulusOf(deviceId: string): number {
    return this.state.repairs?.[deviceId]?.modulus ?? 65536;
  }

  /** a frame of a device whose gap is being repaired: taken in SEQ order */
  private onRepairFrame(deviceId: string, frame: DeviceFrame): void {
    const rep = this.state.repairs![deviceId];
    const mod = this.modulusOf(deviceId);
    const k = (frame.seq - rep.fromSeq + mod) % mod;
    if (rep.expired) {
      // the repair timed out: a missing frame that still comes is late, the gap was reported
      if (k < rep.missing) {
        this.log('warn', `device ${deviceId}: frame SEQ ${frame.seq} came after the repeat timeout: not taken`);
        return;
      }
      if (k > rep.missing + MAX_REPEAT) {
        const { [deviceId]: _r, ...rest } = this.state.repairs!;
        this.state.repairs = rest;
      }
      return this.onFrame(deviceId, frame);
    }
    // a repeated frame already taken (the device re-sends from fromSeq on): dropped
    if (k < rep.filled || rep.queued.some((q) => q.k === k)) return;
    const queued = [...rep.queued, { k, frame }].sort((a, b) => a.k - b.k);
    let filled = rep.filled;
    const take: DeviceFrame[] = [];
    while (queued.length && queued[0].k === filled && filled < rep.missing) {
      take.push(queued.shift()!.frame);
      filled++;
    }
    const done = filled >= rep.missing;
    if (done) {
      const { [deviceId]: _r, ...rest } = this.state.repairs!;
      this.state.repairs = rest;
      this.out.push({ type: 'cancel-timer', name: `repeat:${deviceId}:${rep.no}` });
      this.alert('frame-gap', `${rep.missing} frame(s) lost on the line from SEQ ${rep.fromSeq} were repeated by ${deviceId}: nothing lost`, {
        deviceId, missing: rep.missing, fromSeq: rep.fromSeq, repaired: true,
      }, 'info');
      take.push(...queued.map((q) => q.frame));
    } else {
      this.state.repairs = { ...this.state.repairs, [deviceId]: { ...rep, filled, queued } };
    }
    for (const f of take) this.onFrame(deviceId, f);
  }

  private onRepeatTimeout(name: string): void {
    const [, deviceId, noText] = name.split(':');
    const rep = this.state.repairs?.[deviceId];
    if (!rep || String(rep.no) !== noText) return;
    const mod = this.modulusOf(deviceId);
    // kept as a marker, so that missing frames that come too late are not taken out of order
    this.state.repairs = { ...this.state.repairs, [deviceId]: { ...rep, queued: [], expired: true } };
    const lost = rep.missing - rep.filled;
    const severity = this.onUnrepairedGap(deviceId);
    this.alert('frame-gap', `${lost} frame(s) lost on the line from SEQ ${(rep.fromSeq + rep.filled) % mod} were not repeated by ${deviceId} within ${this.receivedAt - rep.since} ms`, {
      deviceId, missing: lost, fromSeq: (rep.fromSeq + rep.filled) % mod, repaired: false,
    }, severity);
    // what came meanwhile is taken now, in order (a held round keeps its cards for the pit's answer)
    for (const q of rep.queued) this.onFrame(deviceId, q.frame);
  }

  run(input: TableInput): void {
    switch (input.type) {
      case 'start':
        for (const [id, d] of Object.entries(this.state.devices)) this.publishDevice(id, d.state, d.detail);
        return this.onStart();
      case 'frame':
        if (this.state.repairs?.[input.deviceId]) return this.onRepairFrame(input.deviceId, input.frame);
        return this.onFrame(input.deviceId, input.frame);
      case 'device-status': return this.onDeviceStatus(input.deviceId, input.state, input.detail);
      case 'device-alert':
        if (input.kind === 'frame-gap') return this.onFrameGap(input.deviceId, input.detail, input.data ?? {});
        this.alert(input.kind, input.detail, { deviceId: input.deviceId, ...input.data });
        return this.onDeviceAlert(input.deviceId, input.kind);
      case 'device-restart':
        this.event('device-restart', { deviceId: input.deviceId });
        this.log('warn', `device ${input.deviceId} restarted (SEQ back to 0)`);
        return;
      case 'request': return this.onRequest(input.command, input.payload, input.responseTopic, input.correlationData, input.refused, input.refusedCode, input.signer);
      case 'timer':
        if (input.name.startsWith('coalesce:')) return this.flushCoalesced(input.name.slice('coalesce:'.length));
        if (input.name.startsWith('repeat:')) return this.onRepeatTimeout(input.name);
        return this.onTimer(input.name);
      case 'health': return this.publishHealth(input.report);
      case 'gateway-alert':
        return this.alert(input.kind, input.detail, { ...input.data });
      case 'outbox-level': return this.onOutboxLevel(input.level, input.depth, input.max);
    }
  }

  /**
   * The outbox's level, reported by the runtime as an input (so the hold it causes is journaled and
   * replayed like every other effect): `outbox-filling` at 80%, `outbox-full` (critical) at 100%;
   * a table with shoes holds them from `full` until the level is back to `ok` (`onOutboxHold`).
   */
  private onOutboxLevel(level: 'ok' | 'filling' | 'full', depth: number, max: number): void {
    const before = this.state.outboxLevel ?? 'ok';
    if (level === before) return;
    this.state.outboxLevel = level;
    if (level === 'filling' && before === 'ok') {
      this.alert('outbox-filling', `the outbox holds ${depth} undelivered messages (bound ${max}): is the broker reachable?`, { depth, max });
    } else if (level === 'full') {
      this.alert('outbox-full', `the outbox reached its bound of ${max} undelivered messages: the shoes are held until the broker takes them`, { depth, max });
      this.onOutboxHold(true);
    } else if (level === 'ok') {
      this.log('info', `outbox back to ${depth} messages${before === 'full' ? ': releasing the shoes' : ''}`);
      this.onOutboxHold(false);
    }
  }

  /** the outbox is full (`true`) or drained again (`false`): tables with shoes hold them */
  protected onOutboxHold(_full: boolean): void {}
  /** a device's driver raised an alert (e.g. `unknown-tag`), already published */
  protected onDeviceAlert(_deviceId: string, _kind: AlertKind): void {}

  /**
   * The `health` summary (docs/OPERATIONS.md): the runtime's report plus the device states as the
   * machine knows them. It goes through the machine only to get its `seq`: it changes nothing else.
   */
  private publishHealth(report: HealthReport): void {
    const problems = tableProblems(report.mqtt === 'connected', this.state.devices, report.requestsSubscribed ?? true,
      { subscribing: report.subscribing, brokerStalled: report.brokerStalled });
    const devices: MessageBody<'health'>['devices'] = {};
    for (const [id, d] of Object.entries(this.state.devices)) {
      const c = report.devices[id] ?? { frames: 0, rejected: 0, duplicates: 0 };
      devices[id] = { kind: d.kind, state: d.state, frames: c.frames, rejected: c.rejected, duplicates: c.duplicates, ...(c.serial ? { serial: { ...c.serial } } : {}) };
    }
    this.publish('health', {
      status: problems.length ? 'degraded' : 'ok', problems, mqtt: report.mqtt, ...(report.broker ? { broker: report.broker } : {}), uptimeSec: report.uptimeSec,
      outboxDepth: report.outboxDepth, devices,
    }, { shoeId: null, roundId: null });
  }

  /**
   * games.md Corrections: the completed round a `void-round` / `correction` names, within the
   * correction window (the `completed` list the table keeps), with the operator who asks (`by`: the
   * verified signer's name, privileged.ts); or the error answer (`outside-window`, `invalid-args`
   * without `by`, `wrong-phase` when already void).
   */
  protected completedRound<E extends { id: string; status: string }>(list: readonly E[] | undefined, args: Record<string, unknown>, window: number):
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

  // ---------------------------------------------------------------- publishing helpers

  protected envelope(type: MessageType, body: Record<string, unknown>, ids?: EnvelopeIds): Envelope {
    const env: Envelope = { v: 1, type, table: this.settings.tableId, game: this.settings.gameId, seq: ++this.state.seq, ts: this.ts };
    const cur = this.currentIds();
    const shoeId = ids && 'shoeId' in ids ? ids.shoeId : cur.shoeId;
    const roundId = ids && 'roundId' in ids ? ids.roundId : cur.roundId;
    if (shoeId) env.shoeId = shoeId;
    if (roundId) env.roundId = roundId;
    // the body never overrides an envelope field (a device's own SEQ is not the table's seq)
    for (const k in body) if (!ENVELOPE_KEYS.has(k)) env[k] = body[k];
    return env;
  }

  /** a message of `type` on its topic, retained or not as the topic map says (src/core/vocabulary/topics.ts) */
  protected publish<T extends FixedTopicType>(type: T, body: MessageBody<T>, ids?: EnvelopeIds): Envelope {
    return this.emit(type, relativeTopic(type), body, ids);
  }

  private emit(type: MessageType, topic: string, body: Record<string, unknown>, ids?: EnvelopeIds): Envelope {
    const payload = this.envelope(type, body, ids);
    this.out.push({ type: 'publish', topic, retain: isRetained(type), payload });
    return payload;
  }

  /** an event of `kind` (one of the API's event kinds) with that kind's fields */
  protected event<K extends EventKind>(kind: K, body: Omit<EventBody<K>, 'kind'>): void {
    this.publish('event', { kind, ...body } as MessageBody<'event'>);
  }

  protected alert(kind: AlertKind, detail: string, extra: Record<string, unknown> = {}, severity: Severity = severityOf(kind)): void {
    const dev = extra.deviceId;
    if (typeof dev === 'string' && COALESCED_ALERTS.has(kind)) {
      const key = `${kind}|${dev}`;
      const w = this.state.alertWindows?.[key];
      if (w && this.receivedAt < w.until) {
        this.state.alertWindows = { ...this.state.alertWindows, [key]: { ...w, pending: w.pending + 1, detail, extra } };
        if (w.pending === 0) this.out.push({ type: 'set-timer', name: `coalesce:${key}`, at: w.until });
        return;
      }
      this.state.alertWindows = { ...this.state.alertWindows, [key]: { until: this.receivedAt + COALESCE_WINDOW_MS, pending: 0 } };
      extra = { ...extra, count: 1 };
    }
    this.publish('alert', { kind, severity, detail, ...extra });
    this.log(severity === 'info' ? 'info' : severity === 'warning' ? 'warn' : 'error', `alert ${kind}: ${detail}`, extra);
  }

  protected log(level: 'debug' | 'info' | 'warn' | 'error', msg: string, data?: Record<string, unknown>): void {
    this.out.push({ type: 'log', level, msg, ...(data ? { data } : {}) });
  }

  /** the end of a coalescing window: the alerts counted in it, as one alert with their `count` */
  private flushCoalesced(key: string): void {
    const w = this.state.alertWindows?.[key];
    if (!w) return;
    const { [key]: _gone, ...rest } = this.state.alertWindows ?? {};
    if (w.pending === 0) {
      this.state.alertWindows = rest;
      return;
    }
    const kind = key.slice(0, key.indexOf('|')) as AlertKind;
    this.state.alertWindows = { ...rest, [key]: { until: this.receivedAt + COALESCE_WINDOW_MS, pending: 0 } };
    const severity = severityOf(kind);
    const extra = { ...(w.extra ?? {}), count: w.pending };
    const detail = `${w.detail ?? kind} (${w.pending} in the last second)`;
    this.publish('alert', { kind, severity, detail, ...extra });
    this.log(severity === 'info' ? 'info' : severity === 'warning' ? 'warn' : 'error', `alert ${kind}: ${detail}`, extra);
  }

  // ---------------------------------------------------------------- devices

  protected publishDevice(id: string, state: DeviceState, detail?: string): void {
    const d = this.state.devices[id];
    const body: Record<string, unknown> = { deviceId: id, state, kind: d?.kind ?? 'unknown' };
    if (detail) body.detail = detail;
    if (d?.model) body.model = d.model;
    if (d?.firmware) body.firmware = d.firmware;
    this.emit('device', relativeTopic('device', id), body, { shoeId: null, roundId: null });
  }

  protected setDevice(id: string, state: DeviceState, detail?: string): void {
    const d = this.state.devices[id];
    if (!d) return;
    if (d.state === state && d.detail === detail) return;
    this.state.devices[id] = { ...d, state, detail };
    this.publishDevice(id, state, detail);
  }

  private onDeviceStatus(id: string, state: 'connected' | 'disconnected' | 'stale', detail?: string): void {
    const before = this.state.devices[id]?.state;
    this.setDevice(id, state, detail);
    if (state === 'stale' && before !== 'stale') this.alert('device-stale', `device ${id} sent no valid frame for too long`, { deviceId: id });
    if (state === 'disconnected' && before && before !== 'disconnected') {
      this.alert('device-disconnected', `device ${id} disconnected${detail ? `: ${detail}` : ''}`, { deviceId: id });
      this.onDeviceTrouble(id);
    }
  }

  private onFrame(deviceId: string, f: DeviceFrame): void {
    const dev = this.state.devices[deviceId];
    // Any valid frame other than ERR shows the device is alive and well.
    if (dev && f.type !== 'ERR' && dev.state !== 'connected') this.setDevice(deviceId, 'connected');
    switch (f.type) {
      case 'HB': return;
      case 'VER':
        if (dev) {
          const caps = f.capabilities ?? [];
          const same = dev.model === f.model && dev.firmware === f.firmware && (dev.capabilities ?? []).join('+') === caps.join('+');
          this.state.devices[deviceId] = { ...this.state.devices[deviceId], model: f.model, firmware: f.firmware, ...(caps.length ? { capabilities: caps } : { capabilities: undefined }) };
          // a repeated, unchanged VER (a VER flood) changes nothing and publishes nothing
          if (!same) this.publishDevice(deviceId, this.state.devices[deviceId].state, this.state.devices[deviceId].detail);
        }
        return;
      case 'ERR':
        this.setDevice(deviceId, 'fault', `${f.code}${f.text ? `: ${f.text}` : ''}`);
        this.alert('device-error', `device ${deviceId} reports ${f.code}${f.text ? ` (${f.text})` : ''}`, { deviceId, code: f.code });
        this.onDeviceTrouble(deviceId);
        return;
      default:
        return this.onGameFrame(deviceId, f);
    }
  }

  // ---------------------------------------------------------------- requests

  private onRequest(command: string, payload: string, responseTopic?: string, correlationData?: string, refused?: string, refusedCode?: RequestErrorCode, signer?: string): void {
    const req = parseRequest(command, payload);
    let answer: RequestAnswer;
    if (refused !== undefined) answer = { error: refused, code: refusedCode ?? refusalCode(refused) };
    else if (!req.ok) answer = { error: req.error, code: req.code };
    else if (req.command === 'status') answer = { data: this.statusSnapshot() };
    else {
      // privileged.ts: a request on a completed or held round needs the signer the edge verified
      const because = signer === undefined ? privilegedBecause(req, { roundId: this.currentIds().roundId, held: !!(this.state as { held?: unknown }).held }) : null;
      answer = because
        ? { code: 'signature-required', error: `${command} must be signed by a key this table's config lists for it (requests.privileged): ${because}` }
        : this.handleRequest(argsWithSigner(req, signer));
    }
    const body: Record<string, unknown> = { command, transaction: req.transaction ?? null, status: 'error' in answer ? 'error' : 'ok' };
    if ('error' in answer) {
      body.code = answer.code;
      body.error = answer.error;
    }
    else if (answer.data) body.data = answer.data;
    const env = this.envelope('response', body);
    this.out.push({
      type: 'publish', topic: relativeTopic('response', command), retain: isRetained('response'), payload: env,
      ...(responseTopic ? { alsoTo: { topic: responseTopic, ...(correlationData ? { correlationData } : {}) } } : {}),
    });
    if ('error' in answer) this.log('warn', `request ${command.slice(0, 64)} refused (${String(body.code)}): ${answer.error}`);
  }

  /** the pit's `void-round` request, the same on every table: `voidIt` voids the round in progress */
  protected pitVoid(reason: string, voidIt: () => void): RequestAnswer {
    const id = this.currentIds().roundId;
    if (!id) return { code: 'wrong-phase', error: 'no round is in progress' };
    this.alert('round-void', `the pit voided round ${id}: ${reason}`);
    voidIt();
    return { data: { roundId: id } };
  }

  /** the `status` request's answer: table, devices, and the game's own snapshot */
  protected statusSnapshot(): Record<string, unknown> {
    return {
      table: this.settings.tableId,
      game: this.settings.gameId,
      betting: this.settings.engine ? 'engine' : 'none',
      devices: Object.fromEntries(Object.entries(this.state.devices).map(([id, d]) => [id, { kind: d.kind, state: d.state, ...(d.detail ? { detail: d.detail } : {}) }])),
      ...this.gameSnapshot(),
    };
  }

  protected abstract gameSnapshot(): Record<string, unknown>;
}
