/**
 * The journal's retention (docs/DURABILITY.md "Retention and the clock"): what a prune may delete
 * is bounded by what the journal itself knows, never by the wall clock alone, so a clock that is
 * wrong (ahead by days at a start, or stepped while running) cannot delete a shoe dealt minutes ago.
 *
 * A prune deletes, per table, the inputs up to a snapshot `k` (the oldest inputs), the acknowledged
 * messages they caused, and the snapshots before `k` (recovery and replay start from `k`). `k` is
 * the latest snapshot that is at or below EVERY bound:
 *  - the RETENTION, counted back from the journal's newest entry, not from the wall clock: nothing
 *    newer than (newest `at`) − `retentionDays`;
 *  - the SHOES: nothing of the current or the previous shoe (the first input that published a
 *    message of the previous shoe); a table without shoes (sic bo, keno) keeps its last two
 *    results' rounds;
 *  - the EXPORTS: nothing that an export or backup configured in `holds` has not copied yet
 *    (none exists yet: the list is empty and bounds nothing);
 *  - the SHARE: a pass deletes at most `maxShare` of the journal's inputs (all tables together).
 * Unacknowledged messages (the outbox) are never deleted.
 *
 * The prune is refused, deleting nothing, when the wall clock is behind the journal's newest entry
 * (by more than a second), or when the caller saw the wall clock step since the last prune. Every
 * pass, done or refused, is recorded in the `prunes` table of the journal with what it removed
 * (counts per kind, and per table the input ids and times removed).
 */
import type Database from 'better-sqlite3';

/** an export or backup of the journal: the highest input id of a table it has safely copied */
export interface RetentionHold {
  name: string;
  /** the highest input id of the table copied; null: nothing copied yet (nothing of the table may go) */
  copiedThrough(tableId: string): number | null;
}

export interface PruneOptions {
  /** the wall clock now (ms) */
  now: number;
  retentionDays: number;
  /** at most this share of the journal's inputs per pass (0..1) */
  maxShare: number;
  /** the caller saw the wall clock step since the last prune (runtime/clock.ts ClockWatch) */
  clockStepped?: boolean;
  /** exports and backups that must have copied what is deleted (none yet) */
  holds?: readonly RetentionHold[];
}

export interface TablePruned {
  inputs: number;
  messages: number;
  snapshots: number;
  /** the input ids removed, first and last */
  fromInputId: number;
  toInputId: number;
  /** their `at`, first and last (ms) */
  fromAt: number;
  toAt: number;
}

export interface PruneReport {
  /** why nothing was deleted, when the prune was refused */
  refused?: 'clock-behind' | 'clock-stepped';
  /** a sentence for the log and the `clock-step` alert */
  detail: string;
  inputs: number;
  messages: number;
  snapshots: number;
  /** the newest entry's `at` the retention was counted from (null: an empty journal) */
  newestAt: number | null;
  /** nothing at or after this `at` could be deleted */
  cutoff: number | null;
  /** the budget of this pass (inputs) */
  budget: number;
  /**
   * the journal's size this pass started from: `total` inputs, the highest input id `maxId`, and
   * how many passes ago they were last counted (0: counted now); after the pass `totalAfter`
   */
  size?: { total: number; maxId: number; sinceCount: number; totalAfter: number };
  tables: Record<string, TablePruned>;
}

/** the journal's newest entry: the highest `at` among its latest 10,000 inputs (by commit order) */
const NEWEST_SQL = 'SELECT MAX(at) AS at FROM (SELECT at FROM inputs ORDER BY id DESC LIMIT 10000)';

/** the schema the prune needs besides the store's (idempotent) */
export const PRUNE_SCHEMA = `
  CREATE TABLE IF NOT EXISTS prunes (id INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, report TEXT NOT NULL);
  -- the start of each shoe and the latest results, found without scanning a table's messages
  CREATE INDEX IF NOT EXISTS messages_shoe ON messages (table_id, input_id) WHERE topic = 'shoe';
  CREATE INDEX IF NOT EXISTS messages_result ON messages (table_id, input_id) WHERE topic = 'result';
`;

/**
 * the first input of the previous shoe (the shoe before the current one); for a table without
 * shoes, the input of its second-to-last result. Nothing from there on may be deleted. 0 when the
 * journal holds less than that (then nothing of the table may be deleted).
 */
function shoeFloor(db: Database.Database, tableId: string): number {
  const shoes = db
    .prepare(`SELECT json_extract(payload, '$.shoeId') AS shoe, MIN(input_id) AS first FROM messages
    WHERE table_id = ? AND topic = 'shoe' GROUP BY shoe ORDER BY first DESC LIMIT 2`)
    .all(tableId) as Array<{ shoe: string; first: number }>;
  if (shoes.length > 0) return shoes.length === 2 ? shoes[1].first : 0;
  const results = db
    .prepare(`SELECT input_id AS id FROM messages WHERE table_id = ? AND topic = 'result' ORDER BY input_id DESC LIMIT 2`)
    .all(tableId) as Array<{ id: number }>;
  return results.length === 2 ? results[1].id : 0;
}

/** the input id at which the table's deletable range ends: nothing at or above it may go */
function upperBound(db: Database.Database, tableId: string, holds: readonly RetentionHold[]): number {
  // the shoe floor is the first input of the previous shoe: strictly below it may go
  let bound = shoeFloor(db, tableId);
  for (const h of holds) {
    const copied = h.copiedThrough(tableId);
    bound = Math.min(bound, copied === null ? 0 : copied + 1);
  }
  return bound;
}

/** a full COUNT(*) of the inputs at least every this many passes (in between: the last count, less what prunes removed, plus the ids added since) */
const RECOUNT_EVERY = 24;

/**
 * the number of inputs, without a COUNT(*) over the whole journal at every pass (~50 ms per million
 * rows on the event loop): ids only grow (AUTOINCREMENT) and only a prune deletes, so the last
 * pass's total after it plus the ids added since is exact; counted again every RECOUNT_EVERY passes
 */
function journalSize(db: Database.Database): { total: number; maxId: number; sinceCount: number } {
  const maxId = (db.prepare('SELECT MAX(id) AS m FROM inputs').get() as { m: number | null }).m ?? 0;
  const last = db.prepare(`SELECT report FROM prunes WHERE json_extract(report, '$.size') IS NOT NULL ORDER BY id DESC LIMIT 1`).get() as
    | { report: string }
    | undefined;
  const size = last ? (JSON.parse(last.report) as PruneReport).size : undefined;
  if (size && size.sinceCount + 1 < RECOUNT_EVERY && maxId >= size.maxId) {
    return { total: size.totalAfter + (maxId - size.maxId), maxId, sinceCount: size.sinceCount + 1 };
  }
  return { total: (db.prepare('SELECT COUNT(*) AS n FROM inputs').get() as { n: number }).n, maxId, sinceCount: 0 };
}

function emptyReport(detail: string, newestAt: number | null, refused?: PruneReport['refused']): PruneReport {
  return { ...(refused ? { refused } : {}), detail, inputs: 0, messages: 0, snapshots: 0, newestAt, cutoff: null, budget: 0, tables: {} };
}

function record(db: Database.Database, now: number, report: PruneReport): void {
  db.prepare('INSERT INTO prunes (at, report) VALUES (?, ?)').run(now, JSON.stringify(report));
}

export function pruneJournal(db: Database.Database, o: PruneOptions): PruneReport {
  const newest = (db.prepare(NEWEST_SQL).get() as { at: number | null }).at;
  if (o.clockStepped) {
    const r = emptyReport('the wall clock stepped since the last prune: nothing deleted this time', newest, 'clock-stepped');
    record(db, o.now, r);
    return r;
  }
  if (newest === null) {
    const r = emptyReport('the journal is empty', null);
    record(db, o.now, r);
    return r;
  }
  if (o.now < newest - 1_000) {
    const r = emptyReport(
      `the wall clock (${new Date(o.now).toISOString()}) is behind the journal's newest entry (${new Date(newest).toISOString()}): nothing deleted`,
      newest,
      'clock-behind',
    );
    record(db, o.now, r);
    return r;
  }
  const cutoff = newest - o.retentionDays * 86_400_000;
  const size = journalSize(db);
  const total = size.total;
  const budget = Math.floor(total * Math.max(0, Math.min(1, o.maxShare)));
  const report: PruneReport = {
    detail: '',
    inputs: 0,
    messages: 0,
    snapshots: 0,
    newestAt: newest,
    cutoff,
    budget,
    tables: {},
    size: { ...size, totalAfter: total },
  };
  const tables = db.prepare('SELECT table_id AS id FROM tables ORDER BY table_id').all() as Array<{ id: string }>;
  const latestSnapshot = db.prepare(`SELECT MAX(s.input_id) AS k FROM snapshots s JOIN inputs i ON i.id = s.input_id
    WHERE s.table_id = ? AND i.at < ? AND s.input_id < ?`);
  const countUpTo = db.prepare('SELECT COUNT(*) AS n, MIN(id) AS first, MIN(at) AS fromAt FROM inputs WHERE table_id = ? AND id <= ?');
  const nthInput = db.prepare('SELECT id FROM inputs WHERE table_id = ? ORDER BY id LIMIT 1 OFFSET ?');
  const atOf = db.prepare('SELECT at FROM inputs WHERE id = ?');
  let left = budget;
  db.transaction(() => {
    for (const { id } of tables) {
      if (left <= 0) break;
      let bound = upperBound(db, id, o.holds ?? []);
      if (bound <= 0) continue;
      let k = (latestSnapshot.get(id, cutoff, bound) as { k: number | null }).k;
      if (!k) continue;
      let c = countUpTo.get(id, k) as { n: number; first: number | null; fromAt: number | null };
      if (c.n > left) {
        // the share: only up to the input `left` from the table's oldest
        const limit = nthInput.get(id, left) as { id: number } | undefined;
        bound = Math.min(bound, limit ? limit.id : bound);
        k = (latestSnapshot.get(id, cutoff, bound) as { k: number | null }).k;
        if (!k) continue;
        c = countUpTo.get(id, k) as { n: number; first: number | null; fromAt: number | null };
      }
      const toAt = (atOf.get(k) as { at: number } | undefined)?.at ?? c.fromAt ?? 0;
      const inputs = db.prepare('DELETE FROM inputs WHERE table_id = ? AND id <= ?').run(id, k).changes;
      const messages = db.prepare('DELETE FROM messages WHERE table_id = ? AND input_id <= ? AND acked = 1').run(id, k).changes;
      const snapshots = db.prepare('DELETE FROM snapshots WHERE table_id = ? AND input_id < ?').run(id, k).changes;
      left -= inputs;
      report.size!.totalAfter -= inputs;
      report.inputs += inputs;
      report.messages += messages;
      report.snapshots += snapshots;
      report.tables[id] = { inputs, messages, snapshots, fromInputId: c.first ?? 0, toInputId: k, fromAt: c.fromAt ?? 0, toAt };
    }
    report.detail =
      report.inputs + report.snapshots === 0
        ? `nothing older than ${new Date(cutoff).toISOString()} (the newest entry less ${o.retentionDays} days) outside the current and previous shoes`
        : `removed ${report.inputs} input(s), ${report.messages} message(s), ${report.snapshots} snapshot(s) of ${Object.keys(report.tables).length} table(s), all older than ${new Date(cutoff).toISOString()} (the newest entry less ${o.retentionDays} days), none of a current or previous shoe; budget ${budget} of ${total} inputs`;
    record(db, o.now, report);
  })();
  return report;
}

/** the prunes recorded in the journal, newest first */
export function pruneHistory(db: Database.Database, limit = 100): Array<{ at: number; report: PruneReport }> {
  return (db.prepare('SELECT at, report FROM prunes ORDER BY id DESC LIMIT ?').all(limit) as Array<{ at: number; report: string }>).map((r) => ({
    at: r.at,
    report: JSON.parse(r.report) as PruneReport,
  }));
}
