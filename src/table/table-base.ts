/**
 * What every table machine shares, whatever its game: the envelope and `seq`, publishing events,
 * alerts and logs as outputs, device state (`devices/<id>`, stale, disconnected, `ERR`, `VER`),
 * and the request/response protocol. A table kind (cards, dice, keno) extends `TableStepBase`
 * with its own frames, requests and timers. Pure: time comes from the input, nothing else.
 */
import type { DeviceFrame } from '../../drivers/codecs/frames.js';
import { parseRequest, type ParsedRequest } from '../mqtt/requests.js';
import { severityOf, type AlertKind } from './alerts.js';
import { tableProblems, type HealthReport } from './health.js';
import type {
  BaseTableSettings, BaseTableState, DeviceRecord, DeviceState, Envelope, TableInput, TableOutput,
} from './types.js';

const ENVELOPE_KEYS: ReadonlySet<string> = new Set(['v', 'type', 'table', 'game', 'seq', 'ts']);

export type RequestAnswer = { error: string } | { data?: Record<string, unknown> };

/** Fresh device records: every configured device starts `disconnected`. */
export function initialDevices(settings: BaseTableSettings): Record<string, DeviceRecord> {
  const devices: Record<string, DeviceRecord> = {};
  for (const d of settings.devices) devices[d.id] = { kind: d.kind, state: 'disconnected' };
  return devices;
}

export abstract class TableStepBase<St extends BaseTableState, Se extends BaseTableSettings> {
  readonly out: TableOutput[] = [];
  protected readonly ts: string;

  /** `s` must already be this step's private copy of the state */
  constructor(protected readonly cfg: Se, readonly s: St, protected readonly at: number) {
    this.ts = new Date(at).toISOString();
  }

  /** the shoe and round ids an envelope carries by default */
  protected abstract currentIds(): { shoeId?: string; roundId?: string };
  protected abstract onStart(): void;
  /** a valid frame other than HB / VER / ERR */
  protected abstract onGameFrame(deviceId: string, frame: DeviceFrame): void;
  protected abstract onTimer(name: string): void;
  protected abstract handleRequest(req: Extract<ParsedRequest, { ok: true }>): RequestAnswer;
  /** called when a device reports an error (`ERR`) or goes away, e.g. to hold the game */
  protected onDeviceTrouble(_deviceId: string): void {}

  run(input: TableInput): void {
    switch (input.type) {
      case 'start':
        for (const [id, d] of Object.entries(this.s.devices)) this.publishDevice(id, d.state, d.detail);
        return this.onStart();
      case 'frame': return this.onFrame(input.deviceId, input.frame);
      case 'device-status': return this.onDeviceStatus(input.deviceId, input.state, input.detail);
      case 'device-alert': return this.alert(input.kind, input.detail, { deviceId: input.deviceId, ...input.data });
      case 'device-restart':
        this.event('device-restart', { deviceId: input.deviceId });
        this.log('warn', `device ${input.deviceId} restarted (SEQ back to 0)`);
        return;
      case 'request': return this.onRequest(input.command, input.payload, input.responseTopic, input.correlationData, input.refused);
      case 'timer': return this.onTimer(input.name);
      case 'health': return this.publishHealth(input.report);
      case 'gateway-alert':
        return this.alert(input.kind, input.detail, { ...input.data });
    }
  }

  /**
   * The `health` summary (docs/OPERATIONS.md): the runtime's report plus the device states as the
   * machine knows them. It goes through the machine only to get its `seq`: it changes nothing else.
   */
  private publishHealth(report: HealthReport): void {
    const problems = tableProblems(report.mqtt === 'connected', this.s.devices, report.requestsSubscribed ?? true);
    const devices: Record<string, unknown> = {};
    for (const [id, d] of Object.entries(this.s.devices)) {
      const c = report.devices[id] ?? { frames: 0, rejected: 0, duplicates: 0 };
      devices[id] = { kind: d.kind, state: d.state, frames: c.frames, rejected: c.rejected, duplicates: c.duplicates };
    }
    this.publish('health', 'health', true, {
      status: problems.length ? 'degraded' : 'ok', problems, mqtt: report.mqtt, ...(report.broker ? { broker: report.broker } : {}), uptimeSec: report.uptimeSec,
      outboxDepth: report.outboxDepth, devices,
    }, { shoeId: null, roundId: null });
  }

  // ---------------------------------------------------------------- publishing helpers

  protected envelope(type: string, body: Record<string, unknown>, ids?: { shoeId?: string | null; roundId?: string | null }): Envelope {
    const env: Envelope = { v: 1, type, table: this.cfg.tableId, game: this.cfg.gameId, seq: ++this.s.seq, ts: this.ts };
    const cur = this.currentIds();
    const shoeId = ids && 'shoeId' in ids ? ids.shoeId : cur.shoeId;
    const roundId = ids && 'roundId' in ids ? ids.roundId : cur.roundId;
    if (shoeId) env.shoeId = shoeId;
    if (roundId) env.roundId = roundId;
    // the body never overrides an envelope field (a device's own SEQ is not the table's seq)
    for (const k in body) if (!ENVELOPE_KEYS.has(k)) env[k] = body[k];
    return env;
  }

  protected publish(topic: string, type: string, retain: boolean, body: Record<string, unknown>, ids?: { shoeId?: string | null; roundId?: string | null }): Envelope {
    const payload = this.envelope(type, body, ids);
    this.out.push({ type: 'publish', topic, retain, payload });
    return payload;
  }

  protected event(kind: string, body: Record<string, unknown>): void {
    this.publish('events', 'event', false, { kind, ...body });
  }

  protected alert(kind: AlertKind, detail: string, extra: Record<string, unknown> = {}): void {
    const severity = severityOf(kind);
    this.publish('alerts', 'alert', false, { kind, severity, detail, ...extra });
    this.log(severity === 'info' ? 'info' : severity === 'warning' ? 'warn' : 'error', `alert ${kind}: ${detail}`, extra);
  }

  protected log(level: 'debug' | 'info' | 'warn' | 'error', msg: string, data?: Record<string, unknown>): void {
    this.out.push({ type: 'log', level, msg, ...(data ? { data } : {}) });
  }

  // ---------------------------------------------------------------- devices

  protected publishDevice(id: string, state: DeviceState, detail?: string): void {
    const d = this.s.devices[id];
    const body: Record<string, unknown> = { deviceId: id, state, kind: d?.kind ?? 'unknown' };
    if (detail) body.detail = detail;
    if (d?.model) body.model = d.model;
    if (d?.firmware) body.firmware = d.firmware;
    this.publish(`devices/${id}`, 'device', true, body, { shoeId: null, roundId: null });
  }

  protected setDevice(id: string, state: DeviceState, detail?: string): void {
    const d = this.s.devices[id];
    if (!d) return;
    if (d.state === state && d.detail === detail) return;
    this.s.devices[id] = { ...d, state, detail };
    this.publishDevice(id, state, detail);
  }

  private onDeviceStatus(id: string, state: 'connected' | 'disconnected' | 'stale', detail?: string): void {
    const before = this.s.devices[id]?.state;
    this.setDevice(id, state, detail);
    if (state === 'stale' && before !== 'stale') this.alert('device-stale', `device ${id} sent no valid frame for too long`, { deviceId: id });
    if (state === 'disconnected' && before && before !== 'disconnected') {
      this.alert('device-disconnected', `device ${id} disconnected${detail ? `: ${detail}` : ''}`, { deviceId: id });
      this.onDeviceTrouble(id);
    }
  }

  private onFrame(deviceId: string, f: DeviceFrame): void {
    const dev = this.s.devices[deviceId];
    // Any valid frame other than ERR shows the device is alive and well.
    if (dev && f.type !== 'ERR' && dev.state !== 'connected') this.setDevice(deviceId, 'connected');
    switch (f.type) {
      case 'HB': return;
      case 'VER':
        if (dev) {
          this.s.devices[deviceId] = { ...this.s.devices[deviceId], model: f.model, firmware: f.firmware };
          this.publishDevice(deviceId, this.s.devices[deviceId].state, this.s.devices[deviceId].detail);
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

  private onRequest(command: string, payload: string, responseTopic?: string, correlationData?: string, refused?: string): void {
    const req = parseRequest(command, payload);
    let answer: RequestAnswer;
    if (refused !== undefined) answer = { error: refused };
    else if (!req.ok) answer = { error: req.error };
    else answer = req.command === 'status' ? { data: this.statusSnapshot() } : this.handleRequest(req);
    const body: Record<string, unknown> = { command, transaction: req.transaction ?? null, status: 'error' in answer ? 'error' : 'ok' };
    if ('error' in answer) body.error = answer.error;
    else if (answer.data) body.data = answer.data;
    const env = this.envelope('response', body);
    this.out.push({
      type: 'publish', topic: `response/${command}`, retain: false, payload: env,
      ...(responseTopic ? { alsoTo: { topic: responseTopic, ...(correlationData ? { correlationData } : {}) } } : {}),
    });
    if ('error' in answer) this.log('warn', `request ${command} refused: ${answer.error}`);
  }

  /** the pit's `void-round` request, the same on every table: `voidIt` voids the round in progress */
  protected pitVoid(reason: string, voidIt: () => void): RequestAnswer {
    const id = this.currentIds().roundId;
    if (!id) return { error: 'no round is in progress' };
    this.alert('round-void', `the pit voided round ${id}: ${reason}`);
    voidIt();
    return { data: { roundId: id } };
  }

  /** the `status` request's answer: table, devices, and the game's own snapshot */
  protected statusSnapshot(): Record<string, unknown> {
    return {
      table: this.cfg.tableId,
      game: this.cfg.gameId,
      betting: this.cfg.engine ? 'engine' : 'none',
      devices: Object.fromEntries(Object.entries(this.s.devices).map(([id, d]) => [id, { kind: d.kind, state: d.state, ...(d.detail ? { detail: d.detail } : {}) }])),
      ...this.gameSnapshot(),
    };
  }

  protected abstract gameSnapshot(): Record<string, unknown>;
}
