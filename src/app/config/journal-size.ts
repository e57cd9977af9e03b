/**
 * The disk a journal needs for `journal.retentionDays` (check-config prints it; docs/OPERATIONS.md
 * "Audit"): the retention's rounds of every table at a busy table's pace, 24 hours a day, times the
 * measured bytes a round takes in gateway.db.
 *
 * BYTES_PER_ROUND were MEASURED with dev/bench/journal-bytes-per-round.ts (the demo's simulated
 * tables, config/default.yaml, dealing as fast as they can for 40 s into a fresh journal; gateway.db
 * after a WAL checkpoint, shared out by each table's rows: inputs, published messages, snapshots,
 * indexes and free pages in proportion), 2026-12-07, rounded up to the next 500 bytes. Run it again
 * after a change to what is journaled or published, and put the new figures here.
 *
 * ROUNDS_PER_HOUR is an ASSUMPTION, not a measurement: a busy table of each game on a casino floor,
 * on the high side so that the estimate errs towards more disk.
 */
import { existsSync, statfsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { GatewayConfig } from '../../core/vocabulary/config-schema.js';

export const BYTES_PER_ROUND: Record<string, number> = {
  baccarat: 7_000,
  'seven-up-baccarat': 7_000,
  'dragon-tiger': 5_000,
  'three-pictures': 19_500,
  'three-card-poker': 13_500,
  'pok-deng': 19_500,
  blackjack: 33_500,
  holdem: 20_000,
  'sic-bo': 3_000,
  keno: 18_000,
};

export const ROUNDS_PER_HOUR: Record<string, number> = {
  baccarat: 80,
  'seven-up-baccarat': 80,
  'dragon-tiger': 120,
  'three-pictures': 80,
  'three-card-poker': 80,
  'pok-deng': 80,
  blackjack: 80,
  holdem: 40,
  'sic-bo': 80,
  keno: 30,
};

/** for a game without a figure: the largest of the measured ones */
const FALLBACK_BYTES = Math.max(...Object.values(BYTES_PER_ROUND));
const FALLBACK_ROUNDS = Math.max(...Object.values(ROUNDS_PER_HOUR));

export interface JournalSizeEstimate {
  bytes: number;
  rounds: number;
  days: number;
}

/** the bytes `cfg`'s tables need in the journal for `journal.retentionDays` */
export function journalSizeEstimate(cfg: Pick<GatewayConfig, 'tables' | 'journal'>): JournalSizeEstimate {
  const days = cfg.journal.retentionDays;
  let bytes = 0;
  let rounds = 0;
  for (const t of cfg.tables) {
    const r = (ROUNDS_PER_HOUR[t.game] ?? FALLBACK_ROUNDS) * 24 * days;
    rounds += r;
    bytes += r * (BYTES_PER_ROUND[t.game] ?? FALLBACK_BYTES);
  }
  return { bytes: Math.ceil(bytes), rounds: Math.ceil(rounds), days };
}

export function formatBytes(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)} GB`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(0)} MB`;
  return `${Math.ceil(n / 1e3)} kB`;
}

/** check-config's line on the journal's disk */
export function journalSizeLine(cfg: Pick<GatewayConfig, 'tables' | 'journal'>, freeBytes?: number | null): string {
  const e = journalSizeEstimate(cfg);
  const free = freeBytes === undefined || freeBytes === null ? '' : `; ${formatBytes(freeBytes)} free there${freeBytes < e.bytes ? ' (NOT ENOUGH)' : ''}`;
  return `  journal: kept ${e.days} days (journal.retentionDays): about ${formatBytes(e.bytes)} of disk for ${cfg.tables.length} table(s) dealing 24 h a day at a busy pace (${e.rounds.toLocaleString('en')} rounds; bytes per round measured, docs/OPERATIONS.md "Audit")${free}`;
}

/** the free bytes on the file system of `dir` (or of its nearest existing parent); null when unreadable */
export function freeBytesAt(dir: string): number | null {
  let d = resolve(dir);
  while (!existsSync(d) && dirname(d) !== d) d = dirname(d);
  try {
    const s = statfsSync(d);
    return s.bavail * s.bsize;
  } catch {
    return null;
  }
}
