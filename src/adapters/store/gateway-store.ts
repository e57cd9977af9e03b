/**
 * The gateway's durable store (SQLite, WAL, better-sqlite3): for every table
 *  - the JOURNAL: every input of the table machine (device frames, engine requests, timer
 *    firings), committed before anything it caused is published or carried out;
 *  - the MESSAGES: every envelope the table published, by `seq` — the OUTBOX is the ones the broker
 *    has not acknowledged yet (`acked = 0`), delivered in `seq` order after a restart;
 *  - SNAPSHOTS of the table state at round boundaries, so that recovery after a crash and
 *    `replay` only have to run the inputs after the last snapshot.
 *
 * Writes are grouped: `enqueue()` records a step and the callback that carries out its effects;
 * all steps queued in one turn of the event loop are committed in ONE transaction, then their
 * callbacks run in order. With the writer thread, at most one batch is in flight: steps queued
 * while it commits wait and go together as the next batch as soon as it is done (group commit:
 * a batch grows with the commit time instead of batches queueing up behind each other). With `synchronous: full` the commit is on disk (fsync) before any message
 * of those steps leaves the process, so a power loss can never make a published `seq` be reused.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { TableCounters, TableInput } from '../../core/table/types.js';
import { NO_PROBE, type Probe } from '../../core/vocabulary/probe.js';
import type { Journal, RecoveredTable, StepRecord, StoredMessage } from '../../runtime/ports.js';
import { readMark } from './journal-integrity.js';
import { PRUNE_SCHEMA, pruneHistory, pruneJournal, type PruneReport, type RetentionHold } from './journal-prune.js';
import { migrateJournal, refuseNewerJournal } from './journal-schema.js';
import { HwmFiles, HwmMark } from './hwm-slots.mjs';

/** whether `prev` holds every counter of `next` with the same value (no array per step, as Object.keys made) */
function sameCounters(prev: TableCounters, next: TableCounters): boolean {
  for (const k in next) if (prev[k] !== next[k]) return false;
  return true;
}

type Row = Omit<StoredMessage, 'retain' | 'alsoTopic' | 'alsoCorrelation'> & { retain: number; alsoTopic?: string | null; alsoCorrelation?: string | null };

function fromRow(m: Row): StoredMessage {
  const out: StoredMessage = { seq: m.seq, topic: m.topic, retain: !!m.retain, payload: m.payload };
  if (m.alsoTopic) out.alsoTopic = m.alsoTopic;
  if (m.alsoCorrelation) out.alsoCorrelation = m.alsoCorrelation;
  return out;
}

export interface StoreOptions {
  /** `full`: fsync every commit (survives power loss); `normal`: survives a process crash */
  synchronous: 'full' | 'normal';
  /** journal and acknowledged messages older than this (counted back from the journal's newest entry) are deleted (journal-prune.ts) */
  retentionDays: number;
  /** at most this share of the journal's inputs per prune [0.1] */
  pruneMaxShare?: number;
  /** exports and backups that must have copied what a prune deletes (none exists yet: journal-prune.ts) */
  retentionHolds?: readonly RetentionHold[];
  /**
   * `inline`: commits run on the calling thread (`flush()` is synchronous);
   * `thread`: commits run on a writer thread, so a commit and its fsync never stop the event
   * loop (the gateway's choice); effects still wait for the commit. Close with `closeAsync()`.
   */
  writer?: 'inline' | 'thread';
  /** marks each commit (a measuring tool's; none by default) */
  probe?: Probe;
}

export interface JournalEntry {
  id: number;
  tableId: string;
  input: TableInput;
}

/** the longest a PUBACK waits for a commit when no step comes to carry it (see acknowledge) */
const ACK_COMMIT_MS = 200;
/**
 * engineRoundIds' query: the ok `open-betting` answers of a table, through the partial index
 * `messages_open_betting` (its WHERE names the index's topic, so SQLite can use it)
 */
export const ENGINE_ROUND_IDS_SQL = `SELECT DISTINCT json_extract(payload, '$.data.roundId') AS id FROM messages
  WHERE table_id = ? AND topic = 'response/open-betting' AND json_extract(payload, '$.status') = 'ok'`;

export type { RecoveredTable, StepRecord, StoredMessage };

export class GatewayStore implements Journal {
  readonly path: string;
  /** the data dir (null in memory): where the high-water mark lives (journal-integrity.ts) */
  private readonly dir: string | null;
  /** the high-water mark as last written (with the writer thread, that thread keeps the text) */
  private mark = new HwmMark<TableCounters>({});
  /** the inline path's writer of the mark's two files (the writer thread has its own) */
  private hwmWriter: HwmFiles | null = null;
  private readonly db: Database.Database;
  private queue: Array<{ rec: StepRecord; done: () => void; beside?: () => void }> = [];
  private acks: Array<{ tableId: string; seq: number }> = [];
  /** last device SEQs noted since the last commit: `table\0device` -> seq */
  private deviceSeqNotes = new Map<string, number>();
  private flushScheduled = false;
  private ackTimer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly stmt: {
    insertInput: Database.Statement;
    insertMessage: Database.Statement;
    insertSnapshot: Database.Statement;
    ack: Database.Statement;
    deviceSeq: Database.Statement;
  };
  /** commits so far (for metrics) */
  commits = 0;
  private worker: Worker | null = null;
  private nextBatchId = 1;
  /**
   * the batch on the writer thread, waiting for its `done` (one at a time: what comes meanwhile is
   * the next batch): its callbacks in order, and (latency probe on) when it was handed over. A
   * field, not a map by batch id: a long-lived Map emptied after every batch allocates a new table
   * in the old generation each time (dev/bench/notes/performance-history.md "Garbage collection").
   */
  private inFlight: { id: number; callbacks: Array<() => void>; flushedAt: number } | null = null;
  /**
   * closeAsync() is closing the writer thread: nothing more is sent to it (a batch posted after
   * its `close` would find the database closed); what comes meanwhile (a late PUBACK, a device
   * SEQ) is committed on this thread once the writer is gone
   */
  private closingWriter = false;
  private onFatal: (message: string) => void = (m) => {
    throw new Error(`journal commit failed: ${m}`);
  };

  constructor(
    dataDir: string | ':memory:',
    private readonly opts: StoreOptions = { synchronous: 'full', retentionDays: 14 },
  ) {
    if (dataDir === ':memory:') {
      this.path = ':memory:';
      this.dir = null;
    } else {
      this.path = join(dataDir, 'gateway.db');
      this.dir = dataDir;
      try {
        mkdirSync(dataDir, { recursive: true });
      } catch (e) {
        throw new Error(
          `dataDir: cannot create "${resolve(dataDir)}": ${(e as NodeJS.ErrnoException).code === 'EACCES' || (e as NodeJS.ErrnoException).code === 'EROFS' ? 'permission denied or a read-only file system' : (e as Error).message}`,
        );
      }
      try {
        const read = readMark(dataDir);
        this.mark = new HwmMark(read?.tables ?? {}, read?.reserved ?? {});
      } catch {
        // an unreadable mark: the gateway checks the journal before it opens the store (checkJournal)
      }
    }
    try {
      this.db = new Database(this.path);
    } catch (e) {
      throw new Error(
        `dataDir: cannot open the journal "${resolve(this.path)}": ${(e as Error).message}${this.path === ':memory:' ? '' : ' (is the directory writable by this user, and not on a read-only file system?)'}`,
      );
    }
    this.db.pragma('journal_mode = WAL');
    this.db.pragma(`synchronous = ${opts.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
    this.db.pragma('busy_timeout = 10000');
    // one transaction (rolled back if a statement fails): on a new data dir one flush for the
    // whole schema instead of one per statement (each an autocommit: eight fsyncs on the start's
    // path); on an existing one nothing is written
    // a journal of a newer build is refused (and closed again), an older one migrated (journal-schema.ts)
    try {
      refuseNewerJournal(this.db, this.path);
    } catch (e) {
      this.db.close();
      throw e;
    }
    migrateJournal(this.db, this.path, () =>
      this.db.exec(`
      CREATE TABLE IF NOT EXISTS tables (table_id TEXT PRIMARY KEY, settings TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS inputs (
        id INTEGER PRIMARY KEY AUTOINCREMENT, table_id TEXT NOT NULL, at INTEGER NOT NULL, input TEXT NOT NULL);
      CREATE INDEX IF NOT EXISTS inputs_by_table ON inputs (table_id, id);
      CREATE TABLE IF NOT EXISTS messages (
        table_id TEXT NOT NULL, seq INTEGER NOT NULL, input_id INTEGER NOT NULL, topic TEXT NOT NULL,
        retain INTEGER NOT NULL, payload TEXT NOT NULL, also_topic TEXT, also_correlation TEXT,
        acked INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (table_id, seq));
      -- the outbox: only the messages not yet acknowledged (a partial index: a commit's acks take
      -- their rows out of it instead of moving them within it, a quarter less to write per commit;
      -- docs/PERFORMANCE.md "Issue 15: where each figure stands"). Journals made before it had the whole-table
      -- index messages_unacked (table_id, acked, seq): replaced here, once.
      DROP INDEX IF EXISTS messages_unacked;
      CREATE INDEX IF NOT EXISTS messages_outbox ON messages (table_id, seq) WHERE acked = 0;
      CREATE TABLE IF NOT EXISTS snapshots (
        table_id TEXT NOT NULL, input_id INTEGER NOT NULL, state TEXT NOT NULL, PRIMARY KEY (table_id, input_id));
      -- the engine's open-betting answers of a table (engineRoundIds, read at every start): a
      -- partial index, so the start does not scan all of a table's messages of the retention
      -- period (~100 ms per table for 300,000 messages, docs/PERFORMANCE.md "Twelfth session")
      CREATE INDEX IF NOT EXISTS messages_open_betting ON messages (table_id) WHERE topic = 'response/open-betting';
      -- every answer of a table (answeredRequests, read at every start: the idempotent-request window)
      CREATE INDEX IF NOT EXISTS messages_responses ON messages (table_id, seq) WHERE substr(topic, 1, 9) = 'response/';
      CREATE TABLE IF NOT EXISTS device_seq (
        table_id TEXT NOT NULL, device_id TEXT NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (table_id, device_id));
      ${PRUNE_SCHEMA}
    `),
    );
    this.stmt = {
      insertInput: this.db.prepare('INSERT INTO inputs (table_id, at, input) VALUES (?, ?, ?)'),
      insertMessage: this.db.prepare(
        'INSERT INTO messages (table_id, seq, input_id, topic, retain, payload, also_topic, also_correlation) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      insertSnapshot: this.db.prepare('INSERT OR REPLACE INTO snapshots (table_id, input_id, state) VALUES (?, ?, ?)'),
      ack: this.db.prepare('UPDATE messages SET acked = 1 WHERE table_id = ? AND seq = ?'),
      deviceSeq: this.db.prepare(
        'INSERT INTO device_seq (table_id, device_id, seq) VALUES (?, ?, ?) ON CONFLICT (table_id, device_id) DO UPDATE SET seq = excluded.seq',
      ),
    };
  }

  /** records the table's settings (for `replay`) and, on its first run, the initial snapshot */
  registerTable(tableId: string, settings: unknown, initialState: () => unknown): void {
    const text = JSON.stringify(settings);
    const row = this.db.prepare('SELECT settings FROM tables WHERE table_id = ?').get(tableId) as { settings: string } | undefined;
    const has = this.db.prepare('SELECT 1 FROM snapshots WHERE table_id = ? LIMIT 1').get(tableId) !== undefined;
    // a restart with the same settings writes nothing; a first run writes both rows with one flush
    if (row?.settings === text && has) return;
    this.db.transaction(() => {
      if (row?.settings !== text) {
        this.db
          .prepare('INSERT INTO tables (table_id, settings) VALUES (?, ?) ON CONFLICT (table_id) DO UPDATE SET settings = excluded.settings')
          .run(tableId, text);
      }
      if (!has) this.stmt.insertSnapshot.run(tableId, 0, JSON.stringify(initialState()));
    })();
  }

  /**
   * The table's stream epoch (mqtt-api.md v1.2), fixed the first time the table is seen: a random
   * id made HERE, at the edge (the pure machine takes it in its settings). `fresh`: the journal had
   * nothing of this table (a new stream: the gateway raises `new-epoch`); `upgraded`: a table of a
   * journal from before epochs (its stream goes on, now with an epoch).
   */
  ensureEpoch(tableId: string, now = Date.now()): { epoch: string; fresh: boolean; upgraded: boolean } {
    const row = this.db.prepare('SELECT epoch FROM epochs WHERE table_id = ?').get(tableId) as { epoch: string } | undefined;
    if (row) return { epoch: row.epoch, fresh: false, upgraded: false };
    const known = this.db.prepare('SELECT 1 FROM tables WHERE table_id = ?').get(tableId) !== undefined;
    const epoch = randomUUID();
    this.db.prepare('INSERT INTO epochs (table_id, epoch, created_at) VALUES (?, ?, ?)').run(tableId, epoch, now);
    return { epoch, fresh: !known, upgraded: known };
  }

  /** the table's stream epoch as journalled (undefined: none yet) */
  epochOf(tableId: string): string | undefined {
    return (this.db.prepare('SELECT epoch FROM epochs WHERE table_id = ?').get(tableId) as { epoch: string } | undefined)?.epoch;
  }

  /** everything needed to rebuild a table after a restart */
  recover(tableId: string): RecoveredTable {
    const snap = this.db.prepare('SELECT input_id AS inputId, state FROM snapshots WHERE table_id = ? ORDER BY input_id DESC LIMIT 1').get(tableId) as
      | { inputId: number; state: string }
      | undefined;
    const after = snap?.inputId ?? 0;
    const inputs = (this.db.prepare('SELECT input FROM inputs WHERE table_id = ? AND id > ? ORDER BY id').all(tableId, after) as Array<{ input: string }>).map(
      (r) => JSON.parse(r.input) as TableInput,
    );
    const unacked = (
      this.db
        .prepare(
          'SELECT seq, topic, retain, payload, also_topic AS alsoTopic, also_correlation AS alsoCorrelation FROM messages WHERE table_id = ? AND acked = 0 ORDER BY seq',
        )
        .all(tableId) as Row[]
    ).map(fromRow);
    const max = this.db.prepare('SELECT MAX(seq) AS m FROM messages WHERE table_id = ?').get(tableId) as { m: number | null };
    return { snapshot: snap ? { inputId: snap.inputId, state: JSON.parse(snap.state) } : null, inputs, unacked, maxSeq: max.m ?? 0 };
  }

  /**
   * queues a step; `done` runs after it is committed (in enqueue order). `beside`, if given, is
   * work of the main thread that the commit does not wait for: with the writer thread it runs as
   * soon as the batch holding the step is handed to the thread, beside its commit; with the inline
   * writer it is not called (the commit holds the event loop: nothing runs beside it), and `done`
   * must do it then.
   */
  enqueue(rec: StepRecord, done: () => void, beside?: () => void): void {
    if (this.closed) throw new Error('store is closed');
    if (!this.worker && this.opts.writer === 'thread' && this.path !== ':memory:') this.startWorker();
    this.queue.push(beside ? { rec, done, beside } : { rec, done });
    this.scheduleFlush();
  }

  /**
   * the broker acknowledged a message: committed with the next group of steps, or on its own
   * after ACK_COMMIT_MS when no step comes. An ack needs no commit of its own: one lost in a
   * crash only means the message is sent again after the restart (at least once, deduped by
   * `seq`), and a commit per PUBACK batch was half the fsyncs of a busy gateway.
   */
  acknowledge(tableId: string, seq: number): void {
    if (this.closed) return;
    this.acks.push({ tableId, seq });
    this.flushSoon();
  }

  /**
   * The last SEQ accepted from a device (part of the table's durable state, device-protocols.md):
   * committed with the next group of steps, or on its own like an ack (heartbeats carry no step).
   */
  noteDeviceSeq(tableId: string, deviceId: string, seq: number): void {
    if (this.closed) return;
    this.deviceSeqNotes.set(`${tableId}\0${deviceId}`, seq);
    this.flushSoon();
  }

  /** what rides on no step (acks, device SEQs) is committed with the next steps, or within ACK_COMMIT_MS */
  private flushSoon(): void {
    if (!this.ackTimer && !this.flushScheduled) {
      this.ackTimer = setTimeout(() => {
        this.ackTimer = null;
        this.scheduleFlush();
      }, ACK_COMMIT_MS);
      this.ackTimer.unref?.();
    }
  }

  /** the last SEQ of every device of a table, as committed */
  deviceSeqs(tableId: string): Record<string, number> {
    const rows = this.db.prepare('SELECT device_id AS d, seq FROM device_seq WHERE table_id = ?').all(tableId) as Array<{ d: string; seq: number }>;
    return Object.fromEntries(rows.map((r) => [r.d, r.seq]));
  }

  /**
   * Every answer the table published to a request received at or after `sinceMs` (the journal's
   * clock), oldest first, with the request input that caused it: the idempotent requests' window
   * is rebuilt from these at a start (src/runtime/answered-requests.ts), so it survives restarts
   * and crashes exactly as the journal does.
   */
  answeredRequests(tableId: string, sinceMs: number): Array<{ seq: number; at: number; input: TableInput; answer: string }> {
    const rows = this.db
      .prepare(`SELECT m.seq AS seq, i.at AS at, i.input AS input, m.payload AS answer FROM messages m JOIN inputs i ON i.id = m.input_id
      WHERE m.table_id = ? AND substr(m.topic, 1, 9) = 'response/' AND m.topic != 'response/status' AND i.at >= ? ORDER BY m.seq`)
      .all(tableId, sinceMs) as Array<{ seq: number; at: number; input: string; answer: string }>;
    return rows.map((r) => ({ seq: r.seq, at: r.at, input: JSON.parse(r.input) as TableInput, answer: r.answer }));
  }

  /**
   * The round ids the table started on an engine's `open-betting` that the store still holds
   * (the journal's retention): an engine may not use one of them again (mqtt-api.md).
   */
  engineRoundIds(tableId: string): string[] {
    const rows = this.db.prepare(ENGINE_ROUND_IDS_SQL).all(tableId) as Array<{ id: unknown }>;
    return rows.map((r) => r.id).filter((id): id is string => typeof id === 'string');
  }

  /**
   * The payloads of the signed requests a table took (journaled request inputs with a `signer`)
   * received at or after `since` (ms): the runtime's edge remembers their transactions, so a copy is
   * refused `replayed-request` after a restart too. Reads the journal backwards from its newest
   * input and stops at the first one older than `since` (a window of seconds: a few rows).
   */
  signedRequestsSince(tableId: string, since: number): Array<{ at: number; payload: string }> {
    const out: Array<{ at: number; payload: string }> = [];
    const rows = this.db.prepare('SELECT at, input FROM inputs WHERE table_id = ? ORDER BY id DESC').iterate(tableId) as IterableIterator<{
      at: number;
      input: string;
    }>;
    for (const r of rows) {
      if (r.at < since) break;
      if (!r.input.includes('"signer"')) continue;
      const input = JSON.parse(r.input) as { type?: string; signer?: unknown; payload?: unknown };
      if (input.type === 'request' && typeof input.signer === 'string' && typeof input.payload === 'string') out.push({ at: r.at, payload: input.payload });
    }
    return out;
  }

  unackedCount(tableId: string): number {
    const r = this.db.prepare('SELECT COUNT(*) AS n FROM messages WHERE table_id = ? AND acked = 0').get(tableId) as { n: number };
    return r.n;
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => this.flush());
  }

  /** commits everything queued in one transaction, then runs the callbacks in order */
  flush(): void {
    this.flushScheduled = false;
    if (this.closed || (this.queue.length === 0 && this.acks.length === 0 && this.deviceSeqNotes.size === 0)) return;
    // a batch is being committed on the writer thread: what is queued goes as the next batch when it is done
    if (this.worker && (this.inFlight || this.closingWriter)) return;
    const batch = this.queue;
    const acks = this.acks;
    const seqs = [...this.deviceSeqNotes].map(([k, seq]) => [...k.split('\0'), seq] as [string, string, number]);
    this.queue = [];
    this.acks = [];
    this.deviceSeqNotes = new Map();
    const moved = this.mergeHwm(batch);
    if (this.worker) {
      this.sendBatch(batch, acks, seqs, moved);
      for (const b of batch) b.beside?.();
      return;
    }
    const write = this.db.transaction(() => {
      for (const { rec } of batch) {
        const info = this.stmt.insertInput.run(rec.tableId, rec.input.at, JSON.stringify(rec.input));
        const inputId = Number(info.lastInsertRowid);
        for (const m of rec.messages) {
          this.stmt.insertMessage.run(rec.tableId, m.seq, inputId, m.topic, m.retain ? 1 : 0, m.payload, m.alsoTopic ?? null, m.alsoCorrelation ?? null);
        }
        if (rec.snapshot !== undefined) this.stmt.insertSnapshot.run(rec.tableId, inputId, JSON.stringify(rec.snapshot));
      }
      for (const a of acks) this.stmt.ack.run(a.tableId, a.seq);
      for (const [t, d, seq] of seqs) this.stmt.deviceSeq.run(t, d, seq);
    });
    const probe = this.opts.probe ?? NO_PROBE;
    const commitStart = probe.on ? probe.now() : 0;
    write();
    // after the commit, before any effect of it: every seq published is within the mark's
    // reservation (flushed when it moved) and at most the fast file's counters
    if (moved.length > 0 && this.dir) {
      this.hwmWriter ??= new HwmFiles(this.dir, this.opts.synchronous === 'full');
      this.hwmWriter.write(this.mark);
    }
    if (probe.on) probe.batchCommitted(commitStart, commitStart, probe.now());
    this.commits++;
    for (const { done } of batch) done();
  }

  /** the batch's counters into the high-water mark; the tables that moved, with their new counters */
  private mergeHwm(batch: Array<{ rec: StepRecord }>): Array<[string, TableCounters]> {
    const moved: Array<[string, TableCounters]> = [];
    for (const { rec } of batch) {
      const c = rec.counters;
      if (!c) continue;
      const prev = this.mark.tables[rec.tableId];
      if (prev && sameCounters(prev, c)) continue;
      // in place: the mark is only read here and serialised right after (a copy of the whole
      // mark per step was O(tables) per card)
      const next = { ...c };
      this.mark.set(rec.tableId, next);
      moved.push([rec.tableId, next]);
    }
    return moved;
  }

  /** starts the writer thread (after the schema exists and the tables are registered) */
  private startWorker(): void {
    // `.//` and not `.//`: the same file from src/adapters/store/ (sources) and from the
    // bundle's dist/src/app/cli/ or dist/src/app/chunks/ (scripts/bundle.mjs copies it to dist/src/adapters/store/)
    const w = new Worker(new URL('../../adapters/store/journal-writer-worker.mjs', import.meta.url), {
      // the mark as it stands: from here on the thread is sent what moves (HwmMark) and writes the text
      workerData: {
        path: this.path,
        dir: this.dir,
        synchronous: this.opts.synchronous,
        probe: this.opts.probe?.on ?? false,
        hwm: this.mark.tables,
        reserved: this.mark.reserved,
      },
    });
    w.on('message', (msg: { type: string; id?: number; message?: string; t0?: number; t1?: number }) => {
      if (msg.type === 'done' && msg.id !== undefined) {
        const batch = this.inFlight?.id === msg.id ? this.inFlight : null;
        if (batch) this.inFlight = null;
        this.commits++;
        if (this.opts.probe?.on) {
          this.opts.probe.batchCommitted(batch?.flushedAt ?? Number.NaN, msg.t0 ?? Number.NaN, msg.t1 ?? Number.NaN);
        }
        if (batch) for (const done of batch.callbacks) done();
        // what was queued while this batch committed: the next batch, now
        this.flush();
      } else if (msg.type === 'error') {
        // the batch was not committed: none of its effects may be carried out
        if (msg.id !== undefined && this.inFlight?.id === msg.id) this.inFlight = null;
        this.onFatal(msg.message ?? 'unknown error');
      }
    });
    w.on('error', (e) => this.onFatal(e.message));
    this.worker = w;
  }

  /** what to do when a commit fails (default: throw): nothing of the batch may be carried out */
  setFatalHandler(handler: (message: string) => void): void {
    this.onFatal = handler;
  }

  private sendBatch(
    batch: Array<{ rec: StepRecord; done: () => void }>,
    acks: Array<{ tableId: string; seq: number }>,
    seqs: Array<[string, string, number]>,
    moved: Array<[string, TableCounters]>,
  ): void {
    const id = this.nextBatchId++;
    this.inFlight = { id, callbacks: batch.map((b) => b.done), flushedAt: this.opts.probe?.on ? this.opts.probe.now() : 0 };
    const steps = batch.map(({ rec }) => [
      rec.tableId,
      rec.input.at,
      JSON.stringify(rec.input),
      rec.messages.map((m) => [m.seq, m.topic, m.retain ? 1 : 0, m.payload, m.alsoTopic ?? null, m.alsoCorrelation ?? null]),
      rec.snapshot !== undefined ? JSON.stringify(rec.snapshot) : null,
    ]);
    this.worker!.postMessage({
      type: 'batch',
      id,
      steps,
      acks: acks.map((a) => [a.tableId, a.seq]),
      seqs,
      ...(moved.length > 0 && this.dir ? { hwm: moved } : {}),
    });
  }

  /** closes the store, waiting for every commit in flight (the way to close a `thread` writer) */
  async closeAsync(): Promise<void> {
    if (this.closed) return;
    if (this.ackTimer) clearTimeout(this.ackTimer);
    this.ackTimer = null;
    this.flush();
    const w = this.worker;
    if (w) {
      // each `done` sends what was queued behind its batch: wait until nothing is in flight or queued
      while (this.inFlight || this.queue.length > 0) {
        if (!this.inFlight) this.flush();
        await new Promise((r) => setTimeout(r, 5));
      }
      this.closingWriter = true;
      await new Promise<void>((resolve) => {
        w.once('message', (m: { type: string }) => {
          if (m.type === 'closed') resolve();
        });
        w.postMessage({ type: 'close' });
        setTimeout(resolve, 2000).unref();
      });
      await w.terminate();
      this.worker = null;
      this.closingWriter = false;
      // what came while the writer closed, committed here (no thread left to send it to)
      if (this.ackTimer) clearTimeout(this.ackTimer);
      this.ackTimer = null;
      this.flush();
    }
    this.closed = true;
    this.hwmWriter?.close();
    this.db.close();
  }

  /**
   * deletes what is past the retention, bounded by what the journal knows (journal-prune.ts):
   * counted back from its newest entry, never a current or previous shoe, at most a share per
   * pass; refused when the wall clock `now` is behind the newest entry or `clockStepped`. Recorded
   * in the journal's `prunes` table.
   */
  prune(now: number, o: { clockStepped?: boolean } = {}): PruneReport {
    return pruneJournal(this.db, {
      now,
      retentionDays: this.opts.retentionDays,
      maxShare: this.opts.pruneMaxShare ?? 0.1,
      clockStepped: o.clockStepped,
      holds: this.opts.retentionHolds ?? [],
    });
  }

  /** the prunes recorded in the journal, newest first */
  prunes(limit = 100): Array<{ at: number; report: PruneReport }> {
    return pruneHistory(this.db, limit);
  }

  // ---------------------------------------------------------------- for replay and audit

  tableIds(): string[] {
    return (this.db.prepare('SELECT table_id AS id FROM tables ORDER BY table_id').all() as Array<{ id: string }>).map((r) => r.id);
  }

  tableSettings(tableId: string): unknown {
    const r = this.db.prepare('SELECT settings FROM tables WHERE table_id = ?').get(tableId) as { settings: string } | undefined;
    return r ? JSON.parse(r.settings) : undefined;
  }

  firstSnapshot(tableId: string): { inputId: number; state: unknown } | null {
    const r = this.db.prepare('SELECT input_id AS inputId, state FROM snapshots WHERE table_id = ? ORDER BY input_id LIMIT 1').get(tableId) as
      | { inputId: number; state: string }
      | undefined;
    return r ? { inputId: r.inputId, state: JSON.parse(r.state) } : null;
  }

  *journal(tableId: string, afterInputId: number): Generator<JournalEntry> {
    const it = this.db
      .prepare('SELECT id, table_id AS tableId, input FROM inputs WHERE table_id = ? AND id > ? ORDER BY id')
      .iterate(tableId, afterInputId) as IterableIterator<{ id: number; tableId: string; input: string }>;
    for (const r of it) yield { id: r.id, tableId: r.tableId, input: JSON.parse(r.input) as TableInput };
  }

  message(tableId: string, seq: number): StoredMessage | undefined {
    const m = this.db.prepare('SELECT seq, topic, retain, payload FROM messages WHERE table_id = ? AND seq = ?').get(tableId, seq) as Row | undefined;
    return m ? fromRow(m) : undefined;
  }

  /**
   * A table's published messages, newest first (the recall of past rounds reads them, and stops
   * when it has enough): the row as stored, the payload not parsed.
   */
  *messagesNewestFirst(tableId: string): Generator<{ seq: number; topic: string; payload: string }> {
    const it = this.db.prepare('SELECT seq, topic, payload FROM messages WHERE table_id = ? ORDER BY seq DESC').iterate(tableId) as IterableIterator<{
      seq: number;
      topic: string;
      payload: string;
    }>;
    for (const r of it) yield r;
  }

  messagesOfInput(tableId: string, inputId: number): StoredMessage[] {
    return (
      this.db.prepare('SELECT seq, topic, retain, payload FROM messages WHERE table_id = ? AND input_id = ? ORDER BY seq').all(tableId, inputId) as Row[]
    ).map(fromRow);
  }

  close(): void {
    if (this.closed) return;
    if (this.worker) throw new Error('a store with a writer thread closes with closeAsync()');
    if (this.ackTimer) clearTimeout(this.ackTimer);
    this.ackTimer = null;
    this.flush();
    this.closed = true;
    this.hwmWriter?.close();
    this.db.close();
  }
}
