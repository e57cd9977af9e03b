import { describe, expect, it } from 'vitest';
import { stageBreakdown, STAGES } from '../../../dev/bench/lib/stages.js';
import { Subject } from 'rxjs';
import { encodeLine } from '../../../drivers/codecs/nmea-line.js';
import { MemoryTransport } from '../../../drivers/transports/memory-transport.js';
import { LatencyProbe, latencyProbe, type CardProbe } from '../../../dev/bench/lib/latency-probe.js';
import { GatewayStore } from '../../../src/adapters/store/gateway-store.js';
import { validateConfig } from '../../../src/app/config/load-config.js';
import { createDriver } from '../../../src/app/device-drivers.js';
import { tableSettings } from '../../../src/core/table/table-settings.js';
import { topicsFor } from '../../../src/core/vocabulary/topics.js';
import { silentLogger } from '../../../src/runtime/log.js';
import type { IncomingRequest, Publisher, RequestSource } from '../../../src/runtime/ports.js';
import { TableRuntime } from '../../../src/runtime/table-runtime.js';

function probe(seq: number, start: number, step = 1): CardProbe {
  // read, decoded, apply, ... published: one stamp every `step` ms after `start`
  const names = ['read', 'decoded', 'apply', 'stepped', 'serialised', 'flushed', 'commitStart', 'commitEnd', 'effects', 'published'] as const;
  const p = { seq, tableId: 't1' } as CardProbe;
  names.forEach((n, i) => {
    p[n] = start + (i + 1) * step;
  });
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
      [
        { tableId: 't1', seq: 7, writtenHr: 0, receivedHr: 5 },
        { tableId: 't1', seq: 8, writtenHr: 300, receivedHr: 312 },
        { tableId: 't2', seq: 5, writtenHr: 0, receivedHr: 1 },
      ],
      [incomplete, probe(5, 0)],
    );
    expect(b.joined).toBe(0);
    expect(b.missing).toBe(3);
  });
});

describe('latency probe', () => {
  it('plugged into the gateway parts, marks every stage of a card from the codec to the hand-over', async () => {
    const probe = new LatencyProbe();
    const cfg = validateConfig({
      mqtt: { url: 'mqtt://127.0.0.1:1' },
      tables: [
        {
          id: 'bac-01',
          game: 'baccarat',
          betting: 'none',
          devices: [{ id: 'shoe-1', kind: 'card-shoe', transport: { type: 'serial', path: '/dev/null-shoe-1' } }],
        },
      ],
    });
    const table = cfg.tables[0];
    const shoe = new MemoryTransport({ name: 'shoe-1' });
    const sent: number[] = [];
    const link: Publisher & RequestSource = {
      topics: topicsFor('casino', 'bac-01'),
      requests$: new Subject<IncomingRequest>(),
      connected$: new Subject<boolean>(),
      connected: true,
      movedBroker: false,
      publish: (_t, payload, _r, _c, done) => {
        sent.push((JSON.parse(payload) as { seq: number }).seq);
        done?.();
      },
    };
    const store = new GatewayStore(':memory:', { synchronous: 'normal', retentionDays: 14, probe });
    const runtime = new TableRuntime({
      settings: tableSettings(table),
      tableConfig: table,
      link,
      drivers: [createDriver(table.devices[0], shoe, { probe })],
      store,
      log: silentLogger,
      probe,
    });
    runtime.start();
    const settle = () => new Promise((r) => setTimeout(r, 20));
    await settle();
    shoe.deliver(encodeLine('SHOE', 0, 'CARD', ['9S']));
    await settle();
    const records = probe.take();
    runtime.stop();
    store.close();
    expect(records).toHaveLength(1);
    const [r] = records;
    expect(sent).toContain(r.seq);
    // the memory transport marks no read (a serial transport does); every later stage is marked, in order
    expect(Number.isNaN(r.read)).toBe(true);
    const stages = [r.decoded, r.apply, r.stepped, r.serialised, r.commitStart, r.commitEnd, r.effects, r.published];
    for (const t of stages) expect(Number.isFinite(t)).toBe(true);
    expect([...stages].sort((a, b) => a - b)).toEqual(stages);
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
