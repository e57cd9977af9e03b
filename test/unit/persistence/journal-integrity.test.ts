/**
 * The store's high-water mark and durable device SEQs, and the start-up check of the journal
 * (journal-integrity.ts): a first start on a fresh data dir just works; a journal that lost what
 * the mark says was committed is refused with its path and a stable code.
 */
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GatewayStore } from '../../../src/adapters/store/gateway-store.js';
import { HwmSlotWriter, RESERVE_AHEAD, readHwmSlots } from '../../../src/adapters/store/hwm-slots.mjs';
import { checkJournal, hwmForRecovery, JournalDamagedError, readHwm, readMark } from '../../../src/adapters/store/journal-integrity.js';
import { makeTempDirSync } from '../../../dev/rig/temp-dir.js';

function filled(dir: string, upTo = 5): void {
  const store = new GatewayStore(dir, { synchronous: 'full', retentionDays: 14, writer: 'inline' });
  store.registerTable('t1', {}, () => ({ seq: 0 }));
  for (let i = 1; i <= upTo; i++) {
    store.enqueue(
      {
        tableId: 't1',
        input: { type: 'health', at: i } as never,
        messages: [{ seq: i, topic: 'x', retain: false, payload: '{}' }],
        counters: { seq: i, shoeNo: 1 },
      },
      () => {},
    );
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
    expect(readHwm(dir)).toEqual({ t1: { seq: 5, shoeNo: 1 } });
    // written in place: two slots of 4 KiB, whatever the number of commits
    expect(statSync(join(dir, 'seq-hwm.bin')).size).toBe(8192);
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
    const mark = new HwmSlotWriter(c, true);
    mark.write(JSON.stringify({ v: 1, tables: { t1: { seq: 9 } } }));
    mark.close();
    const behind = problem(c);
    expect(behind?.code).toBe('journal-behind');
    expect(behind?.message).toMatch(/ends at seq 5, but seq 9 was committed/);

    const d = makeTempDirSync('teg-ji-');
    filled(d);
    writeFileSync(join(d, 'gateway.db'), Buffer.alloc(8192, 0x5a));
    expect(problem(d)?.code).toBe('journal-corrupt');

    const e = makeTempDirSync('teg-ji-');
    filled(e);
    writeFileSync(join(e, 'seq-hwm.bin'), Buffer.alloc(8192, 0x5a));
    expect(problem(e)).toMatchObject({ code: 'hwm-corrupt', path: join(e, 'seq-hwm.bin') });
    expect(problem(e)?.message).toMatch(/neither slot of the high-water mark is whole/);

    const f = makeTempDirSync('teg-ji-');
    writeFileSync(join(f, 'seq-hwm.bin'), 'TEGHWM1 short');
    expect(problem(f)?.message).toMatch(/is not two slots/);
  });

  it('a torn slot falls back to the other one, which holds the mark before it', () => {
    const dir = makeTempDirSync('teg-ji-');
    filled(dir, 6);
    // the counters after each commit are in the fast file (the mark's file holds the reservation, taken at seq 1)
    const file = join(dir, 'seq-hwm-fast.bin');
    const bytes = readFileSync(file);
    // the newest mark (seq 6) is in one slot, seq 5 in the other: tear the newest in its middle
    const newest = bytes.indexOf('"seq":6');
    expect(newest).toBeGreaterThan(0);
    expect(bytes.indexOf('"seq":5')).toBeGreaterThan(0);
    const torn = Buffer.from(bytes);
    torn.fill(0, newest, newest + 40);
    writeFileSync(file, torn);
    expect(readHwm(dir)).toEqual({ t1: { seq: 5, shoeNo: 1 } });
    // the journal (seq 6) is above the older mark: an intact journal still passes
    expect(checkJournal(dir)).toMatchObject({ fresh: false, hwm: { t1: { seq: 5 } } });
    // a flipped bit in the header's checksum is caught the same way
    const flipped = Buffer.from(bytes);
    flipped[Math.floor(newest / 4096) * 4096 + 30] ^= 0x01;
    writeFileSync(file, flipped);
    expect(readHwm(dir)).toEqual({ t1: { seq: 5, shoeNo: 1 } });
  });

  it('the one-file mark of earlier builds is read, and replaced by the slots at the first commit', () => {
    const dir = makeTempDirSync('teg-ji-');
    filled(dir, 3);
    rmSync(join(dir, 'seq-hwm.bin'));
    writeFileSync(join(dir, 'seq-hwm.json'), JSON.stringify({ v: 1, tables: { t1: { seq: 3, shoeNo: 1 }, t2: { seq: 40 } } }));
    expect(readHwm(dir)).toEqual({ t1: { seq: 3, shoeNo: 1 }, t2: { seq: 40 } });
    writeFileSync(join(dir, 'seq-hwm.json'), '{not json');
    expect(problem(dir)).toMatchObject({ code: 'hwm-corrupt', path: join(dir, 'seq-hwm.json') });
    writeFileSync(join(dir, 'seq-hwm.json'), JSON.stringify({ v: 1, tables: { t1: { seq: 3, shoeNo: 1 }, t2: { seq: 40 } } }));
    const store = new GatewayStore(dir, { synchronous: 'full', retentionDays: 14, writer: 'inline' });
    store.enqueue(
      {
        tableId: 't1',
        input: { type: 'health', at: 4 } as never,
        messages: [{ seq: 4, topic: 'x', retain: false, payload: '{}' }],
        counters: { seq: 4, shoeNo: 1 },
      },
      () => {},
    );
    store.flush();
    store.close();
    expect(existsSync(join(dir, 'seq-hwm.json'))).toBe(false);
    expect(readHwm(dir)).toEqual({ t1: { seq: 4, shoeNo: 1 }, t2: { seq: 40 } });
  });

  it('both marks present (a crash between writing the slots and removing the old file): the higher counters win', () => {
    const dir = makeTempDirSync('teg-ji-');
    const mark = new HwmSlotWriter(dir, true);
    mark.write(JSON.stringify({ v: 1, tables: { t1: { seq: 7, shoeNo: 2 } } }));
    mark.close();
    writeFileSync(join(dir, 'seq-hwm.json'), JSON.stringify({ v: 1, tables: { t1: { seq: 6, shoeNo: 3 }, t2: { seq: 1 } } }));
    expect(readHwm(dir)).toEqual({ t1: { seq: 7, shoeNo: 3 }, t2: { seq: 1 } });
  });

  it('a mark that outgrows its slots is written anew with bigger ones, and stays readable', () => {
    const dir = makeTempDirSync('teg-ji-');
    const mark = new HwmSlotWriter(dir, false);
    const tables = (n: number, seq: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`table-${i}`, { seq, shoeNo: 1, roundNo: seq }]));
    mark.write(JSON.stringify({ v: 1, tables: tables(2, 1) }));
    expect(statSync(join(dir, 'seq-hwm.bin')).size).toBe(8192);
    mark.write(JSON.stringify({ v: 1, tables: tables(400, 2) }));
    const grown = statSync(join(dir, 'seq-hwm.bin')).size;
    expect(grown).toBeGreaterThan(8192);
    expect(Object.keys(readHwm(dir) ?? {})).toHaveLength(400);
    mark.write(JSON.stringify({ v: 1, tables: tables(400, 3) }));
    mark.close();
    expect(statSync(join(dir, 'seq-hwm.bin')).size).toBe(grown);
    expect(readHwm(dir)?.['table-399']).toEqual({ seq: 3, shoeNo: 1, roundNo: 3 });
    // a new writer (a restart) goes on from the newest generation
    const again = new HwmSlotWriter(dir, false);
    again.write(JSON.stringify({ v: 1, tables: tables(400, 4) }));
    again.close();
    expect(readHwm(dir)?.['table-0']).toEqual({ seq: 4, shoeNo: 1, roundNo: 4 });
  });
});

describe("the mark's two files: counters after every commit, a flushed reservation ahead of them", () => {
  it("flushes the mark's file only when a reservation moves; the fast file follows every commit", async () => {
    for (const writer of ['inline', 'thread'] as const) {
      const dir = makeTempDirSync('teg-ji-');
      const store = new GatewayStore(dir, { synchronous: 'full', retentionDays: 14, writer });
      store.registerTable('t1', {}, () => ({ seq: 0 }));
      for (let i = 1; i <= 40; i++) {
        // one commit each: the next step waits for the one before
        await new Promise<void>((done) => {
          store.enqueue(
            {
              tableId: 't1',
              input: { type: 'health', at: i } as never,
              messages: [{ seq: i, topic: 'x', retain: false, payload: '{}' }],
              counters: { seq: i, shoeNo: 1 },
            },
            done,
          );
          store.flush();
        });
      }
      await store.closeAsync();
      // one reservation (the first commit), 39 commits after it in the fast file
      expect(readHwmSlots(dir)?.generation, writer).toBe(1);
      expect(readHwmSlots(dir, 'seq-hwm-fast.bin')?.generation, writer).toBeGreaterThanOrEqual(38);
      expect(readHwm(dir)).toEqual({ t1: { seq: 40, shoeNo: 1 } });
      expect(readMark(dir)?.reserved).toEqual({ t1: { seq: 1 + RESERVE_AHEAD.seq, shoeNo: 1 + RESERVE_AHEAD.other } });
    }
  });

  it("a lost or torn fast file (a power loss) is no damage: the journal is checked against the mark's file", () => {
    const dir = makeTempDirSync('teg-ji-');
    filled(dir, 6);
    const fast = join(dir, 'seq-hwm-fast.bin');
    writeFileSync(fast, Buffer.alloc(8192, 0x5a));
    expect(readHwm(dir)).toEqual({ t1: { seq: 1, shoeNo: 1 } });
    expect(checkJournal(dir)).toMatchObject({ fresh: false });
    rmSync(fast);
    expect(checkJournal(dir)).toMatchObject({ fresh: false });
    // and the next start goes on writing the fast file
    const store = new GatewayStore(dir, { synchronous: 'full', retentionDays: 14, writer: 'inline' });
    for (const seq of [7, 8]) {
      store.enqueue(
        {
          tableId: 't1',
          input: { type: 'health', at: seq } as never,
          messages: [{ seq, topic: 'x', retain: false, payload: '{}' }],
          counters: { seq, shoeNo: 1 },
        },
        () => {},
      );
      store.flush();
    }
    store.close();
    expect(readHwm(dir)).toEqual({ t1: { seq: 8, shoeNo: 1 } });
    expect(readHwmSlots(dir)?.generation).toBe(1);
  });

  it('a journal behind the fast file (a deleted WAL after the process died) is refused; recovery starts above the reservation', () => {
    const dir = makeTempDirSync('teg-ji-');
    filled(dir, 6);
    const db = new GatewayStore(dir, { synchronous: 'full', retentionDays: 14, writer: 'inline' });
    db.close();
    // the fast file says seq 9 was committed; the journal holds 6
    const w = new HwmSlotWriter(dir, false, 'seq-hwm-fast.bin');
    w.write(JSON.stringify({ v: 1, tables: { t1: { seq: 9, shoeNo: 1 } } }));
    w.close();
    expect(problem(dir)).toMatchObject({ code: 'journal-behind' });
    // after a power loss the fast file may be older than what left; the reservation is not
    expect(hwmForRecovery(dir)).toEqual({ t1: { seq: 1 + RESERVE_AHEAD.seq, shoeNo: 1 + RESERVE_AHEAD.other } });
  });
});
