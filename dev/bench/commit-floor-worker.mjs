// The commit floor's thread (bench/commit-floor.ts): one SQLite transaction per commit, holding
// an input row and a message row of a card event's size, in WAL mode with the journal's
// `synchronous`, in a fresh database; each commit timed on this thread. Plain JS so that it runs
// in a worker thread without a TypeScript loader.
//
// Messages: 'commit' (one commit now: the series' slots call it, interleaved with the cards),
// { paced: n, intervalMs } (n commits, one every intervalMs, timed here), 'finish' (answers with
// the samples in ms and removes the database).
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const { dir, payloadBytes, synchronous } = workerData;
mkdirSync(dir, { recursive: true });
const db = new Database(join(dir, 'floor.db'));
db.pragma('journal_mode = WAL');
db.pragma(`synchronous = ${synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
db.exec(`
  CREATE TABLE inputs (id INTEGER PRIMARY KEY, table_id TEXT NOT NULL, body TEXT NOT NULL);
  CREATE TABLE messages (seq INTEGER PRIMARY KEY, table_id TEXT NOT NULL, topic TEXT NOT NULL, payload TEXT NOT NULL);
`);
const input = db.prepare('INSERT INTO inputs (table_id, body) VALUES (?, ?)');
const message = db.prepare('INSERT INTO messages (seq, table_id, topic, payload) VALUES (?, ?, ?, ?)');
const inputBody = JSON.stringify({ type: 'frame', at: Date.now(), deviceId: 'shoe-1', frame: { talker: 'SHOE', seq: 1, type: 'CARD', card: 'AS' } });
const payload = 'x'.repeat(Math.max(1, payloadBytes));
const write = db.transaction((seq) => {
  input.run('floor-1', inputBody);
  message.run(seq, 'floor-1', 'bench/floor-1/events', payload);
});
let seq = 0;
for (let i = 0; i < 50; i++) write(seq++); // warm-up: file growth, WAL creation
const samples = [];
const timed = () => {
  const t0 = performance.now();
  write(seq++);
  samples.push(performance.now() - t0);
};

parentPort.on('message', async (m) => {
  if (m === 'commit') timed();
  else if (m && typeof m.paced === 'number') {
    let next = performance.now();
    for (let i = 0; i < m.paced; i++) {
      timed();
      next += m.intervalMs;
      const wait = next - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
    parentPort.postMessage({ type: 'paced' });
  } else if (m === 'finish') {
    db.close();
    rmSync(dir, { recursive: true, force: true });
    parentPort.postMessage({ type: 'samples', samples });
  }
});
parentPort.postMessage({ type: 'ready' });
