/**
 * The scheduled export (config `export.dir`, `export.every`; docs/OPERATIONS.md "Audit"): every
 * period, a signed archive (journal-export.ts) of the journal's inputs above the last one exported,
 * with the messages they caused, written into `export.dir` (a share mounted off the PC). Where the
 * last export ended is kept in `<dataDir>/export-state.json`, written (atomically) only after the
 * archive is complete in the directory.
 *
 * It is also the journal's RetentionHold (journal-prune.ts): while `export.dir` is configured the
 * prune deletes nothing above the last input exported, so nothing leaves the PC's journal before
 * it is on the share. A failed export (a full disk, the share gone) changes nothing in the journal,
 * leaves no archive, and is reported (the gateway raises an `export-failed` alert).
 *
 * The archive is written by a thread of its own (export-worker.ts), never on the gateway's event
 * loop; one export at a time (a period that comes while one runs is skipped, the next export
 * continues from where the running one ends).
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KeyObject } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import type { ExportWorkerReply } from './export-worker.js';
import { type ExportOptions, type ExportResult, openJournalReadOnly } from './journal-export.js';
import type { RetentionHold } from './journal-prune.js';

export const EXPORT_STATE_FILE = 'export-state.json';

export interface ExportState {
  /** the highest input id exported (every table's inputs up to it are in archives) */
  throughInputId: number;
  /** the archive that holds it, and when it was written (ISO) */
  file: string;
  at: string;
}

/** `<n>m` / `<n>h` / `<n>d` -> ms */
export function parseEvery(every: string): number {
  const m = /^([1-9]\d{0,4})([mhd])$/.exec(every);
  if (!m) throw new Error(`export.every: "${every}" is not <n>m, <n>h or <n>d`);
  return Number(m[1]) * (m[2] === 'm' ? 60_000 : m[2] === 'h' ? 3_600_000 : 86_400_000);
}

export function readExportState(dataDir: string): ExportState | null {
  const p = join(dataDir, EXPORT_STATE_FILE);
  if (!existsSync(p)) return null;
  try {
    const s = JSON.parse(readFileSync(p, 'utf8')) as ExportState;
    return Number.isInteger(s.throughInputId) ? s : null;
  } catch {
    // unreadable: as if nothing had been exported (the hold then keeps everything)
    return null;
  }
}

export interface ScheduledExportOptions {
  dataDir: string;
  dir: string;
  everyMs: number;
  gatewayId: string;
  key: { privateKey: KeyObject; keyId: string } | null;
  /** the wall clock (ms) */
  now?: () => number;
  onDone?(r: ExportResult): void;
  onFailed?(e: Error): void;
}

export class ScheduledExport implements RetentionHold {
  readonly name = 'export.dir';
  private timer: NodeJS.Timeout | null = null;
  /** the last export's failure (null after a success) */
  lastError: Error | null = null;

  constructor(private readonly o: ScheduledExportOptions) {}

  /** the prune may delete inputs up to the last one exported; null: nothing exported yet */
  copiedThrough(_tableId: string): number | null {
    return readExportState(this.o.dataDir)?.throughInputId ?? null;
  }

  private running: Promise<ExportResult | null> | null = null;

  /**
   * exports what is above the last export, in the export's thread; null when there is nothing new
   * (or when an export is already running: its promise is returned); rejects never (onFailed)
   */
  runOnce(): Promise<ExportResult | null> {
    this.running ??= this.exportAbove().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async exportAbove(): Promise<ExportResult | null> {
    const state = readExportState(this.o.dataDir);
    const after = state?.throughInputId ?? 0;
    try {
      const db = openJournalReadOnly(this.o.dataDir);
      let newest: number;
      try {
        newest = (db.prepare('SELECT MAX(id) AS m FROM inputs').get() as { m: number | null }).m ?? 0;
      } finally {
        db.close();
      }
      if (newest <= after) return null;
      const now = this.o.now?.() ?? Date.now();
      const stamp = new Date(now).toISOString().replace(/[:.]/g, '-');
      const file = join(this.o.dir, `tablegw-${this.o.gatewayId}-${stamp}-after-${after}.jsonl`);
      const r = await exportInThread({ dataDir: this.o.dataDir, file, range: { afterInputId: after }, gatewayId: this.o.gatewayId, key: this.o.key, now });
      if (r.trailer.throughInputId !== null) {
        const next: ExportState = { throughInputId: r.trailer.throughInputId, file, at: new Date(now).toISOString() };
        const p = join(this.o.dataDir, EXPORT_STATE_FILE);
        writeFileSync(`${p}.tmp`, `${JSON.stringify(next)}\n`);
        renameSync(`${p}.tmp`, p);
      }
      this.lastError = null;
      this.o.onDone?.(r);
      return r;
    } catch (e) {
      this.lastError = e as Error;
      this.o.onFailed?.(e as Error);
      return null;
    }
  }

  start(): void {
    this.timer = setInterval(() => void this.runOnce(), this.o.everyMs);
    this.timer.unref();
  }

  /** no more exports; resolves when a running one has ended (its archive complete, or failed and removed) */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}

/** an error of the export's thread, with the code and file it had there (`export-write-failed`, ...) */
class ExportThreadError extends Error {
  constructor(r: Extract<ExportWorkerReply, { ok: false }>) {
    super(r.message);
    this.name = r.name;
    if (r.code) Object.assign(this, { code: r.code });
    if (r.file) Object.assign(this, { file: r.file });
  }
}

/** runs exportJournal in a thread of its own (the sources under tsx, the bundle as compiled: scripts/bundle.mjs) */
function exportInThread(options: Omit<ExportOptions, 'fs'>): Promise<ExportResult> {
  const source = import.meta.url.endsWith('.ts');
  // `../../adapters/store/`: the same folder from src/adapters/store/ and from the bundle's dist/src/app/{cli,chunks}/
  const module = new URL(`../../adapters/store/export-worker.${source ? 'ts' : 'js'}`, import.meta.url).href;
  return new Promise((resolve, reject) => {
    const w = new Worker(new URL('../../adapters/store/worker-boot.mjs', import.meta.url), { workerData: { module, options } });
    let settled = false;
    w.once('message', (r: ExportWorkerReply) => {
      settled = true;
      if (r.ok) resolve(r.result);
      else reject(new ExportThreadError(r));
    });
    w.once('error', (e) => {
      settled = true;
      reject(e);
    });
    w.once('exit', (code) => {
      if (!settled) reject(new Error(`the export's thread ended (exit ${code}) without an answer`));
    });
  });
}
