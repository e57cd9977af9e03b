/**
 * The scheduled export (config export.dir / export.every): each archive continues from the last
 * input exported, the prune's hold is the last input exported, and a failed export changes nothing
 * and is reported.
 */
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { verifyExport } from '../../../src/adapters/security/export-archive.js';
import { GatewayStore } from '../../../src/adapters/store/gateway-store.js';
import { EXPORT_STATE_FILE, parseEvery, ScheduledExport } from '../../../src/adapters/store/scheduled-export.js';
import { buildJournal } from '../../helpers/export-journal.js';

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const PUB = publicKey.export({ type: 'spki', format: 'pem' }).toString();

describe('the scheduled export', () => {
  it('continues each archive from the last input exported; the prune may delete only what is exported', async () => {
    const j = buildJournal(['sic-bo'], { steps: 30 });
    const dir = mkdtempSync(join(tmpdir(), 'share-'));
    const failures: Error[] = [];
    const sx = new ScheduledExport({
      dataDir: j.dir,
      dir,
      everyMs: 3_600_000,
      gatewayId: 'gw-1',
      key: { privateKey, keyId: 'k1' },
      onFailed: (e) => failures.push(e),
    });
    expect(sx.copiedThrough('sic-bo-1')).toBeNull();
    const a = await sx.runOnce();
    expect(a?.trailer.inputs).toBe(30);
    expect(sx.copiedThrough('sic-bo-1')).toBe(a?.trailer.throughInputId);
    expect(await sx.runOnce()).toBeNull();
    const store = new GatewayStore(j.dir, { synchronous: 'normal', retentionDays: 3650, writer: 'inline' });
    for (let i = 0; i < 5; i++) {
      store.enqueue({ tableId: 'sic-bo-1', input: { type: 'timer', at: j.lastAt + 1 + i, name: `t${i}` } as never, messages: [] }, () => {});
      store.flush();
    }
    store.close();
    const b = await sx.runOnce();
    expect(b?.trailer.inputs).toBe(5);
    expect(b?.trailer.throughInputId).toBe(a!.trailer.throughInputId! + 5);
    const files = readdirSync(dir).sort();
    expect(files.length).toBe(2);
    const ids = files.flatMap((f) =>
      readFileSync(join(dir, f), 'utf8')
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as { kind: string; inputId?: number })
        .filter((e) => e.kind === 'input')
        .map((e) => e.inputId),
    );
    expect(ids).toEqual(Array.from({ length: 35 }, (_, i) => i + 1));
    for (const f of files) expect(verifyExport(readFileSync(join(dir, f)), PUB).ok).toBe(true);
    expect(failures).toEqual([]);
  });

  it('a share that cannot be written: reported, no state advanced, the journal untouched', async () => {
    const j = buildJournal(['sic-bo'], { steps: 10 });
    const before = readFileSync(join(j.dir, 'gateway.db'));
    const failures: Error[] = [];
    const sx = new ScheduledExport({
      dataDir: j.dir,
      dir: join(j.dir, 'no-such-share'),
      everyMs: 60_000,
      gatewayId: 'gw-1',
      key: null,
      onFailed: (e) => failures.push(e),
    });
    expect(await sx.runOnce()).toBeNull();
    expect(failures.map((e) => (e as { code?: string }).code)).toEqual(['export-write-failed']);
    expect(existsSync(join(j.dir, EXPORT_STATE_FILE))).toBe(false);
    expect(sx.copiedThrough('sic-bo-1')).toBeNull();
    expect(readFileSync(join(j.dir, 'gateway.db')).equals(before)).toBe(true);
  });

  it("as the prune's hold: nothing is deleted before the first export, nothing above the last input exported after", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hold-'));
    const share = mkdtempSync(join(tmpdir(), 'share-'));
    const sx = new ScheduledExport({ dataDir: dir, dir: share, everyMs: 60_000, gatewayId: 'gw-1', key: { privateKey, keyId: 'k1' } });
    const store = new GatewayStore(dir, { synchronous: 'normal', retentionDays: 1, writer: 'inline', pruneMaxShare: 1, retentionHolds: [sx] });
    store.registerTable('t1', { id: 't1' }, () => ({ seq: 0 }));
    // shoes of 5 rounds, 5 inputs each, a day apart, from 40 days ago; a snapshot at each round end
    const T0 = Date.parse('2026-10-01T00:00:00Z');
    let seq = 0;
    const addShoes = (from: number, n: number) => {
      for (let shoe = from; shoe < from + n; shoe++) {
        let at = T0 + shoe * 86_400_000;
        for (let r = 0; r < 5; r++) {
          for (let i = 0; i < 5; i++) {
            at += 1_000;
            const messages = [];
            if (r === 0 && i === 0)
              messages.push({ seq: ++seq, topic: 'shoe', retain: true, payload: JSON.stringify({ seq, type: 'shoe', shoeId: `S${shoe}` }) });
            messages.push({ seq: ++seq, topic: i === 4 ? 'result' : 'events', retain: false, payload: JSON.stringify({ seq }) });
            store.enqueue(
              { tableId: 't1', input: { type: 'timer', at, name: `S${shoe}-${r}-${i}` } as never, messages, ...(i === 4 ? { snapshot: { seq } } : {}) },
              () => {},
            );
            store.flush();
          }
        }
      }
      for (let s = 1; s <= seq; s++) store.acknowledge('t1', s);
      store.flush();
    };
    addShoes(0, 4);
    const now = T0 + 40 * 86_400_000;
    // shoes 0 and 1 are past the retention and not the current or previous shoe: only the hold keeps them
    expect(store.prune(now).inputs).toBe(0);
    await sx.runOnce();
    const exported = sx.copiedThrough('t1')!;
    expect(exported).toBe(100);
    addShoes(4, 4);
    const r = store.prune(now);
    // without the hold shoes 0-5 could go (up to input 150); with it only what was exported
    expect(r.inputs).toBeGreaterThan(0);
    expect(r.tables.t1.toInputId).toBeLessThanOrEqual(exported);
    await sx.runOnce();
    expect(store.prune(now).tables.t1.toInputId).toBeGreaterThan(exported);
    store.close();
  });

  it("runs in a thread of its own: the gateway's event loop keeps turning while it exports; one export at a time", async () => {
    const j = buildJournal(['sic-bo', 'baccarat']);
    const dir = mkdtempSync(join(tmpdir(), 'share-'));
    const sx = new ScheduledExport({ dataDir: j.dir, dir, everyMs: 3_600_000, gatewayId: 'gw-1', key: { privateKey, keyId: 'k1' } });
    // an export on this thread would let no setImmediate run before it ends
    let turns = 0;
    let spinning = true;
    const spin = (): void => {
      turns++;
      if (spinning) setImmediate(spin);
    };
    setImmediate(spin);
    const first = sx.runOnce();
    // a second call while it runs is the same export, not a second archive
    expect(sx.runOnce()).toBe(first);
    const r = await first;
    spinning = false;
    expect(turns).toBeGreaterThan(10);
    expect(r?.trailer.inputs).toBe(j.inputs);
    expect(r?.trailer.messages).toBe(j.messages);
    expect(readdirSync(dir)).toHaveLength(1);
    expect(verifyExport(readFileSync(r!.file), PUB).ok).toBe(true);
    await sx.stop();
  });

  it('export.every: minutes, hours, days', () => {
    expect(parseEvery('15m')).toBe(900_000);
    expect(parseEvery('1h')).toBe(3_600_000);
    expect(parseEvery('1d')).toBe(86_400_000);
    expect(() => parseEvery('1w')).toThrow(/export.every/);
  });
});
