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
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KeyObject } from 'node:crypto';
import { exportJournal, openJournalReadOnly, type ExportResult } from './journal-export.js';
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

  /** exports what is above the last export; null when there is nothing new; throws nothing (onFailed) */
  runOnce(): ExportResult | null {
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
      const r = exportJournal({ dataDir: this.o.dataDir, file, range: { afterInputId: after }, gatewayId: this.o.gatewayId, key: this.o.key, now });
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
    this.timer = setInterval(() => this.runOnce(), this.o.everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
