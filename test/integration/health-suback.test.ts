/**
 * The first `health` after a connect and the request subscription (docs/OPERATIONS.md "Health"):
 * while the SUBACK is on its way the health waits for it (up to 2 s), then says `subscribing`; it
 * never reports a refusal the broker did not make. A real aedes broker that answers the request
 * subscription late.
 */
import { createServer, type AddressInfo } from 'node:net';
import { Aedes } from 'aedes';
import { afterEach, describe, expect, it } from 'vitest';
import { startGateway } from '../../src/app/gateway.js';
import { loadSimulators } from '../../simulators/load.js';
import { makeTempDir } from '../../dev/rig/temp-dir.js';
import { capturingLogger, floorConfig, subscriber } from '../helpers/floor.js';

describe('the first health and a SUBACK on its way', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanup.reverse()) await c().catch(() => {});
    cleanup.length = 0;
  });

  async function lateSubackBroker(delayMs: number): Promise<string> {
    const broker = await Aedes.createBroker();
    broker.authorizeSubscribe = (_client, sub, cb) => {
      if (sub.topic.includes('/request/')) setTimeout(() => cb(null, sub), delayMs);
      else cb(null, sub);
    };
    const server = createServer((socket) => broker.handle(socket));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    cleanup.push(
      () =>
        new Promise<void>((r) => {
          broker.close(() => server.close(() => r()));
          setTimeout(r, 1_000).unref();
        }),
    );
    return `mqtt://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async function firstHealth(delayMs: number, table: string): Promise<{ problems: string[]; status: string }> {
    const url = await lateSubackBroker(delayMs);
    const sub = await subscriber(url, `${table}-sub`, `casino/${table}/health`);
    cleanup.push(() => sub.close());
    const { log } = capturingLogger();
    const gw = await startGateway(floorConfig({ url, protocolVersion: 4, dataDir: await makeTempDir('teg-hs-'), tables: [table], cardIntervalMs: 200 }), {
      simulators: loadSimulators,
      logger: log,
    });
    cleanup.push(() => gw.stop());
    const m = await sub.waitFor((x) => x.topic === `casino/${table}/health`, 15_000, 'the first health');
    return m.payload;
  }

  it('a SUBACK within 2 s: the first health waits for it and says nothing about the subscription', async () => {
    const h = await firstHealth(800, 'hs-01');
    expect(h.problems.filter((p) => p.includes('subscri'))).toEqual([]);
  }, 30_000);

  it('a SUBACK later than 2 s: the first health says subscribing, not refused', async () => {
    const h = await firstHealth(4_000, 'hs-02');
    expect(h.status).toBe('degraded');
    expect(h.problems).toContain('requests are not subscribed yet (subscribing: the SUBACK is on its way)');
    expect(h.problems.join('; ')).not.toMatch(/refused/);
  }, 30_000);
});
