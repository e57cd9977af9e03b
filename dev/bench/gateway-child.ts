/**
 * The gateway under test, in its own process so its CPU and memory are measured apart from the
 * load generator: `node --import tsx dev/bench/gateway-child.ts <config.json>` (forked by the bench).
 *
 * IPC (process.send): -> `{type:'ready', startMs}` once startGateway resolved;
 * <- `{type:'usage'}` -> `{type:'usage', cpu, rss, heapUsed, elu, uptimeMs, gc, loopDelay}` (gc: the main thread's
 *    collections since the previous usage message; loopDelay: how late the event loop came round
 *    to a 1 ms timer, p50 / p99 / max in ms over the same window);
 * <- `{type:'gc'}` (when run with --expose-gc) -> `{type:'gc-done', rss, heapUsed}`;
 * <- `{type:'probe'}` -> `{type:'probe', records}`: the latency probe's records so far (started
 *    with TEG_LATENCY_PROBE=1: dev/bench/lib/latency-probe.ts, plugged into startGateway), which it then forgets;
 * <- `{type:'stop'}` -> stops the gateway and exits (a --cpu-prof profile is written on exit).
 *
 * Until the ninth session it logged nothing (a silent logger); docs/PERFORMANCE.md, "How to reproduce".
 */
import { readFileSync } from 'node:fs';
import { constants, monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';
import { validateConfig } from '../../src/app/config/load-config.js';
import { startGateway } from '../../src/app/gateway.js';
import { loadSimulators } from '../../simulators/load.js';
import { latencyProbe } from './lib/latency-probe.js';
import { createLogger } from '../../src/runtime/log.js';

type Msg = { type: 'usage' } | { type: 'gc' } | { type: 'probe' } | { type: 'stop' };

async function main(): Promise<void> {
  const file = process.argv[2];
  if (!file || !process.send) throw new Error('usage: forked with an IPC channel: gateway-child.ts <config.json>');
  const t0 = performance.now();
  const cfg = validateConfig(JSON.parse(readFileSync(file, 'utf8')), file);
  // it logs as `tablegw start` does under systemd (JSON lines at the config's level: a round's
  // summary per round at `info`), into its stdout, which the bench points at /dev/null
  // (TEG_BENCH_CHILD_STDOUT: a file): the cost of every line is the gateway's, as in production
  const logger = createLogger({ level: cfg.log.level, json: true });
  const gw = await startGateway(cfg, { simulators: loadSimulators, logger, ...(process.env.TEG_LATENCY_PROBE === '1' ? { probe: latencyProbe } : {}) });
  const elu0 = performance.eventLoopUtilization();
  // the main thread's GC pauses, per usage window (a long one holds every table's cards)
  const gcWindow = () => ({ minor: 0, minorMs: 0, major: 0, majorMs: 0, maxPauseMs: 0 });
  let gc = gcWindow();
  // how late the loop runs what is due (a blocked or descheduled main thread): every card waits for it
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = (e as unknown as { detail?: { kind?: number } }).detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
        gc.major++;
        gc.majorMs += e.duration;
      } else if (kind === constants.NODE_PERFORMANCE_GC_MINOR) {
        gc.minor++;
        gc.minorMs += e.duration;
      }
      gc.maxPauseMs = Math.max(gc.maxPauseMs, e.duration);
    }
  }).observe({ entryTypes: ['gc'] });
  process.send({ type: 'ready', startMs: performance.now() - t0 });
  if (process.env.TEG_BENCH_HEAP_PROFILE) void sampleAllocations(process.env.TEG_BENCH_HEAP_PROFILE);
  process.on('message', (m: Msg) => {
    if (m.type === 'usage') {
      const mem = process.memoryUsage();
      process.send!({
        type: 'usage',
        cpu: process.cpuUsage(),
        rss: mem.rss,
        heapUsed: mem.heapUsed,
        elu: performance.eventLoopUtilization(elu0),
        uptimeMs: performance.now(),
        gc,
        loopDelay: { p50Ms: delay.percentile(50) / 1e6, p99Ms: delay.percentile(99) / 1e6, maxMs: delay.max / 1e6 },
      });
      gc = gcWindow();
      delay.reset();
    } else if (m.type === 'gc') {
      (globalThis as { gc?: () => void }).gc?.();
      const mem = process.memoryUsage();
      process.send!({ type: 'gc-done', rss: mem.rss, heapUsed: mem.heapUsed });
    } else if (m.type === 'probe') {
      process.send!({ type: 'probe', records: latencyProbe.take() });
    } else if (m.type === 'stop') {
      const force = setTimeout(() => process.exit(0), 10_000);
      force.unref();
      void gw.stop().finally(() => process.exit(0));
    }
  });
  process.on('disconnect', () => {
    void gw.stop().finally(() => process.exit(0));
  });
}

/**
 * `TEG_BENCH_HEAP_PROFILE=<file>`: where the gateway allocates. A sampling heap profile that keeps
 * the samples of objects already collected (so it shows the allocation rate, not what is live),
 * from 2 s after the start for 8 s (within a throughput step; `TEG_BENCH_HEAP_PROFILE_SECONDS`);
 * open it in Chrome DevTools or sum it by function. `TEG_BENCH_HEAP_PROFILE_KIND`: see below.
 */
async function sampleAllocations(file: string): Promise<void> {
  const { Session } = await import('node:inspector/promises');
  const { writeFileSync } = await import('node:fs');
  const session = new Session();
  session.connect();
  await new Promise((r) => setTimeout(r, 2000));
  // `all`: every allocation (the rate); `old`: what was promoted and later collected by a full
  // collection, plus what is still live at the end; `live`: only what is live at the end (`old`
  // minus `live` is what reaches the old generation and dies there: the full collections' work)
  const kind = process.env.TEG_BENCH_HEAP_PROFILE_KIND ?? 'all';
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 16384,
    includeObjectsCollectedByMajorGC: kind !== 'live',
    includeObjectsCollectedByMinorGC: kind === 'all',
  });
  await new Promise((r) => setTimeout(r, 1000 * Number(process.env.TEG_BENCH_HEAP_PROFILE_SECONDS ?? 8)));
  const { profile } = await session.post('HeapProfiler.stopSampling');
  writeFileSync(file, JSON.stringify(profile));
  session.disconnect();
}

main().catch((e: unknown) => {
  console.error(`gateway-child: ${(e as Error).stack ?? String(e)}`);
  process.exit(1);
});
