/**
 * Where a card's latency goes: the bench's write and receive times of each measured card joined
 * (by table and event seq) with the gateway's latency-probe stamps (dev/bench/lib/latency-probe.ts,
 * same monotonic clock), cut into stages. The stages add up to the whole card latency.
 */
import type { CardProbe } from './latency-probe.js';
import type { CardTrace } from './load.js';
import { round3, summarize, type LatencySummary } from './stats.js';

/** stage name -> [from, to] stamp, in path order */
export const STAGES = [
  ['ptyHopAndSerialRead', 'written', 'read', "pty hop + serial read (write(2) in the bench -> the transport's data event)"],
  ['codec', 'read', 'decoded', 'line framer + codec'],
  ['driverAndRx', 'decoded', 'apply', 'driver (SEQ, stale timer) + rxjs merge -> TableRuntime.apply'],
  ['machine', 'apply', 'stepped', 'step() of the table machine'],
  ['json', 'stepped', 'serialised', 'JSON of the outputs (their topic-map check runs beside the commit, once the writer thread has the batch)'],
  [
    'queueToFlush',
    'serialised',
    'flushed',
    "waiting for the store's flush (setImmediate) and for the batch in flight on the writer thread (group commit) + the batch's JSON",
  ],
  ['workerHopIn', 'flushed', 'commitStart', 'postMessage to the journal writer thread'],
  ['commit', 'commitStart', 'commitEnd', 'SQLite transaction + fsync (and the high-water mark) on the writer thread'],
  ['workerHopOut', 'commitEnd', 'effects', "the writer's `done` back to the main thread"],
  ['effectsToPublish', 'effects', 'published', 'effects -> outbox -> mqtt.js publish()'],
  ['publishToSubscriber', 'published', 'received', 'mqtt.js -> Mosquitto -> subscriber (other process)'],
] as const;

export interface StageBreakdown {
  /** cards measured by the bench and found in the probe */
  joined: number;
  /** measured cards the probe had no complete record of */
  missing: number;
  stages: Record<string, LatencySummary & { what: string }>;
  /** measured cards per journal batch (one writer-thread round trip and one commit each) */
  cardsPerBatch: number;
  /** the sum of the stages' medians beside the median of the whole (they need not be equal) */
  sumOfStageP50Ms: number;
  totalP50Ms: number;
}

export function stageBreakdown(traces: readonly CardTrace[], probes: readonly CardProbe[]): StageBreakdown {
  const byKey = new Map<string, CardProbe>();
  for (const p of probes) byKey.set(`${p.tableId}\0${p.seq}`, p);
  const samples = new Map<string, number[]>(STAGES.map(([name]) => [name, []]));
  const totals: number[] = [];
  let missing = 0;
  const batches = new Set<number>();
  for (const t of traces) {
    const p = byKey.get(`${t.tableId}\0${t.seq}`);
    const at: Record<string, number> | undefined = p
      ? { ...(p as unknown as Record<string, number>), written: t.writtenHr, received: t.receivedHr }
      : undefined;
    if (!at || STAGES.some(([, from, to]) => !Number.isFinite(at[from]) || !Number.isFinite(at[to]))) {
      missing++;
      continue;
    }
    for (const [name, from, to] of STAGES) samples.get(name)!.push(at[to] - at[from]);
    batches.add(at.flushed);
    totals.push(t.receivedHr - t.writtenHr);
  }
  const stages: StageBreakdown['stages'] = {};
  let sum = 0;
  for (const [name, , , what] of STAGES) {
    const s = summarize(samples.get(name)!);
    stages[name] = { ...s, what };
    if (Number.isFinite(s.p50Ms)) sum += s.p50Ms;
  }
  return {
    joined: totals.length,
    missing,
    stages,
    cardsPerBatch: batches.size ? round3(totals.length / batches.size) : 0,
    sumOfStageP50Ms: round3(sum),
    totalP50Ms: summarize(totals).p50Ms,
  };
}

/** the breakdown as printable lines */
export function stageLines(b: StageBreakdown): string[] {
  const lines = [`    stage                    p50 ms    p99 ms   (${b.joined} cards; ${b.missing} without a full probe record)`];
  for (const [name] of STAGES) {
    const s = b.stages[name];
    lines.push(`    ${name.padEnd(22)} ${String(s.p50Ms).padStart(8)}  ${String(s.p99Ms).padStart(8)}`);
  }
  lines.push(`    sum of stage p50s ${b.sumOfStageP50Ms} ms; whole card p50 ${b.totalP50Ms} ms; ${b.cardsPerBatch} cards per journal batch`);
  return lines;
}
