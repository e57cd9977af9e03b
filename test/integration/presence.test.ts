/**
 * Presence that tells the truth (mqtt-api.md v1.2, docs/ENGINES.md "Presence"), on a real
 * Mosquitto: a table's retained `status` says `online` with `reason: start` on the first
 * connection of a run and `reconnect` after a broker restart or a lost connection (the same
 * `startedAt`: nothing was lost); the last will says `offline` with `reason: connection-lost`;
 * a clean stop says `stopped`. Every status is valid against the API schema.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Socket } from 'node:net';
import { TableLink } from '../../src/adapters/mqtt/table-link.js';
import { validateMessage } from '../../src/core/table/messages.js';
import { silentLogger } from '../../src/runtime/log.js';
import { startMosquitto } from '../../dev/rig/mosquitto.js';
import { recordMqtt, type RecordedMessage } from '../../dev/rig/mqtt-recorder.js';
import { realIoOrSkip } from '../helpers/real-io.js';

const io = realIoOrSkip('mosquitto');

describe.skipIf(!io.available)('table presence on a real Mosquitto', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanup.reverse()) await c().catch(() => {});
    cleanup.length = 0;
  });

  for (const protocolVersion of [5, 4] as const) {
    it(`MQTT ${protocolVersion === 5 ? '5' : '3.1.1'}: start, a lost connection (the will), a reconnect and a broker restart, a clean stop are told apart`, async () => {
      const broker = await startMosquitto();
      cleanup.push(() => broker.stop());
      const startedAt = '2026-12-07T00:00:00.000Z';
      const link = new TableLink({
        url: broker.url,
        tableId: 'pr-01',
        gameId: 'baccarat',
        topicPrefix: 'casino',
        clientIdPrefix: 'pr-',
        protocolVersion,
        keepaliveSec: 30,
        reconnectMinMs: 100,
        reconnectMaxMs: 500,
        logger: silentLogger,
        startedAt,
        sessionExpirySec: 60,
      });
      cleanup.push(() => link.close());
      const rec = await recordMqtt(broker.url, 'casino/pr-01/status');
      cleanup.push(() => rec.close());
      const statuses = () => rec.messages.map((m: RecordedMessage) => `${m.payload.state}/${m.payload.reason}`);
      link.connect();
      await rec.waitFor((m) => m.payload?.state === 'online');

      // the connection dies without a DISCONNECT: the broker publishes the will; the link comes back
      const client = (link as unknown as { client: { stream: Socket } }).client;
      client.stream.destroy();
      await rec.waitForCount((m) => m.payload?.state === 'online', 2, 10_000);

      // the broker restarts: the same run connects again
      await broker.restart();
      const rec2 = await recordMqtt(broker.url, 'casino/pr-01/status');
      cleanup.push(() => rec2.close());
      const back = await rec2.waitFor((m) => m.payload?.state === 'online', 10_000);
      expect(back.payload).toMatchObject({ state: 'online', reason: 'reconnect', startedAt });

      await link.close();
      const stopped = await rec2.waitFor((m) => m.payload?.state === 'offline', 5_000);
      expect(stopped.payload).toMatchObject({ state: 'offline', reason: 'stopped', startedAt });

      expect(statuses().slice(0, 3)).toEqual(['online/start', 'offline/connection-lost', 'online/reconnect']);
      for (const m of [...rec.messages, ...rec2.messages]) {
        expect(m.payload.startedAt).toBe(startedAt);
        expect(validateMessage('status', m.payload)).toEqual([]);
      }
    }, 40_000);
  }
});
