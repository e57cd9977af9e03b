/**
 * The journal's schema version (docs/DURABILITY.md, "Schema versions"): SQLite's `user_version`
 * of gateway.db. Schema changes are FORWARD ONLY: a build opens a journal of its own version or
 * of an older one (migrating it, in one transaction, to its own), and refuses one written by a
 * newer build (JournalNewerError, exit 65, nothing changed), since it cannot know what the newer
 * schema means: a rollback to an older build needs the data dir as it was before the upgrade.
 *
 * Version 0 is every journal written before the version was kept (0.1.x); version 1 is the same
 * tables (the store's `CREATE ... IF NOT EXISTS` schema, which also replaces the index of older
 * journals); version 2 adds `epochs` (each table's stream epoch, mqtt-api.md v1.2: a table of an
 * upgraded journal gets its epoch when it is next registered, docs/DURABILITY.md "Stream epoch").
 * A change of the schema adds its step to MIGRATIONS and raises JOURNAL_SCHEMA_VERSION.
 */
import type Database from 'better-sqlite3';
import { gatewayVersion } from '../../runtime/paths.js';

export const JOURNAL_SCHEMA_VERSION = 2;

/**
 * MIGRATIONS[v] takes a journal of version v to v + 1, run after the store's idempotent schema
 * (gateway-store.ts) in the same transaction. Version 0 -> 1: nothing (the same tables);
 * 1 -> 2: the `epochs` table (one random epoch per table, fixed when it is first registered).
 */
const MIGRATIONS: ReadonlyArray<(db: Database.Database) => void> = [
  () => {},
  (db) => db.exec('CREATE TABLE IF NOT EXISTS epochs (table_id TEXT PRIMARY KEY, epoch TEXT NOT NULL, created_at INTEGER NOT NULL)'),
];

export class JournalNewerError extends Error {
  readonly code = 'journal-newer';
  constructor(
    readonly path: string,
    readonly found: number,
  ) {
    super(
      `journal ${path}: written by a newer tablegw (journal schema ${found}; this build, ${gatewayVersion()}, reads schemas up to ${JOURNAL_SCHEMA_VERSION}) [journal-newer]. ` +
        'Schema changes are forward only: nothing was changed. Install that newer version again, or, to roll back, ' +
        'restore the data dir saved before the upgrade (docs/INSTALL.md, "Rollback").',
    );
    this.name = 'JournalNewerError';
  }
}

export function journalSchemaVersion(db: Database.Database): number {
  return Number(db.pragma('user_version', { simple: true }));
}

/** throws JournalNewerError when the journal is of a newer schema than this build's */
export function refuseNewerJournal(db: Database.Database, path: string): void {
  const v = journalSchemaVersion(db);
  if (v > JOURNAL_SCHEMA_VERSION) throw new JournalNewerError(path, v);
}

/**
 * brings a journal of an older version (or a new one) to this build's, after `createSchema` (the
 * store's idempotent CREATE ... IF NOT EXISTS), all in one transaction; refuses a newer one
 */
export function migrateJournal(db: Database.Database, path: string, createSchema: () => void): void {
  refuseNewerJournal(db, path);
  db.transaction(() => {
    createSchema();
    const from = journalSchemaVersion(db);
    if (from === JOURNAL_SCHEMA_VERSION) return;
    for (let v = from; v < JOURNAL_SCHEMA_VERSION; v++) MIGRATIONS[v](db);
    db.pragma(`user_version = ${JOURNAL_SCHEMA_VERSION}`);
  })();
}
