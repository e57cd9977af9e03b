/**
 * Health: `/healthz` (the process is up), `/readyz` (every table's broker connection and every
 * device are up) and the retained `<prefix>/<table>/health` message.
 *
 * The `health` message goes THROUGH the table machine as a `health` input (like a timer firing):
 * so it gets its `seq` in the table's one ordered stream, the journal records it and a replay
 * reproduces it. The input carries what the runtime observed (broker connection, outbox depth,
 * device frame counters); the machine adds the device states it knows, publishes, and changes
 * nothing but `seq` (test/unit/table/health-input.test.ts holds it to that).
 * It is sent every `intervalMs` and, debounced, whenever the table's problems change.
 */
import type { Subscription } from 'rxjs';
import { tableProblems, type HealthReport } from '../../core/table/health.js';
import type { TableView } from './table-view.js';

export interface Readiness {
  ready: boolean;
  tables: Array<{ table: string; ready: boolean; mqtt: 'connected' | 'disconnected'; broker?: string | null; problems: string[] }>;
}

/** `/readyz`: ready when every table's broker connection and every device are up */
export function readiness(tables: readonly TableView[]): Readiness {
  const out = tables.map((t) => {
    const problems = tableProblems(t.link.connected, t.runtime.snapshot.devices, t.link.requestsSubscribed ?? true);
    return {
      table: t.id, ready: problems.length === 0, mqtt: t.link.connected ? 'connected' as const : 'disconnected' as const,
      ...(t.link.broker !== undefined ? { broker: t.link.broker } : {}), problems,
    };
  });
  return { ready: out.every((t) => t.ready), tables: out };
}

const processStart = Date.now() - Math.round(process.uptime() * 1000);

export interface HealthReporterOptions {
  /** periodic health message; 0 = only when the problems change */
  intervalMs: number;
  outboxDepth?: () => number | null;
  clock?: () => number;
  /** coalesces bursts of changes (device flaps) into one message */
  debounceMs?: number;
}

/** Feeds `health` inputs to one table's machine. */
export class HealthReporter {
  private interval: NodeJS.Timeout | null = null;
  private pending: NodeJS.Timeout | null = null;
  private readonly subs: Subscription[] = [];
  private lastKey = '';
  private stopped = false;

  constructor(private readonly t: TableView, private readonly o: HealthReporterOptions) {}

  start(): void {
    const check = () => this.checkChange();
    // device messages and link changes may change the problems: look after the current step
    this.subs.push(this.t.runtime.published$.subscribe((m) => { if (m.payload.type === 'device') check(); }));
    this.subs.push(this.t.link.connected$.subscribe(check));
    if (this.t.link.changed$) this.subs.push(this.t.link.changed$.subscribe(check));
    if (this.o.intervalMs > 0) {
      this.interval = setInterval(() => this.publish(), this.o.intervalMs);
      this.interval.unref();
    }
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    for (const s of this.subs) s.unsubscribe();
    this.subs.length = 0;
    if (this.interval) clearInterval(this.interval);
    if (this.pending) clearTimeout(this.pending);
    this.interval = this.pending = null;
  }

  private problemsKey(): string {
    return [...tableProblems(this.t.link.connected, this.t.runtime.snapshot.devices, this.t.link.requestsSubscribed ?? true), this.t.link.broker ?? ''].join('\n');
  }

  private checkChange(): void {
    if (this.problemsKey() !== this.lastKey) this.schedule();
  }

  /** never from inside a step: the health input must come after the step's own messages */
  private schedule(): void {
    if (this.pending || this.stopped) return;
    this.pending = setTimeout(() => {
      this.pending = null;
      this.publish();
    }, this.o.debounceMs ?? 250);
    this.pending.unref();
  }

  report(): HealthReport {
    const clock = this.o.clock ?? Date.now;
    const devices: HealthReport['devices'] = {};
    for (const d of this.t.runtime.drivers) {
      const serial = d.latency;
      devices[d.deviceId] = { frames: d.framesTotal, rejected: d.rejectedTotal, duplicates: d.duplicates, ...(serial ? { serial: { ...serial } } : {}) };
    }
    return {
      mqtt: this.t.link.connected ? 'connected' : 'disconnected',
      ...(this.t.link.broker ? { broker: this.t.link.broker } : {}),
      ...(this.t.link.requestsSubscribed === false && this.t.link.connected ? { requestsSubscribed: false } : {}),
      uptimeSec: Math.max(0, Math.floor((clock() - processStart) / 1000)),
      outboxDepth: this.o.outboxDepth?.() ?? null,
      devices,
    };
  }

  publish(): void {
    if (this.stopped) return;
    this.lastKey = this.problemsKey();
    const clock = this.o.clock ?? Date.now;
    this.t.runtime.apply({ type: 'health', at: clock(), report: this.report() });
  }
}
