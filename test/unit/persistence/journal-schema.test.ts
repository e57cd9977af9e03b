/**
 * The journal's schema version (src/adapters/store/journal-schema.ts): a new journal and one of
 * the builds before the version was kept are both brought to this build's version with their data;
 * a journal of a newer build is refused with its path and the stable code `journal-newer`, by the
 * start-up check and by the store, and is left exactly as it was (forward-only migrations).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { GatewayStore } from '../../../src/adapters/store/gateway-store.js';
import { checkJournal, DB_FILE } from '../../../src/adapters/store/journal-integrity.js';
import { JOURNAL_SCHEMA_VERSION, JournalNewerError } from '../../../src/adapters/store/journal-schema.js';
import { makeTempDirSync } from '../../../dev/rig/temp-dir.js';

function write(dir: string, seqs: number): void {
  const store = new GatewayStore(dir, { synchronous: 'normal', retentionDays: 14, writer: 'inline' });
  store.registerTable('t1', {}, () => ({ seq: 0 }));
  for (let i = 1; i <= seqs; i++) {
    store.enqueue(
      {
        tableId: 't1',
        input: { type: 'health', at: i } as never,
        messages: [{ seq: i, topic: 'x', retain: false, payload: `{"n":${i}}` }],
        counters: { seq: i },
      },
      () => {},
    );
    store.flush();
  }
  store.close();
}

function userVersion(dir: string): number {
  const db = new Database(join(dir, DB_FILE), { readonly: true });
  try {
    return Number(db.pragma('user_version', { simple: true }));
  } finally {
    db.close();
  }
}

function setUserVersion(dir: string, v: number): void {
  const db = new Database(join(dir, DB_FILE));
  db.pragma(`user_version = ${v}`);
  db.close();
}

describe('journal schema version', () => {
  it("a new journal carries this build's schema version", () => {
    const dir = makeTempDirSync('teg-schema-');
    write(dir, 2);
    expect(JOURNAL_SCHEMA_VERSION).toBeGreaterThanOrEqual(1);
    expect(userVersion(dir)).toBe(JOURNAL_SCHEMA_VERSION);
  });

  it('a journal of the builds before the version (0) is migrated forward, its data kept', () => {
    const dir = makeTempDirSync('teg-schema-');
    write(dir, 3);
    setUserVersion(dir, 0);
    expect(checkJournal(dir)).toMatchObject({ fresh: false });
    const store = new GatewayStore(dir, { synchronous: 'normal', retentionDays: 14, writer: 'inline' });
    expect(store.recover('t1').maxSeq).toBe(3);
    expect(store.message('t1', 2)?.payload).toBe('{"n":2}');
    store.close();
    expect(userVersion(dir)).toBe(JOURNAL_SCHEMA_VERSION);
  });

  it('a journal of a newer build is refused by the check and by the store, and left unchanged', () => {
    const dir = makeTempDirSync('teg-schema-');
    write(dir, 2);
    const newer = JOURNAL_SCHEMA_VERSION + 1;
    setUserVersion(dir, newer);
    const before = readFileSync(join(dir, DB_FILE));
    const path = join(dir, DB_FILE);
    let err: unknown;
    try {
      checkJournal(dir);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(JournalNewerError);
    expect((err as JournalNewerError).code).toBe('journal-newer');
    expect((err as Error).message).toContain(`journal ${path}: written by a newer tablegw (journal schema ${newer}`);
    expect((err as Error).message).toContain(`reads schemas up to ${JOURNAL_SCHEMA_VERSION}`);
    expect(() => new GatewayStore(dir, { synchronous: 'normal', retentionDays: 14, writer: 'inline' })).toThrow(JournalNewerError);
    expect(userVersion(dir)).toBe(newer);
    expect(readFileSync(join(dir, DB_FILE)).equals(before)).toBe(true);
  });
});
