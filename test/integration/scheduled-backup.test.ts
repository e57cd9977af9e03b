/**
 * Scheduled backups in the running gateway (config `backup`, docs/OPERATIONS.md "Backups"): a
 * backup taken while the simulated table deals verifies with the gateway's key and names the
 * epoch its envelopes carry; a backup that cannot be written (its directory is a file) raises a
 * `backup-failed` alert on the table and the gateway deals on. Real broker (the embedded one),
 * real gateway in process.
 */
import { generateKeyPairSync } from 'node:crypto';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyBackup } from '../../src/adapters/store/backup.js';
import { startEmbeddedBroker } from '../../src/adapters/mqtt/embedded-broker.js';
import { validateConfig } from '../../src/app/config/load-config.js';
import { startGateway } from '../../src/app/gateway.js';
import { silentLogger } from '../../src/runtime/log.js';
import type { PublishedMessage } from '../../src/runtime/table-runtime.js';
import { loadSimulators } from '../../simulators/load.js';
import { makeTempDir } from '../../dev/rig/temp-dir.js';
import { until } from '../helpers/floor.js';

describe('scheduled backups in the running gateway', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanup.reverse()) await c().catch(() => {});
    cleanup.length = 0;
  });

  for (const broken of [false, true]) {
    it(broken
      ? 'a backup that cannot be written raises backup-failed and dealing goes on'
      : "a backup taken while dealing verifies and names the table's epoch", async () => {
      const broker = await startEmbeddedBroker('127.0.0.1', 0);
      cleanup.push(() => broker.close());
      const dir = await makeTempDir('teg-sched-gw-');
      const keys = generateKeyPairSync('ed25519');
      const keyFile = join(dir, 'key.pem');
      writeFileSync(keyFile, keys.privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
      const backupDir = join(dir, broken ? 'a-file' : 'backups');
      if (broken) writeFileSync(backupDir, 'not a directory');
      const cfg = validateConfig({
        mqtt: { url: broker.url, protocolVersion: 4 },
        dataDir: join(dir, 'data'),
        http: { enabled: false },
        health: { intervalMs: 0 },
        signing: { privateKeyFile: keyFile },
        backup: { every: '1d', dir: backupDir, keep: 3 },
        tables: [
          {
            id: 'sched-1',
            game: 'baccarat',
            devices: [{ id: 'shoe-1', kind: 'card-shoe', transport: { type: 'simulator', seed: 'sched', cardIntervalMs: 5, roundIntervalMs: 5 } }],
          },
        ],
      });
      const gw = await startGateway(cfg, { simulators: loadSimulators, logger: silentLogger, fast: true });
      cleanup.push(() => gw.stop());
      const got: PublishedMessage[] = [];
      const sub = gw.tables[0].published$.subscribe((m) => got.push(m));
      cleanup.push(async () => sub.unsubscribe());
      await until(() => got.filter((m) => m.payload.type === 'result').length >= 2, 20_000, 'two results');
      expect(gw.backups).not.toBeNull();
      await gw.backups!.runOnce();
      const epoch = got[0].payload.epoch;
      expect(epoch).toMatch(/^[0-9a-f-]{36}$/);
      if (broken) {
        await until(() => got.some((m) => m.payload.type === 'alert' && m.payload.kind === 'backup-failed'), 5_000, 'the backup-failed alert');
        const alert = got.find((m) => m.payload.kind === 'backup-failed')!.payload;
        expect(alert).toMatchObject({ severity: 'warning', epoch, file: expect.stringContaining(backupDir) });
        const results = got.filter((m) => m.payload.type === 'result').length;
        await until(() => got.filter((m) => m.payload.type === 'result').length > results, 20_000, 'dealing going on');
      } else {
        const files = readdirSync(backupDir);
        expect(files).toHaveLength(2);
        const m = verifyBackup(join(backupDir, files.find((f) => f.endsWith('.db'))!), keys.publicKey);
        expect(m.tables).toEqual([expect.objectContaining({ id: 'sched-1', epoch })]);
        expect(m.tables[0].lastSeq).toBeGreaterThan(0);
        expect(got.some((x) => x.payload.kind === 'backup-failed')).toBe(false);
      }
    }, 60_000);
  }
});
