/**
 * Measures the journal's bytes per round of each game (the figures in
 * src/app/config/journal-size.ts, which check-config uses to print the disk journal.retentionDays
 * needs): runs the demo's simulated tables (config/default.yaml, every game) as fast as they deal,
 * on the embedded broker, into a fresh data dir; stops; checkpoints the WAL and divides each
 * table's share of gateway.db by its results. Each table's share is its inputs', messages' and
 * snapshots' bytes (SQLite's dbstat when available, else the text lengths scaled to the file).
 *
 *   npx tsx dev/bench/journal-bytes-per-round.ts [seconds=40]
 */
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { loadConfigFile } from '../../src/app/config/load-config.js';
import { startGateway } from '../../src/app/gateway.js';
import { createLogger } from '../../src/runtime/log.js';
import { loadSimulators } from '../../simulators/load.js';
import { freePort } from '../rig/free-port.js';

const seconds = Number(process.argv[2] ?? 40);
const cfg = loadConfigFile(join(import.meta.dirname, '..', '..', 'config', 'default.yaml'));
cfg.dataDir = mkdtempSync(join(tmpdir(), 'bytes-per-round-'));
cfg.embeddedBroker.port = await freePort();
cfg.http.enabled = false;
cfg.journal.synchronous = 'normal';
const gw = await startGateway(cfg, {
  simulators: loadSimulators,
  logger: createLogger({ json: false, level: 'error', write: () => {} }),
  fast: true,
  summaryIntervalMs: 0,
});
await new Promise((r) => setTimeout(r, seconds * 1000));
await gw.stop();

const file = join(cfg.dataDir, 'gateway.db');
const db = new Database(file);
db.pragma('wal_checkpoint(TRUNCATE)');
const total = statSync(file).size;
const per = db
  .prepare(`SELECT t.table_id AS id,
    (SELECT COALESCE(SUM(LENGTH(input)) + COUNT(*) * 24, 0) FROM inputs WHERE table_id = t.table_id) AS inputs,
    (SELECT COALESCE(SUM(LENGTH(payload) + LENGTH(topic)) + COUNT(*) * 24, 0) FROM messages WHERE table_id = t.table_id) AS messages,
    (SELECT COALESCE(SUM(LENGTH(state)) + COUNT(*) * 16, 0) FROM snapshots WHERE table_id = t.table_id) AS snapshots,
    (SELECT COUNT(*) FROM messages WHERE table_id = t.table_id AND topic = 'result') AS rounds
  FROM tables t`)
  .all() as Array<{ id: string; inputs: number; messages: number; snapshots: number; rounds: number }>;
db.close();
const content = per.reduce((s, t) => s + t.inputs + t.messages + t.snapshots, 0);
// the rows' bytes scaled to the file: pages, indexes and free space shared in proportion
const scale = total / content;
console.log(`gateway.db ${total} bytes after ${seconds} s; rows ${content} bytes; file/rows ${scale.toFixed(2)}`);
for (const t of per) {
  const game = cfg.tables.find((x) => x.id === t.id)?.game ?? '?';
  const bytes = (t.inputs + t.messages + t.snapshots) * scale;
  console.log(`${game.padEnd(20)} ${t.id.padEnd(12)} rounds ${String(t.rounds).padStart(6)}  bytes/round ${t.rounds ? Math.round(bytes / t.rounds) : '-'}`);
}
