/**
 * The export archive (docs/DURABILITY.md "Exports", docs/SECURITY.md "Export signatures"): the
 * journal's inputs and published messages of a range, hash-chained, header and trailer signed;
 * verified offline; any changed byte fails verification with a stable code.
 */
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import * as nodeFs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { EXPORT_EXIT_CODES, verifyExport, type ExportProblemCode } from '../../../src/adapters/security/export-archive.js';
import { keyFingerprint } from '../../../src/adapters/security/signing.js';
import { GatewayStore } from '../../../src/adapters/store/gateway-store.js';
import { exportJournal, ExportWriteError } from '../../../src/adapters/store/journal-export.js';
import { buildJournal } from '../../helpers/export-journal.js';

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const other = generateKeyPairSync('ed25519');
const KEY = { privateKey, keyId: 'gw-test' };
const PUB = publicKey.export({ type: 'spki', format: 'pem' }).toString();

function out(name = 'x.tgx'): string {
  return join(mkdtempSync(join(tmpdir(), 'export-out-')), name);
}

function lines(file: string): Array<Record<string, unknown>> {
  return readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('tablegw export: the archive', () => {
  const j = buildJournal(['sic-bo', 'baccarat']);

  it('holds every input of the range with the messages it caused, byte for byte as journaled, and verifies', () => {
    const file = out();
    const r = exportJournal({ dataDir: j.dir, file, range: {}, gatewayId: 'gw-1', key: KEY });
    const ls = lines(file);
    expect(ls[0]).toMatchObject({
      kind: 'header',
      format: 'tablegw-export/1',
      gatewayId: 'gw-1',
      key: { fingerprint: keyFingerprint(publicKey) },
      signature: { alg: 'Ed25519', keyId: 'gw-test' },
    });
    expect(ls.at(-1)).toMatchObject({ kind: 'trailer', count: j.inputs + j.messages, inputs: j.inputs, messages: j.messages });
    expect(r.trailer.count).toBe(ls.length - 2);
    // the entries are the journal's rows, as stored
    const db = new Database(join(j.dir, 'gateway.db'), { readonly: true });
    const inputs = db.prepare('SELECT id, table_id AS t, input FROM inputs ORDER BY id').all() as Array<{ id: number; t: string; input: string }>;
    const messages = db.prepare('SELECT table_id AS t, seq, payload FROM messages ORDER BY input_id, seq').all() as Array<{
      t: string;
      seq: number;
      payload: string;
    }>;
    db.close();
    expect(ls.filter((e) => e.kind === 'input').map((e) => [e.inputId, e.tableId, e.input])).toEqual(inputs.map((i) => [i.id, i.t, i.input]));
    expect(ls.filter((e) => e.kind === 'message').map((e) => [e.tableId, e.seq, e.payload])).toEqual(messages.map((m) => [m.t, m.seq, m.payload]));
    expect(ls.filter((e) => e.kind === 'message' && e.topic === 'result').length).toBe(j.rounds);
    const v = verifyExport(readFileSync(file), PUB);
    expect(v).toMatchObject({ ok: true, keyId: 'gw-test', verifiedBy: keyFingerprint(publicKey), embeddedKey: false });
    expect(verifyExport(readFileSync(file))).toMatchObject({ ok: true, embeddedKey: true });
  });

  it('selects a time range and a table', () => {
    const mid = Math.floor((j.firstAt + j.lastAt) / 2);
    const file = out();
    exportJournal({ dataDir: j.dir, file, range: { fromAt: j.firstAt, toAt: mid, tables: ['sic-bo-1'] }, gatewayId: 'gw-1', key: KEY });
    const ins = lines(file).filter((e) => e.kind === 'input');
    expect(ins.length).toBeGreaterThan(0);
    expect(ins.every((e) => e.tableId === 'sic-bo-1' && (e.at as number) >= j.firstAt && (e.at as number) < mid)).toBe(true);
    const all = new Database(join(j.dir, 'gateway.db'), { readonly: true });
    const n = (all.prepare("SELECT COUNT(*) AS n FROM inputs WHERE table_id = 'sic-bo-1' AND at >= ? AND at < ?").get(j.firstAt, mid) as { n: number }).n;
    all.close();
    expect(ins.length).toBe(n);
    expect(lines(file)[0]).toMatchObject({ range: { fromAt: new Date(j.firstAt).toISOString(), toAt: new Date(mid).toISOString(), tables: ['sic-bo-1'] } });
    expect(verifyExport(readFileSync(file), PUB).ok).toBe(true);
  });

  it('fails after ANY byte is changed: every position of a small export, each with a stable code', () => {
    const file = out();
    exportJournal({ dataDir: buildJournal(['sic-bo'], { steps: 6 }).dir, file, range: {}, gatewayId: 'gw-1', key: KEY });
    const bytes = readFileSync(file);
    expect(bytes.length).toBeGreaterThan(2000);
    expect(verifyExport(bytes, PUB).ok).toBe(true);
    const codes = new Map<ExportProblemCode, number>();
    for (let i = 0; i < bytes.length; i++) {
      for (const mask of [0x01, 0x20]) {
        const b = Buffer.from(bytes);
        b[i] ^= mask;
        for (const key of [PUB, undefined]) {
          const v = verifyExport(b, key);
          if (v.ok) throw new Error(`byte ${i} ^ ${mask} (${JSON.stringify(String.fromCharCode(bytes[i]))}) still verifies`);
          codes.set(v.code, (codes.get(v.code) ?? 0) + 1);
        }
      }
    }
    // the three kinds of damage are each met
    expect([...codes.keys()].sort()).toEqual(['export-chain-broken', 'export-damaged', 'export-signature-bad']);
  });

  it('a removed, added or swapped line, a truncation and an appended byte fail', () => {
    const file = out();
    exportJournal({ dataDir: buildJournal(['sic-bo'], { steps: 6 }).dir, file, range: {}, gatewayId: 'gw-1', key: KEY });
    const text = readFileSync(file, 'utf8');
    const ls = text.split('\n').slice(0, -1);
    const code = (t: string) => {
      const v = verifyExport(Buffer.from(t), PUB);
      return v.ok ? 'ok' : v.code;
    };
    expect(code(`${[ls[0], ...ls.slice(2)].join('\n')}\n`)).toBe('export-chain-broken');
    expect(code(`${[ls[0], ls[1], ls[1], ...ls.slice(2)].join('\n')}\n`)).toBe('export-chain-broken');
    expect(code(`${[ls[0], ls[2], ls[1], ...ls.slice(3)].join('\n')}\n`)).toBe('export-chain-broken');
    expect(code(`${ls.slice(0, -1).join('\n')}\n`)).toBe('export-damaged');
    expect(code(text.slice(0, -1))).toBe('export-damaged');
    expect(code(`${text}\n`)).toBe('export-damaged');
    expect(code('')).toBe('export-damaged');
  });

  it('another key is refused (signature bad); an unsigned export is refused (unsigned)', () => {
    const file = out();
    exportJournal({ dataDir: j.dir, file, range: { tables: ['sic-bo-1'] }, gatewayId: 'gw-1', key: KEY });
    const v = verifyExport(readFileSync(file), other.publicKey.export({ type: 'spki', format: 'pem' }).toString());
    expect(v).toMatchObject({ ok: false, code: 'export-signature-bad' });
    // a forger who re-signs with their own key and embeds it passes only without --public-key
    const forged = out();
    exportJournal({
      dataDir: j.dir,
      file: forged,
      range: { tables: ['sic-bo-1'] },
      gatewayId: 'gw-1',
      key: { privateKey: other.privateKey, keyId: 'gw-test' },
    });
    expect(verifyExport(readFileSync(forged), PUB)).toMatchObject({ ok: false, code: 'export-signature-bad' });
    const unsigned = out();
    exportJournal({ dataDir: j.dir, file: unsigned, range: { tables: ['sic-bo-1'] }, gatewayId: 'gw-1', key: null });
    expect(verifyExport(readFileSync(unsigned), PUB)).toMatchObject({ ok: false, code: 'export-unsigned' });
    expect(verifyExport(readFileSync(unsigned))).toMatchObject({ ok: false, code: 'export-unsigned' });
    expect(new Set(Object.values(EXPORT_EXIT_CODES)).size).toBe(4);
  });

  it('a full disk leaves the journal untouched and no archive, and says so', () => {
    const dbFile = join(j.dir, 'gateway.db');
    const before = readFileSync(dbFile);
    const file = out();
    let written = 0;
    const full = {
      ...nodeFs,
      writeSync: ((fd: number, b: Buffer, off: number, len: number) => {
        written += len;
        if (written > 100_000) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
        return nodeFs.writeSync(fd, b, off, len);
      }) as typeof nodeFs.writeSync,
    };
    let err: unknown;
    try {
      exportJournal({ dataDir: j.dir, file, range: {}, gatewayId: 'gw-1', key: KEY, fs: full });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ExportWriteError);
    expect((err as ExportWriteError).message).toMatch(/disk is full.*\[export-write-failed\]/);
    expect(existsSync(file)).toBe(false);
    expect(readdirSync(join(file, '..'))).toEqual([]);
    expect(readFileSync(dbFile).equals(before)).toBe(true);
  });

  it('reads beside a store that keeps committing, and sees a consistent range', () => {
    const built = buildJournal(['sic-bo'], { steps: 20 });
    const store = new GatewayStore(built.dir, { synchronous: 'normal', retentionDays: 3650, writer: 'inline' });
    try {
      const first = out();
      const a = exportJournal({ dataDir: built.dir, file: first, range: {}, gatewayId: 'gw-1', key: KEY });
      expect(a.trailer.inputs).toBe(20);
      store.enqueue({ tableId: 'sic-bo-1', input: { type: 'timer', at: built.lastAt + 1, name: 'later' } as never, messages: [] }, () => {});
      store.flush();
      const second = out();
      const b = exportJournal({ dataDir: built.dir, file: second, range: { afterInputId: a.trailer.throughInputId! }, gatewayId: 'gw-1', key: KEY });
      expect(b.trailer.inputs).toBe(1);
      expect(verifyExport(readFileSync(first), PUB).ok).toBe(true);
      expect(verifyExport(readFileSync(second), PUB).ok).toBe(true);
    } finally {
      store.close();
    }
  });
});
