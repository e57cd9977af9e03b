/**
 * `npm run bench`: the performance figures of docs/PERFORMANCE.md, all from one run on this
 * machine, printed as a table and written to the temp dir. A benchmark, not a test.
 *
 *   npm run bench                      # everything (~7-9 min on the 2-core machine)
 *   npm run bench -- --baseline        # everything, and the result becomes the committed baseline
 *                                      # (dev/bench/baseline.json and the figures in docs/PERFORMANCE.md)
 *   npm run bench -- --quick           # a smoke run with small counts; results to the temp dir
 *   npm run bench -- --only latency,engine      # sections: engine, startup, latency, throughput
 *   npm run bench -- --profile         # gateway processes run with --cpu-prof (dev/bench/*.cpuprofile)
 *   npm run bench -- --steps 50,100,200          # throughput table counts
 *   npm run bench -- --only throughput --stages  # each step's card time per stage (latency probe on)
 *   npm run bench -- --floor           # floor tiers: one Mosquitto vs a 3-node NATS cluster (dev/bench/floor.ts)
 *   npm run bench -- --compare-starts /tmp/base,. [--rounds 8]   # cold start of builds, interleaved
 *
 * Needs mosquitto and socat (apt-get install mosquitto socat).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { formatSummary, summarizeProfileFile } from './cpuprofile-summary.js';
import { runLatency } from './latency.js';
import { profileTargets, runProfilesBench, withProfilesTable, type ProfilesBenchResult } from './profiles-bench.js';
import { startBroker } from './lib/broker.js';
import { gatewayChildEntry } from './lib/gateway-bundle.js';
import { replaceBlock } from './lib/doc-block.js';
import { journalDefault } from './lib/gateway-proc.js';
import { foreignCpuText, machineBusyNow, machineCpuMs } from './lib/cpu.js';
import { MANY_TABLES_NODE_FLAGS } from './lib/node-flags.js';
import { compareStarts, runStartup } from './startup.js';
import { runThroughput } from './throughput.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BENCH = join(ROOT, 'dev', 'bench');

// the floor figures (docs/SCALING.md) are their own run
if (process.argv.includes('--floor')) {
  await import('./floor.js');
  await new Promise(() => {});
}

// the cold start of several builds side by side (dev/bench/startup.ts, compareStarts)
if (process.argv.includes('--compare-starts')) {
  const { values: c } = parseArgs({ options: { 'compare-starts': { type: 'string' }, rounds: { type: 'string', default: '8' } } });
  const dirs = (c['compare-starts'] ?? '').split(',').filter(Boolean);
  const rounds = Number(c.rounds);
  if (dirs.length < 1 || !Number.isInteger(rounds) || rounds < 1) {
    console.error('usage: npm run bench -- --compare-starts <dirA>,<dirB>[,...] [--rounds N]');
    process.exit(2);
  }
  const dir = mkdtempSync(join(os.tmpdir(), 'teg-bench-starts-'));
  try {
    await compareStarts({ dir, runs: rounds, log: (s) => console.log(s), settle: false }, dirs);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  process.exit(0);
}

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    profile: { type: 'boolean', default: false },
    steps: { type: 'string' },
    stages: { type: 'boolean', default: false },
    out: { type: 'string' },
    baseline: { type: 'boolean', default: false },
  },
});
const quick = args.quick!;
const only = args.only ? new Set(args.only.split(',')) : null;
const want = (s: string) => !only || only.has(s);
const log = (s: string) => console.log(s);

function sh(cmd: string, argv: string[]): string {
  try {
    return execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch (e) {
    const x = e as { stdout?: string; stderr?: string };
    return `${x.stdout ?? ''}${x.stderr ?? ''}`.trim();
  }
}

function machine() {
  const cpus = os.cpus();
  let mosquitto = sh('/usr/sbin/mosquitto', ['-h']).split('\n')[0];
  if (!mosquitto) mosquitto = sh('mosquitto', ['-h']).split('\n')[0];
  const dirty = sh('git', ['-C', ROOT, 'status', '--porcelain', '--untracked-files=no']).split('\n').filter(Boolean);
  return {
    date: new Date().toISOString(),
    cpu: `${cpus.length} x ${cpus[0]?.model ?? 'unknown'}`,
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    mosquitto,
    socat:
      sh('socat', ['-V'])
        .split('\n')
        .find((l) => l.includes('socat version')) ?? 'unknown',
    disk: sh('findmnt', ['-no', 'SOURCE,FSTYPE', '-T', os.tmpdir()]),
    gitCommit: sh('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD']),
    gitDirtyFiles: dirty.length,
    loadAvgAtStart: os.loadavg().map((x) => Math.round(x * 100) / 100),
  };
}

async function runEngine(): Promise<Record<string, any>> {
  const pin = existsSync('/usr/bin/taskset') ? ['taskset', '-c', String(Math.max(0, os.cpus().length - 1))] : [];
  const argv = [...pin, process.execPath, '--expose-gc', '--import', 'tsx', join(BENCH, 'engine.ts'), ...(quick ? ['--quick'] : [])];
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, BENCH_PINNED_CPU: pin.length ? pin[2] : '' },
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code) => {
      const last = out.trim().split('\n').at(-1) ?? '';
      try {
        if (code !== 0) throw new Error(`exit ${code}`);
        resolve(JSON.parse(last));
      } catch (e) {
        reject(new Error(`engine bench failed (${(e as Error).message}): ${out.slice(-2000)}`));
      }
    });
  });
}

interface Target {
  what: string;
  target: string;
  value: string;
  met: boolean | null;
  note?: string;
}

const f = (x: unknown, d = 2) =>
  typeof x === 'number' ? (Math.abs(x) >= 1000 ? Math.round(x).toLocaleString('en-US') : String(Math.round(x * 10 ** d) / 10 ** d)) : String(x);

async function main() {
  const t0 = performance.now();
  const meta = machine();
  const busy = await machineBusyNow(2000);
  // the host's steal over the whole run (a VM's vCPUs kept waiting by the host's other guests)
  const steal0 = { at: performance.now(), ms: machineCpuMs().steal };
  (meta as Record<string, unknown>).machineBusyPctBeforeStart = busy;
  log(
    `bench on ${meta.cpu}, ${meta.memoryGb} GB, ${meta.os}, node ${meta.node}; commit ${meta.gitCommit}${meta.gitDirtyFiles ? ` + ${meta.gitDirtyFiles} modified file(s)` : ''}`,
  );
  log(`machine busy before start: ${busy}% of one core (other processes; figures are distorted when this is high)`);
  if (want('latency') || want('throughput')) {
    const child = await gatewayChildEntry();
    (meta as Record<string, unknown>).gatewayUnderTest = child.what;
    log(`gateway under test (latency, throughput): ${child.what}`);
  }
  const dir = mkdtempSync(join(os.tmpdir(), 'teg-bench-'));
  const profileDir = args.profile ? BENCH : undefined;
  // the profiles of an earlier run would be summarised with this run's (printProfiles)
  if (profileDir) {
    for (const d of readdirSync(BENCH)) if (d.startsWith('gateway-') && d.endsWith('.cpuprofile')) rmSync(join(BENCH, d), { recursive: true, force: true });
  }
  const results: Record<string, any> = { meta };
  try {
    if (want('engine')) {
      log('\n== engine (pure code, pinned to one core)');
      results.engineRaw = await runEngine();
      const e = results.engineRaw;
      log(`  baccarat ${f(e.baccaratRoundsPerSec)} rounds/s; step() ${f(e.baccaratStepRoundsPerSec)} rounds/s (${f(e.baccaratStepUsPerCard)} us/card)`);
    }
    if (want('profiles')) {
      log('\n== device profile decoding (frames/s, one core)');
      results.profilesRaw = runProfilesBench(log);
    }
    if (want('startup')) {
      log('\n== cold start');
      results.startupRaw = await runStartup({ dir, runs: quick ? 2 : 5, log, settle: !quick });
    }
    if (want('latency') || want('throughput')) {
      const broker = await startBroker(dir);
      try {
        if (want('latency')) {
          log('\n== card and result latency (1 table, pty -> gateway -> mosquitto -> subscriber)');
          results.latencyRaw = await runLatency({ dir, broker, quick, profileDir, log });
        }
        if (want('throughput')) {
          log(
            `\n== throughput (tables at 10 cards/s each, until p99 > 20 ms; node ${MANY_TABLES_NODE_FLAGS.join(' ')}, deploy/tablegw.default's setting for a PC of many tables)`,
          );
          const steps = args.steps ? args.steps.split(',').map(Number) : undefined;
          results.throughputRaw = await runThroughput({ dir, broker, quick, profileDir, steps, stages: args.stages, log });
          if (journalDefault() === 'full') {
            log('\n== throughput again with journal.synchronous: normal (no fsync per commit)');
            results.throughputNormalRaw = await runThroughput({ dir, broker, quick, profileDir, steps, stages: args.stages, synchronous: 'normal', log });
          }
        }
      } finally {
        await broker.stop();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  (meta as Record<string, unknown>).loadAvgAtEnd = os.loadavg().map((x) => Math.round(x * 100) / 100);
  (meta as Record<string, unknown>).hostStealPctOverRun = Math.round(((machineCpuMs().steal - steal0.ms) / (performance.now() - steal0.at)) * 1000) / 10;
  (meta as Record<string, unknown>).benchSeconds = Math.round((performance.now() - t0) / 1000);

  const out = shape(results);
  printTable(out);
  if (args.profile) printProfiles();
  const full = !quick && !only;
  // every run's figures go to the temp dir; the committed baseline (dev/bench/baseline.json and the
  // figures block of docs/PERFORMANCE.md) changes only on purpose, with --baseline on a full run
  const baseline = full && args.baseline;
  const file = args.out ?? (baseline ? join(BENCH, 'baseline.json') : join(os.tmpdir(), full ? 'teg-bench-results.json' : 'teg-bench-results.partial.json'));
  writeFileSync(file, JSON.stringify(out, null, 2) + '\n');
  if (baseline) updateDoc(out);
  else if (args.baseline) log('--baseline needs a full run (no --quick, no --only): the baseline is unchanged');
  log(`\nwrote ${file} (${(meta as Record<string, unknown>).benchSeconds} s)`);
}

/** the results file: the keys docs/PERFORMANCE.md refers to, then the raw figures */
function shape(r: Record<string, any>) {
  const lat = r.latencyRaw;
  const thr = r.throughputRaw;
  const eng = r.engineRaw;
  const st = r.startupRaw;
  const out: Record<string, any> = { meta: r.meta };
  if (lat) {
    const a = lat.rates['20'];
    const b = lat.rates['1000'];
    out.cardLatency = {
      rate: '20 cards/s (the steady series; 1000 cards/s under byRate)',
      cards: a.gateway.n,
      p50Ms: a.gateway.p50Ms,
      p99Ms: a.gateway.p99Ms,
      maxMs: a.gateway.maxMs,
      baselineP50Ms: a.baseline.p50Ms,
      baselineP99Ms: a.baseline.p99Ms,
      p99Ratio: a.p99Ratio,
      p99AboveBaselineMs: a.p99AboveBaselineMs,
      payloadBytes: lat.payloadBytes,
      journalSynchronous: lat.journalSynchronous,
      byRate: lat.rates,
      variantsAt1000: lat.variants1000,
      hostColdRun: lat.hostColdRun,
    };
    out.resultLatency = {
      rate: '20 cards/s',
      rounds: a.result.n,
      p50Ms: a.result.p50Ms,
      p99Ms: a.result.p99Ms,
      maxMs: a.result.maxMs,
      at1000: b.result,
    };
  }
  if (thr) {
    out.throughput = { ...thr, journalSynchronous: thr.journalSynchronous ?? journalDefault() };
    if (r.throughputNormalRaw) out.throughput.withJournalNormal = r.throughputNormalRaw;
  }
  if (eng) {
    out.engine = {
      baccaratRoundsPerSec: eng.baccaratRoundsPerSec,
      clock: 'process CPU time (user+system) of the engine process pinned to one core, best of 5 runs',
      gameRoundsPerSec: eng.gameRoundsPerSec,
      nonCardOutcomesPerSec: eng.nonCardOutcomesPerSec,
      cpuVsWall: eng.cpuVsWall,
      baccaratStepRoundsPerSec: eng.baccaratStepRoundsPerSec,
      baccaratStepUsPerCard: eng.baccaratStepUsPerCard,
      baccaratStepPlusJsonRoundsPerSec: eng.baccaratStepPlusJsonRoundsPerSec,
      baccaratStepPlusJsonUsPerCard: eng.baccaratStepPlusJsonUsPerCard,
      baccaratStepPlusValidateJsonUsPerCard: eng.baccaratStepPlusValidateJsonUsPerCard,
      framesPerRound: eng.framesPerRound,
      evaluators: eng.evaluators,
      journalCommit: eng.journalCommit,
    };
  }
  if (st) {
    out.startup = {
      coldStartMs: st.oneTableExternal?.medianMs ?? null,
      coldStartNote: 'node dist/src/app/cli/main.js start, median: 1 serial table, external Mosquitto, status page on; to the retained status online',
      demoColdStartMs: st.demoEmbedded?.medianMs ?? null,
      nodeImportTsxMs: st.nodeImportTsx?.medianMs ?? null,
      ...st,
    };
  }
  if (r.profilesRaw) out.profiles = r.profilesRaw as ProfilesBenchResult;
  out.rss = {
    idleMb: st?.oneTableExternal?.rssSettledMb ?? st?.oneTableExternal?.rssAt3sMb ?? null,
    idleNote: 'node dist/src/app/cli/main.js start: 1 serial table, external Mosquitto, status page on, nothing dealt; 30 s after online (3 s in --quick)',
    idleAt3sMb: st?.oneTableExternal?.rssAt3sMb ?? null,
    demoIdleMb: st?.demoEmbedded?.rssSettledMb ?? st?.demoEmbedded?.rssAt3sMb ?? null,
    demoIdleAt3sMb: st?.demoEmbedded?.rssAt3sMb ?? null,
    demoNote: 'the 10-table demo (config/default.yaml) from dist/, embedded broker, status page on, dealing in real time; 30 s after online (3 s in --quick)',
    benchChildIdleMb: lat?.rss.idleMb ?? null,
    benchChildNote: "the latency bench's gateway child (bundled as dist/ is unless TEG_BENCH_GATEWAY=sources; probe on), 2 s after start",
    loadMb: thr?.gatewayRssMb ?? lat?.rss.at1000Mb ?? null,
    loadNote: thr?.gatewayRssMb
      ? `the gateway process at the largest passing throughput step (${thr.tables} tables)`
      : 'the gateway process after 1000 cards/s',
    at1000CardsPerSecMb: lat?.rss.at1000Mb ?? null,
    beforeMillionRoundsMb: eng?.millionRounds?.rssBeforeMb ?? null,
    afterMillionRoundsMb: eng?.millionRounds?.rssAfterMb ?? null,
    heapBeforeMillionRoundsMb: eng?.millionRounds?.heapUsedBeforeMb ?? null,
    heapAfterMillionRoundsGcMb: eng?.millionRounds?.heapUsedAfterGcMb ?? null,
    millionRounds: eng?.millionRounds ?? null,
  };
  out.targets = targets(out);
  return out;
}

/** what else the machine did during the first failing throughput step (its foreign CPU and the host's steal) */
function failingStepMachine(thr: Record<string, any>): string {
  const step = (thr.steps as Array<Record<string, any>>).find((s) => s.tables === thr.firstFailing);
  if (!step?.cpu) return '';
  return `, p99 ${f(step.card?.p99Ms)} ms, ${foreignCpuText(step.cpu)}`;
}

function targets(o: Record<string, any>): Target[] {
  const t: Target[] = [];
  if (o.cardLatency) {
    for (const [rate, r] of Object.entries(o.cardLatency.byRate as Record<string, any>)) {
      if (r.bridge) {
        t.push({
          what: `card latency p50 at ${rate} cards/s vs the plain bridge (serialport -> fsync'd SQLite insert -> mqtt.js QoS 1)`,
          target: '<= bridge p50 + 0.3 ms',
          value: `${f(r.gateway.p50Ms)} ms vs ${f(r.bridge.p50Ms)} ms (${f(r.gateway.p50Ms - r.bridge.p50Ms)} ms above); ${foreignCpuText(r.cpu)}`,
          met: r.gateway.p50Ms <= r.bridge.p50Ms + 0.3,
        });
        t.push({
          what: `card latency p99 at ${rate} cards/s vs the plain bridge`,
          target: '<= 1.5x bridge p99',
          value: `${f(r.gateway.p99Ms)} ms vs ${f(r.bridge.p99Ms)} ms (x${f(r.gateway.p99Ms / r.bridge.p99Ms)}); load ${r.cpu?.loadAvg?.join(' / ') ?? '?'}`,
          met: r.gateway.p99Ms <= 1.5 * r.bridge.p99Ms,
        });
      }
    }
  }
  if (o.throughput) {
    t.push({
      what: 'tables at 10 cards/s with p99 <= 20 ms, one gateway process',
      target: '>= 400',
      value: `${o.throughput.tables} tables (x${f(o.throughput.tables / 400)} of the target), ${f(o.throughput.cardsPerSec)} cards/s, gateway CPU ${f(o.throughput.gatewayCpuPct)}%; load ${(o.throughput.steps.find((s: any) => s.tables === o.throughput.tables) ?? o.throughput.steps.at(-1))?.cpu?.loadAvg?.join(' / ') ?? '?'}`,
      met: o.throughput.tables >= 400,
      note: o.throughput.firstFailing
        ? `first failing step: ${o.throughput.firstFailing} tables${failingStepMachine(o.throughput)}`
        : `no failing step up to ${o.throughput.testedUpTo}`,
    });
  }
  if (o.engine) {
    t.push({
      what: 'baccarat engine rounds/s on one core',
      target: '>= 1,000,000',
      value: f(o.engine.baccaratRoundsPerSec),
      met: o.engine.baccaratRoundsPerSec >= 1_000_000,
    });
    const ev = o.engine.evaluators;
    if (ev) {
      const theirsBest = (x: Record<string, unknown>) =>
        Math.max(
          ...Object.entries(x)
            .filter(([k, v]) => !k.startsWith('ours') && typeof v === 'number' && k !== 'hands')
            .map(([, v]) => v as number),
        );
      const oursBest = (x: Record<string, unknown>) =>
        Math.max(
          ...Object.entries(x)
            .filter(([k, v]) => k.startsWith('ours') && typeof v === 'number')
            .map(([, v]) => v as number),
        );
      for (const k of ['threeCard', 'bestOf6', 'bestOf7']) {
        if (!ev[k]) continue;
        const ours = oursBest(ev[k]);
        const theirs = theirsBest(ev[k]);
        t.push({
          what: `poker evaluator ${k} (evals/s, ours best vs published best)`,
          target: '>= the best published JS evaluator',
          value: `${f(ours)} vs ${f(theirs)}`,
          met: ours >= theirs,
        });
      }
    }
  }
  if (o.startup) {
    const s = o.startup;
    if (s.coldStartMs !== null) {
      t.push({
        what: 'cold start from dist/ to status online (1 serial table, external broker, status page on)',
        target: '< 300 ms',
        value: `${f(s.coldStartMs)} ms (x${f(s.coldStartMs / 300)} of the target; load ${s.oneTableExternal.loadAvg.join(' / ')})`,
        met: s.coldStartMs < 300,
        note: `the 10-table demo ${f(s.demoColdStartMs)} ms; node --import tsx ${f(s.nodeImportTsxMs)} ms`,
      });
    }
  }
  if (o.profiles) t.push(...profileTargets(o.profiles as ProfilesBenchResult));
  if (o.rss.idleMb !== null) {
    t.push({
      what: 'idle RSS from dist/, 1 table, external broker, status page on',
      target: '< 80 MB',
      value: `${f(o.rss.idleMb)} MB (x${f(o.rss.idleMb / 80)}; ${f(o.rss.idleAt3sMb)} MB 3 s after online)`,
      met: o.rss.idleMb < 80,
    });
  }
  if (o.rss.demoIdleMb !== null) {
    t.push({
      what: 'RSS from dist/, the 10-table demo, embedded broker',
      target: '< 120 MB',
      value: `${f(o.rss.demoIdleMb)} MB (x${f(o.rss.demoIdleMb / 120)}; ${f(o.rss.demoIdleAt3sMb)} MB 3 s after online)`,
      met: o.rss.demoIdleMb < 120,
    });
  }
  const m = o.rss.millionRounds;
  if (m) {
    const heapGrowth = m.heapUsedAfterGcMb - m.heapUsedBeforeMb;
    const rssGrowth = m.rssAfterMb - m.rssBeforeMb;
    t.push({
      what: 'memory over a million rounds through step()',
      target: 'no growth',
      value: `RSS ${f(m.rssBeforeMb)} -> ${f(m.rssAfterMb)} MB, heap after GC ${f(m.heapUsedBeforeMb)} -> ${f(m.heapUsedAfterGcMb)} MB`,
      met: heapGrowth < 1 && rssGrowth < 5,
    });
  }
  return t;
}

function printTable(o: Record<string, any>) {
  const rows: string[][] = [['figure', 'value']];
  if (o.cardLatency) {
    for (const [rate, r] of Object.entries(o.cardLatency.byRate as Record<string, any>)) {
      rows.push([`card latency @${rate}/s gateway p50/p99/max`, `${f(r.gateway.p50Ms)} / ${f(r.gateway.p99Ms)} / ${f(r.gateway.maxMs)} ms (n=${r.gateway.n})`]);
      rows.push([
        `card latency @${rate}/s baseline p50/p99/max`,
        `${f(r.baseline.p50Ms)} / ${f(r.baseline.p99Ms)} / ${f(r.baseline.maxMs)} ms (n=${r.baseline.n})`,
      ]);
      rows.push([`  p99 ratio / above baseline`, `x${f(r.p99Ratio)} / +${f(r.p99AboveBaselineMs)} ms; ${foreignCpuText(r.cpu)}`]);
      if (r.bridge)
        rows.push([
          `card latency @${rate}/s plain bridge p50/p99/max`,
          `${f(r.bridge.p50Ms)} / ${f(r.bridge.p99Ms)} / ${f(r.bridge.maxMs)} ms (n=${r.bridge.n})`,
        ]);
      for (const [stage, v] of Object.entries((r.stages?.stages ?? {}) as Record<string, any>)) {
        rows.push([`  @${rate}/s stage ${stage} p50/p99`, `${f(v.p50Ms)} / ${f(v.p99Ms)} ms`]);
      }
    }
    for (const [k, v] of Object.entries((o.cardLatency.variantsAt1000 ?? {}) as Record<string, any>)) {
      rows.push([`card latency @1000/s, ${k}`, `${f(v.gateway.p50Ms)} / ${f(v.gateway.p99Ms)} / ${f(v.gateway.maxMs)} ms`]);
    }
    const cold = o.cardLatency.hostColdRun;
    if (cold)
      rows.push([
        'host cold run: step() + JSON warm / every 1 ms / every 25 ms',
        `${f(cold.warmUs)} / ${f(cold.every1msUs)} / ${f(cold.every25msUs)} us (x${f(cold.factor25ms)})`,
      ]);
  }
  if (o.resultLatency)
    rows.push(['result latency @20/s p50/p99', `${f(o.resultLatency.p50Ms)} / ${f(o.resultLatency.p99Ms)} ms (n=${o.resultLatency.rounds})`]);
  if (o.throughput) {
    for (const s of o.throughput.steps) {
      rows.push([
        `throughput ${s.tables} tables (${f(s.cardsPerSec)} cards/s)`,
        `p50/p99 ${f(s.card.p50Ms)} / ${f(s.card.p99Ms)} ms, CPU ${f(s.gatewayCpuPct)}%, RSS ${f(s.gatewayRssMb)} MB ${s.passed ? 'pass' : 'FAIL'}`,
      ]);
    }
    for (const s of o.throughput.withJournalNormal?.steps ?? []) {
      rows.push([
        `  journal normal: ${s.tables} tables`,
        `p50/p99 ${f(s.card.p50Ms)} / ${f(s.card.p99Ms)} ms, CPU ${f(s.gatewayCpuPct)}%, RSS ${f(s.gatewayRssMb)} MB ${s.passed ? 'pass' : 'FAIL'}`,
      ]);
    }
  }
  if (o.engine) {
    for (const [g, v] of Object.entries(o.engine.gameRoundsPerSec as Record<string, unknown>)) rows.push([`engine ${g} rounds/s`, f(v)]);
    for (const [g, v] of Object.entries((o.engine.nonCardOutcomesPerSec ?? {}) as Record<string, unknown>)) rows.push([`engine ${g} outcomes/s`, f(v)]);
    rows.push([
      'baccarat via step() rounds/s',
      `${f(o.engine.baccaratStepRoundsPerSec)} (${f(o.engine.baccaratStepUsPerCard)} us/input; + JSON ${f(o.engine.baccaratStepPlusJsonUsPerCard)} us; + topic-map validation ${f(o.engine.baccaratStepPlusValidateJsonUsPerCard)} us)`,
    ]);
    const ev = o.engine.evaluators ?? {};
    for (const k of ['threeCard', 'bestOf6', 'bestOf7']) {
      for (const [name, v] of Object.entries((ev[k] ?? {}) as Record<string, unknown>)) if (name !== 'hands') rows.push([`evals/s ${k} ${name}`, f(v)]);
    }
    for (const [k, v] of Object.entries((o.engine.journalCommit ?? {}) as Record<string, any>))
      rows.push([`journal commit ${k}`, `step ${f(v.usPerStepCommit)} us, acks ${f(v.usPerAckCommit)} us`]);
  }
  if (o.startup) {
    rows.push([
      'cold start dist 1 table / dist demo / node --import tsx 1 table',
      `${f(o.startup.coldStartMs)} / ${f(o.startup.demoColdStartMs)} / ${f(o.startup.nodeImportTsxMs)} ms`,
    ]);
    rows.push([
      'RSS dist 1 table / dist demo (3 s; settled)',
      `${f(o.rss.idleAt3sMb)}; ${f(o.rss.idleMb)} / ${f(o.rss.demoIdleAt3sMb)}; ${f(o.rss.demoIdleMb)} MB`,
    ]);
  }
  for (const p of (o.profiles as ProfilesBenchResult | undefined)?.rows ?? []) {
    rows.push([
      `profile ${p.profile} frames/s vs ${p.reference}`,
      `${f(p.framesPerSecond)} vs ${f(p.referenceFramesPerSecond)} (ratio ${p.ratio.toFixed(2)}) ${p.met ? 'met' : 'MISSED'}`,
    ]);
  }
  rows.push(['RSS idle / load / after 1M rounds', `${f(o.rss.idleMb)} / ${f(o.rss.loadMb)} / ${f(o.rss.afterMillionRoundsMb)} MB`]);
  const w = Math.max(...rows.map((r) => r[0].length));
  log('\n' + rows.map((r) => `${r[0].padEnd(w)}  ${r[1]}`).join('\n'));
  log('\ntargets:');
  for (const t of o.targets as Target[])
    log(`  [${t.met === null ? ' ? ' : t.met ? 'met' : 'MISSED'}] ${t.what}: ${t.value} (target ${t.target})${t.note ? `; ${t.note}` : ''}`);
}

/**
 * docs/PERFORMANCE.md keeps the latest figures between `<!-- bench:begin -->` and
 * `<!-- bench:end -->`: a full run rewrites that part (the prose around it is written by hand).
 */
function updateDoc(o: Record<string, any>) {
  const doc = join(ROOT, 'docs', 'PERFORMANCE.md');
  if (!existsSync(doc)) return;
  const text = readFileSync(doc, 'utf8');
  const m = o.meta;
  const lines = [
    `Run of ${m.date.slice(0, 16).replace('T', ' ')} UTC, commit \`${m.gitCommit}\`${m.gitDirtyFiles ? ` (+${m.gitDirtyFiles} modified files)` : ''}, ${m.benchSeconds} s; ${m.cpu}, ${m.memoryGb} GB, ${m.os}, node ${m.node}, ${m.mosquitto}, ${m.socat}; temp dir on ${m.disk}. ` +
      `Machine busy before the start: ${f(m.machineBusyPctBeforeStart)}% of one core (other work on the machine); load average ${m.loadAvgAtStart.join(' / ')} at the start, ${m.loadAvgAtEnd.join(' / ')} at the end${m.hostStealPctOverRun !== undefined ? `; the host's steal over the run ${f(m.hostStealPctOverRun)}% of one core` : ''}.` +
      (o.cardLatency?.hostColdRun
        ? ` The host's cold run (dev/bench/cold-run.ts): one step() + JSON ${f(o.cardLatency.hostColdRun.warmUs)} us back to back, ${f(o.cardLatency.hostColdRun.every25msUs)} us once every 25 ms (x${f(o.cardLatency.hostColdRun.factor25ms)}).`
        : ''),
    '',
    '| target | figure | met |',
    '|---|---|---|',
    ...(o.targets as Target[]).map(
      (t) => `| ${t.what}: ${t.target} | ${t.value}${t.note ? ` (${t.note})` : ''} | ${t.met === null ? '?' : t.met ? 'yes' : '**no**'} |`,
    ),
  ];
  let next = replaceBlock(text, '<!-- bench:begin -->', '<!-- bench:end -->', lines);
  if (next === null) return;
  if (o.profiles) next = withProfilesTable(next, o.profiles as ProfilesBenchResult, m.gitCommit);
  writeFileSync(doc, next);
  log(`updated the figures in ${doc}`);
}

/** the main-thread profile of each profiled gateway (the one with the most non-idle time) */
function printProfiles() {
  const dirs = readdirSync(BENCH).filter((x) => x.startsWith('gateway-') && x.endsWith('.cpuprofile') && statSync(join(BENCH, x)).isDirectory());
  for (const d of dirs) {
    const files = readdirSync(join(BENCH, d))
      .filter((x) => x.endsWith('.cpuprofile'))
      .map((x) => join(BENCH, d, x));
    const summaries = files.map((file) => ({ file, s: summarizeProfileFile(file, 25) }));
    const busy = (s: ReturnType<typeof summarizeProfileFile>) => s.totalMs - (s.byArea.find((a) => a.area === '(idle)')?.selfMs ?? 0);
    summaries.sort((a, b) => busy(b.s) - busy(a.s));
    if (!summaries[0]) continue;
    log(`\n== profile ${summaries[0].file}`);
    log(formatSummary(summaries[0].s));
  }
}

main().catch((e: unknown) => {
  console.error(`bench failed: ${(e as Error).stack ?? String(e)}`);
  process.exit(1);
});
