import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { startMosquitto, type MosquittoBroker } from '../../dev/rig/mosquitto.js';
import { recordMqtt, type MqttRecorder } from '../../dev/rig/mqtt-recorder.js';
import { realIoOrSkip } from '../helpers/real-io.js';

const broker = realIoOrSkip('mosquitto');

async function connectPublisher(url: string) {
  const client = await mqtt.connectAsync(url, { reconnectPeriod: 200 });
  (client.stream as any)?.setNoDelay?.(true);
  client.on('connect', () => (client.stream as any)?.setNoDelay?.(true));
  client.on('error', () => {});
  return client;
}

describe.skipIf(!broker.available)('mosquitto + mqtt recorder helpers', () => {
  let mosq: MosquittoBroker;
  let rec: MqttRecorder;

  beforeAll(async () => {
    mosq = await startMosquitto();
    rec = await recordMqtt(mosq.url, 'tables/#');
  });

  afterAll(async () => {
    await rec?.close();
    await mosq?.stop();
  });

  it('starts on a free loopback port', () => {
    expect(mosq.port).toBeGreaterThan(0);
    expect(mosq.port).not.toBe(1883);
    expect(mosq.url).toBe(`mqtt://127.0.0.1:${mosq.port}`);
  });

  it('records JSON and non-JSON payloads, retain flags and filters topics', async () => {
    const pub = await connectPublisher(mosq.url);
    try {
      await pub.publishAsync('tables/t1/events', JSON.stringify({ type: 'card', rank: 'A' }), { qos: 1 });
      await pub.publishAsync('other/ignored', 'x', { qos: 1 });
      await pub.publishAsync('tables/t1/status', 'online', { qos: 1, retain: true });

      const card = await rec.waitFor((m) => m.topic === 'tables/t1/events');
      expect(card.payload).toEqual({ type: 'card', rank: 'A' });
      expect(card.raw).toBe('{"type":"card","rank":"A"}');
      expect(card.retain).toBe(false);

      const status = await rec.waitFor((m) => m.topic === 'tables/t1/status');
      expect(status.payload).toBe('online');
      expect(rec.messages.some((m) => m.topic === 'other/ignored')).toBe(false);

      // waitFor also sees already-received messages
      const again = await rec.waitFor((m) => m.topic === 'tables/t1/events', 100);
      expect(again).toBe(card);

      // a late subscriber gets the retained message with retain=true
      const late = await recordMqtt(mosq.url, 'tables/+/status');
      try {
        const retained = await late.waitFor((m) => m.topic === 'tables/t1/status');
        expect(retained.retain).toBe(true);
      } finally {
        await late.close();
      }

      for (let i = 0; i < 5; i++) await pub.publishAsync('tables/t2/seq', JSON.stringify({ i }), { qos: 1 });
      const seq = await rec.waitForCount((m) => m.topic === 'tables/t2/seq', 5);
      expect(seq.map((m) => m.payload.i)).toEqual([0, 1, 2, 3, 4]);
    } finally {
      await pub.endAsync();
    }
  });

  it('times out with the recent topics listed', async () => {
    rec.clear();
    expect(rec.messages).toHaveLength(0);
    const pub = await connectPublisher(mosq.url);
    await pub.publishAsync('tables/t9/noise', '1', { qos: 1 });
    await rec.waitFor((m) => m.topic === 'tables/t9/noise');
    await pub.endAsync();
    await expect(rec.waitFor((m) => m.topic === 'never', 200)).rejects.toThrow(/tables\/t9\/noise/);
  });

  it('restart() comes back on the same port and clients reconnect', async () => {
    const port = mosq.port;
    await mosq.restart();
    expect(mosq.port).toBe(port);
    rec.clear();
    const pub = await connectPublisher(mosq.url);
    try {
      // The recorder reconnects (and resubscribes) on its own after the restart.
      const deadline = Date.now() + 10_000;
      let got = false;
      while (!got && Date.now() < deadline) {
        await pub.publishAsync('tables/t1/after-restart', '{"ok":true}', { qos: 1 });
        got = await rec
          .waitFor((m) => m.topic === 'tables/t1/after-restart', 300)
          .then(
            () => true,
            () => false,
          );
      }
      expect(got).toBe(true);
    } finally {
      await pub.endAsync();
    }
  });

  it('runs a second independent broker with extra config', async () => {
    const other = await startMosquitto({ extraConfig: 'max_inflight_messages 10' });
    try {
      expect(other.port).not.toBe(mosq.port);
      const r = await recordMqtt(other.url);
      const pub = await connectPublisher(other.url);
      await pub.publishAsync('x/y', '[1,2]');
      expect((await r.waitFor((m) => m.topic === 'x/y')).payload).toEqual([1, 2]);
      await pub.endAsync();
      await r.close();
    } finally {
      await other.stop();
    }
  });
});
