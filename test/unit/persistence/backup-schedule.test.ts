/**
 * Scheduled backups (src/adapters/store/backup-schedule.ts, config `backup`): each run writes a
 * signed backup into `backup.dir` and keeps the `backup.keep` newest; a run that fails reports it
 * (the gateway's `backup-failed` alert) and leaves the journal and the older backups as they were.
 */
import { generateKeyPairSync } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { backupIntervalMs, verifyBackup } from '../../../src/adapters/store/backup.js';
import { scheduleBackups } from '../../../src/adapters/store/backup-schedule.js';
import { GatewayStore } from '../../../src/adapters/store/gateway-store.js';
import { backupSchema } from '../../../src/core/vocabulary/config-schema.js';
import { ConfigError, validateConfig } from '../../../src/app/config/load-config.js';
import { makeTempDir } from '../../../dev/rig/temp-dir.js';

const { privateKey, publicKey } = generateKeyPairSync('ed25519');

async function dataDir(): Promise<string> {
  const dir = join(await makeTempDir('teg-sched-'), 'data');
  const store = new GatewayStore(dir, { synchronous: 'full', retentionDays: 14, writer: 'inline' });
  store.registerTable('t1', { id: 't1' }, () => ({ seq: 0 }));
  store.ensureEpoch('t1');
  store.enqueue(
    { tableId: 't1', input: { type: 'timer', at: 1, name: 'x' }, messages: [{ seq: 1, topic: 'events', retain: false, payload: '{"seq":1}' }] },
    () => {},
  );
  store.flush();
  store.close();
  return dir;
}

describe('scheduled backups', () => {
  it('backup.every reads minutes, hours and days; anything else is refused by the config', () => {
    expect([backupIntervalMs('30m'), backupIntervalMs('6h'), backupIntervalMs('1d')]).toEqual([1_800_000, 21_600_000, 86_400_000]);
    for (const every of ['0h', '6', '1w', '1.5h', '-1d', '21d', '99999m']) expect(backupSchema.safeParse({ every, dir: '/x' }).success, every).toBe(false);
    expect(backupSchema.parse({ every: '6h', dir: '/x' }).keep).toBe(7);
  });

  it('a config with backup but no signing key is refused, saying why', () => {
    const table = { id: 't1', game: 'baccarat', devices: [{ id: 'shoe-1', kind: 'card-shoe', transport: { type: 'simulator' } }] };
    let err: unknown;
    try {
      validateConfig({ tables: [table], backup: { every: '6h', dir: '/x' } });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).problems).toEqual([
      expect.stringMatching(/^backup: scheduled backups are signed with the gateway's key: configure signing\.privateKeyFile/),
    ]);
  });

  it('each run writes a signed backup and keeps the newest backup.keep', async () => {
    const dir = await dataDir();
    const out = join(await makeTempDir('teg-sched-out-'), 'backups');
    let now = Date.UTC(2026, 11, 1, 0, 0, 0);
    const done: string[] = [];
    const deleted: string[] = [];
    const s = scheduleBackups({
      dataDir: dir,
      backup: { every: '1d', dir: out, keep: 2 },
      key: { privateKey, keyId: 'k' },
      clock: () => now,
      onDone: (file, _m, del) => {
        done.push(file);
        deleted.push(...del);
      },
      onFail: (_f, m) => {
        throw new Error(m);
      },
    });
    try {
      for (let i = 0; i < 3; i++) {
        await s.runOnce();
        now += 3_600_000;
      }
    } finally {
      s.stop();
    }
    expect(done).toHaveLength(3);
    expect(deleted).toEqual(['tablegw-2026-12-01T00-00-00-000Z.db']);
    expect(readdirSync(out).sort()).toEqual([
      'tablegw-2026-12-01T01-00-00-000Z.db',
      'tablegw-2026-12-01T01-00-00-000Z.db.manifest.json',
      'tablegw-2026-12-01T02-00-00-000Z.db',
      'tablegw-2026-12-01T02-00-00-000Z.db.manifest.json',
    ]);
    expect(verifyBackup(done[2], publicKey).tables).toEqual([{ id: 't1', epoch: expect.any(String), lastSeq: 1, counters: { seq: 1 } }]);
  });

  it('a run that fails reports it, removes what it wrote and leaves the journal as it was', async () => {
    const dir = await dataDir();
    const before = readFileSync(join(dir, 'gateway.db'));
    const base = await makeTempDir('teg-sched-out-');
    const notADir = join(base, 'file');
    writeFileSync(notADir, 'x');
    const failed: Array<{ file: string; message: string }> = [];
    const s = scheduleBackups({
      dataDir: dir,
      backup: { every: '1d', dir: notADir, keep: 2 },
      key: { privateKey, keyId: 'k' },
      clock: () => Date.UTC(2026, 11, 1),
      onDone: () => {
        throw new Error('not expected');
      },
      onFail: (file, message) => failed.push({ file, message }),
    });
    await s.runOnce();
    s.stop();
    expect(failed).toHaveLength(1);
    expect(failed[0].file).toBe(join(notADir, 'tablegw-2026-12-01T00-00-00-000Z.db'));
    expect(failed[0].message).toMatch(/EEXIST|ENOTDIR|not a directory/i);
    expect(readdirSync(base)).toEqual(['file']);
    expect(readFileSync(join(dir, 'gateway.db')).equals(before)).toBe(true);
  });
});
