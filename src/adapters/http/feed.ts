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
import { buildRoads, hasRoads, ROAD_SIDES, shoeRounds, type RoadResultMessage, type Roads } from '../../core/games/roads.js';
import type { TableView } from './table-view.js';
import { RECALL_SCAN_LIMIT, type JournalRow } from './recall.js';
import { resultMessageSchema } from '../../core/table/messages.js';

export type FeedEvent =
  | { kind: 'msg'; table: string; topic: string; retain: boolean; payload: Envelope }
  | { kind: 'link'; table: string; connected: boolean; broker?: string | null }
  | { kind: 'devices'; table: string; devices: Record<string, DeviceInputCounters> }
  | { kind: 'roads'; table: string; roads: Roads | null };

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
  /** baccarat, 7 Up and Dragon Tiger: the roads of the shoe in progress (src/core/games/roads.ts); null for other games or before a result */
  roads?: Roads | null;
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
      frames: d.framesTotal,
      rejected: d.rejectedTotal,
      duplicates: d.duplicates,
      rejectsByReason: { ...(d.rejectedByReason ?? {}) },
      lastReject: d.lastReject ? { reason: d.lastReject.reason, sample: d.lastReject.sample } : null,
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
  private journal: { messagesNewestFirst(tableId: string): Iterable<JournalRow> } | null = null;
  private skipped: (table: string, seq: number, reason: string) => void = () => {};

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

  /**
   * The journal the history starts from: a table added after this gets its last results from it
   * (the page's history and the roads of the shoe in progress survive a restart). Call before addTable.
   */
  useJournal(journal: { messagesNewestFirst(tableId: string): Iterable<JournalRow> }, skipped?: (table: string, seq: number, reason: string) => void): void {
    this.journal = journal;
    if (skipped) this.skipped = skipped;
  }

  /** the last results of a table in the journal, oldest first (corrupt rows skipped and reported) */
  private journalResults(tableId: string): Envelope[] {
    if (!this.journal) return [];
    const out: Envelope[] = [];
    let scanned = 0;
    try {
      for (const row of this.journal.messagesNewestFirst(tableId)) {
        if (out.length >= this.historySize || ++scanned > RECALL_SCAN_LIMIT) break;
        if (row.topic !== 'result') continue;
        let p: unknown;
        try {
          p = JSON.parse(row.payload);
        } catch (e) {
          this.skipped(tableId, row.seq, `not JSON (${(e as Error).message})`);
          continue;
        }
        const r = resultMessageSchema.safeParse(p);
        if (!r.success || r.data.seq !== row.seq) {
          this.skipped(tableId, row.seq, r.success ? `its seq ${r.data.seq} is not its row's` : 'not a valid result message');
          continue;
        }
        out.push(p as Envelope);
      }
    } catch {
      // an unreadable journal: the history starts empty (the page works without it)
    }
    return out.reverse();
  }

  /** the roads of a table's shoe in progress (null: a game without roads, or no result yet) */
  private roadsOf(snap: TableSnapshot): Roads | null {
    const sides = ROAD_SIDES[snap.game];
    if (!sides || !hasRoads(snap.game)) return null;
    const shoe = snap.retained.shoe as (Envelope & { shoeId?: string }) | undefined;
    const last = snap.results[snap.results.length - 1] as (Envelope & { shoeId?: string }) | undefined;
    const shoeId = shoe?.shoeId ?? last?.shoeId;
    if (!shoeId) return null;
    return buildRoads(shoeRounds(snap.results as unknown as RoadResultMessage[], shoeId), sides);
  }

  addTable(t: TableView): void {
    const snap: TableSnapshot = {
      table: t.id,
      game: t.game,
      connected: t.link.connected,
      broker: t.link.broker ?? null,
      retained: {},
      results: this.journalResults(t.id),
      alerts: [],
      devices: {},
    };
    const roadGame = hasRoads(t.game);
    this.tables.set(t.id, snap);
    this.views.set(t.id, t);
    if (!this.countersTimer && this.countersIntervalMs > 0) {
      this.countersTimer = setInterval(() => this.sendChangedCounters(), this.countersIntervalMs);
      this.countersTimer.unref();
    }
    this.subs.push(
      t.runtime.published$.subscribe((m) => {
        const prevShoe = (snap.retained.shoe as { shoeId?: string } | undefined)?.shoeId;
        if (m.retain) snap.retained[m.topic] = m.payload;
        // (a result the history already has from the journal is not taken twice)
        if (m.payload.type === 'result' && !(snap.results.length > 0 && snap.results[snap.results.length - 1].seq >= m.payload.seq))
          push(snap.results, m.payload, this.historySize);
        if (m.payload.type === 'alert') push(snap.alerts, m.payload, this.alertsSize);
        this.subject.next({ kind: 'msg', table: t.id, topic: m.topic, retain: m.retain, payload: m.payload });
        // the roads change with a result, and start again with a new shoe
        if (roadGame && (m.payload.type === 'result' || (m.topic === 'shoe' && (m.payload as { shoeId?: string }).shoeId !== prevShoe))) {
          this.subject.next({ kind: 'roads', table: t.id, roads: this.roadsOf(snap) });
        }
      }),
    );
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
      return {
        ...s,
        retained: { ...s.retained },
        results: [...s.results],
        alerts: [...s.alerts],
        devices: view ? deviceCounters(view) : {},
        roads: this.roadsOf(s),
      };
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
