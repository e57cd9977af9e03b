// The journal's writer thread (see gateway-store.ts, `writer: 'thread'`): commits the batches it is
// sent, in order, one transaction each, and answers `done` once a batch is on disk. Plain JS so
// it runs in a worker thread without a TypeScript loader.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { HwmFiles, HwmMark } from './hwm-slots.mjs';

// the high-water mark (journal-integrity.ts, hwm-slots.mjs), written after the commit and before `done`:
// kept here from the main thread's mark (and reservations) at the start plus each batch's tables that moved (`msg.hwm`)
const hwm = workerData.dir ? new HwmFiles(workerData.dir, workerData.synchronous === 'full') : null;
const mark = new HwmMark(workerData.hwm ?? {}, workerData.reserved ?? {});

const db = new Database(workerData.path);
db.pragma('journal_mode = WAL');
db.pragma(`synchronous = ${workerData.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
db.pragma('busy_timeout = 10000');
const insertInput = db.prepare('INSERT INTO inputs (table_id, at, input) VALUES (?, ?, ?)');
const insertMessage = db.prepare(
  'INSERT INTO messages (table_id, seq, input_id, topic, retain, payload, also_topic, also_correlation) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
);
const insertSnapshot = db.prepare('INSERT OR REPLACE INTO snapshots (table_id, input_id, state) VALUES (?, ?, ?)');
const ack = db.prepare('UPDATE messages SET acked = 1 WHERE table_id = ? AND seq = ?');
const deviceSeq = db.prepare(
  'INSERT INTO device_seq (table_id, device_id, seq) VALUES (?, ?, ?) ON CONFLICT (table_id, device_id) DO UPDATE SET seq = excluded.seq',
);

// a batch: steps = [[tableId, at, inputJson, messages: [[seq, topic, retain, payload, alsoTopic, alsoCorrelation]], snapshotJson | null]], acks = [[tableId, seq]]
// seqs = [[tableId, deviceId, seq]]: the last SEQ of each device
const write = db.transaction((steps, acks, seqs) => {
  for (const [tableId, at, inputJson, messages, snapshotJson] of steps) {
    const inputId = Number(insertInput.run(tableId, at, inputJson).lastInsertRowid);
    for (const m of messages) insertMessage.run(tableId, m[0], inputId, m[1], m[2], m[3], m[4], m[5]);
    if (snapshotJson !== null) insertSnapshot.run(tableId, inputId, snapshotJson);
  }
  for (const [tableId, seq] of acks) ack.run(tableId, seq);
  for (const [tableId, deviceId, seq] of seqs ?? []) deviceSeq.run(tableId, deviceId, seq);
});

parentPort.on('message', (msg) => {
  if (msg.type === 'batch') {
    try {
      // with a Probe plugged in (a measuring tool): when the commit began and ended, on the machine-wide
      // monotonic clock in ms (process.hrtime), the clock a Probe's now() reads
      const t0 = workerData.probe ? Number(process.hrtime.bigint()) / 1e6 : 0;
      write(msg.steps, msg.acks, msg.seqs);
      if (msg.hwm && hwm) {
        mark.update(msg.hwm);
        hwm.write(mark);
      }
      if (workerData.probe) parentPort.postMessage({ type: 'done', id: msg.id, t0, t1: Number(process.hrtime.bigint()) / 1e6 });
      else parentPort.postMessage({ type: 'done', id: msg.id });
    } catch (e) {
      parentPort.postMessage({ type: 'error', id: msg.id, message: e instanceof Error ? e.message : String(e) });
    }
  } else if (msg.type === 'close') {
    hwm?.close();
    db.close();
    parentPort.postMessage({ type: 'closed' });
  }
});
