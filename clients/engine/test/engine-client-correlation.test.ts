/**
 * Requests and their answers by MQTT 5 correlation data, on a real Mosquitto with a plain MQTT
 * client playing the gateway: over MQTT 5 every attempt of a request names the answer's own topic
 * as its response topic and carries the same correlation data, and the answer is taken by its
 * correlation data (an answer with the request's transaction but another request's correlation
 * data is not this request's); an answer without correlation data (a gateway on MQTT 3.1.1) is
 * taken by its transaction; over MQTT 3.1.1 nothing but the transaction is sent. And the real
 * gateway answers such a request once, on `response/<command>`, with its correlation data.
 */
import { join } from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { validateConfig } from '../../../src/app/config/load-config.js';
import { startGateway } from '../../../src/app/gateway.js';
import { loadSimulators } from '../../../simulators/load.js';
import { silentLogger } from '../../../src/runtime/log.js';
import { makeTempDir } from '../../../dev/rig/temp-dir.js';
import { startMosquitto } from '../../../dev/rig/mosquitto.js';
import { realIoOrSkip } from '../../../test/helpers/real-io.js';
import { until } from '../../../test/helpers/floor.js';
import { EngineClient, type ResponseMessage } from '../src/index.js';

const io = realIoOrSkip(['mosquitto']);

const answer = (seq: number, transaction: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    v: 1,
    type: 'response',
    table: 'tab-1',
    game: 'baccarat',
    seq,
    ts: new Date(0).toISOString(),
    command: 'open-betting',
    transaction,
    status: 'ok',
    data: { roundId: `R-${seq}` },
    ...extra,
  });

interface Seen {
  topic: string;
  body: Record<string, unknown>;
  responseTopic?: string;
  correlationData?: Buffer;
}

describe.skipIf(!io.available)('the engine client: answers by correlation data (Mosquitto)', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanup.reverse()) await c().catch(() => {});
    cleanup.length = 0;
  });

  /** a broker, and a plain MQTT 5 client in the gateway's place that records the requests */
  async function rig() {
    const broker = await startMosquitto();
    cleanup.push(() => broker.stop());
    const gw: MqttClient = await mqtt.connectAsync(broker.url, { clientId: 'fake-gateway', protocolVersion: 5 });
    cleanup.push(() => gw.endAsync(true));
    const requests: Seen[] = [];
    gw.on('message', (topic, p, packet) =>
      requests.push({
        topic,
        body: JSON.parse(p.toString()),
        responseTopic: packet.properties?.responseTopic,
        correlationData: packet.properties?.correlationData,
      }),
    );
    await gw.subscribeAsync('casino/tab-1/request/#', { qos: 1 });
    return { broker, gw, requests };
  }

  it('MQTT 5: the same correlation data on every attempt, the answer taken by it and not by a transaction alone', async () => {
    const { broker, gw, requests } = await rig();
    const engine = await EngineClient.connect({ url: broker.url, tables: ['tab-1'], runId: 'run-5' });
    cleanup.push(() => engine.close());

    const pending = engine.request('tab-1', 'open-betting', { roundId: 'R-1' }, { timeoutMs: 200, attempts: 5, backoffMs: 50 });
    let settled: ResponseMessage | null = null;
    void pending.then((a) => {
      settled = a;
    });
    await until(() => requests.length >= 2, 3_000, 'a retry');
    // every attempt: the same body, the answer's own topic as the response topic, the same 16 bytes of correlation data
    for (const r of requests) {
      expect(r.topic).toBe('casino/tab-1/request/open-betting');
      expect(r.body).toEqual({ roundId: 'R-1', transaction: 'run-5-1' });
      expect(r.responseTopic).toBe('casino/tab-1/response/open-betting');
      expect(r.correlationData).toHaveLength(16);
      expect(r.correlationData!.equals(requests[0].correlationData!)).toBe(true);
    }
    const responseTopic = requests[0].responseTopic!;
    // the same transaction, but another request's correlation data: not this request's answer
    await gw.publishAsync(responseTopic, answer(1, 'run-5-1'), { qos: 1, properties: { correlationData: Buffer.from('another request') } });
    await new Promise((r) => setTimeout(r, 300));
    expect(settled).toBeNull();
    // its own correlation data (whatever the transaction says): its answer
    await gw.publishAsync(responseTopic, answer(2, 'run-5-1', { replayed: true, replayOf: 1 }), {
      qos: 1,
      properties: { correlationData: requests[0].correlationData },
    });
    await expect(pending).resolves.toMatchObject({ seq: 2, transaction: 'run-5-1', replayed: true });

    // a second request has correlation data of its own
    const second = engine.request('tab-1', 'open-betting', { roundId: 'R-2' }, { timeoutMs: 2_000, attempts: 1 });
    await until(() => requests.some((r) => r.body.transaction === 'run-5-2'), 3_000, 'the second request');
    const r2 = requests.find((r) => r.body.transaction === 'run-5-2')!;
    expect(r2.correlationData!.equals(requests[0].correlationData!)).toBe(false);
    await gw.publishAsync(r2.responseTopic!, answer(3, 'run-5-2'), { qos: 1, properties: { correlationData: r2.correlationData } });
    await expect(second).resolves.toMatchObject({ seq: 3, transaction: 'run-5-2' });
  });

  it('MQTT 5: an answer without correlation data (a gateway on MQTT 3.1.1) is taken by its transaction and command', async () => {
    const { broker, gw, requests } = await rig();
    const engine = await EngineClient.connect({ url: broker.url, tables: ['tab-1'], runId: 'run-6' });
    cleanup.push(() => engine.close());
    const pending = engine.request('tab-1', 'open-betting', { roundId: 'R-1' }, { timeoutMs: 2_000, attempts: 1 });
    await until(() => requests.length >= 1, 3_000, 'the request');
    expect(requests[0].correlationData).toHaveLength(16);
    // another command's answer with the transaction is not it
    await gw.publishAsync('casino/tab-1/response/close-betting', answer(1, 'run-6-1', { command: 'close-betting', data: undefined }), { qos: 1 });
    await gw.publishAsync('casino/tab-1/response/open-betting', answer(2, 'run-6-1'), { qos: 1 });
    await expect(pending).resolves.toMatchObject({ seq: 2, command: 'open-betting', transaction: 'run-6-1' });
  });

  it('MQTT 3.1.1: no response topic, no correlation data; the answer is taken by its transaction', async () => {
    const { broker, gw, requests } = await rig();
    const engine = await EngineClient.connect({ url: broker.url, tables: ['tab-1'], runId: 'run-4', protocolVersion: 4 });
    cleanup.push(() => engine.close());
    const pending = engine.request('tab-1', 'open-betting', { roundId: 'R-1' }, { timeoutMs: 2_000, attempts: 1 });
    await until(() => requests.length >= 1, 3_000, 'the request');
    expect(requests[0]).toMatchObject({ topic: 'casino/tab-1/request/open-betting', body: { roundId: 'R-1', transaction: 'run-4-1' } });
    expect(requests[0].responseTopic).toBeUndefined();
    expect(requests[0].correlationData).toBeUndefined();
    await gw.publishAsync('casino/tab-1/response/open-betting', answer(1, 'another-transaction'), { qos: 1 });
    await gw.publishAsync('casino/tab-1/response/open-betting', answer(2, 'run-4-1'), { qos: 1 });
    await expect(pending).resolves.toMatchObject({ seq: 2, transaction: 'run-4-1' });
  });

  it("the real gateway: the answer is published once, on response/<command>, with the request's correlation data", async () => {
    const broker = await startMosquitto();
    cleanup.push(() => broker.stop());
    const dir = await makeTempDir('teg-client-corr-');
    const cfg = validateConfig({
      gatewayId: 'corr-it',
      mqtt: { url: broker.url, protocolVersion: 5 },
      dataDir: join(dir, 'data'),
      http: { enabled: false },
      health: { intervalMs: 0 },
      tables: [
        {
          id: 'tab-1',
          game: 'baccarat',
          betting: 'engine',
          devices: [
            { id: 'shoe-1', kind: 'card-shoe', transport: { type: 'simulator', seed: 'corr', cardIntervalMs: 0, roundIntervalMs: 0, engine: 'external' } },
          ],
        },
      ],
    });
    const spy = await mqtt.connectAsync(broker.url, { clientId: 'spy', protocolVersion: 5 });
    cleanup.push(() => spy.endAsync(true));
    const seen: Seen[] = [];
    spy.on('message', (topic, p, packet) =>
      seen.push({
        topic,
        body: JSON.parse(p.toString()),
        responseTopic: packet.properties?.responseTopic,
        correlationData: packet.properties?.correlationData,
      }),
    );
    await spy.subscribeAsync(['casino/tab-1/request/#', 'casino/tab-1/response/#'], { qos: 1 });
    const gw = await startGateway(cfg, { simulators: loadSimulators, logger: silentLogger, fast: true });
    cleanup.push(() => gw.stop());
    const engine = await EngineClient.connect({ url: broker.url, tables: ['tab-1'], runId: 'run-gw' });
    cleanup.push(() => engine.close());
    await engine.gateway((g) => g.gatewayId === 'corr-it' && g.state === 'online');

    const a = await engine.request('tab-1', 'status', {}, { timeoutMs: 3_000, attempts: 3 });
    expect(a).toMatchObject({ command: 'status', transaction: 'run-gw-1', status: 'ok' });
    await new Promise((r) => setTimeout(r, 300)); // a second copy, if any, would come now
    const request = seen.filter((m) => m.topic === 'casino/tab-1/request/status');
    const answers = seen.filter((m) => m.topic.startsWith('casino/tab-1/response/'));
    expect(request).toHaveLength(1);
    expect(request[0].correlationData).toHaveLength(16);
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({ topic: 'casino/tab-1/response/status', body: { seq: a.seq, transaction: 'run-gw-1' } });
    expect(answers[0].correlationData?.equals(request[0].correlationData!)).toBe(true);
  });
});
