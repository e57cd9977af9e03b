/**
 * Scheduled backups (config `backup`, docs/OPERATIONS.md "Backups"): every `backup.every` the
 * running gateway copies its journal into `backup.dir` (backup.ts takeBackup: read-only, signed
 * manifest) and keeps the `backup.keep` newest. A failure (a full disk, an unmounted share) leaves
 * the journal untouched and is reported to `onFail`, which the gateway raises as a
 * `backup-failed` alert on every table.
 */
import type { KeyObject } from 'node:crypto';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { backupIntervalMs, pruneBackups, scheduledBackupName, takeBackup, type BackupManifest } from './backup.js';

export interface BackupSchedule {
  /** one backup now (what the timer runs); resolves when it is done or failed */
  runOnce(): Promise<void>;
  stop(): void;
}

export function scheduleBackups(o: {
  dataDir: string;
  backup: { every: string; dir: string; keep: number };
  key: { privateKey: KeyObject; keyId: string };
  clock: () => number;
  onDone: (file: string, manifest: BackupManifest, deleted: string[]) => void;
  onFail: (file: string, message: string) => void;
}): BackupSchedule {
  let running: Promise<void> | null = null;
  const runOnce = (): Promise<void> => {
    if (running) return running;
    const file = join(o.backup.dir, scheduledBackupName(new Date(o.clock())));
    running = (async () => {
      try {
        mkdirSync(o.backup.dir, { recursive: true });
        const m = await takeBackup(o.dataDir, file, o.key, new Date(o.clock()));
        o.onDone(
          file,
          m,
          pruneBackups(o.backup.dir, o.backup.keep, (d) => readdirSync(d)),
        );
      } catch (e) {
        o.onFail(file, (e as Error).message);
      } finally {
        running = null;
      }
    })();
    return running;
  };
  const timer = setInterval(() => void runOnce(), backupIntervalMs(o.backup.every));
  timer.unref();
  return { runOnce, stop: () => clearInterval(timer) };
}
