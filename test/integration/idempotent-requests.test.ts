/**
 * Exactly-once requests across a gateway restart, on a real Mosquitto (mqtt-api.md v1.2): the
 * table's MQTT session outlives the gateway (MQTT 5 clean start off with a session expiry, and
 * 3.1.1 clean session off), so QoS 1 requests an engine sends while the gateway is down are
 * queued by the broker and answered once when it is back; a retry after the restart gets the same
 * answer again (`replayed: true`), not a second execution or `duplicate-round-id`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/app/config/load-config.js';
import { startGateway, type Gateway } from '../../src/app/gateway.js';
import { silentLogger } from '../../src/runtime/log.js';
import { subscriber, until, type Subscriber } from '../helpers/floor.js';
import { startMosquitto } from '../../dev/rig/mosquitto.js';
import { createPtyPair } from '../../dev/rig/pty-pair.js';
import { realIoOrSkip } from '../helpers/real-io.js';
import { makeTempDir } from '../../dev/rig/temp-dir.js';

const io = realIoOrSkip(['mosquitto', 'socat']);

describe.skipIf(!io.available)('idempotent requests across a gateway restart (Mosquitto)', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanup.reverse()) await c().catch(() => {});
    cleanup.length = 0;
  });

  for (const protocolVersion of [5, 4] as const) {
    it(`MQTT ${protocolVersion === 5 ? '5' : '3.1.1'}: requests sent while the gateway is down are answered once after it restarts; a retry gets the same answer, replayed`, async () => {
      const T = `idem-${protocolVersion}`;
      const broker = await startMosquitto();
      cleanup.push(() => broker.stop());
      const pty = await createPtyPair();
      cleanup.push(() => pty.dispose());
      const cfg = validateConfig({
        mqtt: { url: broker.url, protocolVersion, reconnectMinMs: 200, reconnectMaxMs: 1_000, sessionExpirySec: 300 },
        dataDir: await makeTempDir('teg-idem-data-'),
        http: { enabled: false },
        health: { intervalMs: 0 },
        tables: [
          {
            id: T,
            game: 'baccarat',
            betting: 'engine',
            devices: [{ id: 'shoe-1', kind: 'card-shoe', staleAfterMs: 600_000, transport: { type: 'serial', path: pty.gatewayPath } }],
          },
        ],
      });
      let gw: Gateway | null = await startGateway(cfg, { logger: silentLogger });
      cleanup.push(async () => {
        await gw?.stop();
      });
      const engine: Subscriber = await subscriber(broker.url, `engine-${T}`, `casino/${T}/response/#`, { protocolVersion, clean: true });
      cleanup.push(() => engine.close());
      const send = (command: string, body: Record<string, unknown>) =>
        engine.client.publishAsync(`casino/${T}/request/${command}`, JSON.stringify(body), { qos: 1 });
      // the engine's dedupe rule: a seq seen before is the same message again (the outbox delivers at least once)
      const answersTo = (tx: string) => [
        ...new Map(engine.got.filter((m) => m.payload?.transaction === tx && !seen.has(m.payload.seq)).map((m) => [m.payload.seq, m.payload])).values(),
      ];
      const seen = new Set<number>();

      // the gateway is up: one round opened and closed, answered
      await until(() => gw!.tables[0]?.snapshot !== undefined, 5_000, 'the table');
      for (let i = 0; i < 100 && answersTo('e-1').length === 0; i++) {
        if (i % 10 === 0) await send('open-betting', { transaction: 'e-1', roundId: `R-${T}-1` });
        await new Promise((r) => setTimeout(r, 50));
      }
      await until(() => answersTo('e-1').length >= 1, 10_000, 'the first answer');
      const firstOpen = answersTo('e-1')[0];
      expect(firstOpen).toMatchObject({ status: 'ok', data: { roundId: `R-${T}-1` } });
      for (const m of engine.got) seen.add(m.payload.seq);
      engine.got.length = 0;

      // the gateway stops; the engine goes on sending (QoS 1: the broker queues them in the table's session)
      await gw.stop();
      gw = null;
      await send('close-betting', { transaction: 'e-2' });
      await send('void-round', { transaction: 'e-3', reason: 'test: voided while the gateway was down' });
      await send('open-betting', { transaction: 'e-4', roundId: `R-${T}-2` });
      await new Promise((r) => setTimeout(r, 300));
      expect(engine.got).toEqual([]);

      // back: each queued request is answered, once, in order
      gw = await startGateway(cfg, { logger: silentLogger });
      await until(() => ['e-2', 'e-3', 'e-4'].every((tx) => answersTo(tx).length >= 1), 15_000, 'answers to the requests queued while the gateway was down');
      expect(answersTo('e-2')[0]).toMatchObject({ status: 'ok', command: 'close-betting' });
      expect(answersTo('e-3')[0]).toMatchObject({ status: 'ok', command: 'void-round' });
      expect(answersTo('e-4')[0]).toMatchObject({ status: 'ok', command: 'open-betting', data: { roundId: `R-${T}-2` } });

      // retries after the restart: the first answers again, replayed; nothing is executed twice
      await send('open-betting', { transaction: 'e-1', roundId: `R-${T}-1` });
      await send('open-betting', { transaction: 'e-4', roundId: `R-${T}-2` });
      await until(() => answersTo('e-1').length >= 1 && answersTo('e-4').length >= 2, 10_000, "the retries' answers");
      expect(answersTo('e-1')[0]).toMatchObject({ status: 'ok', data: firstOpen.data, replayed: true, replayOf: firstOpen.seq });
      expect(answersTo('e-4')[1]).toMatchObject({ status: 'ok', data: answersTo('e-4')[0].data, replayed: true, replayOf: answersTo('e-4')[0].seq });
      // a reused transaction with another body is refused, never answered with the other's answer
      await send('close-betting', { transaction: 'e-4' });
      await until(() => answersTo('e-4').length >= 3, 10_000, 'the refusal');
      expect(answersTo('e-4')[2]).toMatchObject({ status: 'error', code: 'transaction-reused', command: 'close-betting' });

      await new Promise((r) => setTimeout(r, 500)); // nothing more may come
      for (const tx of ['e-2', 'e-3']) expect(answersTo(tx), tx).toHaveLength(1);
      expect(answersTo('e-4')).toHaveLength(3);
      expect(answersTo('e-1')).toHaveLength(1);
      // the round R-2 is the one in progress: opened once
      expect(gw.tables[0].snapshot.round).toMatchObject({ id: `R-${T}-2` });
    }, 60_000);
  }
});
