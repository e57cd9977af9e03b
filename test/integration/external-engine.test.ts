/**
 * A simulated `betting: engine` table left to an engine of one's own (`transport.engine:
 * external`): the virtual dealer sends no betting request; it deals each round once the external
 * engine opened and closed betting, and the results carry the engine's round ids. Real broker
 * (the embedded one), real gateway; the engine is a plain MQTT client.
 */
import mqtt from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { type ConfigError, validateConfig } from '../../src/app/config/load-config.js';
import { startGateway, type Gateway } from '../../src/app/gateway.js';
import { loadSimulators } from '../../simulators/load.js';
import { silentLogger } from '../../src/runtime/log.js';
import { startEmbeddedBroker } from '../../src/adapters/mqtt/embedded-broker.js';
import { makeTempDir } from '../../dev/rig/temp-dir.js';
import { until } from '../helpers/floor.js';

const table = (game: string, engine: 'virtual' | 'external', betting = 'engine') => ({
  id: `ext-${game}`.slice(0, 32),
  game,
  betting,
  devices: [{ id: 'shoe-1', kind: 'card-shoe', transport: { type: 'simulator', seed: `ext-${game}`, cardIntervalMs: 0, roundIntervalMs: 0, engine } }],
});

describe('a simulated table driven by an external engine', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanup.reverse()) await c().catch(() => {});
    cleanup.length = 0;
  });

  /** the gateway with one external-engine table on an embedded broker, and a plain MQTT engine subscribed to `suffixes` */
  async function externalTable(game: string, clientId: string, suffixes: string[]) {
    const broker = await startEmbeddedBroker('127.0.0.1', 0);
    cleanup.push(() => broker.close());
    const t = table(game, 'external');
    const cfg = validateConfig({
      mqtt: { url: broker.url, protocolVersion: 4 },
      dataDir: await makeTempDir('teg-ext-'),
      http: { enabled: false },
      health: { intervalMs: 0 },
      tables: [t],
    });
    // the embedded broker of the test is an external one to the gateway: speak 3.1.1 to it
    const gw: Gateway = await startGateway(cfg, { simulators: loadSimulators, logger: silentLogger, fast: true });
    cleanup.push(() => gw.stop());
    const engine = mqtt.connect(broker.url, { protocolVersion: 4, clientId, clean: true });
    cleanup.push(() => engine.endAsync(true));
    const got: Array<{ topic: string; payload: any }> = [];
    engine.on('message', (topic, p) => got.push({ topic, payload: JSON.parse(p.toString()) }));
    await new Promise<void>((resolve) => engine.once('connect', () => resolve()));
    await engine.subscribeAsync(
      suffixes.map((x) => `casino/${t.id}/${x}`),
      { qos: 1 },
    );
    let n = 0;
    /** a request with a transaction of this engine's (`<clientId>-<n>`), sent again every 500 ms until its answer */
    const ask = async (command: string, body: Record<string, unknown> = {}) => {
      const transaction = `${clientId}-${++n}`;
      for (let i = 0; i < 50; i++) {
        if (i % 10 === 0) await engine.publishAsync(`casino/${t.id}/request/${command}`, JSON.stringify({ transaction, ...body }), { qos: 1 });
        const a = got.find((m) => m.payload.type === 'response' && m.payload.transaction === transaction);
        if (a) return a.payload;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no answer to ${command}`);
    };
    return { got, ask };
  }

  it('the config allows it only with betting: engine and for games whose decisions do not change the deal', () => {
    const problems = (t: unknown) => {
      try {
        validateConfig({ tables: [t] });
        return [];
      } catch (e) {
        return (e as ConfigError).problems;
      }
    };
    expect(problems(table('baccarat', 'external'))).toEqual([]);
    expect(problems(table('three-card-poker', 'external'))).toEqual([]);
    expect(problems(table('baccarat', 'external', 'none'))[0]).toMatch(/transport\.engine: "external" .* needs betting: engine/);
    expect(problems(table('blackjack', 'external'))[0]).toMatch(/transport\.engine: "external" is not for blackjack/);
  });

  it('deals each round once the external engine opened and closed betting; the results carry its round ids', async () => {
    const { got, ask } = await externalTable('baccarat', 'my-engine', ['result', 'response/#', 'events']);

    // nothing is dealt before the engine opens a round
    await new Promise((r) => setTimeout(r, 500));
    expect(got.filter((m) => m.topic.endsWith('/events') && m.payload.kind === 'card' && m.payload.role !== 'burn' && m.payload.role !== 'reveal')).toEqual([]);

    for (const id of ['MY-1', 'MY-2', 'MY-3']) {
      expect(await ask('open-betting', { roundId: id })).toMatchObject({ status: 'ok', data: { roundId: id } });
      await new Promise((r) => setTimeout(r, 100));
      expect(await ask('close-betting')).toMatchObject({ status: 'ok' });
      await until(() => got.some((m) => m.topic.endsWith('/result') && m.payload.roundId === id), 10_000, `the result of ${id}`);
    }
    const results = got.filter((m) => m.topic.endsWith('/result')).map((m) => m.payload);
    expect(results.map((r) => [r.roundId, r.status])).toEqual([
      ['MY-1', 'complete'],
      ['MY-2', 'complete'],
      ['MY-3', 'complete'],
    ]);
    // every request came from this engine: the virtual engine sent none
    expect(got.filter((m) => m.payload.type === 'response').every((m) => String(m.payload.transaction).startsWith('my-engine-'))).toBe(true);
  }, 60_000);

  it("three card poker: the dealer waits for the engine's close-decisions before the result", async () => {
    const { got, ask } = await externalTable('three-card-poker', 'my-tcp-engine', ['result', 'response/#', 'round']);
    for (const id of ['TCP-1', 'TCP-2']) {
      expect(await ask('open-betting', { roundId: id })).toMatchObject({ status: 'ok' });
      await new Promise((r) => setTimeout(r, 100));
      expect(await ask('close-betting')).toMatchObject({ status: 'ok' });
      await until(
        () => got.some((m) => m.topic.endsWith('/round') && m.payload.roundId === id && m.payload.expect?.kind === 'close-decisions'),
        10_000,
        `${id} waiting for close-decisions`,
      );
      await new Promise((r) => setTimeout(r, 200));
      expect(got.some((m) => m.topic.endsWith('/result') && m.payload.roundId === id)).toBe(false);
      expect(await ask('close-decisions')).toMatchObject({ status: 'ok' });
      await until(() => got.some((m) => m.topic.endsWith('/result') && m.payload.roundId === id), 10_000, `the result of ${id}`);
    }
    const results = got.filter((m) => m.topic.endsWith('/result')).map((m) => [m.payload.roundId, m.payload.status]);
    expect(results).toEqual([
      ['TCP-1', 'complete'],
      ['TCP-2', 'complete'],
    ]);
  }, 60_000);
});
