/**
 * Everything that watches the tables without changing them: the metrics, the status page feed,
 * the HTTP server (status page, /metrics, /healthz, /readyz) and the `health` reporters.
 * The gateway adds each table BEFORE starting its runtime (so the first envelopes are seen),
 * then calls `start()` once.
 */
import type { GatewayConfig } from '../../core/vocabulary/config-schema.js';
import type { Logger } from '../../runtime/log.js';
import { StatusFeed } from './feed.js';
import type { HttpServer } from './server.js';
import { readFileSync } from 'node:fs';
import { registerSecret } from '../../runtime/log.js';

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}
import { HealthReporter } from './health.js';
import { GatewayMetrics } from './metrics.js';
import type { GatewayInfo } from '../mqtt/gateway-info.js';
import type { TableView } from './table-view.js';
import { RecallReader, type JournalRow } from './recall.js';

export class Observability {
  readonly metrics = new GatewayMetrics();
  readonly feed = new StatusFeed();
  readonly tables: TableView[] = [];
  private readonly reporters: HealthReporter[] = [];
  private server: HttpServer | null = null;
  private recall: RecallReader | undefined;
  private clockSync: (() => unknown) | undefined;

  constructor(
    private readonly cfg: Pick<GatewayConfig, 'http' | 'health'>,
    private readonly log: Logger,
    private readonly info?: GatewayInfo,
  ) {
    if (info) this.metrics.setBuildInfo(info);
  }

  /** the status page's URL, once it listens */
  get httpUrl(): string | null {
    return this.server?.url ?? null;
  }

  /** the journal the status page reads past rounds from (the recall; the results of the shoe in progress) */
  useJournal(journal: { messagesNewestFirst(tableId: string): Iterable<JournalRow> }): void {
    // without the status page nobody reads them: the start does not scan the journal for them
    if (!this.cfg.http.enabled) return;
    this.recall = new RecallReader(journal, this.log, this.cfg.http.recallRounds);
    this.feed.useJournal(journal, (table, seq, reason) => this.log.warn(`status page history of ${table}: journal message seq ${seq} skipped: ${reason}`));
  }

  /** the system clock's synchronisation: `tablegw_clock_synchronized` (1/0/-1) and /healthz's `clock` */
  useClockSync(gauge: () => number, state: () => unknown): void {
    this.metrics.setClockSyncProvider(gauge);
    this.clockSync = state;
  }

  addTable(t: TableView): void {
    this.tables.push(t);
    this.metrics.addTable(t);
    const outbox = t.runtime.outbox;
    if (outbox) this.metrics.setOutboxDepthProvider(t.id, () => outbox.depth);
    this.feed.addTable(t);
    this.reporters.push(new HealthReporter(t, { intervalMs: this.cfg.health.intervalMs, outboxDepth: () => this.metrics.outboxDepth(t.id) }));
  }

  async start(): Promise<void> {
    for (const r of this.reporters) r.start();
    // prom-client after the start (metrics.ts): the tables first
    this.metrics.loadSoon();
    const h = this.cfg.http;
    if (!h.enabled) return;
    try {
      const token = h.tokenFile ? readFileSync(h.tokenFile, 'utf8').trim() : undefined;
      if (h.tokenFile && !token) throw new Error(`http.tokenFile: "${h.tokenFile}" is empty`);
      registerSecret(token);
      if (!token && !isLoopback(h.host))
        this.log.warn(
          `the status page listens on ${h.host}, beyond this PC, without a token: anyone on that network sees cards as they are dealt (set http.tokenFile)`,
        );
      // the HTTP server and its page are loaded only when the status page is on
      const { startHttpServer } = await import('./server.js');
      this.server = await startHttpServer({
        host: h.host,
        port: h.port,
        feed: this.feed,
        metrics: this.metrics,
        tables: this.tables,
        logger: this.log,
        allowedHosts: h.allowedHosts,
        info: this.info,
        ...(token ? { token } : {}),
        ...(this.recall ? { recall: this.recall } : {}),
        ...(this.clockSync ? { clockSync: this.clockSync } : {}),
      });
      this.log.info(`status page on ${this.server.url}/ (metrics ${this.server.url}/metrics, readiness ${this.server.url}/readyz)`);
    } catch (e) {
      // the tables go on without their status page: it is not worth stopping a table for
      this.log.error(`${(e as Error).message}; the gateway runs without its status page and /metrics`);
    }
  }

  /** stops the health reporters first: no health input may reach a runtime that is stopping */
  stopReporters(): void {
    for (const r of this.reporters) r.stop();
  }

  async stop(): Promise<void> {
    this.stopReporters();
    await this.server?.stop();
    this.server = null;
    this.metrics.stop();
    this.feed.stop();
  }
}
