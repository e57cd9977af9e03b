/**
 * The store's high-water mark and durable device SEQs, and the start-up check of the journal
 * (journal-integrity.ts): a first start on a fresh data dir just works; a journal that lost what
 * the mark says was committed is refused with its path and a stable code.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GatewayStore } from '../../../src/persistence/gateway-store.js';
import { checkJournal, JournalDamagedError } from '../../../src/persistence/journal-integrity.js';
import { makeTempDirSync } from '../../../src/scenario/rig/temp-dir.js';

function filled(dir: string, upTo = 5): void {
  const store = new GatewayStore(dir, { synchronous: 'full', retentionDays: 14, writer: 'inline' });
  store.registerTable('t1', {}, () => ({ seq: 0 }));
  for (let i = 1; i <= upTo; i++) {
    store.enqueue({ tableId: 't1', input: { type: 'health', at: i } as never, messages: [{ seq: i, topic: 'x', retain: false, payload: '{}' }], counters: { seq: i, shoeNo: 1 } }, () => {});
    store.flush();
  }
  store.noteDeviceSeq('t1', 'shoe-1', 4711);
  store.flush();
  store.close();
}

const problem = (dir: string) => {
  try {
    checkJournal(dir);
    return null;
  } catch (e) {
    if (e instanceof JournalDamagedError) return e;
    throw e;
  }
};

describe('journal integrity', () => {
  it('a fresh data dir is a first start', () => {
    const dir = makeTempDirSync('teg-ji-');
    expect(checkJournal(dir)).toMatchObject({ fresh: true });
    expect(checkJournal(join(dir, 'not-yet'))).toMatchObject({ fresh: true });
  });

  it('the mark follows every commit; device SEQs are durable; an intact journal passes', () => {
    const dir = makeTempDirSync('teg-ji-');
    filled(dir);
    expect(JSON.parse(readFileSync(join(dir, 'seq-hwm.json'), 'utf8'))).toEqual({ v: 1, tables: { t1: { seq: 5, shoeNo: 1 } } });
    expect(checkJournal(dir)).toMatchObject({ fresh: false, hwm: { t1: { seq: 5 } } });
    const store = new GatewayStore(dir, { synchronous: 'full', retentionDays: 14, writer: 'inline' });
    expect(store.deviceSeqs('t1')).toEqual({ 'shoe-1': 4711 });
    store.close();
  });

  it('missing, empty, behind and unreadable journals are refused with their path and code', () => {
    const a = makeTempDirSync('teg-ji-');
    filled(a);
    rmSync(join(a, 'gateway.db'));
    for (const f of ['gateway.db-wal', 'gateway.db-shm']) if (existsSync(join(a, f))) rmSync(join(a, f));
    expect(problem(a)).toMatchObject({ code: 'journal-missing', path: join(a, 'gateway.db') });

    const b = makeTempDirSync('teg-ji-');
    filled(b);
    writeFileSync(join(b, 'gateway.db'), '');
    expect(problem(b)?.code).toBe('journal-empty');

    const c = makeTempDirSync('teg-ji-');
    filled(c);
    writeFileSync(join(c, 'seq-hwm.json'), JSON.stringify({ v: 1, tables: { t1: { seq: 9 } } }));
    const behind = problem(c);
    expect(behind?.code).toBe('journal-behind');
    expect(behind?.message).toMatch(/ends at seq 5, but seq 9 was committed/);

    const d = makeTempDirSync('teg-ji-');
    filled(d);
    writeFileSync(join(d, 'gateway.db'), Buffer.alloc(8192, 0x5a));
    expect(problem(d)?.code).toBe('journal-corrupt');

    const e = makeTempDirSync('teg-ji-');
    filled(e);
    writeFileSync(join(e, 'seq-hwm.json'), '{not json');
    expect(problem(e)?.code).toBe('hwm-corrupt');
  });
});
