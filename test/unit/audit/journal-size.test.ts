/**
 * check-config's disk estimate for journal.retentionDays (src/app/config/journal-size.ts): the
 * arithmetic, and the measured bytes per round held against a real journal of recorded rounds.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { BYTES_PER_ROUND, journalSizeEstimate, journalSizeLine, ROUNDS_PER_HOUR } from '../../../src/app/config/journal-size.js';
import { validateConfig } from '../../../src/app/config/load-config.js';
import { buildJournal } from '../../helpers/export-journal.js';

const table = (id: string, game: string) => ({
  id,
  game,
  devices: [{ id: 'd1', kind: game === 'sic-bo' ? 'dice-sensor' : 'card-shoe', transport: { type: 'simulator' } }],
});

describe("the journal's disk for its retention", () => {
  it("is the retention's rounds of every table times the measured bytes per round; 90 days by default", () => {
    const cfg = validateConfig({ mqtt: { url: 'mqtt://127.0.0.1:1883' }, tables: [table('b1', 'baccarat'), table('s1', 'sic-bo')] });
    expect(cfg.journal.retentionDays).toBe(90);
    const e = journalSizeEstimate(cfg);
    const rb = ROUNDS_PER_HOUR.baccarat * 24 * 90;
    const rs = ROUNDS_PER_HOUR['sic-bo'] * 24 * 90;
    expect(e).toEqual({ days: 90, rounds: rb + rs, bytes: rb * BYTES_PER_ROUND.baccarat + rs * BYTES_PER_ROUND['sic-bo'] });
    expect(journalSizeLine(cfg, 1e12)).toMatch(/kept 90 days .* about \d+\.\d GB of disk for 2 table\(s\).*1000\.0 GB free there$/);
    expect(journalSizeLine(cfg, 1e6)).toMatch(/\(NOT ENOUGH\)$/);
  });

  it('the sic bo figure is not below what a real journal of recorded rounds takes (without snapshots)', () => {
    const size = (dir: string) => {
      const file = join(dir, 'gateway.db');
      const db = new Database(file);
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.close();
      return statSync(file).size;
    };
    const j = buildJournal(['sic-bo']);
    // less the pages an empty journal already takes (its tables and indexes)
    const perRound = (size(j.dir) - size(buildJournal(['sic-bo'], { steps: 0 }).dir)) / j.rounds;
    console.log(`sic bo: ${j.rounds} recorded rounds, ${Math.round(perRound)} bytes per round without snapshots`);
    expect(j.rounds).toBeGreaterThan(10);
    expect(BYTES_PER_ROUND['sic-bo']).toBeGreaterThanOrEqual(perRound * 0.5);
    expect(BYTES_PER_ROUND['sic-bo']).toBeLessThan(perRound * 20);
  });
});
