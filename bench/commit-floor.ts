/**
 * The durable-commit floor of a card's latency: one fsync'd SQLite transaction holding an input
 * row and a message row of a card's size, on the same disk as the gateway's data dir, with the
 * journal's own settings (WAL, `synchronous` FULL or NORMAL). Paced like the latency series (one
 * commit every `intervalMs`), so the disk sees the same pattern as under a dealing shoe.
 *
 * The gateway must commit each input before anything leaves, so a card cannot arrive faster than
 * a bare publish plus this commit: the latency targets are stated against their sum.
 */
import Database from 'better-sqlite3';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { summarize, type LatencySummary } from './lib/stats.js';

export interface CommitFloorOptions {
  dataDir: string;
  payloadBytes: number;
  synchronous: 'full' | 'normal';
  commits: number;
  intervalMs: number;
}

export async function measureCommitFloor(o: CommitFloorOptions): Promise<LatencySummary> {
  const dir = join(o.dataDir, `commit-floor-${process.pid}-${o.intervalMs}`);
  mkdirSync(dir, { recursive: true });
  const db = new Database(join(dir, 'floor.db'));
  try {
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${o.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
    db.exec(`
      CREATE TABLE inputs (id INTEGER PRIMARY KEY, table_id TEXT NOT NULL, body TEXT NOT NULL);
      CREATE TABLE messages (seq INTEGER PRIMARY KEY, table_id TEXT NOT NULL, topic TEXT NOT NULL, payload TEXT NOT NULL);
    `);
    const input = db.prepare('INSERT INTO inputs (table_id, body) VALUES (?, ?)');
    const message = db.prepare('INSERT INTO messages (seq, table_id, topic, payload) VALUES (?, ?, ?, ?)');
    const inputBody = JSON.stringify({ type: 'frame', at: Date.now(), deviceId: 'shoe-1', frame: { talker: 'SHOE', seq: 1, type: 'CARD', card: 'AS' } });
    const payload = 'x'.repeat(Math.max(1, o.payloadBytes));
    const commit = db.transaction((seq: number) => {
      input.run('floor-1', inputBody);
      message.run(seq, 'floor-1', 'bench/floor-1/events', payload);
    });
    for (let i = 0; i < 50; i++) commit(-1 - i); // warm-up: file growth, WAL creation
    const samples: number[] = [];
    let next = performance.now();
    for (let i = 0; i < o.commits; i++) {
      const t0 = performance.now();
      commit(i);
      samples.push(performance.now() - t0);
      next += o.intervalMs;
      const wait = next - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
    return summarize(samples);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
