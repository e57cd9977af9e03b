/**
 * The link checks its SUBACK (docs/SCALING.md): a broker that refuses the `request/+` subscription
 * (SUBACK 0x80) leaves the table connected but not
 * ready, logged once, and retried with backoff. The backoff itself: exponential with jitter.
 */
import { createServer, type AddressInfo } from 'node:net';
import { Aedes } from 'aedes';
import { afterEach, describe, expect, it } from 'vitest';
import { backoffDelay, TableLink } from '../../src/adapters/mqtt/table-link.js';
import { capturingLogger, until } from '../helpers/floor.js';

describe('reconnect backoff', () => {
  it('doubles per failed round up to the cap, with 50-100 % jitter', () => {
    expect(backoffDelay(1, 500, 30_000, () => 1)).toBe(500);
    expect(backoffDelay(2, 500, 30_000, () => 1)).toBe(1_000);
    expect(backoffDelay(5, 500, 30_000, () => 1)).toBe(8_000);
    expect(backoffDelay(20, 500, 30_000, () => 1)).toBe(30_000);
    expect(backoffDelay(20, 500, 30_000, () => 0)).toBe(15_000);
    for (let i = 0; i < 100; i++) {
      const d = backoffDelay(3, 500, 30_000);
      expect(d).toBeGreaterThanOrEqual(1_000);
      expect(d).toBeLessThanOrEqual(2_000);
    }
  });
});

describe('SUBACK checked (a real aedes broker that refuses the first subscriptions)', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanup.reverse()) await c().catch(() => {});
    cleanup.length = 0;
  });

  it('a refused request subscription (0x80) leaves the table connected but not ready, logged once, retried until granted', async () => {
    // Mosquitto 2.0 grants a subscription its ACL denies (and delivers nothing); aedes refuses it
    // with 0x80 like NATS does right after a node loss
    const broker = await Aedes.createBroker();
    let refusals = 3;
    broker.authorizeSubscribe = (_client, sub, cb) => {
      if (sub.topic.includes('/request/') && refusals-- > 0)
        cb(null, null); // null: SUBACK 0x80
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
    const url = `mqtt://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { log, lines } = capturingLogger();
    const link = new TableLink({
      url,
      tableId: 'acl-01',
      gameId: 'baccarat',
      topicPrefix: 'casino',
      clientIdPrefix: 'acl-',
      protocolVersion: 4,
      keepaliveSec: 30,
      reconnectMinMs: 200,
      reconnectMaxMs: 1_000,
      logger: log,
    });
    cleanup.push(() => link.close());
    link.connect();
    await until(() => lines.some((l) => l.includes('refused the subscription')), 10_000, 'the refusal logged');
    expect(link.connected).toBe(true);
    expect(link.requestsSubscribed).toBe(false);
    expect(link.broker).toBe(url);
    await until(() => link.requestsSubscribed, 20_000, 'the subscription granted at last');
    expect(lines.filter((l) => l.includes('refused the subscription')).length).toBe(1);
    expect(lines.join('\n')).toMatch(/subscribed to casino\/acl-01\/request\/\+ after 4 attempts/);
  }, 30_000);
});
