/** Starts dev/bench/gateway-child.ts in its own process and talks to it over IPC. */
import { fork, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configSchema } from '../../../src/core/vocabulary/config-schema.js';
import type { CardProbe } from './latency-probe.js';
import { gatewayChildEntry } from './gateway-bundle.js';
import { benchExtraNodeFlags, MANY_TABLES_NODE_FLAGS, productionNodeFlags } from './node-flags.js';

export interface Usage {
  cpu: NodeJS.CpuUsage;
  rss: number;
  heapUsed: number;
  elu: { idle: number; active: number; utilization: number };
  uptimeMs: number;
  /** the main thread's garbage collections since the previous `usage()` */
  gc: GcWindow;
  /**
   * since the previous `usage()`: how late the main thread's event loop came round to a 1 ms timer
   * (perf_hooks' monitorEventLoopDelay): a loop that is busy, blocked or not scheduled delays every card
   */
  loopDelay: LoopDelay;
}

/** how late an event loop came round to a 1 ms timer over a window, in ms */
export interface LoopDelay {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface GcWindow {
  /** young-generation collections (scavenges) and the time they stopped the thread */
  minor: number;
  minorMs: number;
  /** full mark-compact collections (their final, stopping part) */
  major: number;
  majorMs: number;
  /** the longest single pause */
  maxPauseMs: number;
}

export interface GatewayProc {
  pid: number;
  startMs: number;
  usage(): Promise<Usage>;
  gc(): Promise<{ rss: number; heapUsed: number }>;
  /** the latency probe's records since the last call (empty unless started with `probe`) */
  probe(): Promise<CardProbe[]>;
  stop(): Promise<void>;
}

export interface BenchTable {
  id: string;
  gatewayPath: string;
}

/**
 * A config for `tables` baccarat tables on serial lines and an external broker. Keys that only
 * some versions of the schema know (status page, health) are set when the schema has them, so the
 * bench runs against the tree as it is: the HTTP page on a free port (0), everything else default.
 */
export function benchConfig(o: {
  brokerUrl: string;
  topicPrefix: string;
  dataDir: string;
  tables: readonly BenchTable[];
  /** `journal.synchronous` when the schema has it (default: the product default) */
  synchronous?: 'full' | 'normal';
  /** `journal.writer` when the schema has it (default: the product default) */
  writer?: 'inline' | 'thread';
}): Record<string, unknown> {
  const cfg: Record<string, unknown> = {
    mqtt: { url: o.brokerUrl, topicPrefix: o.topicPrefix, clientIdPrefix: `${o.topicPrefix}-` },
    dataDir: o.dataDir,
    // the product's log level (info: a line per round and per shoe), written by the child as
    // `tablegw start` writes it (dev/bench/gateway-child.ts)
    tables: o.tables.map((t) => ({
      id: t.id,
      game: 'baccarat',
      betting: 'none',
      // no heartbeats in the bench: without this a table idle between phases would go stale
      devices: [{ id: 'shoe-1', kind: 'card-shoe', staleAfterMs: 600_000, transport: { type: 'serial', path: t.gatewayPath } }],
    })),
  };
  const shape = (configSchema as unknown as { shape?: Record<string, unknown> }).shape ?? {};
  if ('http' in shape) cfg.http = { port: 0 };
  if (o.synchronous && 'journal' in shape) cfg.journal = { synchronous: o.synchronous };
  // by hand: TEG_BENCH_JOURNAL_WRITER=inline|thread compares where the journal commits
  const writer = o.writer ?? process.env.TEG_BENCH_JOURNAL_WRITER;
  if (writer && 'journal' in shape) cfg.journal = { ...(cfg.journal as object | undefined), writer };
  return cfg;
}

/** the config's `journal` defaults, or null when the schema has no journal */
function journalDefaults(): Record<string, unknown> | null {
  const shape = (configSchema as unknown as { shape?: Record<string, unknown> }).shape ?? {};
  if (!('journal' in shape)) return null;
  const parsed = configSchema.safeParse({
    tables: [{ id: 'x', game: 'baccarat', devices: [{ id: 'd', kind: 'card-shoe', transport: { type: 'serial', path: '/dev/null' } }] }],
  });
  return parsed.success ? ((parsed.data as { journal?: Record<string, unknown> }).journal ?? null) : null;
}

/** whether the config has `journal.writer` (commits on the event loop or a writer thread) */
export function journalWriterOption(): boolean {
  return 'writer' in (journalDefaults() ?? {});
}

/** the config's journal.synchronous default, or null when the schema has no journal */
export function journalDefault(): string | null {
  return (journalDefaults()?.synchronous as string | undefined) ?? null;
}

export async function startGatewayProc(o: {
  config: Record<string, unknown>;
  dir: string;
  name: string;
  profileDir?: string;
  exposeGc?: boolean;
  timeoutMs?: number;
  /** per-stage timestamps of every card (TEG_LATENCY_PROBE=1) */
  probe?: boolean;
  /** with the node flags deploy/tablegw.default gives a PC of many tables (MANY_TABLES_NODE_FLAGS) */
  manyTables?: boolean;
}): Promise<GatewayProc> {
  const file = join(o.dir, `${o.name}.config.json`);
  writeFileSync(file, JSON.stringify(o.config));
  // the shipped unit's node flags (deploy/tablegw.service), the many-table PC's if asked; the
  // gateway bundled as production runs it (tsx only with TEG_BENCH_GATEWAY=sources)
  const entry = await gatewayChildEntry();
  const execArgv = [...productionNodeFlags(), ...(o.manyTables ? MANY_TABLES_NODE_FLAGS : []), ...entry.execArgv];
  if (o.exposeGc) execArgv.push('--expose-gc');
  // extra node flags for the gateway under test, e.g. TEG_BENCH_NODE_FLAGS=--perf-basic-prof for `perf record`
  execArgv.push(...benchExtraNodeFlags());
  // one directory per gateway (named *.cpuprofile: .gitignore), a profile per thread (main, and tsx's loader with the sources)
  if (o.profileDir) execArgv.push('--cpu-prof', '--cpu-prof-dir', join(o.profileDir, `gateway-${o.name}.cpuprofile`));
  // TEG_BENCH_CHILD_STDOUT=<prefix>: the child's stdout into <prefix><name>.log (e.g. with
  // TEG_BENCH_NODE_FLAGS=--trace-gc-nvp: each collection, and what it promoted to the old generation)
  const out = process.env.TEG_BENCH_CHILD_STDOUT ? openSync(`${process.env.TEG_BENCH_CHILD_STDOUT}${o.name}.log`, 'w') : 'ignore';
  const child: ChildProcess = fork(entry.path, [file], {
    execArgv,
    stdio: ['ignore', out, 'pipe', 'ipc'],
    env: o.probe ? { ...process.env, TEG_LATENCY_PROBE: '1' } : process.env,
  });
  if (typeof out === 'number') closeSync(out); // the child has its own copy
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => {
    if (stderr.length < 20_000) stderr += c.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const waiters: Array<(m: any) => boolean> = [];
  child.on('message', (m: any) => {
    for (let i = 0; i < waiters.length; i++) {
      if (waiters[i](m)) {
        waiters.splice(i, 1);
        return;
      }
    }
  });
  const waitFor = <T>(type: string, timeoutMs: number): Promise<T> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`gateway child: no ${type} within ${timeoutMs} ms; stderr:\n${stderr}`)), timeoutMs);
      const onExit = () => reject(new Error(`gateway child exited (waiting for ${type}); stderr:\n${stderr}`));
      child.once('exit', onExit);
      waiters.push((m) => {
        if (m?.type !== type) return false;
        clearTimeout(timer);
        child.off('exit', onExit);
        resolve(m as T);
        return true;
      });
    });
  const ready = await waitFor<{ startMs: number }>('ready', o.timeoutMs ?? 60_000);
  let stopped = false;
  return {
    pid: child.pid!,
    startMs: ready.startMs,
    async usage() {
      child.send({ type: 'usage' });
      return waitFor<Usage>('usage', 10_000);
    },
    async gc() {
      child.send({ type: 'gc' });
      return waitFor<{ rss: number; heapUsed: number }>('gc-done', 10_000);
    },
    async probe() {
      child.send({ type: 'probe' });
      return (await waitFor<{ records: CardProbe[] }>('probe', 30_000)).records;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      if (child.exitCode === null && child.signalCode === null) {
        child.send({ type: 'stop' });
        const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(t);
      }
    },
  };
}
