/**
 * The request path against a real Mosquitto (MQTT 5), where the broker's behaviour is the point
 * (mqtt-api.md, "Rules a request path must keep"):
 * - a response topic with a wildcard (`x/#`) used to make the gateway publish on an invalid topic,
 *   Mosquitto disconnected it, and the outbox resent the message on every reconnect: now it is
 *   refused `not-allowed`, answered on `response/<command>` only, and the link stays up;
 * - the response topic is no confused deputy: `casino/<table>/result` or `request/void-round`
 *   are refused the same way; an allowed prefix is honoured;
 * - a retained request is not executed on (re)subscribe; clearing it (an empty retained
 *   payload, delivered live) is answered `not-an-object` and runs nothing;
 * - a message the broker refuses (ACL: PUBACK "not authorized") is quarantined with a critical
 *   alert instead of blocking the outbox: what follows is delivered.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/app/config/load-config.js';
import { startGateway, type Gateway } from '../../src/app/gateway.js';
import { loadSimulators } from '../../simulators/load.js';
import { createLogger } from '../../src/runtime/log.js';
import { startMosquitto, type MosquittoBroker } from '../../dev/rig/mosquitto.js';
import { recordMqtt, type MqttRecorder } from '../../dev/rig/mqtt-recorder.js';
import { createPtyPair, type PtyPair } from '../../dev/rig/pty-pair.js';
import { realIoOrSkip } from '../helpers/real-io.js';
import { ReferenceShoe } from '../helpers/reference-shoe.js';
import { makeTempDir, removeTempDir } from '../../dev/rig/temp-dir.js';

const io = realIoOrSkip(['socat', 'mosquitto']);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const T = 'rq-01';

describe.skipIf(!io.available)('the request path on a real Mosquitto (MQTT 5)', () => {
  let broker: MosquittoBroker;
  let rec: MqttRecorder;
  let engine: MqttClient;
  let pty: PtyPair;
  let gw: Gateway | undefined;
  let dataDir: string;
  const lines: string[] = [];
  const offlines = () => rec.messages.filter((m) => m.topic === `casino/${T}/status` && m.payload?.state === 'offline').length;

  beforeAll(async () => {
    dataDir = await makeTempDir('teg-rq-');
    const acl = join(dataDir, 'acl');
    // the gateway may not publish its events (a site's ACL mistake): the broker refuses them
    writeFileSync(acl, `topic readwrite #\ntopic deny casino/${T}/events\n`, { mode: 0o644 });
    chmodSync(dataDir, 0o755); // mosquitto drops to its own user before it reads the file
    broker = await startMosquitto({ extraConfig: `acl_file ${acl}` });
    pty = await createPtyPair();
    rec = await recordMqtt(broker.url, ['casino/#', 'engines/#', 'x/#']);
    engine = await mqtt.connectAsync(broker.url, { protocolVersion: 5, clientId: 'engine-rq' });
    // a stale retained request waits on the broker before the gateway starts
    await engine.publishAsync(`casino/${T}/request/new-shoe`, JSON.stringify({ transaction: 'stale' }), { qos: 1, retain: true });
    const cfg = validateConfig({
      mqtt: { url: broker.url },
      dataDir,
      http: { enabled: false },
      health: { intervalMs: 0 },
      requests: { responseTopicPrefixes: ['engines/e1/'] },
      tables: [
        {
          id: T,
          game: 'baccarat',
          betting: 'engine',
          devices: [{ id: 'shoe-1', kind: 'card-shoe', staleAfterMs: 60_000, transport: { type: 'serial', path: pty.gatewayPath } }],
        },
      ],
    });
    gw = await startGateway(cfg, { simulators: loadSimulators, logger: createLogger({ json: true, write: (l) => lines.push(l) }) });
    await rec.waitFor((m) => m.topic === `casino/${T}/status` && m.payload?.state === 'online');
    await sleep(500); // the link subscribes to requests right after it connects
  });

  afterAll(async () => {
    await gw?.stop();
    await engine?.endAsync(true);
    await rec?.close();
    await pty?.dispose();
    await broker?.stop();
    if (dataDir) await removeTempDir(dataDir);
  });

  const request = (command: string, payload: string, properties?: mqtt.IClientPublishOptions['properties'], retain = false) =>
    engine.publishAsync(`casino/${T}/request/${command}`, payload, { qos: 1, retain, ...(properties ? { properties } : {}) });
  const answerTo = (command: string, transaction: string) =>
    rec.waitFor((m) => m.topic === `casino/${T}/response/${command}` && m.payload?.transaction === transaction, 5000);

  it('a retained request is not executed when the gateway subscribes; clearing it is answered not-an-object', async () => {
    expect(rec.messages.some((m) => m.topic === `casino/${T}/response/new-shoe`)).toBe(false);
    expect(lines.some((l) => l.includes('a retained request/new-shoe was delivered'))).toBe(true);
    await request('new-shoe', '', undefined, true); // the usual way to clear a retained message
    const cleared = await rec.waitFor((m) => m.topic === `casino/${T}/response/new-shoe`);
    expect(cleared.payload).toMatchObject({ status: 'error', code: 'not-an-object', transaction: null });
    await sleep(300);
    expect(rec.messages.filter((m) => m.topic === `casino/${T}/response/new-shoe`)).toHaveLength(1);
    expect(rec.messages.some((m) => m.topic === `casino/${T}/shoe` && m.payload?.state === 'burning')).toBe(false);
  });

  it('a wildcard response topic is refused not-allowed and the gateway stays connected', async () => {
    await request('status', JSON.stringify({ transaction: 'wild' }), { responseTopic: 'x/#', correlationData: Buffer.from('c1') });
    const a = await answerTo('status', 'wild');
    expect(a.payload).toMatchObject({ status: 'error', code: 'not-allowed', error: expect.stringMatching(/wildcard/) });
    // still up: the next request is answered, no offline status, no reconnect in the log
    await request('status', JSON.stringify({ transaction: 'after-wild' }));
    expect((await answerTo('status', 'after-wild')).payload).toMatchObject({ status: 'ok' });
    await sleep(1500);
    expect(offlines()).toBe(0);
    expect(lines.some((l) => /connection to .* lost/.test(l))).toBe(false);
    expect(rec.messages.some((m) => m.topic.startsWith('x/'))).toBe(false);
  });

  it('is no confused deputy: table topics as response topics are refused; an allowed prefix is honoured', async () => {
    for (const [i, topic] of [`casino/${T}/result`, `casino/${T}/request/void-round`, `casino/${T}/devices/shoe-1`].entries()) {
      await request('status', JSON.stringify({ transaction: `deputy-${i}` }), { responseTopic: topic });
      expect((await answerTo('status', `deputy-${i}`)).payload).toMatchObject({ status: 'error', code: 'not-allowed' });
    }
    await sleep(300);
    expect(rec.messages.filter((m) => m.topic === `casino/${T}/result` || m.topic === `casino/${T}/request/void-round`)).toEqual([]);
    await request('status', JSON.stringify({ transaction: 'allowed' }), { responseTopic: 'engines/e1/replies', correlationData: Buffer.from('c2') });
    const there = await rec.waitFor((m) => m.topic === 'engines/e1/replies');
    expect(there.payload).toMatchObject({ status: 'ok', transaction: 'allowed' });
  });

  it('commands named like inherited properties get one unknown-command answer each', async () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      await request(name, JSON.stringify({ transaction: `inh-${name}` }));
      expect((await answerTo(name, `inh-${name}`)).payload).toMatchObject({ status: 'error', code: 'unknown-command' });
    }
    expect(lines.some((l) => /TypeError|at .*\.ts:\d+/.test(l))).toBe(false);
  });

  it('a round id is used once: a repeat is refused duplicate-round-id', async () => {
    await request('open-betting', JSON.stringify({ transaction: 'o1', roundId: 'E-1' }));
    expect((await answerTo('open-betting', 'o1')).payload).toMatchObject({ status: 'ok', data: { roundId: 'E-1' } });
    await request('void-round', JSON.stringify({ transaction: 'v1', reason: 'test' }));
    expect((await answerTo('void-round', 'v1')).payload).toMatchObject({ status: 'ok' });
    await request('open-betting', JSON.stringify({ transaction: 'o2', roundId: 'E-1' }));
    expect((await answerTo('open-betting', 'o2')).payload).toMatchObject({ status: 'error', code: 'duplicate-round-id' });
    await request('open-betting', JSON.stringify({ transaction: 'o3', roundId: `${T}-s0001-r0009` }));
    expect((await answerTo('open-betting', 'o3')).payload).toMatchObject({ status: 'error', code: 'duplicate-round-id' });
  });

  it('a message the broker refuses is quarantined with a critical alert; what follows is delivered', async () => {
    rec.clear();
    // a card event: the ACL refuses casino/<table>/events, the round snapshot behind it must arrive
    await request('open-betting', JSON.stringify({ transaction: 'o4', roundId: 'E-2' }));
    await answerTo('open-betting', 'o4');
    await request('close-betting', JSON.stringify({ transaction: 'c4' }));
    await answerTo('close-betting', 'c4');
    await new ReferenceShoe(pty).send('CARD', 'AS');
    const alert = await rec.waitFor((m) => m.topic === `casino/${T}/alerts` && m.payload?.kind === 'message-quarantined', 8000);
    expect(alert.payload).toMatchObject({ severity: 'critical', topic: 'events', quarantinedSeq: expect.any(Number) });
    expect(alert.payload.detail).toMatch(/the broker refused it \(reason code 0x87/);
    await request('status', JSON.stringify({ transaction: 'after-refusal' }));
    expect((await answerTo('status', 'after-refusal')).payload).toMatchObject({ status: 'ok' });
    expect(offlines()).toBe(0);
    // nothing is stuck: the outbox drains (the last PUBACKs may still be on their way)
    for (let i = 0; i < 50 && gw!.tables[0].outbox.depth > 0; i++) await sleep(100);
    expect(gw!.tables[0].outbox.depth).toBe(0);
  });
});
