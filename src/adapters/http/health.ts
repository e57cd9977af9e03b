/**
 * Health: `/healthz` (the process is up), `/readyz` (every table's broker connection and every
 * device are up, its requests subscribed, its broker acknowledging) and the retained
 * `<prefix>/<table>/health` message.
 *
 * The `health` message goes THROUGH the table machine as a `health` input (like a timer firing):
 * so it gets its `seq` in the table's one ordered stream, the journal records it and a replay
 * reproduces it. The input carries what the runtime observed (broker connection, outbox depth,
 * device frame counters); the machine adds the device states it knows, publishes, and changes
 * nothing but `seq` (test/unit/table/health-input.test.ts holds it to that).
 * It is sent every `intervalMs` and, debounced, whenever the table's problems change; right after a
 * connect a scheduled one waits up to SUBACK_WAIT_MS for the request subscription's SUBACK, then
 * says `subscribing` rather than a refusal.
 */
import type { Subscription } from 'rxjs';
import { tableProblems, type HealthReport, type LinkProblems } from '../../core/table/health.js';
import type { TableView } from './table-view.js';
import { wallClock } from '../../runtime/clock.js';

export interface Readiness {
  ready: boolean;
  tables: Array<{ table: string; ready: boolean; mqtt: 'connected' | 'disconnected'; broker?: string | null; problems: string[] }>;
}

/** what a table's link reports besides being connected: its subscription pending, a stalled broker */
function linkProblems(t: TableView): LinkProblems {
  return { subscribing: t.link.requestsSubscription === 'subscribing', brokerStalled: t.runtime.brokerStall ?? null };
}

/** `/readyz`: ready when every table's broker connection and every device are up, and its broker acknowledges */
export function readiness(tables: readonly TableView[]): Readiness {
  const out = tables.map((t) => {
    const problems = tableProblems(t.link.connected, t.runtime.snapshot.devices, t.link.requestsSubscribed ?? true, linkProblems(t));
    return {
      table: t.id,
      ready: problems.length === 0,
      mqtt: t.link.connected ? ('connected' as const) : ('disconnected' as const),
      ...(t.link.broker !== undefined ? { broker: t.link.broker } : {}),
      problems,
    };
  });
  return { ready: out.every((t) => t.ready), tables: out };
}

const processStart = wallClock() - Math.round(process.uptime() * 1000);

/** how long a scheduled `health` waits for the SUBACK of a new connection before it says `subscribing` */
export const SUBACK_WAIT_MS = 2_000;

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
  /** since when (performance.now) a scheduled health has been waiting for the SUBACK */
  private subscribingSince: number | null = null;

  constructor(
    private readonly t: TableView,
    private readonly o: HealthReporterOptions,
  ) {}

  start(): void {
    const check = () => this.checkChange();
    // device messages and link changes may change the problems: look after the current step
    this.subs.push(
      this.t.runtime.published$.subscribe((m) => {
        if (m.payload.type === 'device') check();
      }),
    );
    this.subs.push(this.t.link.connected$.subscribe(check));
    if (this.t.link.changed$) this.subs.push(this.t.link.changed$.subscribe(check));
    const stall$ = this.t.runtime.outbox?.stall$;
    if (stall$) this.subs.push(stall$.subscribe(check));
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
    return [
      ...tableProblems(this.t.link.connected, this.t.runtime.snapshot.devices, this.t.link.requestsSubscribed ?? true, linkProblems(this.t)),
      this.t.link.broker ?? '',
    ].join('\n');
  }

  private checkChange(): void {
    if (this.problemsKey() !== this.lastKey) this.schedule();
  }

  /** never from inside a step: the health input must come after the step's own messages */
  private schedule(): void {
    if (this.pending || this.stopped) return;
    this.pending = setTimeout(() => {
      this.pending = null;
      // a new connection's SUBACK on its way: the health waits for it (up to SUBACK_WAIT_MS) rather than report the subscription missing
      if (this.awaitingSuback()) {
        this.schedule();
        return;
      }
      this.publish();
    }, this.o.debounceMs ?? 250);
    this.pending.unref();
  }

  private awaitingSuback(): boolean {
    if (this.t.link.requestsSubscription !== 'subscribing') {
      this.subscribingSince = null;
      return false;
    }
    const now = performance.now();
    this.subscribingSince ??= now;
    return now - this.subscribingSince < SUBACK_WAIT_MS;
  }

  report(): HealthReport {
    const clock = this.o.clock ?? wallClock;
    const devices: HealthReport['devices'] = {};
    for (const d of this.t.runtime.drivers) {
      const serial = d.latency;
      devices[d.deviceId] = { frames: d.framesTotal, rejected: d.rejectedTotal, duplicates: d.duplicates, ...(serial ? { serial: { ...serial } } : {}) };
    }
    return {
      mqtt: this.t.link.connected ? 'connected' : 'disconnected',
      ...(this.t.link.broker ? { broker: this.t.link.broker } : {}),
      ...(this.t.link.requestsSubscribed === false && this.t.link.connected ? { requestsSubscribed: false } : {}),
      ...(this.t.link.requestsSubscribed === false && this.t.link.connected && this.t.link.requestsSubscription === 'subscribing' ? { subscribing: true } : {}),
      ...(this.t.runtime.brokerStall ? { brokerStalled: this.t.runtime.brokerStall } : {}),
      uptimeSec: Math.max(0, Math.floor((clock() - processStart) / 1000)),
      outboxDepth: this.o.outboxDepth?.() ?? null,
      devices,
    };
  }

  publish(): void {
    if (this.stopped) return;
    this.lastKey = this.problemsKey();
    const clock = this.o.clock ?? wallClock;
    this.t.runtime.apply({ type: 'health', at: clock(), report: this.report() });
  }
}
