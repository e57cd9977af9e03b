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
  it('continues each archive from the last input exported; the prune may delete only what is exported', () => {
    const j = buildJournal(['sic-bo'], { steps: 30 });
    const dir = mkdtempSync(join(tmpdir(), 'share-'));
    const failures: Error[] = [];
    const sx = new ScheduledExport({ dataDir: j.dir, dir, everyMs: 3_600_000, gatewayId: 'gw-1', key: { privateKey, keyId: 'k1' }, onFailed: (e) => failures.push(e) });
    expect(sx.copiedThrough('sic-bo-1')).toBeNull();
    const a = sx.runOnce();
    expect(a?.trailer.inputs).toBe(30);
    expect(sx.copiedThrough('sic-bo-1')).toBe(a?.trailer.throughInputId);
    expect(sx.runOnce()).toBeNull();
    const store = new GatewayStore(j.dir, { synchronous: 'normal', retentionDays: 3650, writer: 'inline' });
    for (let i = 0; i < 5; i++) {
      store.enqueue({ tableId: 'sic-bo-1', input: { type: 'timer', at: j.lastAt + 1 + i, name: `t${i}` } as never, messages: [] }, () => {});
      store.flush();
    }
    store.close();
    const b = sx.runOnce();
    expect(b?.trailer.inputs).toBe(5);
    expect(b?.trailer.throughInputId).toBe(a!.trailer.throughInputId! + 5);
    const files = readdirSync(dir).sort();
    expect(files.length).toBe(2);
    const ids = files.flatMap((f) => readFileSync(join(dir, f), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { kind: string; inputId?: number }).filter((e) => e.kind === 'input').map((e) => e.inputId));
    expect(ids).toEqual(Array.from({ length: 35 }, (_, i) => i + 1));
    for (const f of files) expect(verifyExport(readFileSync(join(dir, f)), PUB).ok).toBe(true);
    expect(failures).toEqual([]);
  });

  it('a share that cannot be written: reported, no state advanced, the journal untouched', () => {
    const j = buildJournal(['sic-bo'], { steps: 10 });
    const before = readFileSync(join(j.dir, 'gateway.db'));
    const failures: Error[] = [];
    const sx = new ScheduledExport({ dataDir: j.dir, dir: join(j.dir, 'no-such-share'), everyMs: 60_000, gatewayId: 'gw-1', key: null, onFailed: (e) => failures.push(e) });
    expect(sx.runOnce()).toBeNull();
    expect(failures.map((e) => (e as { code?: string }).code)).toEqual(['export-write-failed']);
    expect(existsSync(join(j.dir, EXPORT_STATE_FILE))).toBe(false);
    expect(sx.copiedThrough('sic-bo-1')).toBeNull();
    expect(readFileSync(join(j.dir, 'gateway.db')).equals(before)).toBe(true);
  });

  it('export.every: minutes, hours, days', () => {
    expect(parseEvery('15m')).toBe(900_000);
    expect(parseEvery('1h')).toBe(3_600_000);
    expect(parseEvery('1d')).toBe(86_400_000);
    expect(() => parseEvery('1w')).toThrow(/export.every/);
  });
});
