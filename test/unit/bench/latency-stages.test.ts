import { describe, expect, it } from 'vitest';
import { stageBreakdown, STAGES } from '../../../dev/bench/lib/stages.js';
import { latencyProbe, LATENCY_PROBE_ON, type CardProbe } from '../../../src/runtime/latency-probe.js';

function probe(seq: number, start: number, step = 1): CardProbe {
  // read, decoded, apply, ... published: one stamp every `step` ms after `start`
  const names = ['read', 'decoded', 'apply', 'stepped', 'serialised', 'flushed', 'commitStart', 'commitEnd', 'effects', 'published'] as const;
  const p = { seq, tableId: 't1' } as CardProbe;
  names.forEach((n, i) => { p[n] = start + (i + 1) * step; });
  return p;
}

describe('latency stages (bench)', () => {
  it('cuts each card into stages that add up to its whole latency', () => {
    const traces = [
      { tableId: 't1', seq: 5, writtenHr: 100, receivedHr: 100 + 11 },
      { tableId: 't1', seq: 6, writtenHr: 200, receivedHr: 200 + 22 },
    ];
    const b = stageBreakdown(traces, [probe(5, 100), probe(6, 200, 2)]);
    expect(b.joined).toBe(2);
    expect(b.missing).toBe(0);
    expect(Object.keys(b.stages)).toEqual(STAGES.map(([n]) => n));
    for (const s of Object.values(b.stages)) {
      expect(s.n).toBe(2);
      expect(s.p50Ms).toBe(1);
      expect(s.maxMs).toBe(2);
    }
    expect(b.sumOfStageP50Ms).toBe(11);
    expect(b.totalP50Ms).toBe(11);
  });

  it('counts a measured card without a complete probe record as missing, not as zero', () => {
    const incomplete = probe(8, 300);
    incomplete.commitEnd = Number.NaN;
    const b = stageBreakdown(
      [{ tableId: 't1', seq: 7, writtenHr: 0, receivedHr: 5 }, { tableId: 't1', seq: 8, writtenHr: 300, receivedHr: 312 }, { tableId: 't2', seq: 5, writtenHr: 0, receivedHr: 1 }],
      [incomplete, probe(5, 0)],
    );
    expect(b.joined).toBe(0);
    expect(b.missing).toBe(3);
  });
});

describe('latency probe', () => {
  it('is off unless TEG_LATENCY_PROBE=1 (the test process does not set it)', () => {
    expect(LATENCY_PROBE_ON).toBe(process.env.TEG_LATENCY_PROBE === '1');
  });

  it('stamps a record when its message is handed over, once, and forgets what was taken', () => {
    latencyProbe.take();
    latencyProbe.lastReadAt = 1;
    latencyProbe.lastDecodedAt = 2;
    const message = { seq: 9 };
    const r = latencyProbe.begin('t1', 9, 3);
    expect([r.read, r.decoded, r.apply]).toEqual([1, 2, 3]);
    expect(Number.isNaN(r.published)).toBe(true);
    latencyProbe.awaitPublish(message, r);
    latencyProbe.published({ seq: 9 }); // another object: not this record's message
    expect(Number.isNaN(r.published)).toBe(true);
    latencyProbe.published(message);
    const first = r.published;
    expect(first).toBeGreaterThan(0);
    latencyProbe.published(message); // a resend after a reconnect keeps the first hand-over
    expect(r.published).toBe(first);
    expect(latencyProbe.take()).toEqual([r]);
    expect(latencyProbe.take()).toEqual([]);
  });
});
