/**
 * Throughput: how many tables one gateway process serves, each table on its own pty (socat) and
 * dealing 10 cards/s, before the p99 card latency passes 20 ms. The table count grows step by
 * step; every step starts a fresh gateway process (own topic prefix, own data dir), deals 2 s of
 * warm-up, then measures for a fixed time. The cards of all tables are spread evenly in time
 * (table i deals at i/N of each 100 ms period). The gateway runs with the node flags a PC of many
 * tables is given (deploy/tablegw.default, MANY_TABLES_NODE_FLAGS).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { connectClient, type Broker } from './lib/broker.js';
import { cpuWindow, foreignCpuText, type CpuWindow } from './lib/cpu.js';
import { benchConfig, startGatewayProc, type GcWindow, type LoopDelay } from './lib/gateway-proc.js';
import { Meter, pace, TableFeed, waitDevicesConnected, type PaceStats } from './lib/load.js';
import { closePtys, openPtys, type BenchPty } from './lib/pty.js';
import { stageBreakdown, stageLines, type StageBreakdown } from './lib/stages.js';
import { mb, round1, round3, summarize, type LatencySummary } from './lib/stats.js';

export interface ThroughputStep {
  tables: number;
  targetCardsPerSec: number;
  cardsPerSec: number;
  card: LatencySummary;
  result: LatencySummary;
  gatewayCpuPct: number;
  gatewayEventLoopUtilization: number;
  gatewayRssMb: number;
  gatewayHeapUsedMb: number;
  /** the gateway main thread's GC during the measured window */
  gatewayGc: GcWindow;
  /** how late the gateway's event loop came round to a 1 ms timer during the measured window (ms) */
  gatewayLoopDelay: LoopDelay;
  gatewayStartMs: number;
  pacing: PaceStats;
  cpu: CpuWindow;
  lostCards: number;
  passed: boolean;
  /** with `stages`: where the measured cards' time went (the gateway ran with the latency probe) */
  stages?: StageBreakdown;
}

export interface ThroughputOptions {
  dir: string;
  broker: Broker;
  quick: boolean;
  profileDir?: string;
  steps?: number[];
  /** `journal.synchronous` for every gateway of the ramp (default: the product default) */
  synchronous?: 'full' | 'normal';
  /** run each step's gateway with the latency probe and print the per-stage breakdown (costs a little CPU) */
  stages?: boolean;
  log: (s: string) => void;
}

const CARDS_PER_TABLE_PER_SEC = 10;
const LIMIT_P99_MS = 20;

export async function runThroughput(o: ThroughputOptions) {
  const steps = o.steps ?? (o.quick ? [10, 40] : [10, 25, 50, 100, 150, 175, 200, 250, 300, 400, 500, 600]);
  const measureSec = o.quick ? 4 : 10;
  const ptys: BenchPty[] = [];
  const results: ThroughputStep[] = [];
  try {
    for (const n of steps) {
      if (ptys.length < n) {
        const t0 = performance.now();
        const added = n - ptys.length;
        ptys.push(...(await openPtys(o.dir, `thr${ptys.length}-`, added)));
        o.log(`  ${n} ptys ready (${added} socat pairs added in ${Math.round(performance.now() - t0)} ms)`);
      }
      const step = await runStep(o, n, ptys.slice(0, n), measureSec);
      results.push(step);
      o.log(
        `  ${n} tables, ${step.cardsPerSec} cards/s: card p50 ${step.card.p50Ms} p99 ${step.card.p99Ms} max ${step.card.maxMs} ms; gateway CPU ${step.gatewayCpuPct}% (ELU ${step.gatewayEventLoopUtilization}), RSS ${step.gatewayRssMb} MB (heap ${step.gatewayHeapUsedMb}); GC ${step.gatewayGc.minor} minor ${step.gatewayGc.minorMs} ms, ${step.gatewayGc.major} major ${step.gatewayGc.majorMs} ms, longest ${step.gatewayGc.maxPauseMs} ms; loop delay p99 ${step.gatewayLoopDelay.p99Ms} max ${step.gatewayLoopDelay.maxMs} ms; ${foreignCpuText(step.cpu)}${step.lostCards ? `; ${step.lostCards} cards never arrived` : ''}`,
      );
      if (step.stages) for (const line of stageLines(step.stages)) o.log(line);
      if (!step.passed) break;
    }
  } finally {
    await closePtys(ptys);
  }
  const passed = results.filter((r) => r.passed);
  const best = passed.at(-1) ?? null;
  return {
    journalSynchronous: o.synchronous ?? null,
    limitP99Ms: LIMIT_P99_MS,
    cardsPerTablePerSec: CARDS_PER_TABLE_PER_SEC,
    measureSeconds: measureSec,
    tables: best?.tables ?? 0,
    cardsPerSec: best?.cardsPerSec ?? 0,
    gatewayCpuPct: best?.gatewayCpuPct ?? null,
    gatewayRssMb: best?.gatewayRssMb ?? null,
    firstFailing: results.find((r) => !r.passed)?.tables ?? null,
    testedUpTo: steps.at(-1),
    steps: results,
  };
}

async function runStep(o: ThroughputOptions, n: number, ptys: BenchPty[], measureSec: number): Promise<ThroughputStep> {
  const tag = `${o.synchronous ?? ''}${n}`;
  const prefix = `bench-thr${tag}`;
  const dataDir = join(o.dir, `data-thr-${tag}`);
  mkdirSync(dataDir, { recursive: true });
  const ids = ptys.map((_, i) => `t${n}-${i}`);
  const sub = await connectClient(o.broker.url, `${prefix}-sub`);
  const meter = new Meter(sub, prefix);
  await meter.subscribe();
  const config = benchConfig({
    brokerUrl: o.broker.url,
    topicPrefix: prefix,
    dataDir,
    tables: ids.map((id, i) => ({ id, gatewayPath: ptys[i].gatewayPath })),
    synchronous: o.synchronous,
  });
  const up = waitDevicesConnected(sub, prefix, ids, 120_000);
  const gw = await startGatewayProc({ config, dir: o.dir, name: `thr${tag}`, profileDir: o.profileDir, probe: o.stages, manyTables: true, timeoutMs: 120_000 });
  try {
    await up;
    const feeds = ids.map((id, i) => new TableFeed(id, ptys[i], `thr-${tag}-${i}`));
    for (const f of feeds) meter.add(f);
    const interval = 1000 / (n * CARDS_PER_TABLE_PER_SEC);
    // warm-up: 2 s at the full rate, not measured
    await pace(Math.round(2000 / interval), interval, (k) => feeds[k % n].writeCard(false));
    await meter.drain(15_000);
    meter.resetSamples();
    if (o.stages) await gw.probe(); // the warm-up's records: not measured
    const slots = Math.round((measureSec * 1000) / interval);
    const u0 = await gw.usage();
    const win = cpuWindow(() => [o.broker.pid, gw.pid, ...ptys.map((p) => p.socatPid)]);
    const pacing = await pace(slots, interval, (k) => feeds[k % n].writeCard(true));
    const cpu = win();
    const u1 = await gw.usage();
    const lost = await meter.drain(30_000);
    const wallMs = u1.uptimeMs - u0.uptimeMs;
    const cpuMs = (u1.cpu.user - u0.cpu.user + u1.cpu.system - u0.cpu.system) / 1000;
    const active = u1.elu.active - u0.elu.active;
    const idle = u1.elu.idle - u0.elu.idle;
    const card = summarize(meter.cardLatencies);
    const stages = o.stages ? stageBreakdown(meter.cardTraces, await gw.probe()) : undefined;
    return {
      tables: n,
      targetCardsPerSec: n * CARDS_PER_TABLE_PER_SEC,
      cardsPerSec: Math.round(slots / pacing.seconds),
      card,
      result: summarize(meter.resultLatencies),
      gatewayCpuPct: round1((cpuMs / wallMs) * 100),
      gatewayEventLoopUtilization: Math.round((active / (active + idle)) * 100) / 100,
      gatewayRssMb: mb(u1.rss),
      gatewayHeapUsedMb: mb(u1.heapUsed),
      gatewayGc: { ...u1.gc, minorMs: round1(u1.gc.minorMs), majorMs: round1(u1.gc.majorMs), maxPauseMs: round1(u1.gc.maxPauseMs) },
      gatewayLoopDelay: { p50Ms: round3(u1.loopDelay.p50Ms), p99Ms: round3(u1.loopDelay.p99Ms), maxMs: round3(u1.loopDelay.maxMs) },
      gatewayStartMs: Math.round(gw.startMs),
      pacing,
      cpu,
      lostCards: lost,
      passed: lost === 0 && meter.mismatches === 0 && card.p99Ms <= LIMIT_P99_MS,
      ...(stages ? { stages } : {}),
    };
  } finally {
    await gw.stop();
    await sub.endAsync(true);
  }
}
