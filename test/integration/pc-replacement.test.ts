/**
 * Replacing the table PC (docs/OPERATIONS.md "Replacing the table PC"), with a real Mosquitto and
 * real `tablegw` processes: a gateway deals simulated tables; `tablegw backup` copies its journal
 * while it runs; more is dealt; the gateway is killed (SIGKILL); the data dir is replaced by
 * `tablegw restore` of the backup; the gateway starts again. An engine that follows the documented
 * rule (docs/ENGINES.md "Epochs": dedupe by (epoch, seq)) then has every result from before the
 * backup, no round twice, no seq reused with other content, and the alert names the gap.
 */
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { kill, runCli, Subscriber, type GatewayRun, type Msg } from '../../dev/chaos/gateway-rig.js';
import { startMosquitto } from '../../dev/rig/mosquitto.js';
import { makeTempDir } from '../../dev/rig/temp-dir.js';
import { realIoOrSkip } from '../helpers/real-io.js';

const io = realIoOrSkip('mosquitto');
const TABLES = ['pcr-bac', 'pcr-dt'];

/** an engine following docs/ENGINES.md: every message once by (table, epoch, seq); results by roundId */
class RuleEngine {
  private readonly seen = new Set<string>();
  readonly results = new Map<string, Array<{ epoch: string; seq: number }>>();
  take(m: Msg): void {
    const p = m.payload as { table?: string; epoch?: string; seq?: number; type?: string; roundId?: string } | null;
    if (!p || typeof p.seq !== 'number' || typeof p.epoch !== 'string') return;
    const key = `${p.table}\0${p.epoch}\0${p.seq}`;
    if (this.seen.has(key)) return; // a repeat of a message already taken
    this.seen.add(key);
    if (p.type === 'result' && p.roundId) {
      const list = this.results.get(`${p.table}/${p.roundId}`) ?? [];
      list.push({ epoch: p.epoch, seq: p.seq });
      this.results.set(`${p.table}/${p.roundId}`, list);
    }
  }
}

describe.skipIf(!io.available)('replacing the table PC from a backup (real broker, real gateway processes)', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => {});
    cleanups.length = 0;
  });

  it('the streams go on from the backup: nothing before it lost, nothing counted twice, the gap named', async () => {
    const broker = await startMosquitto();
    cleanups.push(() => broker.stop());
    const dir = await makeTempDir('teg-pcr-');
    const dataDir = join(dir, 'data');
    const keyFile = join(dir, 'gateway-key.pem');
    writeFileSync(keyFile, generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    const cfgFile = join(dir, 'gateway.json');
    writeFileSync(
      cfgFile,
      JSON.stringify({
        mqtt: { url: broker.url },
        dataDir,
        http: { enabled: false },
        signing: { privateKeyFile: keyFile },
        tables: TABLES.map((id, i) => ({
          id,
          game: i === 0 ? 'baccarat' : 'dragon-tiger',
          devices: [{ id: 'shoe-1', kind: 'card-shoe', transport: { type: 'simulator', seed: `${id}-seed`, cardIntervalMs: 15, roundIntervalMs: 30 } }],
        })),
      }),
    );
    const sub = await Subscriber.connect(broker.url, 'pcr-engine');
    cleanups.push(() => sub.client.endAsync());
    const results = (table: string, from = 0) => sub.got.slice(from).filter((m) => m.topic === `casino/${table}/result`);
    const until = async (what: string, ok: () => boolean, ms = 30_000) => {
      const end = Date.now() + ms;
      while (!ok()) {
        if (Date.now() > end) throw new Error(`timed out waiting for ${what} (${sub.got.length} messages)`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const start = (): GatewayRun => {
      const run = runCli(['start', '--config', cfgFile]);
      cleanups.push(() => kill(run, 'SIGTERM'));
      return run;
    };

    // the old PC deals
    const old = start();
    await until('3 results per table', () => TABLES.every((t) => results(t).length >= 3));
    const epochs = Object.fromEntries(TABLES.map((t) => [t, results(t)[0].payload.epoch as string]));
    for (const t of TABLES) expect(epochs[t]).toMatch(/^[0-9a-f-]{36}$/);
    // the retained info and each table's status name the epoch
    const info = await sub.waitFor((m) => /^casino\/gateway\/[^/]+\/info$/.test(m.topic) && m.payload?.type === 'info');
    for (const t of TABLES) {
      expect(info.payload.tables.find((x: { id: string }) => x.id === t).epoch).toBe(epochs[t]);
      expect((await sub.waitFor((m) => m.topic === `casino/${t}/status` && m.payload?.state === 'online')).payload.epoch).toBe(epochs[t]);
    }
    const newEpochAlerts = sub.got.filter((m) => m.payload?.kind === 'new-epoch');
    expect(newEpochAlerts.map((m) => m.payload.table).sort()).toEqual([...TABLES].sort());

    // a backup while it runs
    const backupFile = join(dir, 'backups', 'b.db');
    const b = runCli(['backup', '--config', cfgFile, backupFile]);
    expect(await b.exit, b.stderr()).toBe(0);
    const manifest = JSON.parse(readFileSync(`${backupFile}.manifest.json`, 'utf8')) as { tables: Array<{ id: string; epoch: string; lastSeq: number }> };
    const backupSeq = Object.fromEntries(manifest.tables.map((t) => [t.id, t.lastSeq]));
    for (const t of TABLES) {
      expect(manifest.tables.find((x) => x.id === t)?.epoch).toBe(epochs[t]);
      expect(backupSeq[t]).toBeGreaterThan(0);
    }
    // the results the backup holds: those an engine must still have after the replacement
    await until('the messages up to the backup delivered', () => TABLES.every((t) => sub.maxSeq(t) >= backupSeq[t]));
    const beforeBackup = TABLES.flatMap((t) =>
      results(t)
        .filter((m) => m.payload.seq <= backupSeq[t])
        .map((m) => `${t}/${m.payload.roundId}`),
    );
    expect(beforeBackup.length).toBeGreaterThanOrEqual(TABLES.length * 3);

    // more is dealt, then the PC dies
    const afterBackup = sub.got.length;
    await until('3 more results per table', () => TABLES.every((t) => results(t, afterBackup).length >= 3));
    // a restore never runs over a live gateway: refused, nothing changed
    const refused = runCli(['restore', '--config', cfgFile, backupFile]);
    expect(await refused.exit).toBe(65);
    expect(refused.stderr()).toContain('[restore-running]');
    expect(refused.stderr()).toContain(`in use by pid ${old.child.pid}`);
    await kill(old, 'SIGKILL');
    const oldMax = Object.fromEntries(TABLES.map((t) => [t, sub.maxSeq(t)]));
    for (const t of TABLES) expect(oldMax[t]).toBeGreaterThan(backupSeq[t]);

    // the new PC: an empty data dir, the backup restored into it
    rmSync(dataDir, { recursive: true, force: true });
    const r = runCli(['restore', '--config', cfgFile, backupFile]);
    expect(await r.exit, r.stderr()).toBe(0);
    const restarted = sub.got.length;
    start();
    await until('the restored-from-backup alerts', () =>
      TABLES.every((t) => sub.got.slice(restarted).some((m) => m.topic === `casino/${t}/alerts` && m.payload.kind === 'restored-from-backup')),
    );
    await until('3 results per table after the restore', () => TABLES.every((t) => results(t, restarted).length >= 3));

    for (const t of TABLES) {
      const alert = sub.got.slice(restarted).find((m) => m.topic === `casino/${t}/alerts` && m.payload.kind === 'restored-from-backup')!.payload;
      // the gap: what the old PC may have published after the backup
      expect(alert.epoch).toBe(epochs[t]);
      expect(alert.missingFromSeq).toBe(backupSeq[t] + 1);
      expect(alert.missingUpToSeq).toBeGreaterThanOrEqual(oldMax[t]);
      expect(alert.detail).toContain(`seq ${backupSeq[t] + 1} up to at most`);
      expect(alert.seq).toBeGreaterThan(oldMax[t]);
      // the same stream: no new epoch on the new PC, its status and every message name the old one
      const after = sub.got.slice(restarted).filter((m) => m.topic.startsWith(`casino/${t}/`));
      expect(after.some((m) => m.payload?.kind === 'new-epoch')).toBe(false);
      expect(after.filter((m) => typeof m.payload?.seq === 'number').every((m) => m.payload.epoch === epochs[t])).toBe(true);
      const status = after.find((m) => m.topic === `casino/${t}/status` && m.payload.state === 'online');
      expect(status?.payload.epoch).toBe(epochs[t]);
      // no seq reused with other content
      expect(sub.reusedSeqs(t)).toBe(0);
    }

    // the engine following the rule
    const engine = new RuleEngine();
    for (const m of sub.got) engine.take(m);
    for (const id of beforeBackup) expect(engine.results.get(id), `${id} missing`).toHaveLength(1);
    const twice = [...engine.results].filter(([, l]) => l.length > 1);
    expect(twice).toEqual([]);
    // and results dealt after the restore are new rounds, counted once
    for (const t of TABLES) {
      for (const m of results(t, restarted).filter((x) => x.payload.seq > backupSeq[t] + 10_000)) {
        expect(engine.results.get(`${t}/${m.payload.roundId}`)).toHaveLength(1);
      }
    }
  }, 120_000);
});
