/**
 * The gateway's own security measures end to end (docs/SECURITY.md), on a real Mosquitto and
 * socat pseudo-terminals:
 * - the device allow-list: a serial device not on `security.allowedDevices` is never opened, its
 *   state says why and a critical `device-not-allowed` alert is published; a listed one works;
 * - requests: over the rate limit or the size cap they are refused with a reason and a seq;
 * - signing: a replayed journal reproduces the signed results byte for byte.
 */
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { validateConfig } from '../../src/app/config/load-config.js';
import { startGateway, type Gateway } from '../../src/app/gateway.js';
import { loadSimulators } from '../../simulators/load.js';
import { createLogger } from '../../src/runtime/log.js';
import { GatewayStore } from '../../src/adapters/store/gateway-store.js';
import { replayTable } from '../../src/app/replay/replay-journal.js';
import { command as replayCommand } from '../../src/app/cli/commands/replay.js';
import { createEnvelopeSigner } from '../../src/adapters/security/signer.js';
import { verifyEnvelope } from '../../src/adapters/security/signing.js';
import { startMosquitto, type MosquittoBroker } from '../../dev/rig/mosquitto.js';
import { recordMqtt, type MqttRecorder } from '../../dev/rig/mqtt-recorder.js';
import { createPtyPair, type PtyPair } from '../../dev/rig/pty-pair.js';
import { realIoOrSkip } from '../helpers/real-io.js';
import { ReferenceShoe } from '../helpers/reference-shoe.js';
import { makeTempDir, removeTempDir } from '../../dev/rig/temp-dir.js';

const io = realIoOrSkip(['socat', 'mosquitto']);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!io.available)('device allow-list and request limits (real serial ptys and broker)', () => {
  let broker: MosquittoBroker;
  let rec: MqttRecorder;
  let listed: PtyPair;
  let unlisted: PtyPair;
  let gw: Gateway;
  let dataDir: string;
  const lines: string[] = [];

  beforeAll(async () => {
    broker = await startMosquitto();
    listed = await createPtyPair();
    unlisted = await createPtyPair();
    dataDir = await makeTempDir('teg-sec-');
    rec = await recordMqtt(broker.url, 'casino/#');
    const shoe = (path: string) => [{ id: 'shoe-1', kind: 'card-shoe', staleAfterMs: 60_000, transport: { type: 'serial', path } }];
    const cfg = validateConfig({
      mqtt: { url: broker.url },
      dataDir,
      http: { enabled: false },
      health: { intervalMs: 0 },
      security: { allowedDevices: [{ type: 'serial', path: listed.gatewayPath, note: 'the shoe of sec-ok' }] },
      requests: { ratePerSec: 1, burst: 3, maxPayloadBytes: 256 },
      tables: [
        { id: 'sec-ok', game: 'baccarat', betting: 'engine', devices: shoe(listed.gatewayPath) },
        { id: 'sec-bad', game: 'baccarat', devices: shoe(unlisted.gatewayPath) },
      ],
    });
    gw = await startGateway(cfg, { simulators: loadSimulators, logger: createLogger({ json: true, write: (l) => lines.push(l) }) });
  });

  afterAll(async () => {
    await gw?.stop();
    await rec?.close();
    await listed?.dispose();
    await unlisted?.dispose();
    await broker?.stop();
    if (dataDir) await removeTempDir(dataDir);
  });

  it('never opens a device that is not on the list: its state says why, a critical alert names it', async () => {
    const alert = await rec.waitFor((m) => m.topic === 'casino/sec-bad/alerts' && m.payload.kind === 'device-not-allowed');
    expect(alert.payload).toMatchObject({ type: 'alert', severity: 'critical', deviceId: 'shoe-1', path: unlisted.gatewayPath, seq: expect.any(Number) });
    expect(alert.payload.detail).toContain(`device shoe-1: ${unlisted.gatewayPath}`);
    expect(alert.payload.detail).toContain('is not on security.allowedDevices');
    const state = await rec.waitFor((m) => m.topic === 'casino/sec-bad/devices/shoe-1' && /^not allowed: /.test(m.payload.detail ?? ''));
    expect(state.payload).toMatchObject({ state: 'disconnected', kind: 'card-shoe' });
    // the device talks, nobody listens: no card, no connected state, and the gateway never wrote to it
    await new ReferenceShoe(unlisted).send('STATE', 'LOADED');
    await sleep(2500); // longer than a re-check
    expect(rec.messages.filter((m) => m.topic === 'casino/sec-bad/devices/shoe-1' && m.payload.state === 'connected')).toEqual([]);
    expect(rec.messages.filter((m) => m.topic === 'casino/sec-bad/alerts' && m.payload.kind === 'device-not-allowed')).toHaveLength(1);
    expect(unlisted.received().length).toBe(0);
  });

  it('opens the listed device', async () => {
    await rec.waitFor((m) => m.topic === 'casino/sec-ok/devices/shoe-1' && m.payload.state === 'connected');
    expect(rec.messages.some((m) => m.topic === 'casino/sec-ok/alerts' && m.payload.kind === 'device-not-allowed')).toBe(false);
  });

  it('refuses requests over the rate limit and over the size cap with a reason and a seq; drops a flood', async () => {
    await rec.waitFor((m) => m.topic === 'casino/sec-ok/status' && m.payload.state === 'online');
    await sleep(300); // the link subscribes to requests right after it connects
    rec.clear();
    const send = (i: number, payload?: string) =>
      rec.client.publishAsync('casino/sec-ok/request/status', payload ?? JSON.stringify({ transaction: `tx-${i}` }), { qos: 1 });
    for (let i = 0; i < 10; i++) await send(i);
    await rec.waitForCount((m) => m.topic === 'casino/sec-ok/response/status', 6);
    await sleep(300);
    const answers = rec.messages.filter((m) => m.topic === 'casino/sec-ok/response/status').map((m) => m.payload);
    // burst 3 accepted, then 3 refusals (the refusal bucket), the rest dropped unanswered
    expect(answers.map((a) => a.status)).toEqual(['ok', 'ok', 'ok', 'error', 'error', 'error']);
    expect(answers.map((a) => a.transaction)).toEqual(['tx-0', 'tx-1', 'tx-2', 'tx-3', 'tx-4', 'tx-5']);
    expect(answers[3].error).toMatch(/^rate limited: more than 3 requests at once or 1 per second on this table/);
    const seqs = answers.map((a) => a.seq as number);
    expect(seqs.every((s, i) => i === 0 || s > seqs[i - 1])).toBe(true);
    expect(lines.join('\n')).toMatch(/requests over the rate limit: 1 dropped without an answer/);

    await sleep(3100); // the buckets refill
    rec.clear();
    await send(99, JSON.stringify({ transaction: 'tx-big', pad: 'x'.repeat(400) }));
    const big = await rec.waitFor((m) => m.topic === 'casino/sec-ok/response/status');
    expect(big.payload).toMatchObject({
      status: 'error',
      transaction: null,
      error: expect.stringMatching(/^payload too large: \d+ bytes \(requests\.maxPayloadBytes is 256\)/),
      seq: expect.any(Number),
    });

    // far larger than the cap: the broker does not even deliver it (MQTT 5 maximum packet size), the link stays up
    rec.clear();
    await send(100, JSON.stringify({ transaction: 'tx-huge', pad: 'x'.repeat(20_000) }));
    await send(101);
    const after = await rec.waitFor((m) => m.topic === 'casino/sec-ok/response/status');
    expect(after.payload).toMatchObject({ status: 'ok', transaction: 'tx-101' });
    expect(rec.messages.some((m) => m.topic === 'casino/sec-ok/status' && m.payload.state === 'offline')).toBe(false);
    expect(gw.tables.length).toBe(2);
  });
});

describe('signed results replay byte for byte', () => {
  it('a journal replayed with the same key reproduces every signed result; without the key it does not', async () => {
    const dir = await makeTempDir('teg-sign-replay-');
    try {
      const kp = generateKeyPairSync('ed25519');
      const keyFile = join(dir, 'signing.key');
      writeFileSync(keyFile, kp.privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
      const publicPem = kp.publicKey.export({ type: 'spki', format: 'pem' }).toString();
      const raw = {
        mqtt: { url: 'embedded' },
        embeddedBroker: { host: '127.0.0.1', port: 0 },
        dataDir: join(dir, 'data'),
        http: { enabled: false },
        health: { intervalMs: 0 },
        signing: { privateKeyFile: keyFile },
        tables: [
          {
            id: 'sig-01',
            game: 'baccarat',
            decks: 1,
            devices: [
              {
                id: 'shoe-1',
                kind: 'card-shoe',
                transport: { type: 'simulator', seed: 'replay-signing', cardIntervalMs: 0, roundIntervalMs: 0, cutCardFromEnd: 10 },
              },
            ],
          },
        ],
      };
      const cfg = validateConfig(raw);
      const cfgFile = join(dir, 'gateway.json');
      writeFileSync(cfgFile, JSON.stringify(raw));
      const gw = await startGateway(cfg, { simulators: loadSimulators, logger: createLogger({ json: true, write: () => {} }), fast: true, simulatorShoes: 1 });
      const results: string[] = [];
      const sub = gw.tables[0].published$.subscribe((m) => {
        if (m.topic === 'result') results.push(m.payload.roundId as string);
      });
      await Promise.all(gw.simulators.map((s) => s.start()));
      // a few results (under a loaded CI machine the first can take seconds)
      for (const until = Date.now() + 30_000; results.length < 3 && Date.now() < until; ) await sleep(50);
      sub.unsubscribe();
      await gw.stop();
      expect(results.length).toBeGreaterThan(1);

      const store = new GatewayStore(join(dir, 'data'), { synchronous: 'normal', retentionDays: 36500 });
      try {
        const signer = createEnvelopeSigner(cfg.signing!);
        const report = replayTable(store, 'sig-01', { serialize: signer.serialize });
        expect(report.mismatch).toBeNull();
        expect(report.results).toBeGreaterThan(1);
        // what was stored (and published) is signed and verifies
        const stored = [...Array(report.messages + report.notStored + 5).keys()]
          .map((i) => store.message('sig-01', i + 1))
          .filter((m) => m?.topic === 'result');
        expect(stored.length).toBeGreaterThan(1);
        for (const m of stored) expect(verifyEnvelope(m!.payload, publicPem)).toBe(true);
        // without the signature the bytes differ: replay must use the gateway's serializer
        expect(replayTable(store, 'sig-01').mismatch?.topic).toBe('result');
      } finally {
        store.close();
      }
      // the replay command re-signs with the configured key
      const log = vi.spyOn(console, 'log').mockImplementation(() => {});
      try {
        expect(await replayCommand.run(['--config', cfgFile, join(dir, 'data')])).toBe(0);
        expect(await replayCommand.run([join(dir, 'data')])).toBe(1);
      } finally {
        log.mockRestore();
      }
    } finally {
      await removeTempDir(dir);
    }
  }, 60_000);
});
