/**
 * Exports a range of the journal (docs/DURABILITY.md "Exports"): the inputs of the range and the
 * messages they caused, in journal order, as a signed, hash-chained archive
 * (security/export-archive.ts).
 *
 * The journal is opened READ-ONLY (a second connection, one read transaction: a consistent view
 * while the gateway keeps committing); nothing is ever written to it. The archive is written to
 * `<file>.partial`, flushed to disk and renamed to `<file>` only when complete, so a full disk or
 * a failed write leaves no archive that looks whole, and the partial file is removed.
 */
import { closeSync, existsSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { KeyObject } from 'node:crypto';
import Database from 'better-sqlite3';
import { ExportWriter, type ExportTrailer } from '../security/export-archive.js';
import { DB_FILE } from './journal-integrity.js';

export interface ExportRange {
  /** `at` (ms) from, inclusive, and to, exclusive */
  fromAt?: number;
  toAt?: number;
  /** input ids above this one (the scheduled export continues from the last one exported) */
  afterInputId?: number;
  /** only these tables (all when absent or empty) */
  tables?: readonly string[];
}

export interface ExportOptions {
  dataDir: string;
  file: string;
  range: ExportRange;
  gatewayId: string;
  /** the gateway's signing key; null writes an unsigned archive (verify-export refuses it: export-unsigned) */
  key: { privateKey: KeyObject; keyId: string } | null;
  now?: number;
  /** the file operations (tests inject a full disk) */
  fs?: Pick<typeof import('node:fs'), 'openSync' | 'writeSync' | 'fsyncSync' | 'closeSync' | 'renameSync' | 'unlinkSync'>;
}

export interface ExportResult {
  file: string;
  bytes: number;
  trailer: ExportTrailer;
}

/** the export failed writing its file (a full disk, a share gone); the journal is untouched */
export class ExportWriteError extends Error {
  readonly code = 'export-write-failed';
  constructor(
    readonly file: string,
    override readonly cause: NodeJS.ErrnoException,
  ) {
    super(
      `export ${file}: ${cause.code === 'ENOSPC' ? 'the disk is full' : cause.message} [export-write-failed]; nothing was changed in the journal and no archive was left`,
    );
    this.name = 'ExportWriteError';
  }
}

/** opens the journal of `dataDir` read-only (the gateway may be running) */
export function openJournalReadOnly(dataDir: string): Database.Database {
  const path = join(dataDir, DB_FILE);
  if (!existsSync(path)) throw new Error(`export: no journal at ${path}`);
  const db = new Database(path, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 10000');
  return db;
}

const WRITE_CHUNK = 1 << 20;

export function exportJournal(o: ExportOptions): ExportResult {
  const fs = o.fs ?? { openSync, writeSync, fsyncSync, closeSync, renameSync, unlinkSync };
  const db = openJournalReadOnly(o.dataDir);
  const partial = `${o.file}.partial`;
  let fd: number | null = null;
  let bytes = 0;
  let pending: string[] = [];
  let pendingLen = 0;
  const flush = () => {
    if (pending.length === 0 || fd === null) return;
    const b = Buffer.from(pending.join(''), 'utf8');
    let off = 0;
    while (off < b.length) off += fs.writeSync(fd, b, off, b.length - off);
    bytes += b.length;
    pending = [];
    pendingLen = 0;
  };
  try {
    try {
      fd = fs.openSync(partial, 'w', 0o640);
    } catch (e) {
      throw new ExportWriteError(o.file, e as NodeJS.ErrnoException);
    }
    const write = (line: string) => {
      pending.push(line);
      pendingLen += line.length;
      if (pendingLen >= WRITE_CHUNK) {
        try {
          flush();
        } catch (e) {
          throw new ExportWriteError(o.file, e as NodeJS.ErrnoException);
        }
      }
    };
    const r = o.range;
    const tables = r.tables && r.tables.length > 0 ? [...r.tables].sort() : null;
    const trailer = db.transaction(() => {
      const w = new ExportWriter(
        write,
        {
          gatewayId: o.gatewayId,
          createdAt: new Date(o.now ?? Date.now()).toISOString(),
          range: {
            ...(r.fromAt !== undefined ? { fromAt: new Date(r.fromAt).toISOString() } : {}),
            ...(r.toAt !== undefined ? { toAt: new Date(r.toAt).toISOString() } : {}),
            ...(r.afterInputId !== undefined ? { afterInputId: r.afterInputId } : {}),
            tables,
          },
        },
        o.key,
      );
      const where: string[] = [];
      const args: Array<string | number> = [];
      if (r.fromAt !== undefined) {
        where.push('at >= ?');
        args.push(r.fromAt);
      }
      if (r.toAt !== undefined) {
        where.push('at < ?');
        args.push(r.toAt);
      }
      if (r.afterInputId !== undefined) {
        where.push('id > ?');
        args.push(r.afterInputId);
      }
      if (tables) {
        where.push(`table_id IN (${tables.map(() => '?').join(',')})`);
        args.push(...tables);
      }
      const inputs = db.prepare(`SELECT id, table_id AS tableId, at, input FROM inputs ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id`);
      const messages = db.prepare('SELECT seq, topic, retain, payload FROM messages WHERE table_id = ? AND input_id = ? ORDER BY seq');
      for (const i of inputs.iterate(...args) as IterableIterator<{ id: number; tableId: string; at: number; input: string }>) {
        w.input({ tableId: i.tableId, inputId: i.id, at: i.at, input: i.input });
        for (const m of messages.iterate(i.tableId, i.id) as IterableIterator<{ seq: number; topic: string; retain: number; payload: string }>) {
          w.message({ tableId: i.tableId, seq: m.seq, inputId: i.id, topic: m.topic, retain: m.retain === 1, payload: m.payload });
        }
      }
      return w.finish();
    })();
    try {
      flush();
      fs.fsyncSync(fd);
      fs.closeSync(fd);
      fd = null;
      fs.renameSync(partial, o.file);
    } catch (e) {
      throw new ExportWriteError(o.file, e as NodeJS.ErrnoException);
    }
    return { file: o.file, bytes, trailer };
  } catch (e) {
    if (fd !== null) {
      try {
        fs.closeSync(fd);
      } catch {
        // already failing
      }
    }
    try {
      fs.unlinkSync(partial);
    } catch {
      // nothing was created
    }
    throw e;
  } finally {
    db.close();
  }
}
