/**
 * The journal's retention never trusts a wrong clock (docs/DURABILITY.md "Retention and the
 * clock"): counted back from the journal's newest entry, never a round of the current or previous
 * shoe, never more than a share per pass, never what an export has not copied; refused when the
 * wall clock is behind the journal or stepped; every pass recorded with what it removed.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GatewayStore, type StoreOptions } from '../../../src/adapters/store/gateway-store.js';
import { CLOCK_OFFSET_ENV, ClockWatch, clockOffsetFrom } from '../../../src/runtime/clock.js';

const DAY = 86_400_000;
const T0 = Date.parse('2026-11-01T12:00:00Z');

interface Counts {
  inputs: number;
  messages: number;
  snapshots: number;
}

/** a journal of `shoes`: each `rounds` rounds of 5 inputs (the first publishes the shoe), a snapshot at each round end; all acknowledged */
function journal(shoes: Array<{ id: string; startAt: number; rounds: number }>, o: Partial<StoreOptions> = {}): { store: GatewayStore; counts: () => Counts } {
  const dir = mkdtempSync(join(tmpdir(), 'prune-'));
  const store = new GatewayStore(dir, { synchronous: 'normal', retentionDays: 14, writer: 'inline', ...o });
  store.registerTable('t1', { id: 't1' }, () => ({ seq: 0 }));
  let seq = 0;
  for (const shoe of shoes) {
    let at = shoe.startAt;
    for (let r = 0; r < shoe.rounds; r++) {
      for (let i = 0; i < 5; i++) {
        at += 1_000;
        const messages = [];
        if (r === 0 && i === 0)
          messages.push({ seq: ++seq, topic: 'shoe', retain: true, payload: JSON.stringify({ seq, type: 'shoe', shoeId: shoe.id, state: 'dealing' }) });
        messages.push({ seq: ++seq, topic: i === 4 ? 'result' : 'events', retain: i === 4, payload: JSON.stringify({ seq, shoeId: shoe.id }) });
        store.enqueue(
          { tableId: 't1', input: { type: 'timer', at, name: `${shoe.id}-${r}-${i}` }, messages, ...(i === 4 ? { snapshot: { seq } } : {}) },
          () => {},
        );
        store.flush();
      }
    }
  }
  for (let s = 1; s <= seq; s++) store.acknowledge('t1', s);
  store.flush();
  const db = (store as unknown as { db: import('better-sqlite3').Database }).db;
  const counts = () => ({
    inputs: (db.prepare('SELECT COUNT(*) AS n FROM inputs').get() as { n: number }).n,
    messages: (db.prepare('SELECT COUNT(*) AS n FROM messages').get() as { n: number }).n,
    snapshots: (db.prepare('SELECT COUNT(*) AS n FROM snapshots').get() as { n: number }).n,
  });
  return { store, counts };
}

/** the shoe ids of the inputs still in the journal */
function shoesLeft(store: GatewayStore): string[] {
  return [...new Set([...store.journal('t1', 0)].map((e) => (e.input as { name: string }).name.split('-')[0]))];
}

describe('the journal prune', () => {
  it('a clock 20 days ahead deletes nothing of a shoe dealt minutes before', () => {
    const { store, counts } = journal([{ id: 'S1', startAt: T0, rounds: 30 }]);
    const before = counts();
    const r = store.prune(T0 + 20 * DAY);
    expect(r.refused).toBeUndefined();
    expect(counts()).toEqual(before);
    expect(r.cutoff).toBe(T0 + 150_000 - 14 * DAY);
    expect(store.prunes(1)[0].report.inputs).toBe(0);
    store.close();
  });

  it('a clock 20 days ahead with older shoes: only what is past the retention counted from the newest entry, never the previous shoe', () => {
    // S1 and S2 far past the retention; S3 (previous) 18 days before S4 (current): past the retention by its times, kept as the previous shoe
    const { store, counts } = journal(
      [
        { id: 'S1', startAt: T0 - 40 * DAY, rounds: 10 },
        { id: 'S2', startAt: T0 - 30 * DAY, rounds: 10 },
        { id: 'S3', startAt: T0 - 18 * DAY, rounds: 10 },
        { id: 'S4', startAt: T0, rounds: 10 },
      ],
      { pruneMaxShare: 1 },
    );
    const before = counts();
    const r = store.prune(T0 + 20 * DAY);
    expect(r.refused).toBeUndefined();
    expect(shoesLeft(store)).toEqual(['S3', 'S4']);
    expect(r.inputs).toBe(100);
    expect(counts().inputs).toBe(before.inputs - 100);
    // the prune is recorded with what it removed, per kind and range
    const rec = store.prunes(1)[0].report;
    expect(rec.tables.t1).toMatchObject({ inputs: 100, fromInputId: 1, toInputId: 100, fromAt: T0 - 40 * DAY + 1_000 });
    expect(rec.messages).toBe(r.messages);
    expect(rec.messages).toBeGreaterThan(100);
    expect(rec.snapshots).toBeGreaterThan(0);
    store.close();
  });

  it('a pass deletes at most the set share of the journal', () => {
    const { store, counts } = journal(
      [
        { id: 'S1', startAt: T0 - 60 * DAY, rounds: 20 },
        { id: 'S2', startAt: T0 - 50 * DAY, rounds: 20 },
        { id: 'S3', startAt: T0 - 1 * DAY, rounds: 20 },
        { id: 'S4', startAt: T0, rounds: 20 },
      ],
      { pruneMaxShare: 0.1 },
    );
    const total = counts().inputs;
    const r1 = store.prune(T0 + DAY);
    expect(r1.inputs).toBeGreaterThan(0);
    expect(r1.inputs).toBeLessThanOrEqual(Math.floor(total * 0.1));
    // the next passes take the rest of what may go, a share at a time, and stop at the previous shoe;
    // the journal's size each pass starts from is exact without a full count at every pass
    for (let i = 0; i < 30; i++) {
      // the table goes on between passes
      store.enqueue({ tableId: 't1', input: { type: 'timer', at: T0 + 200_000 + i, name: `S4-more-${i}` }, messages: [] }, () => {});
      store.flush();
      const actual = counts().inputs;
      const r = store.prune(T0 + DAY);
      expect(r.size?.total).toBe(actual);
      expect(r.size?.totalAfter).toBe(counts().inputs);
      expect(r.inputs).toBeLessThanOrEqual(Math.floor(actual * 0.1));
    }
    expect(store.prunes(30).some((p) => (p.report.size?.sinceCount ?? 0) > 0)).toBe(true);
    expect(shoesLeft(store)).toEqual(['S3', 'S4']);
    store.close();
  });

  it('refuses, deleting nothing, when the wall clock is behind the newest entry or stepped since the last prune; recorded', () => {
    const { store, counts } = journal(
      [
        { id: 'S1', startAt: T0 - 40 * DAY, rounds: 10 },
        { id: 'S2', startAt: T0 - 30 * DAY, rounds: 10 },
        { id: 'S3', startAt: T0 - 20 * DAY, rounds: 10 },
        { id: 'S4', startAt: T0, rounds: 10 },
      ],
      { pruneMaxShare: 1 },
    );
    const before = counts();
    const behind = store.prune(T0 - 10 * DAY);
    expect(behind.refused).toBe('clock-behind');
    expect(behind.detail).toMatch(/behind the journal's newest entry/);
    expect(counts()).toEqual(before);
    const stepped = store.prune(T0 + DAY, { clockStepped: true });
    expect(stepped.refused).toBe('clock-stepped');
    expect(counts()).toEqual(before);
    expect(store.prunes(2).map((p) => p.report.refused)).toEqual(['clock-stepped', 'clock-behind']);
    // the clock right again: the prune goes on
    expect(store.prune(T0 + DAY).inputs).toBe(100);
    store.close();
  });

  it('never deletes what an export or backup has not copied (a hold)', () => {
    let copied: number | null = null;
    const { store, counts } = journal(
      [
        { id: 'S1', startAt: T0 - 40 * DAY, rounds: 10 },
        { id: 'S2', startAt: T0 - 30 * DAY, rounds: 10 },
        { id: 'S3', startAt: T0 - 20 * DAY, rounds: 10 },
        { id: 'S4', startAt: T0, rounds: 10 },
      ],
      { pruneMaxShare: 1, retentionHolds: [{ name: 'backup', copiedThrough: () => copied }] },
    );
    const before = counts();
    expect(store.prune(T0 + DAY).inputs).toBe(0);
    expect(counts()).toEqual(before);
    copied = 60; // the backup has the first 60 inputs: up to the last snapshot at or below them
    const r = store.prune(T0 + DAY);
    expect(r.tables.t1.toInputId).toBe(60);
    expect(shoesLeft(store)).toEqual(['S2', 'S3', 'S4']);
    store.close();
  });

  it("a table without shoes keeps its last two results' rounds", () => {
    const dir = mkdtempSync(join(tmpdir(), 'prune-dice-'));
    const store = new GatewayStore(dir, { synchronous: 'normal', retentionDays: 14, writer: 'inline', pruneMaxShare: 1 });
    store.registerTable('t1', { id: 't1' }, () => ({ seq: 0 }));
    // three rounds 30 days apart: all but the last two go
    for (let r = 0; r < 3; r++) {
      for (let i = 0; i < 3; i++) {
        const seq = r * 3 + i + 1;
        store.enqueue(
          {
            tableId: 't1',
            input: { type: 'timer', at: T0 + r * 30 * DAY + i, name: `R${r}-${i}` },
            messages: [{ seq, topic: i === 2 ? 'result' : 'events', retain: false, payload: `{"seq":${seq}}` }],
            ...(i === 2 ? { snapshot: { seq } } : {}),
          },
          () => {},
        );
        store.flush();
        store.acknowledge('t1', seq);
      }
    }
    store.flush();
    const r = store.prune(T0 + 60 * DAY + 10);
    expect(r.inputs).toBe(3);
    expect([...store.journal('t1', 0)].map((e) => (e.input as { name: string }).name)).toEqual(['R1-0', 'R1-1', 'R1-2', 'R2-0', 'R2-1', 'R2-2']);
    store.close();
  });
});

describe('the clock watch', () => {
  it('reports a step of more than 1 s of the wall clock against the monotonic clock, not a slow event loop', () => {
    let wall = T0;
    let mono = 0;
    const steps: number[] = [];
    const w = new ClockWatch({ wall: () => wall, mono: () => mono, onStep: (s) => steps.push(s.stepMs) });
    // a blocked event loop: both clocks moved 30 s
    wall += 30_000;
    mono += 30_000;
    expect(w.check()).toBeNull();
    // 0.9 s of drift: not a step
    wall += 1_900;
    mono += 1_000;
    expect(w.check()).toBeNull();
    // back by 5 s
    wall += 1_000 - 5_000;
    mono += 1_000;
    expect(w.check()).toMatchObject({ stepMs: -5_000 });
    // 20 days ahead while 1 s passed
    wall += 20 * DAY;
    mono += 1_000;
    expect(w.check()?.stepMs).toBe(20 * DAY - 1_000);
    expect(steps).toEqual([-5_000, 20 * DAY - 1_000]);
    expect(w.steps).toBe(2);
  });
});

describe('the test/ops clock offset', () => {
  it('is a whole number of ms from TABLEGW_CLOCK_OFFSET_MS, 0 when unset, an error naming the variable otherwise', () => {
    expect(clockOffsetFrom({})).toBe(0);
    expect(clockOffsetFrom({ [CLOCK_OFFSET_ENV]: '1728000000' })).toBe(20 * DAY);
    expect(clockOffsetFrom({ [CLOCK_OFFSET_ENV]: '-5000' })).toBe(-5_000);
    expect(() => clockOffsetFrom({ [CLOCK_OFFSET_ENV]: '20d' })).toThrow(/TABLEGW_CLOCK_OFFSET_MS: "20d" is not a whole number of milliseconds/);
  });
});
