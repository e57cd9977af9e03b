/**
 * Journal integrity at start (docs/DURABILITY.md "A damaged journal"): the gateway refuses to
 * start on a missing, empty, truncated or corrupted journal, or one that lost committed steps (a
 * deleted or truncated WAL), instead of starting afresh and reusing `seq`s with other content.
 *
 * Besides SQLite's own `quick_check`, the store keeps a small HIGH-WATER MARK apart from the
 * database (two checksummed slots written in turn in place: hwm-slots.mjs): per table the counters
 * that must never go back (`seq`, shoe and round numbers). `<dataDir>/seq-hwm-fast.bin` holds them
 * as of the last commit, written after each commit and before anything of it is published (no
 * flush of its own: the process may die, the kernel keeps it); `<dataDir>/seq-hwm.bin`, fsync'd,
 * holds them too and each table's RESERVATION, written before a commit's numbers go past it. So
 * every `seq` that ever left the process is at most the fast file's (after a crash of the
 * process) and at most the reservation (after a power loss as well). A journal that ends below
 * the counters has lost steps; a recovery starts above the reservations.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { TableCounters } from '../../core/table/types.js';
import { JournalNewerError, refuseNewerJournal } from './journal-schema.js';
import { HWM_FAST_FILE, HWM_LEGACY_FILE, HWM_SLOTS_FILE, readHwmSlots, readLegacyHwm } from './hwm-slots.mjs';

export const HWM_FILE = HWM_SLOTS_FILE;
export const DB_FILE = 'gateway.db';
/** the exit code of a refused start (sysexits EX_DATAERR); deploy/tablegw.service does not restart on it */
export const JOURNAL_EXIT_CODE = 65;

export type JournalProblem = 'journal-missing' | 'journal-empty' | 'journal-corrupt' | 'journal-behind' | 'hwm-corrupt';

export class JournalDamagedError extends Error {
  constructor(
    readonly code: JournalProblem,
    readonly path: string,
    readonly what: string,
    readonly hwm: Record<string, TableCounters>,
  ) {
    super(
      `journal ${path}: ${what} [${code}]. The gateway does not start on a damaged journal (it would reuse seq numbers). ` +
        'Keep a copy of the data dir for the audit, then run "tablegw recover --accept-loss --config <file>" to start again above the high-water mark.',
    );
    this.name = 'JournalDamagedError';
  }
}

export interface HwmFile {
  v: 1;
  tables: Record<string, TableCounters>;
  reserved?: Record<string, TableCounters>;
}

function parseMark(text: string, p: string): HwmFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new JournalDamagedError('hwm-corrupt', p, `the high-water mark is unreadable (${(e as Error).message})`, {});
  }
  const t = (parsed as HwmFile | null)?.tables;
  if (!t || typeof t !== 'object') throw new JournalDamagedError('hwm-corrupt', p, 'the high-water mark has no tables', {});
  const r = (parsed as HwmFile).reserved;
  return { v: 1, tables: t, ...(r && typeof r === 'object' ? { reserved: r } : {}) };
}

/** the mark's file (`seq-hwm.bin`) parsed, or null when there is none; JournalDamagedError when unreadable */
function readMarkFile(dataDir: string): HwmFile | null {
  const slotsPath = join(dataDir, HWM_FILE);
  try {
    const read = readHwmSlots(dataDir);
    return read ? parseMark(read.text, slotsPath) : null;
  } catch (e) {
    if (e instanceof JournalDamagedError) throw e;
    throw new JournalDamagedError('hwm-corrupt', slotsPath, `the high-water mark is unreadable (${(e as Error).message})`, {});
  }
}

/**
 * the fast file's counters (`seq-hwm-fast.bin`, written after each commit without a flush), or
 * null when it is missing or unreadable: after a power loss it may be torn, which is no damage
 * (the mark's file holds counters at most as new, and the reservations)
 */
function readFastFile(dataDir: string): Record<string, TableCounters> | null {
  try {
    const read = readHwmSlots(dataDir, HWM_FAST_FILE);
    return read ? parseMark(read.text, join(dataDir, HWM_FAST_FILE)).tables : null;
  } catch {
    return null;
  }
}

/** per table and counter, the higher of two marks */
function higher(a: Record<string, TableCounters>, b: Record<string, TableCounters>): Record<string, TableCounters> {
  const out: Record<string, TableCounters> = { ...a };
  for (const [table, counters] of Object.entries(b)) {
    const mine = out[table];
    if (!mine) {
      out[table] = { ...counters };
      continue;
    }
    const merged: TableCounters = { ...mine };
    for (const [k, v] of Object.entries(counters) as Array<[keyof TableCounters, number | undefined]>) {
      if (typeof v === 'number' && !(typeof merged[k] === 'number' && (merged[k] as number) >= v)) merged[k] = v;
    }
    out[table] = merged;
  }
  return out;
}

/**
 * the mark of `dataDir`, each file read once: `tables`, per table and counter the highest of
 * `seq-hwm.bin`, the fast file and the one-file `seq-hwm.json` of earlier builds (until the first
 * commit replaces it); `reserved`, the reservations of `seq-hwm.bin` ({} in a mark of an earlier
 * build). Null when there is no mark; JournalDamagedError when it is unreadable.
 */
export function readMark(dataDir: string): { tables: Record<string, TableCounters>; reserved: Record<string, TableCounters> } | null {
  const main = readMarkFile(dataDir);
  const legacyText = readLegacyHwm(dataDir);
  const legacy = legacyText === null ? null : parseMark(legacyText, join(dataDir, HWM_LEGACY_FILE)).tables;
  const fast = readFastFile(dataDir);
  let tables: Record<string, TableCounters> | null = null;
  for (const m of [main?.tables ?? null, legacy, fast]) if (m) tables = tables ? higher(tables, m) : m;
  return tables ? { tables, reserved: main?.reserved ?? {} } : null;
}

/** the counters of the mark (readMark), or null when there is none */
export function readHwm(dataDir: string): Record<string, TableCounters> | null {
  return readMark(dataDir)?.tables ?? null;
}

/**
 * the counters to start again from after a damaged journal (`tablegw recover`): per table and
 * counter the higher of the last committed counters and the reservation, so that no number that
 * may have left before a power loss is used again
 */
export function hwmForRecovery(dataDir: string): Record<string, TableCounters> {
  const mark = readMark(dataDir);
  return mark ? higher(mark.tables, mark.reserved) : {};
}

/** the text of a mark, as written into a slot */
export function hwmText(tables: Record<string, TableCounters>): string {
  return JSON.stringify({ v: 1, tables } satisfies HwmFile);
}

/** the highest `seq` the database still holds for a table (messages, or its latest snapshot) */
function journalSeq(db: Database.Database, tableId: string): number {
  const m = db.prepare('SELECT MAX(seq) AS m FROM messages WHERE table_id = ?').get(tableId) as { m: number | null };
  const s = db.prepare('SELECT state FROM snapshots WHERE table_id = ? ORDER BY input_id DESC LIMIT 1').get(tableId) as { state: string } | undefined;
  let snapSeq = 0;
  if (s) {
    try {
      snapSeq = Number((JSON.parse(s.state) as { seq?: number }).seq ?? 0);
    } catch {
      snapSeq = 0;
    }
  }
  return Math.max(m.m ?? 0, snapSeq);
}

export interface JournalCheck {
  /** no journal and no mark: a first start */
  fresh: boolean;
  hwm: Record<string, TableCounters>;
}

/** checks the journal of `dataDir`; throws JournalDamagedError naming the path and what is wrong */
export function checkJournal(dataDir: string): JournalCheck {
  const dbPath = join(dataDir, DB_FILE);
  const hwm = readHwm(dataDir);
  const marked = !!hwm && Object.values(hwm).some((c) => (c.seq ?? 0) > 0);
  if (!existsSync(dbPath)) {
    if (marked) throw new JournalDamagedError('journal-missing', dbPath, `the database is missing, but seq up to ${describe(hwm!)} was committed`, hwm!);
    return { fresh: true, hwm: hwm ?? {} };
  }
  if (statSync(dbPath).size === 0) {
    if (marked) throw new JournalDamagedError('journal-empty', dbPath, `the database is empty (0 bytes), but seq up to ${describe(hwm!)} was committed`, hwm!);
    return { fresh: true, hwm: hwm ?? {} };
  }
  let db: Database.Database | null = null;
  try {
    db = new Database(dbPath, { fileMustExist: true });
    const rows = db.pragma('quick_check') as Array<{ quick_check: string }>;
    const bad = rows.map((r) => r.quick_check).filter((r) => r !== 'ok');
    if (bad.length)
      throw new JournalDamagedError(
        'journal-corrupt',
        dbPath,
        `SQLite quick_check failed: ${bad.slice(0, 3).join('; ')}${bad.length > 3 ? ` (+${bad.length - 3} more)` : ''}`,
        hwm ?? {},
      );
    // a journal of a newer build: refused, untouched (journal-schema.ts)
    refuseNewerJournal(db, dbPath);
    const hasTables = db.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name IN ('messages', 'snapshots')").get() as { n: number };
    if (hasTables.n < 2) {
      if (marked) throw new JournalDamagedError('journal-empty', dbPath, `the database holds no journal, but seq up to ${describe(hwm!)} was committed`, hwm!);
      return { fresh: true, hwm: hwm ?? {} };
    }
    for (const [tableId, c] of Object.entries(hwm ?? {})) {
      const want = c.seq ?? 0;
      const have = journalSeq(db, tableId);
      if (have < want) {
        throw new JournalDamagedError(
          'journal-behind',
          dbPath,
          `table ${tableId}: the journal ends at seq ${have}, but seq ${want} was committed (high-water mark): ${want - have} seq(s) lost — ` +
            'the WAL (gateway.db-wal) was deleted or truncated, or the database was replaced or truncated',
          hwm!,
        );
      }
    }
    return { fresh: false, hwm: hwm ?? {} };
  } catch (e) {
    if (e instanceof JournalDamagedError || e instanceof JournalNewerError) throw e;
    throw new JournalDamagedError('journal-corrupt', dbPath, `SQLite cannot read it: ${(e as Error).message}`, hwm ?? {});
  } finally {
    try {
      db?.close();
    } catch {
      /* closing a broken handle */
    }
  }
}

function describe(hwm: Record<string, TableCounters>): string {
  return Object.entries(hwm)
    .map(([t, c]) => `${c.seq ?? 0} (${t})`)
    .join(', ');
}
