/**
 * Cold start and idle footprint of the production start: `node dist/src/app/cli/main.js start
 * --config <file>` (dist/ is built with `npm run build` first when it is missing or older than a
 * source file), from spawning the process to a subscriber holding the retained `status: online`
 * of every table, and the gateway process's RSS once it is idle. Two configurations:
 *
 * - `oneTableExternal`: one baccarat table on a serial line (a socat pty, nothing dealt) and an
 *   external Mosquitto (started by the bench), the status page on (port 0) — a table PC;
 * - `demoEmbedded`: the 10-table demo (config/default.yaml: every game simulated in real time)
 *   with the embedded broker, the status page on, dataDir in the bench's temp dir.
 *
 * RSS is read twice: 3 s after `online` (`rssAt3sMb`), and once V8's memory reducer has run on
 * the idle process (`rssSettledMb`, 30 s after `online`): the reducer returns the heap grown
 * during the start only after the process has been idle for a while.
 *
 * Beside them the same one-table start under `node --import tsx src/app/cli/main.ts` (how `npm
 * start` runs the sources in development: everything transpiled by tsx's loader, cache warm).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import mqtt from 'mqtt';
import { parse as parseYaml } from 'yaml';
import { freePort, startBroker, type Broker } from './lib/broker.js';
import { openPty, type BenchPty } from './lib/pty.js';
import { benchExtraNodeFlags, productionNodeFlags } from './lib/node-flags.js';
import { mb, median, percentile, rssOfPid } from './lib/stats.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DIST_ENTRY = join(ROOT, 'dist', 'src', 'app', 'cli', 'main.js');

export interface StartupOptions {
  dir: string;
  runs: number;
  log: (s: string) => void;
  /** wait for the memory reducer (30 s per configuration); off in --quick */
  settle: boolean;
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const s = statSync(p);
    newest = Math.max(newest, s.isDirectory() ? newestMtime(p) : s.mtimeMs);
  }
  return newest;
}

/** builds dist/ when it is missing or older than a source file; returns the build time or 0 */
export function ensureDist(log: (s: string) => void): number {
  const sources = Math.max(...['src', 'drivers', 'simulators'].map((d) => newestMtime(join(ROOT, d))));
  if (existsSync(DIST_ENTRY) && statSync(DIST_ENTRY).mtimeMs >= sources) return 0;
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm run build failed:\n${r.stdout}${r.stderr}`);
  const ms = Math.round(performance.now() - t0);
  log(`  dist/ was stale: built in ${ms} ms`);
  return ms;
}

interface Case {
  /** the config for start number n */
  config: (n: number) => Record<string, unknown>;
  /** where the retained statuses are: the external broker, or the embedded one of config n */
  brokerUrl: (cfg: Record<string, unknown>) => string;
  prefix: (n: number) => string;
  tables: string[];
}

/** resolves with the time every table's retained `status` said online (polls until the broker is up) */
async function waitOnline(url: string, prefix: string, tables: readonly string[], child: ChildProcess, timeoutMs: number): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the gateway exited with ${child.exitCode}`);
    if (performance.now() > deadline) throw new Error('no status online');
    const c = mqtt.connect(url, {
      reconnectPeriod: 0,
      connectTimeout: 2000,
      protocolVersion: 4,
      clientId: `bench-start-${Math.random().toString(16).slice(2)}`,
    });
    c.on('error', () => {});
    const connected = await new Promise<boolean>((resolve) => {
      c.once('connect', () => resolve(true));
      c.once('close', () => resolve(false));
    });
    if (!connected) {
      c.end(true);
      await new Promise((r) => setTimeout(r, 5));
      continue;
    }
    try {
      return await new Promise<number>((resolve, reject) => {
        const waiting = new Set(tables);
        const timer = setTimeout(() => reject(new Error(`no status online from ${[...waiting].join(', ')}`)), Math.max(1, deadline - performance.now()));
        c.on('message', (topic, payload) => {
          try {
            if ((JSON.parse(payload.toString()) as { state?: string }).state !== 'online') return;
          } catch {
            return;
          }
          waiting.delete(topic.slice(prefix.length + 1, -'/status'.length));
          if (waiting.size === 0) {
            clearTimeout(timer);
            resolve(performance.now());
          }
        });
        c.on('close', () => {
          if (child.exitCode !== null) reject(new Error(`the gateway exited with ${child.exitCode}`));
        });
        c.subscribe(`${prefix}/+/status`, { qos: 1 });
      });
    } finally {
      c.end(true);
    }
  }
}

interface StartSample {
  ms: number;
  rssAt3sMb: number | null;
  rssSettledMb: number | null;
}

async function oneStart(o: StartupOptions, argv: string[], c: Case, n: number, measureRss: boolean): Promise<StartSample> {
  const cfg = c.config(n);
  const file = join(o.dir, `start-${n}.json`);
  writeFileSync(file, JSON.stringify(cfg));
  const t0 = performance.now();
  const child = spawn(argv[0], [...argv.slice(1), 'start', '--config', file], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, LOG_FORMAT: 'json' },
  });
  let err = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    if (err.length < 8000) err += chunk.toString();
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  try {
    const t1 = await waitOnline(c.brokerUrl(cfg), c.prefix(n), c.tables, child, 30_000);
    const sample: StartSample = { ms: Math.round(t1 - t0), rssAt3sMb: null, rssSettledMb: null };
    if (measureRss) {
      await new Promise((r) => setTimeout(r, Math.max(0, t1 + 3000 - performance.now())));
      sample.rssAt3sMb = mb(rssOfPid(child.pid!));
      if (o.settle) {
        await new Promise((r) => setTimeout(r, Math.max(0, t1 + 30_000 - performance.now())));
        sample.rssSettledMb = mb(rssOfPid(child.pid!));
      }
    }
    return sample;
  } catch (e) {
    throw new Error(`${(e as Error).message}; stderr: ${err.slice(0, 2000)}`);
  } finally {
    child.kill('SIGTERM');
    const t = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(t);
  }
}

async function runCase(o: StartupOptions, name: string, argv: string[], c: Case, first: number, note: string) {
  const times: number[] = [];
  let rss: StartSample | null = null;
  await oneStart(o, argv, c, first, false); // warm the page cache
  const loadAvg = os.loadavg().map((x) => Math.round(x * 100) / 100);
  for (let i = 0; i < o.runs; i++) {
    const r = await oneStart(o, argv, c, first + 1 + i, i === o.runs - 1);
    times.push(r.ms);
    if (r.rssAt3sMb !== null) rss = r;
  }
  const out = {
    medianMs: median(times),
    minMs: Math.min(...times),
    maxMs: Math.max(...times),
    samplesMs: times,
    rssAt3sMb: rss?.rssAt3sMb ?? null,
    rssSettledMb: rss?.rssSettledMb ?? null,
    loadAvg,
    note,
  };
  o.log(
    `  ${name}: to online median ${out.medianMs} ms (min ${out.minMs}, max ${out.maxMs}); RSS ${out.rssAt3sMb} MB 3 s after online${out.rssSettledMb !== null ? `, ${out.rssSettledMb} MB after 30 s` : ''}; load ${loadAvg.join(' / ')}`,
  );
  return out;
}

/** the cold start's configuration: one baccarat table on a pty, the external broker, status page on */
function oneTableCase(o: StartupOptions, broker: Broker, pty: BenchPty): Case {
  return {
    config: (n) => ({
      mqtt: { url: broker.url, topicPrefix: `start${n}` },
      dataDir: join(o.dir, `data-start-${n}`),
      log: { level: 'warn' },
      http: { port: 0 },
      tables: [
        {
          id: 't1',
          game: 'baccarat',
          betting: 'none',
          devices: [{ id: 'shoe-1', kind: 'card-shoe', staleAfterMs: 600_000, transport: { type: 'serial', path: pty.gatewayPath } }],
        },
      ],
    }),
    brokerUrl: () => broker.url,
    prefix: (n) => `start${n}`,
    tables: ['t1'],
  };
}

/**
 * `npm run bench -- --compare-starts <dirA>,<dirB>[,...] [--rounds 8]`: the one-table cold start
 * of several builds side by side, e.g. a base commit's and this tree's (each dir a checkout with
 * `dist/` built, or a `dist/` itself). The starts are interleaved (A, B, A, B, ...) so that the
 * machine's moments fall on all of them alike; one start of each first warms the page cache.
 * Prints each build's median, quartiles and mean. For a change's effect on the start, where the
 * single figure of `--only startup` is within the run-to-run noise.
 */
export async function compareStarts(o: StartupOptions, dirs: string[]): Promise<void> {
  // this tree's dist/ is rebuilt when stale, as for --only startup; other dirs are taken as they are
  if (dirs.some((d) => resolve(d) === resolve(ROOT))) ensureDist(o.log);
  const entries = dirs.map((d) => {
    const entry = [join(d, 'dist', 'src', 'app', 'cli', 'main.js'), join(d, 'dist', 'src', 'cli', 'main.js')].find((p) => existsSync(p));
    if (!entry) throw new Error(`${d}: no dist/src/app/cli/main.js (build it there with npm run build)`);
    return { dir: d, argv: [process.execPath, ...productionNodeFlags(), ...benchExtraNodeFlags(), entry], samplesMs: [] as number[] };
  });
  const broker: Broker = await startBroker(o.dir);
  const pty: BenchPty = await openPty(o.dir, 'start');
  try {
    const c = oneTableCase(o, broker, pty);
    let n = 0;
    for (const e of entries) await oneStart(o, e.argv, c, n++, false);
    for (let r = 0; r < o.runs; r++) {
      for (const e of entries) e.samplesMs.push((await oneStart(o, e.argv, c, n++, false)).ms);
    }
    o.log(
      `  ${o.runs} interleaved starts each, 1 table on a pty, external Mosquitto, status page on; load ${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' / ')}`,
    );
    for (const e of entries) {
      const sorted = [...e.samplesMs].sort((a, b) => a - b);
      const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
      o.log(
        `  ${e.dir}: median ${median(sorted)} ms (quartiles ${percentile(sorted, 25)}-${percentile(sorted, 75)}, min ${sorted[0]}), mean ${mean.toFixed(1)}`,
      );
    }
  } finally {
    await pty.close();
    await broker.stop();
  }
}

export async function runStartup(o: StartupOptions) {
  const buildMs = ensureDist(o.log);
  const broker: Broker = await startBroker(o.dir);
  const pty: BenchPty = await openPty(o.dir, 'start');
  try {
    const oneTable = oneTableCase(o, broker, pty);
    const demo = parseYaml(readFileSync(join(ROOT, 'config', 'default.yaml'), 'utf8')) as Record<string, any>;
    const demoPorts = new Map<number, number>();
    const demoCase: Case = {
      config: (n) => ({
        ...demo,
        embeddedBroker: { ...demo.embeddedBroker, host: '127.0.0.1', port: demoPorts.get(n) },
        dataDir: join(o.dir, `data-demo-${n}`),
        http: { ...demo.http, port: 0 },
        log: { level: 'warn' },
      }),
      brokerUrl: (cfg) => `mqtt://127.0.0.1:${(cfg.embeddedBroker as { port: number }).port}`,
      prefix: () => demo.mqtt.topicPrefix,
      tables: (demo.tables as Array<{ id: string }>).map((t) => t.id),
    };
    for (let n = 100; n < 100 + o.runs + 1; n++) demoPorts.set(n, await freePort());
    // as deploy/tablegw.service starts it: its node flags, then the bundle
    // (TEG_BENCH_NODE_FLAGS adds to them, as for the latency and throughput gateways: e.g. --cpu-prof)
    const distArgv = [process.execPath, ...productionNodeFlags(), ...benchExtraNodeFlags(), DIST_ENTRY];
    const out: Record<string, unknown> = { runs: o.runs, distBuildMs: buildMs };
    out.oneTableExternal = await runCase(
      o,
      'dist, 1 serial table, external Mosquitto, status page on',
      distArgv,
      oneTable,
      0,
      'node dist/src/app/cli/main.js start: 1 baccarat table on a pty (nothing dealt), external Mosquitto, status page on; to the retained status online',
    );
    out.demoEmbedded = await runCase(
      o,
      `dist, the ${demoCase.tables.length}-table demo, embedded broker`,
      distArgv,
      demoCase,
      100,
      `node dist/src/app/cli/main.js start with config/default.yaml (${demoCase.tables.length} simulated tables dealing in real time, embedded broker, status page on); to every table's status online`,
    );
    out.nodeImportTsx = await runCase(
      o,
      'node --import tsx (sources), 1 serial table',
      [process.execPath, '--import', 'tsx', join(ROOT, 'src', 'app', 'cli', 'main.ts')],
      oneTable,
      200,
      'node --import tsx src/app/cli/main.ts start (npm start in development), the one-table config; tsx cache warm',
    );
    return out;
  } finally {
    await pty.close();
    await broker.stop();
  }
}
