/**
 * The durable-commit floor of a card's latency: one fsync'd SQLite transaction holding an input
 * row and a message row of a card's size, on the same disk as the gateway's data dir, with the
 * journal's own settings (WAL, `synchronous` FULL or NORMAL), on a thread of its own
 * (dev/bench/commit-floor-worker.mjs) so that a commit never holds the bench's event loop.
 *
 * The gateway must commit each input before anything leaves, so a card cannot arrive faster than
 * a bare publish plus this commit: the latency targets are stated against their sum. Two ways to
 * take it:
 *
 * - interleaved (`commit()` from the series' own slots): the 20 cards/s series asks for one
 *   commit halfway between each gateway card and the next baseline message, so the floor and the
 *   gateway share the machine's moments (a stall of the disk falls on both, not on one only);
 * - paced (`paced()`): n commits one every `intervalMs`, for the 1,000 cards/s series, right after
 *   it (at 1 ms the commits would overlap the cards).
 */
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { summarize, type LatencySummary } from './lib/stats.js';

export interface CommitFloorOptions {
  dataDir: string;
  payloadBytes: number;
  synchronous: 'full' | 'normal';
}

export interface CommitFloor {
  /** one commit now, on the floor's thread (returns at once) */
  commit(): void;
  /** n commits, one every intervalMs; resolves when they are done */
  paced(n: number, intervalMs: number): Promise<void>;
  /** the commits' times, and the thread and its database gone */
  finish(): Promise<LatencySummary>;
}

export async function startCommitFloor(o: CommitFloorOptions, name: string): Promise<CommitFloor> {
  const w = new Worker(new URL('./commit-floor-worker.mjs', import.meta.url), {
    workerData: { dir: join(o.dataDir, `commit-floor-${process.pid}-${name}`), payloadBytes: o.payloadBytes, synchronous: o.synchronous },
  });
  const next = (type: string) => new Promise<{ type: string; samples?: number[] }>((resolve, reject) => {
    const onMessage = (m: { type: string; samples?: number[] }) => {
      if (m.type !== type) return;
      w.off('message', onMessage);
      w.off('error', reject);
      resolve(m);
    };
    w.on('message', onMessage);
    w.once('error', reject);
  });
  await next('ready');
  return {
    commit: () => w.postMessage('commit'),
    paced: async (n, intervalMs) => {
      const done = next('paced');
      w.postMessage({ paced: n, intervalMs });
      await done;
    },
    finish: async () => {
      const done = next('samples');
      w.postMessage('finish');
      const m = await done;
      await w.terminate();
      return summarize(m.samples ?? []);
    },
  };
}
