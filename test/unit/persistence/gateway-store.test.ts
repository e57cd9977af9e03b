import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ENGINE_ROUND_IDS_SQL, GatewayStore } from '../../../src/adapters/store/gateway-store.js';
import { readHwmSlots } from '../../../src/adapters/store/hwm-slots.mjs';
import { hwmText, readHwm, readMark } from '../../../src/adapters/store/journal-integrity.js';
import type { TableInput } from '../../../src/core/table/types.js';

const input = (n: number): TableInput => ({ type: 'timer', at: 1_000 + n, name: `t${n}` });

describe.each(['inline', 'thread'] as const)('the durable store with a %s writer', (writer) => {
  it("runs each step's effects only after it is committed, in order, and recovers it all", async () => {
    const dir = mkdtempSync(join(tmpdir(), `store-${writer}-`));
    const store = new GatewayStore(dir, { synchronous: 'full', retentionDays: 14, writer });
    store.registerTable('t1', { id: 't1' }, () => ({ seq: 0 }));
    const done: number[] = [];
    for (let n = 1; n <= 50; n++) {
      store.enqueue(
        {
          tableId: 't1',
          input: input(n),
          messages: [{ seq: n, topic: n === 50 ? 'result' : 'events', retain: n === 50, payload: `{"seq":${n}}` }],
          ...(n === 25 ? { snapshot: { seq: 25 } } : {}),
        },
        () => {
          // committed: a second connection already sees it
          const reader = new GatewayStore(dir, { synchronous: 'normal', retentionDays: 14 });
          try {
            expect(reader.message('t1', n)?.payload).toBe(`{"seq":${n}}`);
          } finally {
            reader.close();
          }
          done.push(n);
        },
      );
    }
    expect(done).toEqual([]); // nothing carried out before the commit
    const end = Date.now() + 5000;
    while (done.length < 50 && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
    expect(done).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    for (let n = 1; n <= 40; n++) store.acknowledge('t1', n);
    await store.closeAsync();

    const again = new GatewayStore(dir, { synchronous: 'full', retentionDays: 14, writer });
    try {
      const rec = again.recover('t1');
      expect(rec.snapshot).toEqual({ inputId: 25, state: { seq: 25 } });
      expect(rec.inputs.map((i) => (i as { name: string }).name)).toEqual(Array.from({ length: 25 }, (_, i) => `t${i + 26}`));
      expect(rec.unacked.map((m) => m.seq)).toEqual([41, 42, 43, 44, 45, 46, 47, 48, 49, 50]);
      expect(rec.maxSeq).toBe(50);
    } finally {
      await again.closeAsync();
    }
  });

  it(
    writer === 'thread'
      ? "runs a step's `beside` work once the writer thread has its batch, before its effects"
      : 'never runs `beside` work (the commit holds the loop): the effects do it',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), `store-beside-${writer}-`));
      const store = new GatewayStore(dir, { synchronous: 'normal', retentionDays: 14, writer });
      store.registerTable('t1', { id: 't1' }, () => ({ seq: 0 }));
      const seen: string[] = [];
      for (let n = 1; n <= 3; n++) {
        store.enqueue(
          { tableId: 't1', input: input(n), messages: [{ seq: n, topic: 'events', retain: false, payload: `{"seq":${n}}` }] },
          () => seen.push(`done ${n}`),
          () => seen.push(`beside ${n}`),
        );
      }
      expect(seen).toEqual([]); // nothing in the turn that queued them
      const end = Date.now() + 5000;
      while (seen.filter((x) => x.startsWith('done')).length < 3 && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
      expect(seen).toEqual(writer === 'thread' ? ['beside 1', 'beside 2', 'beside 3', 'done 1', 'done 2', 'done 3'] : ['done 1', 'done 2', 'done 3']);
      await store.closeAsync();
    },
  );

  it('steps queued in many turns while a commit is in flight are committed together, effects in order', async () => {
    const dir = mkdtempSync(join(tmpdir(), `store-group-${writer}-`));
    const store = new GatewayStore(dir, { synchronous: 'full', retentionDays: 14, writer });
    store.registerTable('t1', { id: 't1' }, () => ({ seq: 0 }));
    const done: number[] = [];
    // one step per turn of the event loop, 200 turns: without grouping, one commit per step
    for (let n = 1; n <= 200; n++) {
      store.enqueue({ tableId: 't1', input: input(n), messages: [{ seq: n, topic: 'events', retain: false, payload: `{"seq":${n}}` }] }, () => done.push(n));
      await new Promise((r) => setImmediate(r));
    }
    const end = Date.now() + 10_000;
    while (done.length < 200 && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
    expect(done).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    if (writer === 'thread') {
      // an fsync'd commit takes far longer than a turn: the steps behind it went as one batch
      expect(store.commits).toBeLessThan(200);
    } else {
      expect(store.commits).toBe(200);
    }
    await store.closeAsync();
    const again = new GatewayStore(dir, { synchronous: 'full', retentionDays: 14 });
    try {
      expect(again.recover('t1').maxSeq).toBe(200);
      expect(again.recover('t1').inputs).toHaveLength(200);
    } finally {
      again.close();
    }
  });

  it("a commit that fails (seq reused) runs none of the batch's effects and reports it", async () => {
    const dir = mkdtempSync(join(tmpdir(), `store-fail-${writer}-`));
    const store = new GatewayStore(dir, { synchronous: 'normal', retentionDays: 14, writer });
    store.registerTable('t1', {}, () => ({}));
    const fatal: string[] = [];
    store.setFatalHandler((m) => fatal.push(m));
    const done: number[] = [];
    store.enqueue({ tableId: 't1', input: input(1), messages: [{ seq: 1, topic: 'events', retain: false, payload: '{}' }] }, () => done.push(1));
    if (writer === 'inline') store.flush();
    else while (done.length < 1) await new Promise((r) => setTimeout(r, 5));
    store.enqueue({ tableId: 't1', input: input(2), messages: [{ seq: 1, topic: 'events', retain: false, payload: '{"again":1}' }] }, () => done.push(2));
    if (writer === 'inline') expect(() => store.flush()).toThrow(/UNIQUE/);
    else {
      const end = Date.now() + 3000;
      while (fatal.length === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
      expect(fatal[0]).toMatch(/UNIQUE/);
    }
    expect(done).toEqual([1]);
    if (writer === 'thread') await store.closeAsync().catch(() => undefined);
  });
});

describe('closing the store while a PUBACK comes in', () => {
  it('an ack that arrives as the writer thread closes is committed, not sent to the closed thread', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'store-close-ack-'));
    const store = new GatewayStore(dir, { synchronous: 'normal', retentionDays: 14, writer: 'thread' });
    store.registerTable('t1', {}, () => ({}));
    const fatal: string[] = [];
    store.setFatalHandler((m) => fatal.push(m));
    let done = false;
    store.enqueue({ tableId: 't1', input: input(1), messages: [{ seq: 1, topic: 'events', retain: false, payload: '{}' }] }, () => {
      done = true;
    });
    while (!done) await new Promise((r) => setTimeout(r, 5));
    // the moment the store tells the thread to close, the broker's PUBACK comes and its
    // commit timer fires (what a gateway stopping under load sees now and then)
    const worker = (store as unknown as { worker: { postMessage(m: { type: string }): void } }).worker;
    const post = worker.postMessage.bind(worker);
    worker.postMessage = (m) => {
      post(m);
      if (m.type === 'close') {
        store.acknowledge('t1', 1);
        store.flush();
      }
    };
    await store.closeAsync();
    expect(fatal).toEqual([]);
    const again = new GatewayStore(dir, { synchronous: 'normal', retentionDays: 14 });
    try {
      expect(again.recover('t1').unacked).toEqual([]);
    } finally {
      again.close();
    }
  });
});

describe('a journal made before the outbox index', () => {
  it('gets the partial outbox index in place of the old one, and recovers the same outbox', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'store-migrate-'));
    // the schema as the first versions made it: the whole-table index (table_id, acked, seq)
    const old = new Database(join(dir, 'gateway.db'));
    old.pragma('journal_mode = WAL');
    old.exec(`
      CREATE TABLE tables (table_id TEXT PRIMARY KEY, settings TEXT NOT NULL);
      CREATE TABLE inputs (id INTEGER PRIMARY KEY AUTOINCREMENT, table_id TEXT NOT NULL, at INTEGER NOT NULL, input TEXT NOT NULL);
      CREATE INDEX inputs_by_table ON inputs (table_id, id);
      CREATE TABLE messages (
        table_id TEXT NOT NULL, seq INTEGER NOT NULL, input_id INTEGER NOT NULL, topic TEXT NOT NULL,
        retain INTEGER NOT NULL, payload TEXT NOT NULL, also_topic TEXT, also_correlation TEXT,
        acked INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (table_id, seq));
      CREATE INDEX messages_unacked ON messages (table_id, acked, seq);
      CREATE TABLE snapshots (table_id TEXT NOT NULL, input_id INTEGER NOT NULL, state TEXT NOT NULL, PRIMARY KEY (table_id, input_id));
      CREATE TABLE device_seq (table_id TEXT NOT NULL, device_id TEXT NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (table_id, device_id));
    `);
    old.prepare('INSERT INTO inputs (table_id, at, input) VALUES (?, ?, ?)').run('t1', 1, JSON.stringify(input(1)));
    const msg = old.prepare('INSERT INTO messages (table_id, seq, input_id, topic, retain, payload, acked) VALUES (?, ?, 1, ?, 0, ?, ?)');
    for (let seq = 1; seq <= 6; seq++) msg.run('t1', seq, 'events', `{"seq":${seq}}`, seq <= 3 ? 1 : 0);
    old.close();

    const store = new GatewayStore(dir, { synchronous: 'full', retentionDays: 14, writer: 'thread' });
    try {
      const reader = new Database(join(dir, 'gateway.db'), { readonly: true });
      const indexes = (reader.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'messages'").all() as Array<{ name: string }>).map(
        (r) => r.name,
      );
      reader.close();
      expect(indexes).toContain('messages_outbox');
      expect(indexes).not.toContain('messages_unacked');
      expect(store.recover('t1').unacked.map((m) => m.seq)).toEqual([4, 5, 6]);
      expect(store.unackedCount('t1')).toBe(3);
      // an ack taken after the change leaves the outbox
      const done: number[] = [];
      store.acknowledge('t1', 4);
      store.enqueue({ tableId: 't1', input: input(2), messages: [{ seq: 7, topic: 'events', retain: false, payload: '{"seq":7}' }] }, () => done.push(7));
      const end = Date.now() + 5000;
      while (done.length < 1 && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
      expect(store.recover('t1').unacked.map((m) => m.seq)).toEqual([5, 6, 7]);
    } finally {
      await store.closeAsync();
    }
  });
});

describe('the high-water mark with the writer thread', () => {
  it('is written by the thread from the tables that moved, the same text the main thread would write, across restarts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'store-hwm-'));
    const expected: Record<string, { seq: number; shoeNo: number }> = {};
    let seq = 0;
    for (const run of [1, 2]) {
      const store = new GatewayStore(dir, { synchronous: 'normal', retentionDays: 14, writer: 'thread' });
      const done: number[] = [];
      for (const id of ['t-a', '7', 't-b']) store.registerTable(id, {}, () => ({}));
      for (let n = 1; n <= 30; n++) {
        const id = ['t-a', '7', 't-b'][n % 3];
        seq++;
        // the second run moves only two of the three tables: the third keeps its mark from run 1
        if (run === 2 && id === 't-b') continue;
        expected[id] = { seq, shoeNo: run };
        store.enqueue(
          { tableId: id, input: input(seq), messages: [{ seq, topic: 'events', retain: false, payload: '{}' }], counters: { seq, shoeNo: run } },
          () => done.push(seq),
        );
        if (n % 4 === 0) await new Promise((r) => setTimeout(r, 2)); // several batches
      }
      await store.closeAsync();
      expect(readHwm(dir)).toEqual(expected);
      // the counters of the last commit: the fast file; every table's reservation reaches them
      const fast = readHwmSlots(dir, 'seq-hwm-fast.bin');
      expect(fast?.text).toBe(hwmText(readHwm(dir)!));
      const reserved = readMark(dir)?.reserved ?? {};
      for (const [id, c] of Object.entries(expected)) {
        expect(reserved[id]?.seq).toBeGreaterThanOrEqual(c.seq);
        expect(reserved[id]?.shoeNo).toBeGreaterThanOrEqual(c.shoeNo);
      }
    }
  });
});

describe('registering a table', () => {
  it('keeps the settings and the first snapshot, replaces changed settings, and writes nothing when nothing changed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'store-register-'));
    const first = new GatewayStore(dir, { synchronous: 'full', retentionDays: 14 });
    first.registerTable('t1', { minBet: 10 }, () => ({ seq: 0 }));
    expect(first.tableSettings('t1')).toEqual({ minBet: 10 });
    expect(first.recover('t1').snapshot).toEqual({ inputId: 0, state: { seq: 0 } });
    first.close();

    const store = new GatewayStore(dir, { synchronous: 'full', retentionDays: 14 });
    const reader = new Database(join(dir, 'gateway.db'), { readonly: true });
    // PRAGMA data_version moves when another connection commits
    const version = () => reader.pragma('data_version', { simple: true }) as number;
    try {
      const v0 = version();
      let built = 0;
      store.registerTable('t1', { minBet: 10 }, () => {
        built++;
        return { seq: 99 };
      });
      expect(version()).toBe(v0);
      expect(built).toBe(0);
      store.registerTable('t1', { minBet: 25 }, () => {
        built++;
        return { seq: 99 };
      });
      expect(version()).not.toBe(v0);
      expect(store.tableSettings('t1')).toEqual({ minBet: 25 });
      // the first run's snapshot stays: the initial state is only for a table the journal does not know
      expect(built).toBe(0);
      expect(store.recover('t1').snapshot).toEqual({ inputId: 0, state: { seq: 0 } });
    } finally {
      reader.close();
      store.close();
    }
  });
});

describe('the round ids an engine used (engineRoundIds)', () => {
  it('are the ok open-betting answers of that table, found through their own index', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'store-round-ids-'));
    const store = new GatewayStore(dir, { synchronous: 'normal', retentionDays: 14 });
    for (const t of ['t1', 't2']) store.registerTable(t, {}, () => ({}));
    const answer = (roundId: string, status: string) => JSON.stringify({ v: 1, status, data: { roundId } });
    const messages = [
      { seq: 1, topic: 'events', retain: false, payload: answer('not-an-answer', 'ok') },
      { seq: 2, topic: 'response/open-betting', retain: false, payload: answer('r-1', 'ok') },
      { seq: 3, topic: 'response/open-betting', retain: false, payload: answer('r-2', 'error') },
      { seq: 4, topic: 'response/open-betting', retain: false, payload: answer('r-3', 'ok') },
      { seq: 5, topic: 'response/open-betting', retain: false, payload: answer('r-1', 'ok') },
    ];
    store.enqueue({ tableId: 't1', input: input(1), messages }, () => {});
    store.enqueue(
      { tableId: 't2', input: input(2), messages: [{ seq: 1, topic: 'response/open-betting', retain: false, payload: answer('r-9', 'ok') }] },
      () => {},
    );
    store.flush();
    expect(store.engineRoundIds('t1').sort()).toEqual(['r-1', 'r-3']);
    expect(store.engineRoundIds('t2')).toEqual(['r-9']);
    store.close();
    // the start reads them for every table: through the partial index, not a scan of the table's messages
    const db = new Database(join(dir, 'gateway.db'), { readonly: true });
    try {
      const plan = db.prepare(`EXPLAIN QUERY PLAN ${ENGINE_ROUND_IDS_SQL}`).all('t1') as Array<{ detail: string }>;
      expect(plan.map((p) => p.detail).join('; ')).toContain('messages_open_betting');
    } finally {
      db.close();
    }
  });
});
