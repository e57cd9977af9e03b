/**
 * The regulator-ready audit with a running gateway (docs/OPERATIONS.md "Audit"): simulated tables
 * deal on a real Mosquitto while `tablegw export` (a child process, as an operator runs it) reads
 * a range of the journal read-only; `tablegw verify-export` checks the archive offline with the
 * gateway's public key, and a copy with one byte changed fails with a stable code. The scheduled
 * export writes into its directory, and the clock's synchronisation shows in /metrics and /healthz.
 */
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../../src/app/gateway.js';
import { validateConfig } from '../../src/app/config/load-config.js';
import { EXPORT_EXIT_CODES, verifyExport } from '../../src/adapters/security/export-archive.js';
import { loadSimulators } from '../../simulators/load.js';
import { startMosquitto } from '../../dev/rig/mosquitto.js';
import { cleanupTempDirs, makeTempDir } from '../../dev/rig/temp-dir.js';
import { realIoOrSkip } from '../helpers/real-io.js';
import { capturingLogger, resultsOf, subscriber, until } from '../helpers/floor.js';

afterAll(cleanupTempDirs);
const io = realIoOrSkip('mosquitto');
const ROOT = join(import.meta.dirname, '..', '..');
const TABLES = ['aud-01', 'aud-02'];

function cli(args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'src', 'app', 'cli', 'main.ts'), ...args],
      { cwd: ROOT, encoding: 'utf8' },
      (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, out: stdout + stderr });
      },
    );
  });
}

describe.skipIf(!io.available)('audit export beside a running gateway', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanup.reverse()) await c().catch(() => {});
    cleanup.length = 0;
  });

  it('exports a range while the tables deal, verifies offline, and a tampered copy fails', async () => {
    const broker = await startMosquitto();
    cleanup.push(() => broker.stop());
    const dir = await makeTempDir('teg-audit-');
    const share = await makeTempDir('teg-share-');
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const keyFile = join(dir, 'signing.key');
    const pubFile = join(dir, 'signing.pub');
    writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    writeFileSync(pubFile, publicKey.export({ type: 'spki', format: 'pem' }));
    const raw = {
      gatewayId: 'gw-audit',
      mqtt: { url: broker.url, reconnectMinMs: 200, reconnectMaxMs: 2_000, connectTimeoutMs: 3_000 },
      dataDir: join(dir, 'data'),
      http: { enabled: true, port: 0 },
      health: { intervalMs: 0 },
      signing: { privateKeyFile: keyFile },
      export: { dir: share, every: '1d' },
      tables: TABLES.map((id) => ({
        id,
        game: 'baccarat',
        decks: 2,
        devices: [{ id: 'shoe-1', kind: 'card-shoe', transport: { type: 'simulator', seed: `audit-${id}`, cardIntervalMs: 20, roundIntervalMs: 0 } }],
      })),
    };
    const cfgFile = join(dir, 'gateway.json');
    writeFileSync(cfgFile, JSON.stringify(raw));
    const sub = await subscriber(broker.url, 'audit-sub');
    cleanup.push(() => sub.close());
    const { log } = capturingLogger();
    const from = Date.now();
    const gw: Gateway = await startGateway(validateConfig(raw), {
      simulators: loadSimulators,
      logger: log,
      clockSyncReaders: [async () => ({ synchronized: false, source: 'test' })],
      clockSyncAlertAfterMs: 0,
    });
    cleanup.push(() => gw.stop());
    await until(() => TABLES.every((t) => resultsOf(sub.got, t).length >= 3), 60_000, 'three results on every table');
    const to = Date.now();

    // the export, a separate process reading the live journal read-only
    const archive = join(dir, 'day.jsonl');
    const ex = await cli(['export', '--config', cfgFile, '--from', new Date(from - 60_000).toISOString(), '--to', new Date(to).toISOString(), archive]);
    expect(ex.out).toMatch(/signed by ed25519:[0-9a-f]{16}/);
    expect(ex.code).toBe(0);
    // the tables went on dealing meanwhile
    const resultsThen = resultsOf(sub.got, TABLES[0]).length;
    await until(() => resultsOf(sub.got, TABLES[0]).length > resultsThen, 30_000, 'a result after the export');

    const bytes = readFileSync(archive);
    const v = verifyExport(bytes, readFileSync(pubFile));
    expect(v.ok).toBe(true);
    const entries = bytes
      .toString('utf8')
      .trimEnd()
      .split('\n')
      .slice(1, -1)
      .map((l) => JSON.parse(l) as { kind: string; tableId: string; topic?: string; payload?: string; at?: number });
    for (const t of TABLES) {
      // every result published before `to` is in the archive, byte for byte as published
      const published = resultsOf(sub.got, t)
        .filter((r) => Date.parse(r.ts) < to)
        .map((r) => r.seq);
      const archived = entries
        .filter((e) => e.kind === 'message' && e.tableId === t && e.topic === 'result')
        .map((e) => JSON.parse(e.payload!) as { seq: number; signature?: unknown });
      expect(archived.map((r) => r.seq)).toEqual(expect.arrayContaining(published));
      expect(archived.every((r) => r.signature !== undefined)).toBe(true);
    }
    expect(entries.filter((e) => e.kind === 'input').every((e) => e.at! >= from - 60_000 && e.at! < to)).toBe(true);

    const ok = await cli(['verify-export', '--public-key', pubFile, archive]);
    expect(ok.out).toMatch(/verified/);
    expect(ok.code).toBe(0);
    // one byte changed in the middle of an entry
    const tampered = Buffer.from(bytes);
    const at = Math.floor(bytes.length / 2);
    tampered[at] = tampered[at] === 0x30 ? 0x31 : 0x30;
    const badFile = join(dir, 'day-tampered.jsonl');
    writeFileSync(badFile, tampered);
    const bad = await cli(['verify-export', '--public-key', pubFile, badFile]);
    expect([EXPORT_EXIT_CODES['export-damaged'], EXPORT_EXIT_CODES['export-chain-broken']]).toContain(bad.code);
    expect(bad.out).toMatch(/\[export-(damaged|chain-broken)\]/);
    // another gateway's key
    const otherPub = join(dir, 'other.pub');
    writeFileSync(otherPub, generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }));
    expect((await cli(['verify-export', '--public-key', otherPub, archive])).code).toBe(EXPORT_EXIT_CODES['export-signature-bad']);

    // the scheduled export into its directory, from the start of the journal
    const first = await gw.scheduledExport!.runOnce();
    expect(first?.trailer.inputs).toBeGreaterThan(0);
    expect(readdirSync(share)).toHaveLength(1);
    expect(verifyExport(readFileSync(first!.file), readFileSync(pubFile)).ok).toBe(true);
    expect(gw.scheduledExport!.copiedThrough(TABLES[0])).toBe(first!.trailer.throughInputId);

    // the share gone (a file where the directory was): nothing written, the state kept, an alert on every table
    rmSync(share, { recursive: true });
    writeFileSync(share, '');
    // the tables commit more meanwhile (the export has something new to write)
    await new Promise((r) => setTimeout(r, 500));
    expect(await gw.scheduledExport!.runOnce()).toBeNull();
    expect(gw.scheduledExport!.copiedThrough(TABLES[0])).toBe(first!.trailer.throughInputId);
    for (const t of TABLES) {
      const a = await sub.waitFor((m) => m.topic === `casino/${t}/alerts` && m.payload?.kind === 'export-failed', 5_000, `the export-failed alert on ${t}`);
      expect(a.payload.detail).toMatch(/export-write-failed/);
    }

    // the clock never synchronised (the injected reader), the alert threshold shortened to 0: journaled on every table
    for (const t of TABLES) {
      const a = await sub.waitFor(
        (m) => m.topic === `casino/${t}/alerts` && m.payload?.kind === 'clock-unsynchronised',
        5_000,
        `the clock-unsynchronised alert on ${t}`,
      );
      expect(a.payload.severity).toBe('warning');
      expect(a.payload.source).toBe('test');
    }

    // the clock's synchronisation as the injected reader says: not synchronised
    const url = gw.observability.httpUrl!;
    await until(() => gw.clockSync.state.source === 'test', 5_000, 'the clock sync read');
    const metrics = await (await fetch(`${url}/metrics`)).text();
    expect(metrics).toMatch(/^tablegw_clock_synchronized 0$/m);
    const health = (await (await fetch(`${url}/healthz`)).json()) as { clock: { synchronized: boolean | null; source: string } };
    expect(health.clock).toEqual({ synchronized: false, source: 'test' });
  }, 120_000);
});
