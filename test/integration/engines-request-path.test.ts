/**
 * Several engine instances on one table's request path (docs/SCALING.md "Engines that share the
 * load"): each engine asks with its own MQTT 5 response topic and correlation data, interleaved
 * with the others; every engine gets an answer to each of its requests, exactly once, and never
 * one meant for another engine.
 */
import { describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../../src/app/gateway.js';
import { loadSimulators } from '../../simulators/load.js';
import { silentLogger } from '../../src/runtime/log.js';
import { floorConfig, subscriber, until, type Subscriber } from '../helpers/floor.js';
import { startMosquitto } from '../../dev/rig/mosquitto.js';
import { realIoOrSkip } from '../helpers/real-io.js';
import { makeTempDir } from '../../dev/rig/temp-dir.js';
import { stopsAfterEach } from '../helpers/cleanup.js';

const io = realIoOrSkip('mosquitto');
const T = 'er-01';
const ENGINES = ['engine-a', 'engine-b', 'engine-c'];
const PER_ENGINE = 25;

describe.skipIf(!io.available)('several engines on one request path (Mosquitto, MQTT 5)', () => {
  const cleanup = stopsAfterEach();

  it('each engine gets exactly its own answers, once each, on its own response topic', async () => {
    const broker = await startMosquitto();
    cleanup.push(() => broker.stop());
    const cfg = floorConfig({ url: broker.url, dataDir: await makeTempDir('teg-er-data-'), tables: [T], protocolVersion: 5 });
    cfg.requests.responseTopicPrefixes = ['engines/'];
    const gw: Gateway = await startGateway(cfg, { simulators: loadSimulators, logger: silentLogger, simulatorShoes: 1 });
    cleanup.push(() => gw.stop());
    const engines: Subscriber[] = [];
    for (const id of ENGINES) {
      const e = await subscriber(broker.url, id, `engines/${id}/replies/#`, { protocolVersion: 5, clean: true });
      cleanup.push(() => e.close());
      engines.push(e);
    }
    const ready = await subscriber(broker.url, 'er-watch', `casino/${T}/status`, { protocolVersion: 5, clean: true });
    cleanup.push(() => ready.close());
    await ready.waitFor((m) => m.payload?.state === 'online', 20_000, 'the table online');

    // interleaved: request k of every engine before request k+1 of any
    for (let k = 0; k < PER_ENGINE; k++) {
      ENGINES.forEach((id, i) => {
        engines[i].client.publish(`casino/${T}/request/open-betting`, JSON.stringify({}), {
          qos: 1,
          properties: { responseTopic: `engines/${id}/replies/open-betting`, correlationData: Buffer.from(`${id}#${k}`) },
        });
      });
    }
    await until(() => engines.every((e) => e.got.length >= PER_ENGINE), 20_000, 'every engine answered');
    await new Promise((r) => setTimeout(r, 500)); // nothing more may come

    ENGINES.forEach((id, i) => {
      const got = engines[i].got;
      expect(got.every((m) => m.topic === `engines/${id}/replies/open-betting`)).toBe(true);
      const correlations = got.map((m) => m.correlation);
      expect(correlations.sort()).toEqual(Array.from({ length: PER_ENGINE }, (_, k) => `${id}#${k}`).sort());
      // every answer is a real answer of the table: a response with a status (here refused: this table deals on its own)
      for (const m of got) expect(m.payload).toMatchObject({ type: 'response', table: T, status: 'error', code: expect.any(String) });
    });
  }, 60_000);
});
