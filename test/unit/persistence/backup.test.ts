/**
 * Backups and restores of the journal (src/adapters/store/backup.ts): a backup taken while the
 * store is open is consistent and signed; a restore keeps the epoch, starts every table
 * RESTORE_SEQ_GAP above the backup, names the gap in a journalled alert, and still replays byte for
 * byte; every refusal (running gateway, newer schema, damaged file, unsigned or badly signed
 * manifest) has its path and stable code and changes nothing in the data dir.
 */
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BackupError, manifestPathOf, restoreBackup, RESTORE_SEQ_GAP, takeBackup, verifyBackup } from '../../../src/adapters/store/backup.js';
import { lockDataDir, type DataDirLock } from '../../../src/adapters/store/data-dir-lock.js';
import { GatewayStore, type StoredMessage } from '../../../src/adapters/store/gateway-store.js';
import { checkJournal } from '../../../src/adapters/store/journal-integrity.js';
import { signEnvelope } from '../../../src/adapters/security/signing.js';
import { validateConfig } from '../../../src/app/config/load-config.js';
import { replayTable } from '../../../src/app/replay/replay-journal.js';
import { countersOf, initialTableState, step } from '../../../src/core/table/table-machine.js';
import { tableSettings } from '../../../src/core/table/table-settings.js';
import type { TableInput, TableState } from '../../../src/core/table/types.js';
import { makeTempDir } from '../../../dev/rig/temp-dir.js';

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const other = generateKeyPairSync('ed25519');
const KEY = { privateKey, keyId: 'test-key' };
const TABLE = validateConfig({
  mqtt: { url: 'mqtt://127.0.0.1:1' },
  tables: [
    { id: 'sb-01', game: 'sic-bo', betting: 'none', devices: [{ id: 'dice-1', kind: 'dice-sensor', transport: { type: 'serial', path: '/dev/null-dice' } }] },
  ],
}).tables[0];

/** runs `n` device-status inputs (each publishes a `device` message) through the machine into the store */
function deal(store: GatewayStore, epoch: string, from: TableState | null, n: number, at0: number): TableState {
  const settings = { ...tableSettings(TABLE), epoch };
  let state = from ?? initialTableState(settings, {});
  for (let i = 0; i < n; i++) {
    const input: TableInput =
      i === 0 && !from
        ? { type: 'start', at: at0 }
        : { type: 'device-status', at: at0 + i * 1000, deviceId: 'dice-1', state: i % 2 ? 'connected' : 'disconnected' };
    const r = step(settings, state, input);
    const messages: StoredMessage[] = [];
    for (const o of r.outputs)
      if (o.type === 'publish') messages.push({ seq: o.payload.seq, topic: o.topic, retain: o.retain, payload: JSON.stringify(o.payload) });
    store.enqueue({ tableId: TABLE.id, input, messages, counters: countersOf(r.state) }, () => {});
    state = r.state;
  }
  store.flush();
  return state;
}

async function journalDir(n = 20): Promise<{ dir: string; epoch: string; lastSeq: number; state: TableState }> {
  const dir = join(await makeTempDir('teg-backup-'), 'data');
  const store = new GatewayStore(dir, { synchronous: 'full', retentionDays: 14, writer: 'inline' });
  const e = store.ensureEpoch(TABLE.id, 1_000);
  expect(e.fresh).toBe(true);
  store.registerTable(TABLE.id, TABLE, () => initialTableState({ ...tableSettings(TABLE), epoch: e.epoch }, {}));
  const state = deal(store, e.epoch, null, n, Date.UTC(2026, 11, 1));
  store.close();
  return { dir, epoch: e.epoch, lastSeq: state.seq, state };
}

const sha = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');
/**
 * the data dir as files and their hashes: what "changes nothing" is checked against (an empty WAL
 * and the shared-memory index SQLite makes when it opens the journal to read it are not changes)
 */
const snapshotDir = (dir: string) =>
  Object.fromEntries(
    readdirSync(dir)
      .filter((f) => f !== 'gateway.lock' && !f.endsWith('-shm') && !(f.endsWith('-wal') && readFileSync(join(dir, f)).length === 0))
      .map((f) => [f, sha(join(dir, f))]),
  );

function refusal(f: () => unknown): BackupError {
  try {
    f();
  } catch (e) {
    if (e instanceof BackupError) return e;
    throw e;
  }
  throw new Error('not refused');
}

describe('backup and restore', () => {
  const locks: DataDirLock[] = [];
  afterEach(() => {
    for (const l of locks.splice(0)) l.release();
  });

  it('a backup taken while the store is open and writing is consistent, signed and verifies', async () => {
    const { dir, epoch, lastSeq } = await journalDir();
    // the gateway still running: its store open (writer thread) and committing while the backup copies
    const live = new GatewayStore(dir, { synchronous: 'full', retentionDays: 14, writer: 'inline' });
    const file = join(await makeTempDir('teg-backup-out-'), 'b.db');
    const copying = takeBackup(dir, file, KEY, new Date('2026-12-01T10:00:00Z'));
    const settings = { ...tableSettings(TABLE), epoch };
    const state = live.recover(TABLE.id);
    expect(state.maxSeq).toBe(lastSeq);
    const m = await copying;
    live.close();
    expect(m.tables).toEqual([{ id: 'sb-01', epoch, lastSeq, counters: expect.objectContaining({ seq: lastSeq }) }]);
    expect(m.signature?.keyId).toBe('test-key');
    expect(m.schemaVersion).toBe(2);
    expect(verifyBackup(file, publicKey).database.sha256).toBe(sha(file));
    expect(settings.epoch).toBe(epoch);
    expect(existsSync(`${file}.partial`)).toBe(false);
  });

  it('a restore keeps the epoch, goes on RESTORE_SEQ_GAP above the backup, names the gap, and replays byte for byte', async () => {
    const { dir, epoch, lastSeq, state } = await journalDir();
    const file = join(await makeTempDir('teg-backup-out-'), 'b.db');
    await takeBackup(dir, file, KEY);
    // the old PC goes on after the backup: these are lost with it
    const old = new GatewayStore(dir, { synchronous: 'full', retentionDays: 14, writer: 'inline' });
    expect(deal(old, epoch, state, 5, Date.UTC(2026, 11, 2)).seq).toBeGreaterThan(lastSeq);
    old.close();

    const fresh = join(await makeTempDir('teg-newpc-'), 'data');
    const r = restoreBackup(fresh, file, publicKey);
    expect(r.keptAs).toBeNull();
    expect(r.tables).toEqual([{ id: 'sb-01', epoch, backupSeq: lastSeq, startsAbove: lastSeq + RESTORE_SEQ_GAP }]);
    expect(() => checkJournal(fresh)).not.toThrow();
    const store = new GatewayStore(fresh, { synchronous: 'full', retentionDays: 14, writer: 'inline' });
    try {
      expect(store.ensureEpoch(TABLE.id)).toEqual({ epoch, fresh: false, upgraded: false });
      const rec = store.recover(TABLE.id);
      const alert = JSON.parse(rec.unacked.at(-1)!.payload);
      expect(alert).toMatchObject({ type: 'alert', kind: 'restored-from-backup', epoch, seq: lastSeq + RESTORE_SEQ_GAP + 1, severity: 'critical' });
      expect(alert.missingFromSeq ?? alert.data?.missingFromSeq).toBe(lastSeq + 1);
      expect(alert.detail).toContain(`seq ${lastSeq + 1} up to at most ${lastSeq + RESTORE_SEQ_GAP}`);
      const replay = replayTable(store, TABLE.id);
      expect(replay.mismatch).toBeNull();
      expect(replay.messages).toBe(lastSeq + 1);
    } finally {
      store.close();
    }
  });

  it('refuses a running gateway: the data-dir lock tells, nothing changes', async () => {
    const { dir } = await journalDir();
    const file = join(await makeTempDir('teg-backup-out-'), 'b.db');
    await takeBackup(dir, file, KEY);
    locks.push(lockDataDir(dir));
    const before = snapshotDir(dir);
    const e = refusal(() => restoreBackup(dir, file, publicKey));
    expect(e.code).toBe('restore-running');
    expect(e.message).toContain(dir);
    expect(e.message).toContain(`in use by pid ${process.pid}`);
    expect(snapshotDir(dir)).toEqual(before);
  });

  describe('refuses a backup it cannot trust, with its path and code, changing nothing', () => {
    async function setup() {
      const { dir } = await journalDir();
      const file = join(await makeTempDir('teg-backup-out-'), 'b.db');
      await takeBackup(dir, file, KEY);
      const target = join(await makeTempDir('teg-newpc-'), 'data');
      mkdirSync(target, { recursive: true });
      writeFileSync(join(target, 'keep.txt'), 'untouched');
      return { file, target, manifest: JSON.parse(readFileSync(manifestPathOf(file), 'utf8')) as Record<string, unknown> };
    }
    const check = (target: string, file: string, code: string, path: string) => {
      const before = snapshotDir(target);
      const e = refusal(() => restoreBackup(target, file, publicKey));
      expect(e.code).toBe(code);
      expect(e.path).toBe(path);
      expect(e.message).toContain(path);
      expect(snapshotDir(target)).toEqual(before);
    };

    it('a newer schema', async () => {
      const { file, target, manifest } = await setup();
      writeFileSync(manifestPathOf(file), JSON.stringify(signEnvelope({ ...manifest, schemaVersion: 99 }, privateKey, 'test-key')));
      check(target, file, 'restore-newer-schema', file);
    });
    it('a damaged database (one byte changed)', async () => {
      const { file, target } = await setup();
      const b = readFileSync(file);
      b[b.length - 100] ^= 0xff;
      writeFileSync(file, b);
      check(target, file, 'restore-damaged', file);
    });
    it('a damaged manifest', async () => {
      const { file, target } = await setup();
      writeFileSync(manifestPathOf(file), '{"v":1,');
      check(target, file, 'restore-damaged', manifestPathOf(file));
    });
    it('no manifest, or one without a signature', async () => {
      const { file, target, manifest } = await setup();
      const { signature: _s, ...unsigned } = manifest;
      writeFileSync(manifestPathOf(file), JSON.stringify(unsigned));
      check(target, file, 'restore-unsigned', manifestPathOf(file));
      rmSync(manifestPathOf(file));
      check(target, file, 'restore-unsigned', manifestPathOf(file));
    });
    it('a manifest signed by another key, or changed after signing', async () => {
      const { file, target, manifest } = await setup();
      writeFileSync(manifestPathOf(file), JSON.stringify(signEnvelope(manifest, other.privateKey, 'test-key')));
      check(target, file, 'restore-bad-signature', manifestPathOf(file));
      const tables = manifest.tables as Array<{ lastSeq: number }>;
      writeFileSync(manifestPathOf(file), JSON.stringify({ ...manifest, tables: [{ ...tables[0], lastSeq: 1 }] }));
      check(target, file, 'restore-bad-signature', manifestPathOf(file));
    });
  });

  // a real full file system (a 64 KiB tmpfs) needs root to mount
  it.runIf(process.getuid?.() === 0)('a full disk during a backup leaves the journal untouched, removes what it wrote and says so', async () => {
    const { dir } = await journalDir(400);
    const mnt = await makeTempDir('teg-full-');
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', mnt]);
    try {
      const before = snapshotDir(dir);
      let err: unknown;
      try {
        await takeBackup(dir, join(mnt, 'b.db'), KEY);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(BackupError);
      expect((err as BackupError).code).toBe('backup-failed');
      expect((err as Error).message).toContain('the disk is full');
      expect(readdirSync(mnt)).toEqual([]);
      expect(snapshotDir(dir)).toEqual(before);
    } finally {
      execFileSync('umount', [mnt]);
    }
  });
});
