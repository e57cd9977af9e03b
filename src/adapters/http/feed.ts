/**
 * The status page's view of the tables, kept from each table's `published$` — the same envelopes
 * MQTT gets, so there is no second source of truth. It keeps what a new page needs at connect
 * time: the last envelope per retained topic (what a fresh MQTT subscriber would get), plus the
 * recent results (the bead road) and alerts, and the link state (the `status` topic's content).
 * Beside the envelopes it reads each device driver's counters (frames, rejects by reason, the last
 * reject's redacted sample): a device that sends nothing valid publishes nothing, so only these show it.
 */
import { Subject, type Observable, type Subscription } from 'rxjs';
import type { Envelope } from '../../core/table/types.js';
import type { TableView } from './table-view.js';

export type FeedEvent =
  | { kind: 'msg'; table: string; topic: string; retain: boolean; payload: Envelope }
  | { kind: 'link'; table: string; connected: boolean; broker?: string | null }
  | { kind: 'devices'; table: string; devices: Record<string, DeviceInputCounters> };

/**
 * What a device's line brought since the gateway started, from its driver: valid frames, rejects
 * by reason and the last reject. A device that sends only rejects (`onlyRejects`) is wired or
 * configured wrong (speed, profile). The sample is redacted by the driver: no card value.
 */
export interface DeviceInputCounters {
  frames: number;
  rejected: number;
  duplicates: number;
  rejectsByReason: Record<string, number>;
  lastReject: { reason: string; sample: string } | null;
  onlyRejects: boolean;
  /** serial lines: low-latency mode of the port and an FTDI adapter's latency timer */
  serial?: { lowLatency: boolean; reason?: string; latencyTimerMs?: number };
}

export interface TableSnapshot {
  table: string;
  game: string;
  connected: boolean;
  /** the broker the table is on (null while on none) */
  broker?: string | null;
  /** retained topic -> its last envelope */
  retained: Record<string, Envelope>;
  /** the last results, oldest first */
  results: Envelope[];
  /** the last alerts, oldest first */
  alerts: Envelope[];
  /** device id -> what its line brought (read from the drivers when asked) */
  devices: Record<string, DeviceInputCounters>;
}

export interface StatusFeedOptions {
  historySize?: number;
  alertsSize?: number;
  /** how often changed device counters are sent to the pages (default 2000 ms; 0 = never) */
  countersIntervalMs?: number;
}

function deviceCounters(t: TableView): Record<string, DeviceInputCounters> {
  const out: Record<string, DeviceInputCounters> = {};
  for (const d of t.runtime.drivers) {
    out[d.deviceId] = {
      frames: d.framesTotal, rejected: d.rejectedTotal, duplicates: d.duplicates,
      rejectsByReason: { ...(d.rejectedByReason ?? {}) }, lastReject: d.lastReject ? { reason: d.lastReject.reason, sample: d.lastReject.sample } : null,
      onlyRejects: d.framesTotal === 0 && d.rejectedTotal > 0,
      ...(d.latency ? { serial: { ...d.latency } } : {}),
    };
  }
  return out;
}

export class StatusFeed {
  private readonly subject = new Subject<FeedEvent>();
  readonly events$: Observable<FeedEvent> = this.subject.asObservable();
  private readonly tables = new Map<string, TableSnapshot>();
  private readonly subs: Subscription[] = [];
  private readonly historySize: number;
  private readonly alertsSize: number;
  private readonly countersIntervalMs: number;
  private readonly views = new Map<string, TableView>();
  private readonly lastCounters = new Map<string, string>();
  private countersTimer: NodeJS.Timeout | null = null;

  constructor(opts: StatusFeedOptions = {}) {
    this.historySize = opts.historySize ?? 120;
    this.alertsSize = opts.alertsSize ?? 50;
    this.countersIntervalMs = opts.countersIntervalMs ?? 2000;
  }

  /** sends each table's device counters to the pages when they changed since the last time */
  sendChangedCounters(): void {
    for (const [id, t] of this.views) {
      const devices = deviceCounters(t);
      const key = JSON.stringify(devices);
      if (this.lastCounters.get(id) === key) continue;
      this.lastCounters.set(id, key);
      this.subject.next({ kind: 'devices', table: id, devices });
    }
  }

  addTable(t: TableView): void {
    const snap: TableSnapshot = { table: t.id, game: t.game, connected: t.link.connected, broker: t.link.broker ?? null, retained: {}, results: [], alerts: [], devices: {} };
    this.tables.set(t.id, snap);
    this.views.set(t.id, t);
    if (!this.countersTimer && this.countersIntervalMs > 0) {
      this.countersTimer = setInterval(() => this.sendChangedCounters(), this.countersIntervalMs);
      this.countersTimer.unref();
    }
    this.subs.push(t.runtime.published$.subscribe((m) => {
      if (m.retain) snap.retained[m.topic] = m.payload;
      if (m.payload.type === 'result') push(snap.results, m.payload, this.historySize);
      if (m.payload.type === 'alert') push(snap.alerts, m.payload, this.alertsSize);
      this.subject.next({ kind: 'msg', table: t.id, topic: m.topic, retain: m.retain, payload: m.payload });
    }));
    const linkChanged = (): void => {
      const c = t.link.connected;
      const broker = t.link.broker ?? null;
      if (snap.connected === c && snap.broker === broker) return;
      snap.connected = c;
      snap.broker = broker;
      this.subject.next({ kind: 'link', table: t.id, connected: c, broker });
    };
    this.subs.push(t.link.connected$.subscribe(linkChanged));
    if (t.link.changed$) this.subs.push(t.link.changed$.subscribe(linkChanged));
  }

  /** everything a page needs when it connects, in table order */
  snapshot(): TableSnapshot[] {
    return [...this.tables.values()].map((s) => {
      const view = this.views.get(s.table);
      return { ...s, retained: { ...s.retained }, results: [...s.results], alerts: [...s.alerts], devices: view ? deviceCounters(view) : {} };
    });
  }

  stop(): void {
    if (this.countersTimer) clearInterval(this.countersTimer);
    this.countersTimer = null;
    for (const s of this.subs) s.unsubscribe();
    this.subs.length = 0;
    this.subject.complete();
  }
}

function push<T>(list: T[], item: T, max: number): void {
  list.push(item);
  if (list.length > max) list.splice(0, list.length - max);
}
