/**
 * Card latency and result latency, one table, against the plain bridge a user could write instead
 * (dev/bench/plain-bridge.ts: serialport on a pty -> one fsync'd SQLite insert -> mqtt.js QoS 1)
 * and the bare mqtt.js baseline.
 *
 * Card latency = from the last byte of a CARD line written into the pty to the subscriber
 * receiving the matching `events` message through Mosquitto; the same for the bridge on its own
 * pty. Baseline = a bare mqtt.js client publishing a payload of the same size (QoS 1, MQTT 5,
 * setNoDelay on connect) to the same broker and the same subscriber, from publish() to receipt.
 *
 * - 20 cards/s: a gateway card, a bridge card and a baseline message in turn, 16.7 ms apart (each
 *   path at 20/s and idle while another's message is in flight), so a busy second falls on all three.
 * - 1,000 cards/s: gateway and bridge in alternating blocks of 1,000 cards (1 s each; at 1 ms
 *   spacing single cards would queue behind each other), then the baseline series.
 * - the 1,000 cards/s gateway series once more with `journal.synchronous: normal` (no fsync per
 *   commit) and once with the data dir on tmpfs (/dev/shm): the cost of the per-step durable
 *   write on this disk, by difference.
 * - right after the 20 cards/s series, dev/bench/cold-run.ts: how much slower the machine's step runs
 *   once every 25 ms than back to back on this host now (`hostColdRun`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectClient, type Broker } from './lib/broker.js';
import { cpuWindow, type CpuWindow } from './lib/cpu.js';
import { benchConfig, journalDefault, journalWriterOption, startGatewayProc, type GatewayProc } from './lib/gateway-proc.js';
import { PlainBridge } from './lib/bridge.js';
import { Baseline, Meter, pace, TableFeed, waitDevicesConnected, type PaceStats } from './lib/load.js';
import { openPty, type BenchPty } from './lib/pty.js';
import { stageBreakdown, stageLines, type StageBreakdown } from './lib/stages.js';
import { mb, round3, summarize, type LatencySummary } from './lib/stats.js';

export interface LatencyOptions {
  dir: string;
  broker: Broker;
  quick: boolean;
  profileDir?: string;
  log: (s: string) => void;
}

/** dev/bench/cold-run.ts's figures: one baccarat step() + JSON, p50 in microseconds */
export interface ColdRun {
  what: string;
  warmUs: number;
  every1msUs: number;
  every25msUs: number;
  factor25ms: number | null;
}

/** dev/bench/cold-run.ts in its own process (null if it fails: the figure is an explanation, not a target) */
function hostColdRun(quick: boolean, log: (s: string) => void): ColdRun | null {
  const script = join(dirname(fileURLToPath(import.meta.url)), 'cold-run.ts');
  try {
    const out = execFileSync(process.execPath, ['--import', 'tsx', script, ...(quick ? ['--quick'] : [])], { encoding: 'utf8', timeout: 60_000 });
    return JSON.parse(out.trim().split('\n').pop() ?? '') as ColdRun;
  } catch (e) {
    log(`  host cold-run probe failed: ${(e as Error).message.split('\n')[0]}`);
    return null;
  }
}

export interface RateResult {
  cardsPerSec: number;
  gateway: LatencySummary;
  baseline: LatencySummary;
  p99Ratio: number;
  p99AboveBaselineMs: number;
  result: LatencySummary;
  /** the plain bridge's cards in the same run (dev/bench/plain-bridge.ts) */
  bridge?: LatencySummary;
  /** where the time went, per stage (the gateway's latency probe joined with the bench's times) */
  stages?: StageBreakdown;
  pacing: PaceStats;
  cpu: CpuWindow;
  gatewayCpuPct: number;
  note?: string;
}

async function session(
  o: LatencyOptions,
  name: string,
  dataDir: string,
  pty: BenchPty,
  exposeGc: boolean,
  synchronous?: 'full' | 'normal',
  probe = false,
  writer?: 'inline' | 'thread',
) {
  const prefix = `bench-${name}`;
  const tableId = `${name}-1`;
  const sub = await connectClient(o.broker.url, `${prefix}-sub`);
  const meter = new Meter(sub, prefix);
  await meter.subscribe();
  const config = benchConfig({
    brokerUrl: o.broker.url,
    topicPrefix: prefix,
    dataDir,
    tables: [{ id: tableId, gatewayPath: pty.gatewayPath }],
    synchronous,
    writer,
  });
  const devicesUp = waitDevicesConnected(sub, prefix, [tableId], 60_000);
  const gw = await startGatewayProc({ config, dir: o.dir, name, profileDir: o.profileDir, exposeGc, probe });
  await devicesUp;
  const feed = new TableFeed(tableId, pty, `${name}-shoe`);
  meter.add(feed);
  const pub = await connectClient(o.broker.url, `${prefix}-baseline`);
  const baseline = new Baseline(pub, `${prefix}/baseline/events`);
  meter.attachBaseline(baseline);
  return { sub, meter, gw, feed, pub, baseline, prefix };
}

async function closeSession(s: Awaited<ReturnType<typeof session>>) {
  await s.gw.stop();
  await s.sub.endAsync(true);
  await s.pub.endAsync(true);
}

function rateResult(
  cardsPerSec: number,
  gw: number[],
  base: number[],
  results: number[],
  pacing: PaceStats,
  cpu: CpuWindow,
  gatewayCpuPct: number,
): RateResult {
  const g = summarize(gw);
  const b = summarize(base);
  return {
    cardsPerSec,
    gateway: g,
    baseline: b,
    p99Ratio: round3(g.p99Ms / b.p99Ms),
    p99AboveBaselineMs: round3(g.p99Ms - b.p99Ms),
    result: summarize(results),
    pacing,
    cpu,
    gatewayCpuPct,
  };
}

async function gatewayCpuPct(gw: GatewayProc, run: () => Promise<void>): Promise<number> {
  const u0 = await gw.usage();
  await run();
  const u1 = await gw.usage();
  const cpuMs = (u1.cpu.user - u0.cpu.user + u1.cpu.system - u0.cpu.system) / 1000;
  return Math.round((cpuMs / (u1.uptimeMs - u0.uptimeMs)) * 1000) / 10;
}

export async function runLatency(o: LatencyOptions) {
  const n20 = o.quick ? 300 : 2000;
  const n1000 = o.quick ? 1000 : 5000;
  const dataDisk = join(o.dir, 'data-latency');
  mkdirSync(dataDisk, { recursive: true });
  const pty = await openPty(o.dir, 'lat');
  const bridgePty = await openPty(o.dir, 'bridge');
  const pids = (extra: number[]) => () => [o.broker.pid, pty.socatPid, bridgePty.socatPid, ...extra];
  let coldRun: ColdRun | null = null;
  let rates!: Record<'20' | '1000', RateResult>;
  let load!: Awaited<ReturnType<GatewayProc['usage']>>;
  try {
    const s = await session(o, 'lat', dataDisk, pty, true, undefined, true);
    try {
      // idle: connected, nothing dealt yet
      await new Promise((r) => setTimeout(r, 2000));
      const idle = await s.gw.usage();
      const idleGc = await s.gw.gc();
      // warm-up (not measured): JIT, and the size of a card event for the baseline's payloads
      await pace(200, 5, () => s.feed.writeCard(false));
      if ((await s.meter.drain(20_000)) > 0) throw new Error('warm-up cards were not all received');
      const size = Math.round(s.meter.payloadSizes.reduce((a, b) => a + b, 0) / Math.max(1, s.meter.payloadSizes.length)) || 300;
      s.meter.payloadSizes.length = 0;
      s.baseline.setSize(size);
      for (let i = 0; i < 50; i++) s.baseline.send(false);
      await s.meter.drain(10_000);
      await s.gw.probe(); // the warm-up's records: not measured
      o.log(`  card event payload ~${size} bytes; gateway idle RSS ${mb(idle.rss)} MB`);

      // the plain bridge on its own pty, sending payloads of the card event's size
      const bridge = await PlainBridge.start(bridgePty, o.broker.url, `${s.prefix}/bridge/events`, join(dataDisk, 'plain-bridge.db'), size);
      s.meter.attachBridge(bridge);
      try {
        for (let i = 0; i < 50; i++) bridge.writeCard(false);
        if ((await s.meter.drain(10_000)) > 0) throw new Error('bridge warm-up: messages never arrived');

        // 20 cards/s: a gateway card, a bridge card and a baseline message in turn, 16.7 ms apart
        o.log(`  20 cards/s: ${n20} cards each of the gateway and the plain bridge + ${n20} baseline messages, in turn (${Math.round(n20 / 20)} s)`);
        s.meter.resetSamples();
        let pacing20!: PaceStats;
        const w20 = cpuWindow(pids([s.gw.pid, bridge.pid]));
        const cpu20 = await gatewayCpuPct(s.gw, async () => {
          pacing20 = await pace(3 * n20, 50 / 3, (k) => {
            if (k % 3 === 0) s.feed.writeCard(true);
            else if (k % 3 === 1) bridge.writeCard(true);
            else s.baseline.send(true);
          });
          if ((await s.meter.drain(20_000)) > 0) throw new Error(`20/s: ${s.meter.outstanding} message(s) never arrived`);
        });
        const r20 = rateResult(20, [...s.meter.cardLatencies], [...s.baseline.latencies], [...s.meter.resultLatencies], pacing20, w20(), cpu20);
        r20.bridge = summarize(bridge.latencies);
        r20.note = 'a gateway card, a bridge card and a baseline message in turn, 16.7 ms apart';
        r20.stages = stageBreakdown(s.meter.cardTraces, await s.gw.probe());
        o.log('  where the time went at 20 cards/s:');
        for (const l of stageLines(r20.stages)) o.log(l);
        coldRun = hostColdRun(o.quick, o.log);
        if (coldRun) {
          o.log(
            `  the host now: step() + JSON back to back ${coldRun.warmUs} us, once every 1 ms ${coldRun.every1msUs} us, once every 25 ms ${coldRun.every25msUs} us (x${coldRun.factor25ms}; dev/bench/cold-run.ts)`,
          );
        }

        // 1,000 cards/s: the gateway and the bridge in alternating blocks of 1,000 cards, then the baseline
        const block = Math.min(1000, n1000);
        o.log(`  1000 cards/s: ${n1000} cards each of the gateway and the plain bridge in alternating blocks of ${block}, then ${n1000} baseline messages`);
        s.meter.resetSamples();
        s.baseline.latencies.length = 0;
        bridge.latencies.length = 0;
        const w1000 = cpuWindow(pids([s.gw.pid, bridge.pid]));
        let pacing1000!: PaceStats;
        const cpu1000 = await gatewayCpuPct(s.gw, async () => {
          for (let done = 0; done < n1000; done += block) {
            const p = await pace(Math.min(block, n1000 - done), 1, () => s.feed.writeCard(true));
            pacing1000 ??= p;
            if ((await s.meter.drain(30_000)) > 0) throw new Error(`1000/s: ${s.meter.outstanding} card(s) never arrived`);
            await pace(Math.min(block, n1000 - done), 1, () => bridge.writeCard(true));
            if ((await s.meter.drain(30_000)) > 0) throw new Error(`bridge 1000/s: ${s.meter.outstanding} card(s) never arrived`);
          }
        });
        const cpuWin1000 = w1000();
        load = await s.gw.usage();
        const gw1000 = [...s.meter.cardLatencies];
        const stages1000 = stageBreakdown(s.meter.cardTraces, await s.gw.probe());
        o.log('  where the time went at 1000 cards/s:');
        for (const l of stageLines(stages1000)) o.log(l);
        const res1000 = [...s.meter.resultLatencies];
        await pace(n1000, 1, () => s.baseline.send(true));
        if ((await s.meter.drain(30_000)) > 0) throw new Error('baseline 1000/s: messages never arrived');
        const r1000 = rateResult(1000, gw1000, [...s.baseline.latencies], res1000, pacing1000, cpuWin1000, cpu1000);
        r1000.bridge = summarize(bridge.latencies);
        r1000.note = 'gateway and bridge in alternating blocks of 1,000 cards, then the baseline series';
        r1000.stages = stages1000;
        rates = { '20': r20, '1000': r1000 };
        for (const r of [r20, r1000]) {
          o.log(
            `  plain bridge at ${r.cardsPerSec}/s: p50 ${r.bridge?.p50Ms} ms, p99 ${r.bridge?.p99Ms} ms; gateway p50 ${r.gateway.p50Ms} ms, p99 ${r.gateway.p99Ms} ms`,
          );
        }
      } finally {
        await bridge.stop();
      }
      if (s.meter.mismatches || s.meter.unexpected) throw new Error(`matching failed: ${s.meter.mismatches} mismatches, ${s.meter.unexpected} unexpected`);
      await closeSession(s);

      // the same 1,000 cards/s gateway series with the journal without fsync, and on tmpfs
      const variants: Record<
        string,
        { gateway: LatencySummary; result: LatencySummary; gatewayCpuPct: number; dataDir: string; synchronous: string | null; writer: string }
      > = {};
      const jd = journalDefault();
      const runs: Array<{ key: string; dataDir: string; synchronous?: 'normal'; writer?: 'inline' }> = [];
      if (jd === 'full') runs.push({ key: 'journalNormal', dataDir: join(o.dir, 'data-latency-normal'), synchronous: 'normal' });
      // the same series with the commits on the event loop (journal.writer: inline) instead of the writer thread
      if (journalWriterOption()) runs.push({ key: 'writerInline', dataDir: join(o.dir, 'data-latency-inline'), writer: 'inline' });
      if (existsSync('/dev/shm')) runs.push({ key: 'tmpfsDataDir', dataDir: join('/dev/shm', `teg-bench-${process.pid}`) });
      for (const v of runs) {
        mkdirSync(v.dataDir, { recursive: true });
        o.log(
          `  1000 cards/s again: ${v.key} (dataDir ${v.dataDir}${v.synchronous ? `, journal.synchronous ${v.synchronous}` : ''}${v.writer ? `, journal.writer ${v.writer}` : ''})`,
        );
        const t = await session(o, `lat${v.key.toLowerCase()}`, v.dataDir, pty, false, v.synchronous, false, v.writer);
        try {
          await pace(200, 5, () => t.feed.writeCard(false));
          await t.meter.drain(20_000);
          t.meter.resetSamples();
          const cpu = await gatewayCpuPct(t.gw, async () => {
            await pace(n1000, 1, () => t.feed.writeCard(true));
            if ((await t.meter.drain(30_000)) > 0) throw new Error(`${v.key} 1000/s: cards never arrived`);
          });
          variants[v.key] = {
            gateway: summarize(t.meter.cardLatencies),
            result: summarize(t.meter.resultLatencies),
            gatewayCpuPct: cpu,
            dataDir: v.dataDir.startsWith('/dev/shm') ? 'tmpfs (/dev/shm)' : 'disk',
            synchronous: v.synchronous ?? jd,
            writer: v.writer ?? 'thread',
          };
        } finally {
          await closeSession(t);
          if (v.dataDir.startsWith('/dev/shm')) rmSync(v.dataDir, { recursive: true, force: true });
        }
      }

      return {
        payloadBytes: size,
        rates,
        hostColdRun: coldRun,
        journalSynchronous: jd,
        variants1000: variants,
        rss: { idleMb: mb(idle.rss), idleAfterGcMb: mb(idleGc.rss), idleHeapAfterGcMb: mb(idleGc.heapUsed), at1000Mb: mb(load.rss) },
      };
    } catch (e) {
      await closeSession(s).catch(() => {});
      throw e;
    }
  } finally {
    await pty.close();
    await bridgePty.close();
  }
}
