/**
 * Backup and restore of the journal (docs/OPERATIONS.md "Backups" and "Replacing the table PC").
 *
 * A backup is two files: `<file>`, a copy of gateway.db made with SQLite's online backup API
 * (consistent while the gateway runs: it reads the journal read-only, never takes the data-dir
 * lock), and `<file>.manifest.json`, a manifest signed with the gateway's Ed25519 key: the tables,
 * their epochs and last `seq`, the journal schema version, the time and the SHA-256 of the copy.
 *
 * A restore checks all of that before it changes anything, and refuses with a stable code:
 * a running gateway (data-dir lock), a missing or unsigned manifest, a bad signature, a copy that
 * does not match its manifest, a newer schema. It then puts the copy in place of the data dir's
 * journal (what was there is kept aside) and journals, on every table, a `restored-from-backup`
 * alert that starts the table again `RESTORE_SEQ_GAP` above the backup's counters, so no `seq`
 * (nor shoe or round number) the old PC may have published after the backup is used again.
 */
import { createHash, type KeyObject } from 'node:crypto';
import {
  closeSync,
  copyFileSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { z } from 'zod';
import { countersOf, initialTableState, stateFromSnapshot, step } from '../../core/table/table-machine.js';
import { tableSettings } from '../../core/table/table-settings.js';
import type { TableCounters, TableInput, TableState } from '../../core/table/types.js';
import { tableSchema } from '../../core/vocabulary/config-schema.js';
import { gatewayVersion } from '../../runtime/paths.js';
import { checkEnvelopeSignature, signEnvelope } from '../security/signing.js';
import { lockDataDir } from './data-dir-lock.js';
import { GatewayStore, type StoredMessage } from './gateway-store.js';
import { DB_FILE } from './journal-integrity.js';
import { JOURNAL_SCHEMA_VERSION } from './journal-schema.js';
import { HWM_FAST_FILE, HWM_LEGACY_FILE, HWM_SLOTS_FILE } from './hwm-slots.mjs';

/**
 * how far above the backup's counters a restored table starts: `seq` by this much, shoe and round
 * numbers by RESTORE_NUMBER_GAP. The old PC may have published up to this many messages after the
 * backup was taken without a number being reused (docs/OPERATIONS.md "Replacing the table PC").
 */
export const RESTORE_SEQ_GAP = 10_000;
export const RESTORE_NUMBER_GAP = 1_000;

export type BackupCode =
  | 'backup-no-key'
  | 'backup-no-journal'
  | 'backup-failed'
  | 'restore-running'
  | 'restore-missing'
  | 'restore-unsigned'
  | 'restore-bad-signature'
  | 'restore-damaged'
  | 'restore-newer-schema';

export class BackupError extends Error {
  constructor(
    readonly code: BackupCode,
    readonly path: string,
    what: string,
  ) {
    super(`${path}: ${what} [${code}]`);
    this.name = 'BackupError';
  }
}

const manifestSchema = z
  .object({
    v: z.literal(1),
    type: z.literal('tablegw-backup'),
    createdAt: z.iso.datetime(),
    gatewayVersion: z.string(),
    schemaVersion: z.number().int().min(0),
    database: z.object({ file: z.string(), bytes: z.number().int().min(0), sha256: z.string().regex(/^[0-9a-f]{64}$/) }).strict(),
    tables: z.array(
      z
        .object({
          id: z.string(),
          epoch: z.string().nullable(),
          lastSeq: z.number().int().min(0),
          counters: z.record(z.string(), z.number()),
        })
        .strict(),
    ),
    signature: z
      .object({ alg: z.literal('Ed25519'), keyId: z.string(), sig: z.string() })
      .strict()
      .optional(),
  })
  .strict();
export type BackupManifest = z.infer<typeof manifestSchema>;

export const manifestPathOf = (file: string): string => `${file}.manifest.json`;

function sha256File(path: string): string {
  const h = createHash('sha256');
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    for (let n = readSync(fd, buf, 0, buf.length, null); n > 0; n = readSync(fd, buf, 0, buf.length, null)) h.update(buf.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return h.digest('hex');
}

function fsyncFile(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** what a journal holds per table: epoch, last seq and the counters of its latest snapshot or mark */
function describeJournal(db: Database.Database): BackupManifest['tables'] {
  const ids = (db.prepare('SELECT table_id AS id FROM tables ORDER BY table_id').all() as Array<{ id: string }>).map((r) => r.id);
  const hasEpochs = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'epochs'").get() !== undefined;
  return ids.map((id) => {
    const epoch = hasEpochs ? ((db.prepare('SELECT epoch FROM epochs WHERE table_id = ?').get(id) as { epoch: string } | undefined)?.epoch ?? null) : null;
    const m = db.prepare('SELECT MAX(seq) AS m FROM messages WHERE table_id = ?').get(id) as { m: number | null };
    return { id, epoch, lastSeq: m.m ?? 0, counters: {} };
  });
}

/**
 * `tablegw backup <file>`: copies the journal of `dataDir` while the gateway may be running, and
 * signs its manifest. A failure (a full disk, ...) removes what it wrote and leaves the journal as
 * it was (it is only read). Returns the manifest.
 */
export async function takeBackup(dataDir: string, file: string, key: { privateKey: KeyObject; keyId: string }, now = new Date()): Promise<BackupManifest> {
  const src = join(dataDir, DB_FILE);
  if (!existsSync(src)) throw new BackupError('backup-no-journal', src, 'no journal to back up');
  const tmp = `${file}.partial`;
  const manifestPath = manifestPathOf(file);
  const tmpManifest = `${manifestPath}.partial`;
  // read-only: the gateway's journal is never written by a backup (WAL: the reader sees the last commit)
  const db = new Database(src, { readonly: true, fileMustExist: true });
  try {
    mkdirSync(dirname(file), { recursive: true });
    db.pragma('busy_timeout = 10000');
    await db.backup(tmp);
    // the copy as one self-contained file (rollback journal, not WAL): reading it makes no -wal or -shm beside it
    const copy = new Database(tmp, { fileMustExist: true });
    let tables: BackupManifest['tables'];
    let schemaVersion: number;
    try {
      copy.pragma('journal_mode = DELETE');
      schemaVersion = Number(copy.pragma('user_version', { simple: true }));
      tables = describeJournal(copy);
      for (const t of tables) t.counters = snapshotCounters(copy, t.id, t.lastSeq);
    } finally {
      copy.close();
    }
    fsyncFile(tmp);
    const manifest: BackupManifest = {
      v: 1,
      type: 'tablegw-backup',
      createdAt: now.toISOString(),
      gatewayVersion: gatewayVersion(),
      schemaVersion,
      database: { file: basename(file), bytes: statSync(tmp).size, sha256: sha256File(tmp) },
      tables,
    };
    const signed = signEnvelope(manifest, key.privateKey, key.keyId);
    writeFileSync(tmpManifest, `${JSON.stringify(signed, null, 2)}\n`, { mode: 0o600 });
    fsyncFile(tmpManifest);
    renameSync(tmp, file);
    renameSync(tmpManifest, manifestPath);
    return signed;
  } catch (e) {
    for (const p of [tmp, `${tmp}-journal`, `${tmp}-wal`, `${tmp}-shm`, tmpManifest]) rmSync(p, { force: true });
    if (e instanceof BackupError) throw e;
    const err = e as NodeJS.ErrnoException;
    const full = err.code === 'ENOSPC' || /SQLITE_FULL|disk is full|database or disk is full/i.test(String(err.code ?? '') + err.message);
    throw new BackupError('backup-failed', file, `${full ? 'the disk is full' : err.message}: nothing was kept of this backup; the journal is untouched`);
  } finally {
    db.close();
  }
}

/** the counters of the table's latest snapshot (shoe and round numbers), with `seq` its last published */
function snapshotCounters(db: Database.Database, tableId: string, lastSeq: number): TableCounters {
  const s = db.prepare('SELECT state FROM snapshots WHERE table_id = ? ORDER BY input_id DESC LIMIT 1').get(tableId) as { state: string } | undefined;
  const out: TableCounters = {};
  if (s) {
    const st = JSON.parse(s.state) as { seq?: number; roundNo?: number; shoe?: { no?: number } };
    if (typeof st.roundNo === 'number') out.roundNo = st.roundNo;
    if (typeof st.shoe?.no === 'number') out.shoeNo = st.shoe.no;
    out.seq = Math.max(lastSeq, st.seq ?? 0);
  } else out.seq = lastSeq;
  return out;
}

/** checks a backup (manifest, signature, the copy's hash and schema) without changing anything */
export function verifyBackup(file: string, publicKey: KeyObject): BackupManifest {
  if (!existsSync(file)) throw new BackupError('restore-missing', file, 'no such backup file');
  const manifestPath = manifestPathOf(file);
  if (!existsSync(manifestPath)) throw new BackupError('restore-unsigned', manifestPath, 'the backup has no manifest: it cannot be trusted');
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(manifestPath, 'utf8'));
  } catch (e) {
    throw new BackupError('restore-damaged', manifestPath, `the manifest is not JSON: ${(e as Error).message}`);
  }
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success)
    throw new BackupError(
      'restore-damaged',
      manifestPath,
      `the manifest is not a backup manifest: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`,
    );
  const m = parsed.data;
  if (!m.signature) throw new BackupError('restore-unsigned', manifestPath, 'the manifest is not signed');
  const check = checkEnvelopeSignature(raw as Record<string, unknown>, publicKey);
  if (!check.ok) throw new BackupError('restore-bad-signature', manifestPath, `the manifest's signature is not valid for this gateway's key: ${check.reason}`);
  const bytes = statSync(file).size;
  if (bytes !== m.database.bytes || sha256File(file) !== m.database.sha256) {
    throw new BackupError(
      'restore-damaged',
      file,
      `the database does not match its signed manifest (${bytes} bytes, expected ${m.database.bytes} with SHA-256 ${m.database.sha256.slice(0, 16)}…)`,
    );
  }
  if (m.schemaVersion > JOURNAL_SCHEMA_VERSION) {
    throw new BackupError(
      'restore-newer-schema',
      file,
      `written by a newer tablegw (journal schema ${m.schemaVersion}; this build reads up to ${JOURNAL_SCHEMA_VERSION}): install that version to restore it`,
    );
  }
  return m;
}

export interface RestoreReport {
  manifest: BackupManifest;
  /** where the data dir's previous journal was kept (null: there was none) */
  keptAs: string | null;
  tables: Array<{ id: string; epoch: string | null; backupSeq: number; startsAbove: number }>;
}

/**
 * `tablegw restore <file>`: verifies the backup, refuses a running gateway (the data-dir lock),
 * then makes it the data dir's journal and journals the restart above the gap on every table.
 */
export function restoreBackup(dataDir: string, file: string, publicKey: KeyObject, now = new Date()): RestoreReport {
  const manifest = verifyBackup(file, publicKey);
  let lock: ReturnType<typeof lockDataDir>;
  try {
    lock = lockDataDir(dataDir);
  } catch (e) {
    throw new BackupError('restore-running', dataDir, `${(e as Error).message}: stop it first (systemctl stop tablegw); nothing was changed`);
  }
  try {
    const stamp = now.toISOString().replace(/[:.]/g, '-');
    const target = join(dataDir, DB_FILE);
    const staging = `${target}.restoring`;
    copyFileSync(file, staging);
    fsyncFile(staging);
    // the copy checked again where it lands, before anything of the data dir is moved
    if (sha256File(staging) !== manifest.database.sha256) {
      rmSync(staging, { force: true });
      throw new BackupError('restore-damaged', staging, 'the copy in the data dir does not match the manifest; nothing was changed');
    }
    let keptAs: string | null = null;
    if (existsSync(target)) {
      keptAs = join(dataDir, `${DB_FILE}.replaced-${stamp}`);
      for (const suffix of ['', '-wal', '-shm']) if (existsSync(target + suffix)) renameSync(target + suffix, keptAs + suffix);
    }
    // the old high-water mark belongs to the replaced journal: kept aside with it
    for (const f of [HWM_SLOTS_FILE, HWM_FAST_FILE, HWM_LEGACY_FILE]) {
      const p = join(dataDir, f);
      if (existsSync(p)) renameSync(p, join(dataDir, `${f}.replaced-${stamp}`));
    }
    renameSync(staging, target);
    fsyncFile(dirname(target));
    const tables = journalRestart(dataDir, manifest, now.getTime());
    return { manifest, keptAs, tables };
  } finally {
    lock.release();
  }
}

/** the counters a restored table starts above: the backup's, plus the gap */
export function restoredCounters(c: TableCounters): TableCounters {
  const out: TableCounters = {};
  for (const [k, v] of Object.entries(c)) out[k] = v + (k === 'seq' ? RESTORE_SEQ_GAP : RESTORE_NUMBER_GAP);
  return out;
}

function journalRestart(dataDir: string, manifest: BackupManifest, at: number): RestoreReport['tables'] {
  const store = new GatewayStore(dataDir, { synchronous: 'full', retentionDays: 36_500, writer: 'inline' });
  const out: RestoreReport['tables'] = [];
  try {
    for (const t of manifest.tables) {
      const cfg = tableSchema.parse(store.tableSettings(t.id));
      const epoch = store.ensureEpoch(t.id, at).epoch;
      const settings = { ...tableSettings(cfg), epoch };
      const rec = store.recover(t.id);
      let state: TableState = rec.snapshot ? stateFromSnapshot(rec.snapshot.state as TableState) : initialTableState(settings, {});
      for (const input of rec.inputs) state = step(settings, state, input).state;
      const above = restoredCounters({ ...t.counters, ...countersOf(state), seq: Math.max(t.lastSeq, state.seq) });
      const input: TableInput = {
        type: 'gateway-alert',
        at,
        kind: 'restored-from-backup',
        detail: `restored from the backup of ${manifest.createdAt} (seq ${t.lastSeq}): whatever the old PC published after it (seq ${t.lastSeq + 1} up to at most ${above.seq}) is not in this journal and may be missing; the stream goes on above seq ${above.seq} in epoch ${epoch}`,
        data: { backupTakenAt: manifest.createdAt, backupSeq: t.lastSeq, missingFromSeq: t.lastSeq + 1, missingUpToSeq: above.seq, epoch },
        restartAbove: above,
      };
      const r = step(settings, state, input);
      const messages: StoredMessage[] = [];
      for (const o of r.outputs)
        if (o.type === 'publish') messages.push({ seq: o.payload.seq, topic: o.topic, retain: o.retain, payload: JSON.stringify(o.payload) });
      store.enqueue({ tableId: t.id, input, messages, counters: countersOf(r.state) }, () => {});
      out.push({ id: t.id, epoch, backupSeq: t.lastSeq, startsAbove: above.seq });
    }
    store.flush();
  } finally {
    store.close();
  }
  return out;
}

/** `backup.every` (`30m`, `6h`, `1d`) in milliseconds */
export function backupIntervalMs(every: string): number {
  const n = Number(every.slice(0, -1));
  const unit = every.slice(-1);
  return n * (unit === 'm' ? 60_000 : unit === 'h' ? 3_600_000 : 86_400_000);
}

const SCHEDULED = /^tablegw-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z\.db$/;

/** the name of a scheduled backup taken at `at` (sorts by time) */
export function scheduledBackupName(at: Date): string {
  return `tablegw-${at.toISOString().replace(/[:.]/g, '-')}.db`;
}

/** deletes the scheduled backups of `dir` beyond the `keep` newest (each with its manifest); returns the deleted names */
export function pruneBackups(dir: string, keep: number, list: (d: string) => string[]): string[] {
  const names = list(dir)
    .filter((n) => SCHEDULED.test(n))
    .sort();
  const old = names.slice(0, Math.max(0, names.length - keep));
  for (const n of old) {
    rmSync(join(dir, n), { force: true });
    rmSync(manifestPathOf(join(dir, n)), { force: true });
  }
  return old;
}
