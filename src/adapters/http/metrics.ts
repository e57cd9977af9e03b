/**
 * Prometheus metrics of the gateway (`/metrics`, docs/OPERATIONS.md "Metrics"). Fed from the same
 * envelopes MQTT gets (`published$`) and from the device drivers' counters, read when scraped.
 * One registry per gateway (tests run several gateways in one process).
 *
 * prom-client is loaded out of the way of the start (`loadSoon()`, or at the first scrape): about
 * 25 ms of a cold start (docs/PERFORMANCE.md). What is published before it is loaded is kept and
 * counted when it is, so every counter counts from the start.
 */
import type { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Subscription } from 'rxjs';
import type { DeviceState } from '../../core/table/types.js';
import type { TableView } from './table-view.js';

const DEVICE_STATES: readonly DeviceState[] = ['connected', 'disconnected', 'stale', 'fault'];

/** returns the number of messages waiting for the broker (the durable outbox) */
export type OutboxDepthProvider = () => number;

type BuildInfo = { version: string; commit?: string; node: string; gatewayId: string };

/** one published envelope, as the counters see it */
interface Seen {
  table: string;
  type: string;
  kind?: string;
  severity?: string;
  game?: string;
  status?: string;
  /** frame to hand-over, in seconds (envelopes caused by a frame) */
  latencyS?: number;
}

/** the prom-client side: the registry and the counters fed per envelope */
interface Built {
  registry: Registry;
  alerts: Counter<'table' | 'kind' | 'severity'>;
  rounds: Counter<'table' | 'game' | 'status'>;
  messages: Counter<'table' | 'type'>;
  latency: Histogram<'table'>;
  buildInfo: Gauge<'version' | 'commit' | 'node' | 'gateway_id'>;
}

export class GatewayMetrics {
  private readonly tables: TableView[] = [];
  private readonly subs: Subscription[] = [];
  private readonly outboxProviders = new Map<string, OutboxDepthProvider>();
  /** the system clock's synchronisation: 1 / 0 / -1 unknown (adapters/systemd/clock-sync.ts) */
  private clockSync: () => number = () => -1;
  private built: Built | null = null;
  private loading: Promise<Built> | null = null;
  /** envelopes seen before prom-client is loaded */
  private backlog: Seen[] = [];
  private info: BuildInfo | null = null;
  private soon: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly opts: { defaultMetrics?: boolean } = {}) {}

  /** what `tablegw_clock_synchronized` reports (1 synchronised, 0 not, -1 unknown) */
  setClockSyncProvider(fn: () => number): void {
    this.clockSync = fn;
  }

  /** `tablegw_build_info{version,commit,node,gateway_id} 1` (the gateway's `info`, mqtt-api.md) */
  setBuildInfo(info: BuildInfo): void {
    this.info = info;
    if (this.built) this.applyBuildInfo(this.built);
  }

  private applyBuildInfo(b: Built): void {
    const info = this.info;
    b.buildInfo.reset();
    if (info) b.buildInfo.set({ version: info.version, commit: info.commit ?? 'unknown', node: info.node, gateway_id: info.gatewayId }, 1);
  }

  /** loads prom-client after `ms` (the gateway calls it once its tables are started) */
  loadSoon(ms = 1000): void {
    if (this.built || this.loading || this.soon) return;
    this.soon = setTimeout(() => {
      this.soon = null;
      void this.load();
    }, ms);
    this.soon.unref?.();
  }

  /** loads prom-client and builds the registry (once); the envelopes seen so far are counted */
  load(): Promise<Built> {
    this.loading ??= import('prom-client').then((m) => {
      // a CommonJS module: its exports are the namespace under Node, `default` in the bundle
      const prom = typeof m.Registry === 'function' ? m : (m as unknown as { default: typeof m }).default;
      const b = this.build(prom);
      this.built = b;
      this.applyBuildInfo(b);
      for (const e of this.backlog) this.count(b, e);
      this.backlog = [];
      return b;
    });
    return this.loading;
  }

  private count(b: Built, e: Seen): void {
    b.messages.inc({ table: e.table, type: e.type });
    if (e.type === 'alert') b.alerts.inc({ table: e.table, kind: e.kind!, severity: e.severity! });
    else if (e.type === 'result') b.rounds.inc({ table: e.table, game: e.game!, status: e.status! });
    if (e.latencyS !== undefined) b.latency.observe({ table: e.table }, e.latencyS);
  }

  private build(prom: typeof import('prom-client')): Built {
    const { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } = prom;
    const registry = new Registry();
    const registers = [registry];
    const opts = this.opts;
    const tables = this.tables;
    const each = (fn: (t: TableView) => void) => {
      for (const t of tables) fn(t);
    };

    // the process metrics under their standard names (`process_*`, `nodejs_*`), which the usual
    // Node.js dashboards and alerts expect; the gateway's own are `tablegw_*`
    if (opts.defaultMetrics ?? true) collectDefaultMetrics({ register: registry });

    const driverCounter = (name: string, help: string, read: (d: TableView['runtime']['drivers'][number]) => number) =>
      new Counter({
        name,
        help,
        labelNames: ['table', 'device'] as const,
        registers,
        collect() {
          this.reset();
          each((t) => {
            for (const d of t.runtime.drivers) this.inc({ table: t.id, device: d.deviceId }, read(d));
          });
        },
      });
    new Counter({
      name: 'tablegw_requests_refused_total',
      help: "Engine requests refused at the table's edge, by outcome: answered with a code (rate-limited, too-large, not-allowed, duplicate-round-id), dropped unanswered beyond the answer bound, retained copies not executed, or retries of answered requests answered again without executing them (replayed)",
      labelNames: ['table', 'outcome'] as const,
      registers,
      collect() {
        this.reset();
        each((t) => {
          const c = t.runtime.requestCounts;
          if (!c) return;
          for (const [code, n] of Object.entries(c.refused)) this.inc({ table: t.id, outcome: code }, n ?? 0);
          this.inc({ table: t.id, outcome: 'dropped-unanswered' }, c.droppedUnanswered);
          this.inc({ table: t.id, outcome: 'retained-ignored' }, c.retainedIgnored);
          this.inc({ table: t.id, outcome: 'replayed' }, c.replayed ?? 0);
        });
      },
    });
    driverCounter('tablegw_device_frames_total', 'Valid frames received from each device since the gateway started', (d) => d.framesTotal);
    driverCounter('tablegw_device_bad_frames_total', 'Frames rejected (checksum, framing, unknown type, ...) from each device', (d) => d.rejectedTotal);
    new Counter({
      name: 'tablegw_device_rejects_total',
      help: 'Frames rejected from each device since the gateway started, by reason (bad-checksum, malformed, noise, too-long, unknown-type, bad-field, ...)',
      labelNames: ['table', 'device', 'reason'] as const,
      registers,
      collect() {
        this.reset();
        each((t) => {
          for (const d of t.runtime.drivers)
            for (const [reason, n] of Object.entries(d.rejectedByReason ?? {})) this.inc({ table: t.id, device: d.deviceId, reason }, n);
        });
      },
    });
    driverCounter('tablegw_device_duplicate_frames_total', 'Retransmitted frames dropped as duplicates (same SEQ) from each device', (d) => d.duplicates);

    new Gauge({
      name: 'tablegw_device_state',
      help: 'Device state: 1 for the state the device is in, 0 for the others',
      labelNames: ['table', 'device', 'kind', 'state'] as const,
      registers,
      collect() {
        this.reset();
        each((t) => {
          for (const [id, d] of Object.entries(t.runtime.snapshot.devices)) {
            for (const s of DEVICE_STATES) this.set({ table: t.id, device: id, kind: d.kind, state: s }, d.state === s ? 1 : 0);
          }
        });
      },
    });
    new Gauge({
      name: 'tablegw_mqtt_connected',
      help: "1 while the table's MQTT connection is up",
      labelNames: ['table'] as const,
      registers,
      collect() {
        this.reset();
        each((t) => this.set({ table: t.id }, t.link.connected ? 1 : 0));
      },
    });
    new Gauge({
      name: 'tablegw_mqtt_broker',
      help: 'The broker each table is on: 1 for the URL of mqtt.url it is connected to (none while disconnected)',
      labelNames: ['table', 'broker'] as const,
      registers,
      collect() {
        this.reset();
        each((t) => {
          if (t.link.broker) this.set({ table: t.id, broker: t.link.broker }, 1);
        });
      },
    });
    new Gauge({
      name: 'tablegw_mqtt_requests_subscribed',
      help: "1 while the table's request/+ subscription is granted by the broker",
      labelNames: ['table'] as const,
      registers,
      collect() {
        this.reset();
        each((t) => this.set({ table: t.id }, t.link.connected && (t.link.requestsSubscribed ?? true) ? 1 : 0));
      },
    });
    new Gauge({
      name: 'tablegw_mqtt_broker_stalled',
      help: "1 while the table's broker acknowledges nothing (no PUBACK within mqtt.ackTimeoutMs with messages in flight)",
      labelNames: ['table'] as const,
      registers,
      collect() {
        this.reset();
        each((t) => this.set({ table: t.id }, t.runtime.brokerStall ? 1 : 0));
      },
    });
    new Gauge({
      name: 'tablegw_table_seq',
      help: 'The last seq the table used',
      labelNames: ['table'] as const,
      registers,
      collect() {
        this.reset();
        each((t) => this.set({ table: t.id }, t.runtime.snapshot.seq));
      },
    });
    const clockSync = () => this.clockSync();
    new Gauge({
      name: 'tablegw_clock_synchronized',
      help: "The system clock's synchronisation (NTP) as the gateway last read it: 1 synchronised, 0 not, -1 unknown (nothing on the machine says)",
      registers,
      collect() {
        this.set(clockSync());
      },
    });
    const providers = this.outboxProviders;
    new Gauge({
      name: 'tablegw_outbox_depth',
      help: 'Messages waiting to be delivered to the broker (only tables whose outbox reports it)',
      labelNames: ['table'] as const,
      registers,
      collect() {
        this.reset();
        // each table's outbox registers its depth with setOutboxDepthProvider (observability.ts does it for runtime.outbox)
        for (const [table, fn] of providers) {
          try {
            this.set({ table }, fn());
          } catch {
            // a failing provider must not break the scrape
          }
        }
      },
    });

    return {
      registry,
      alerts: new Counter({
        name: 'tablegw_alerts_total',
        help: 'Alerts published, by kind and severity',
        labelNames: ['table', 'kind', 'severity'] as const,
        registers,
      }),
      rounds: new Counter({
        name: 'tablegw_rounds_total',
        help: 'Round results published, by game and status (complete / void)',
        labelNames: ['table', 'game', 'status'] as const,
        registers,
      }),
      messages: new Counter({
        name: 'tablegw_messages_published_total',
        help: 'Messages handed to MQTT, by type',
        labelNames: ['table', 'type'] as const,
        registers,
      }),
      latency: new Histogram({
        name: 'tablegw_frame_to_publish_seconds',
        help: "From a device frame's arrival (input `at`) to the hand-over of the messages it caused to the MQTT client (millisecond resolution)",
        labelNames: ['table'] as const,
        registers,
        buckets: [0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      }),
      buildInfo: new Gauge({
        name: 'tablegw_build_info',
        help: 'The gateway build: always 1, its labels name the version, the commit, the Node.js version and the gateway id',
        labelNames: ['version', 'commit', 'node', 'gateway_id'] as const,
        registers,
      }),
    };
  }

  /** starts counting a table's messages; its drivers and state are read at each scrape */
  addTable(t: TableView, clock: () => number = Date.now): void {
    this.tables.push(t);
    this.subs.push(
      t.runtime.published$.subscribe((m) => {
        const p = m.payload;
        const e: Seen = { table: t.id, type: p.type };
        if (p.type === 'alert') {
          e.kind = String(p.kind);
          e.severity = String(p.severity);
        } else if (p.type === 'result') {
          e.game = p.game;
          e.status = String(p.status);
        }
        if (m.cause?.type === 'frame') e.latencyS = Math.max(0, clock() - m.cause.at) / 1000;
        if (this.built) this.count(this.built, e);
        else if (!this.stopped) this.backlog.push(e);
      }),
    );
  }

  /** the durable outbox of `tableId` reports its depth through `fn` (read at each scrape) */
  setOutboxDepthProvider(tableId: string, fn: OutboxDepthProvider): void {
    this.outboxProviders.set(tableId, fn);
  }

  outboxDepth(tableId: string): number | null {
    const fn = this.outboxProviders.get(tableId);
    if (!fn) return null;
    try {
      return fn();
    } catch {
      return null;
    }
  }

  /** the exposition text for `/metrics` (loads prom-client if it is not yet) */
  async text(): Promise<string> {
    return (await this.load()).registry.metrics();
  }

  /** the exposition format's content type (Prometheus text 0.0.4) */
  get contentType(): string {
    return this.built?.registry.contentType ?? 'text/plain; version=0.0.4; charset=utf-8';
  }

  stop(): void {
    this.stopped = true;
    if (this.soon) clearTimeout(this.soon);
    this.soon = null;
    this.backlog = [];
    for (const s of this.subs) s.unsubscribe();
    this.subs.length = 0;
  }
}
