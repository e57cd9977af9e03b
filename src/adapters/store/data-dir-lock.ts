/**
 * One gateway per data dir (docs/DURABILITY.md, "One gateway per data dir"): before the journal is
 * opened the gateway takes an exclusive OS lock on `<dataDir>/gateway.lock` and keeps it for the
 * life of the process. A second gateway on the same data dir (a technician starting one by hand
 * beside the service) is refused at once, before it reads anything, with DataDirInUseError: exit
 * DATA_DIR_IN_USE_EXIT_CODE, which deploy/tablegw.service does not restart on.
 *
 * The lock is SQLite's own file locking on a dedicated, empty database: `locking_mode=EXCLUSIVE`
 * and a `BEGIN EXCLUSIVE` transaction that is never ended. On Linux that is a POSIX advisory
 * (fcntl) write lock on the file, which the kernel drops when the process ends in any way —
 * SIGKILL, a crash, the OOM killer — so a lock is never left behind and no stale-pid guessing is
 * needed (a pid file alone would be: after a reboot the dead gateway's pid may belong to another
 * process). SQLite also keeps fcntl's per-process pitfalls away (closing any other descriptor of
 * the file would drop the lock; two connections of one process would not exclude each other):
 * it tracks the locks of every connection of the process per inode. The pid of the holder is
 * written beside it, in `<dataDir>/gateway.pid`, only to name it in the refusal; the lock decides.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';

export const LOCK_FILE = 'gateway.lock';
export const PID_FILE = 'gateway.pid';
/**
 * the exit code of a start refused because the data dir is in use (sysexits EX_TEMPFAIL: the
 * other gateway must stop first); deploy/tablegw.service does not restart on it
 */
export const DATA_DIR_IN_USE_EXIT_CODE = 75;

export class DataDirInUseError extends Error {
  readonly code = 'data-dir-in-use';
  constructor(
    readonly dir: string,
    readonly pid: number | null,
  ) {
    super(
      `data dir ${dir} is in use by ${pid === null ? 'another process' : `pid ${pid}`} [data-dir-in-use]. ` +
        'Only one gateway may run on a data dir: stop the other one first (the service: "systemctl stop tablegw").',
    );
    this.name = 'DataDirInUseError';
  }
}

export interface DataDirLock {
  readonly dir: string;
  /** gives the lock up (the process's end does too) */
  release(): void;
}

/** the locks this process holds: referenced here so that no lost handle is ever collected (which would close it) */
const held = new Set<Database.Database>();

function holderPid(dir: string): number | null {
  try {
    const n = Number(readFileSync(join(dir, PID_FILE), 'utf8').trim());
    return Number.isInteger(n) && n > 0 ? n : null;
  } catch {
    return null;
  }
}

function isBusy(e: unknown): boolean {
  const code = (e as { code?: unknown }).code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
}

/** takes the data dir's lock (creating the dir if needed); DataDirInUseError when another process holds it */
export function lockDataDir(dataDir: string): DataDirLock {
  const dir = resolve(dataDir);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new Error(
      `dataDir: cannot create "${dir}": ${code === 'EACCES' || code === 'EROFS' ? 'permission denied or a read-only file system' : (e as Error).message}`,
    );
  }
  let db: Database.Database;
  try {
    // timeout 0: a held lock is an answer, not something to wait for
    db = new Database(join(dir, LOCK_FILE), { timeout: 0 });
  } catch (e) {
    throw new Error(`dataDir: cannot open the lock file "${join(dir, LOCK_FILE)}": ${(e as Error).message} (is the directory writable by this user?)`);
  }
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
  } catch (e) {
    db.close();
    if (isBusy(e)) throw new DataDirInUseError(dir, holderPid(dir));
    throw new Error(`dataDir: cannot lock "${join(dir, LOCK_FILE)}": ${(e as Error).message} (is the directory writable by this user?)`);
  }
  held.add(db);
  try {
    writeFileSync(join(dir, PID_FILE), `${process.pid}\n`);
  } catch {
    // the pid only names the holder in a refusal; the lock is what excludes
  }
  let released = false;
  return {
    dir,
    release() {
      if (released) return;
      released = true;
      held.delete(db);
      db.close();
    },
  };
}
