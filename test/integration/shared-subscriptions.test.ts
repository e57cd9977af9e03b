/**
 * Engines that share the load (docs/SCALING.md): MQTT 5 shared subscriptions on Mosquitto. Two
 * engine instances in one group `$share/engines/casino/+/result` split the results of two tables:
 * each result goes to exactly one of them, and each sees its share in seq order. A shared group
 * does not keep a table on one engine (Mosquitto picks per message), so the engine fleet shards by
 * table (each engine subscribes to its tables' topics) when an engine needs a table's whole stream.
 */
import { describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../../src/app/gateway.js';
import { loadSimulators } from '../../simulators/load.js';
import { silentLogger } from '../../src/runtime/log.js';
import { startMosquitto } from '../../dev/rig/mosquitto.js';
import { realIoOrSkip } from '../helpers/real-io.js';
import { makeTempDir } from '../../dev/rig/temp-dir.js';
import { resultsOf, subscriber, until } from '../helpers/floor.js';
import { stopsAfterEach } from '../helpers/cleanup.js';

const io = realIoOrSkip('mosquitto');
const TABLES = ['sh-01', 'sh-02'];

describe.skipIf(!io.available)('shared subscriptions: an engine group on Mosquitto', () => {
  const cleanup = stopsAfterEach();

  it('each result reaches exactly one engine of the group, each engine in seq order per table; a sharded engine gets its table whole', async () => {
    const broker = await startMosquitto();
    cleanup.push(() => broker.stop());
    const group = '$share/engines/casino/+/result';
    const e1 = await subscriber(broker.url, 'engine-1', group, { protocolVersion: 5, clean: true });
    const e2 = await subscriber(broker.url, 'engine-2', group, { protocolVersion: 5, clean: true });
    const sharded = await subscriber(broker.url, 'engine-sh-01', 'casino/sh-01/result', { protocolVersion: 5, clean: true });
    cleanup.push(
      () => e1.close(),
      () => e2.close(),
      () => sharded.close(),
    );
    const gw: Gateway = await startGateway(
      {
        ...(await import('../helpers/floor.js')).floorConfig({
          url: broker.url,
          dataDir: await makeTempDir('teg-sh-data-'),
          tables: TABLES,
          cardIntervalMs: 0,
          decks: 2,
        }),
      },
      { simulators: loadSimulators, logger: silentLogger, fast: true, simulatorShoes: 1 },
    );
    cleanup.push(() => gw.stop());
    await until(() => gw.tables.every((t) => (t.outbox?.depth ?? 0) === 0) && e1.got.length + e2.got.length >= 6, 30_000, 'results shared by the engines');
    await new Promise((r) => setTimeout(r, 1_000));
    for (const table of TABLES) {
      const seqs1 = e1.got.filter((m) => m.topic === `casino/${table}/result`).map((m) => m.payload.seq as number);
      const seqs2 = e2.got.filter((m) => m.topic === `casino/${table}/result`).map((m) => m.payload.seq as number);
      expect(seqs1).toEqual([...seqs1].sort((a, b) => a - b));
      expect(seqs2).toEqual([...seqs2].sort((a, b) => a - b));
      expect(seqs1.filter((s) => seqs2.includes(s))).toEqual([]);
      const all = [...seqs1, ...seqs2].sort((a, b) => a - b);
      if (table === 'sh-01') expect(all).toEqual(resultsOf(sharded.got, table).map((r) => r.seq));
    }
    expect(e1.got.length).toBeGreaterThan(0);
    expect(e2.got.length).toBeGreaterThan(0);
  }, 60_000);
});
