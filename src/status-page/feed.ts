/**
 * The status page's view of the tables, kept from each table's `published$` — the same envelopes
 * MQTT gets, so there is no second source of truth. It keeps what a new page needs at connect
 * time: the last envelope per retained topic (what a fresh MQTT subscriber would get), plus the
 * recent results (the bead road) and alerts, and the link state (the `status` topic's content).
 */
import { Subject, type Observable, type Subscription } from 'rxjs';
import type { Envelope } from '../table/types.js';
import type { TableView } from '../metrics/table-view.js';

export type FeedEvent =
  | { kind: 'msg'; table: string; topic: string; retain: boolean; payload: Envelope }
  | { kind: 'link'; table: string; connected: boolean; broker?: string | null };

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
}

export interface StatusFeedOptions {
  historySize?: number;
  alertsSize?: number;
}

export class StatusFeed {
  private readonly subject = new Subject<FeedEvent>();
  readonly events$: Observable<FeedEvent> = this.subject.asObservable();
  private readonly tables = new Map<string, TableSnapshot>();
  private readonly subs: Subscription[] = [];
  private readonly historySize: number;
  private readonly alertsSize: number;

  constructor(opts: StatusFeedOptions = {}) {
    this.historySize = opts.historySize ?? 120;
    this.alertsSize = opts.alertsSize ?? 50;
  }

  addTable(t: TableView): void {
    const snap: TableSnapshot = { table: t.id, game: t.game, connected: t.link.connected, broker: t.link.broker ?? null, retained: {}, results: [], alerts: [] };
    this.tables.set(t.id, snap);
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
    return [...this.tables.values()].map((s) => ({ ...s, retained: { ...s.retained }, results: [...s.results], alerts: [...s.alerts] }));
  }

  stop(): void {
    for (const s of this.subs) s.unsubscribe();
    this.subs.length = 0;
    this.subject.complete();
  }
}

function push<T>(list: T[], item: T, max: number): void {
  list.push(item);
  if (list.length > max) list.splice(0, list.length - max);
}
