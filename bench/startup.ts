/**
 * Cold start: from spawning the CLI (`start --config <file>`: embedded broker on a free port, one
 * simulated baccarat table) to a subscriber holding the table's retained `status: online`.
 *
 * Three ways to run the same CLI:
 * - `tsx src/cli/main.ts` — how `npm start` runs it: tsx's launcher process, then node with
 *   tsx's loader transpiling every .ts file on first import (esbuild, cached on disk after the
 *   first run; `tsxNoCache` runs with TSX_DISABLE_CACHE=1, i.e. what every first start costs —
 *   the shared cache itself is left alone: other processes use it);
 * - `node --import tsx src/cli/main.ts` — the loader without the launcher process;
 * - `node <build>/src/cli/main.js` — precompiled with the project's own tsc into
 *   node_modules/.cache/teg-bench-build (no transpiling at start: how a packaged gateway would run).
 *
 * RSS of the running gateway process (the node process that runs main, not tsx's launcher) is
 * taken 3 s after `online`, while the simulated table deals at its real-time pace.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import mqtt from 'mqtt';
import { configSchema } from '../src/config/schema.js';
import { freePort } from './lib/broker.js';
import { mb, median, rssOfPid } from './lib/stats.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BUILD = join(ROOT, 'node_modules', '.cache', 'teg-bench-build');

export interface StartupOptions {
  dir: string;
  runs: number;
  log: (s: string) => void;
}

/** compiles src/, drivers/, simulators/ with the project's tsc; returns the entry or null */
export function precompile(log: (s: string) => void): { entry: string | null; ms: number; detail: string } {
  const t0 = performance.now();
  rmSync(BUILD, { recursive: true, force: true });
  mkdirSync(BUILD, { recursive: true });
  const tsconfig = join(BUILD, 'tsconfig.json');
  writeFileSync(tsconfig, JSON.stringify({
    extends: join(ROOT, 'tsconfig.json'),
    compilerOptions: {
      noEmit: false, outDir: BUILD, rootDir: ROOT, allowImportingTsExtensions: false, declaration: false,
      sourceMap: false, incremental: false, noEmitOnError: false,
    },
    include: ['src', 'drivers', 'simulators'].map((d) => join(ROOT, d)),
  }));
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', tsconfig], { encoding: 'utf8', cwd: ROOT });
  // plain-JS modules (the journal's writer thread) are not emitted by tsc: copy them beside the output
  for (const rel of ['src/persistence/journal-writer-worker.mjs']) copyFileSync(join(ROOT, rel), join(BUILD, rel));
  const entry = join(BUILD, 'src', 'cli', 'main.js');
  const ms = Math.round(performance.now() - t0);
  // type errors do not stop the emit (noEmitOnError false); only a missing entry does
  const detail = r.status === 0 ? 'tsc: no errors' : `tsc exit ${r.status}: ${(r.stdout + r.stderr).split('\n').filter(Boolean).length} diagnostic line(s) (emitted anyway)`;
  log(`  precompiled with tsc in ${ms} ms (${detail})`);
  return { entry: existsSync(entry) ? entry : null, ms, detail };
}

function writeConfig(dir: string, port: number, n: number): string {
  const cfg: Record<string, unknown> = {
    // MQTT 3.1.1: the embedded broker (aedes) refuses the schema's default MQTT 5 connect
    mqtt: { url: 'embedded', topicPrefix: 'casino', protocolVersion: 4 },
    embeddedBroker: { host: '127.0.0.1', port },
    dataDir: join(dir, `data-start-${n}`),
    log: { level: 'warn' },
    tables: [{ id: 'sim-bac-01', game: 'baccarat', devices: [{ id: 'shoe-1', kind: 'card-shoe', transport: { type: 'simulator' } }] }],
  };
  const shape = (configSchema as unknown as { shape?: Record<string, unknown> }).shape ?? {};
  if ('http' in shape) cfg.http = { port: 0 };
  const file = join(dir, `start-${n}.json`);
  writeFileSync(file, JSON.stringify(cfg));
  return file;
}

/** the pid of the process running the gateway: `pid` itself, or its node child (tsx launcher) */
function gatewayPid(pid: number): number {
  try {
    const kids = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    for (const k of kids) {
      const cmd = readFileSync(`/proc/${k}/cmdline`, 'utf8');
      if (cmd.includes('main.ts') || cmd.includes('main.js')) return k;
    }
  } catch {
    // no children file: the process itself
  }
  return pid;
}

async function waitOnline(port: number, child: ChildProcess, timeoutMs: number): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the gateway exited with ${child.exitCode}`);
    if (performance.now() > deadline) throw new Error('no status online');
    const c = mqtt.connect(`mqtt://127.0.0.1:${port}`, { reconnectPeriod: 0, connectTimeout: 2000, clientId: `bench-start-${Math.random().toString(16).slice(2)}` });
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
    const t = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no status online')), Math.max(1, deadline - performance.now()));
      c.on('message', (_topic, payload) => {
        try {
          if ((JSON.parse(payload.toString()) as { state?: string }).state === 'online') {
            clearTimeout(timer);
            resolve(performance.now());
          }
        } catch {
          // ignore
        }
      });
      c.subscribe('casino/sim-bac-01/status', { qos: 1 });
    });
    c.end(true);
    return t;
  }
}

async function oneStart(o: StartupOptions, argv: string[], n: number, measureRss: boolean, env: Record<string, string> = {}): Promise<{ ms: number; rssMb: number | null }> {
  const port = await freePort();
  const file = writeConfig(o.dir, port, n);
  const t0 = performance.now();
  const child = spawn(argv[0], [...argv.slice(1), 'start', '--config', file], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LOG_FORMAT: 'json', ...env } });
  let err = '';
  child.stderr!.on('data', (c: Buffer) => {
    if (err.length < 8000) err += c.toString();
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  try {
    const t1 = await waitOnline(port, child, 30_000);
    let rssMb: number | null = null;
    if (measureRss) {
      await new Promise((r) => setTimeout(r, 3000));
      rssMb = mb(rssOfPid(gatewayPid(child.pid!)));
    }
    return { ms: Math.round(t1 - t0), rssMb };
  } catch (e) {
    throw new Error(`${(e as Error).message}; stderr: ${err.slice(0, 2000)}`);
  } finally {
    child.kill('SIGTERM');
    const t = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(t);
  }
}

export async function runStartup(o: StartupOptions) {
  const tsxBin = join(ROOT, 'node_modules', '.bin', 'tsx');
  const variants: Record<string, { argv: string[]; note: string; env?: Record<string, string> }> = {
    tsx: { argv: [tsxBin, 'src/cli/main.ts'], note: 'tsx src/cli/main.ts (the tsx launcher), tsx cache warm' },
    tsxNoCache: { argv: [tsxBin, 'src/cli/main.ts'], env: { TSX_DISABLE_CACHE: '1' }, note: 'the same with TSX_DISABLE_CACHE=1: every .ts file transpiled at start (a first start)' },
    nodeImportTsx: { argv: [process.execPath, '--import', 'tsx', 'src/cli/main.ts'], note: 'node --import tsx src/cli/main.ts (as npm start: no launcher process), tsx cache warm' },
  };
  const build = precompile(o.log);
  if (build.entry) variants.precompiled = { argv: [process.execPath, build.entry], note: 'node on tsc output, no transpiling' };

  const out: Record<string, unknown> = { runs: o.runs, precompileMs: build.ms, precompileDetail: build.detail };
  let n = 1;
  for (const [name, v] of Object.entries(variants)) {
    const times: number[] = [];
    let rss: number | null = null;
    await oneStart(o, v.argv, n++, false, v.env); // warm the page cache (and tsx's transform cache)
    for (let i = 0; i < o.runs; i++) {
      const r = await oneStart(o, v.argv, n++, i === o.runs - 1, v.env);
      times.push(r.ms);
      if (r.rssMb !== null) rss = r.rssMb;
    }
    out[name] = { medianMs: median(times), minMs: Math.min(...times), maxMs: Math.max(...times), samplesMs: times, rssMb: rss, note: v.note };
    o.log(`  ${name}: median ${median(times)} ms (min ${Math.min(...times)}, max ${Math.max(...times)}); RSS ${rss} MB`);
  }
  return out;
}
