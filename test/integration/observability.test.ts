/**
 * The gateway's HTTP endpoints against real gateways on the embedded broker: /metrics content,
 * /healthz, /readyz when ready and when not (broker unreachable, a device missing), the retained
 * `health` message, and the status page's snapshot.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/app/config/load-config.js';
import { startGateway, type Gateway } from '../../src/app/gateway.js';
import { loadSimulators } from '../../simulators/load.js';
import { silentLogger } from '../../src/runtime/log.js';
import { validateMessage } from '../../src/core/table/messages.js';
import { freePort } from '../../dev/rig/free-port.js';
import { recordMqtt } from '../../dev/rig/mqtt-recorder.js';
import { cleanupTempDirs, makeTempDir } from '../../dev/rig/temp-dir.js';

afterAll(cleanupTempDirs);

const get = async (url: string) => {
  const r = await fetch(url);
  return { status: r.status, type: r.headers.get('content-type') ?? '', text: await r.text() };
};

async function waitFor<T>(fn: () => Promise<T | null | undefined | false>, what: string, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const simShoe = (seed: string) => ({
  id: 'shoe-1',
  kind: 'card-shoe',
  transport: { type: 'simulator', seed, cardIntervalMs: 0, roundIntervalMs: 0, faults: { misreadRate: 0.05, garbageRate: 0.02 } },
});

describe('a gateway with a simulated baccarat table', () => {
  let gw: Gateway;
  let base: string;

  it('serves /healthz, /readyz, /metrics and the status page', async () => {
    const dataDir = await makeTempDir('teg-obs-');
    const cfg = validateConfig({
      mqtt: { url: 'embedded', protocolVersion: 4 },
      embeddedBroker: { port: 0 },
      http: { port: 0 },
      health: { intervalMs: 500 },
      dataDir,
      tables: [{ id: 'obs-01', game: 'baccarat', decks: 8, devices: [simShoe('obs')] }],
    });
    gw = await startGateway(cfg, { simulators: loadSimulators, logger: silentLogger, fast: true, simulatorShoes: 1 });
    const rec = await recordMqtt(gw.brokerUrl, 'casino/obs-01/health');
    base = gw.observability.httpUrl!;
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const healthz = await get(`${base}/healthz`);
    expect(healthz.status).toBe(200);
    expect(JSON.parse(healthz.text).status).toBe('up');

    const ready = await waitFor(async () => {
      const r = await get(`${base}/readyz`);
      return r.status === 200 && r.text;
    }, '/readyz 200');
    expect(JSON.parse(ready)).toMatchObject({ status: 'ready', reasons: [], tables: [{ table: 'obs-01', ready: true, mqtt: 'connected', problems: [] }] });

    await Promise.all(gw.simulators.map((s) => s.start()));
    const m = await get(`${base}/metrics`);
    expect(m.status).toBe(200);
    expect(m.type).toContain('text/plain');
    const value = (re: RegExp) => Number(m.text.match(re)?.[1] ?? NaN);
    expect(value(/^tablegw_device_frames_total\{table="obs-01",device="shoe-1"\} (\d+)$/m)).toBeGreaterThan(300);
    expect(value(/^tablegw_device_bad_frames_total\{table="obs-01",device="shoe-1"\} (\d+)$/m)).toBeGreaterThan(0);
    expect(m.text).toMatch(/^tablegw_device_duplicate_frames_total\{table="obs-01",device="shoe-1"\} \d+$/m);
    expect(m.text).toMatch(/^tablegw_device_state\{table="obs-01",device="shoe-1",kind="card-shoe",state="connected"\} 1$/m);
    expect(m.text).toMatch(/^tablegw_device_state\{table="obs-01",device="shoe-1",kind="card-shoe",state="stale"\} 0$/m);
    expect(value(/^tablegw_rounds_total\{table="obs-01",game="baccarat",status="complete"\} (\d+)$/m)).toBeGreaterThan(40);
    expect(value(/^tablegw_alerts_total\{table="obs-01",kind="misread",severity="info"\} (\d+)$/m)).toBeGreaterThan(0);
    expect(value(/^tablegw_alerts_total\{table="obs-01",kind="bad-frame",severity="warning"\} (\d+)$/m)).toBeGreaterThan(0);
    expect(value(/^tablegw_frame_to_publish_seconds_count\{table="obs-01"\} (\d+)$/m)).toBeGreaterThan(300);
    expect(m.text).toMatch(/^tablegw_frame_to_publish_seconds_bucket\{le="0.005",table="obs-01"\} \d+$/m);
    expect(m.text).toMatch(/^tablegw_mqtt_connected\{table="obs-01"\} 1$/m);
    expect(m.text).toMatch(/^tablegw_outbox_depth\{table="obs-01"\} \d+$/m);
    expect(m.text).toMatch(/^process_cpu_seconds_total /m);

    // another outbox can report its depth through the provider hook
    gw.observability.metrics.setOutboxDepthProvider('obs-01', () => 7);
    expect((await get(`${base}/metrics`)).text).toMatch(/^tablegw_outbox_depth\{table="obs-01"\} 7$/m);

    // the retained health message, through the machine: it has a seq and validates
    {
      const h = await rec.waitFor((x) => x.payload?.type === 'health' && x.payload.status === 'ok' && x.payload.outboxDepth === 7, 10_000);
      expect(validateMessage('health', h.payload)).toEqual([]);
      expect(h.payload.seq).toBeGreaterThan(0);
      await rec.close();
    }

    // the page and its snapshot
    const page = await get(`${base}/`);
    expect(page.status).toBe(200);
    expect(page.type).toContain('text/html');
    expect(page.text).not.toMatch(/<(script|link)[^>]+(src|href)=/); // self-contained
    const state = JSON.parse((await get(`${base}/api/state`)).text);
    expect(state.tables[0]).toMatchObject({ table: 'obs-01', game: 'baccarat', connected: true });
    expect(Object.keys(state.tables[0].retained)).toEqual(expect.arrayContaining(['devices/shoe-1', 'shoe', 'round', 'result', 'health']));
    expect(state.tables[0].results.length).toBeGreaterThan(40);
    expect((await get(`${base}/nope`)).status).toBe(404);
  }, 60_000);

  afterAll(async () => {
    await gw?.stop();
  });
});

describe('/readyz when not ready', () => {
  it('is 503 naming the unreachable broker and the missing device', async () => {
    const dataDir = await makeTempDir('teg-obs-');
    const deadBroker = await freePort(); // nothing listens there
    const cfg = validateConfig({
      mqtt: { url: `mqtt://127.0.0.1:${deadBroker}`, protocolVersion: 4 },
      http: { port: 0 },
      dataDir,
      tables: [
        {
          id: 'obs-02',
          game: 'baccarat',
          decks: 8,
          devices: [{ id: 'shoe-9', kind: 'card-shoe', transport: { type: 'serial', path: '/dev/tablegw-does-not-exist' } }],
        },
      ],
    });
    const gw = await startGateway(cfg, { simulators: loadSimulators, logger: silentLogger });
    try {
      const r = await get(`${gw.observability.httpUrl}/readyz`);
      expect(r.status).toBe(503);
      const body = JSON.parse(r.text);
      expect(body.status).toBe('not ready');
      expect(body.reasons).toEqual(
        expect.arrayContaining(['obs-02: broker connection is down', expect.stringMatching(/^obs-02: device shoe-9 is disconnected/)]),
      );
      expect((await get(`${gw.observability.httpUrl}/healthz`)).status).toBe(200);
      const m = (await get(`${gw.observability.httpUrl}/metrics`)).text;
      expect(m).toMatch(/^tablegw_mqtt_connected\{table="obs-02"\} 0$/m);
      expect(m).toMatch(/^tablegw_device_state\{table="obs-02",device="shoe-9",kind="card-shoe",state="disconnected"\} 1$/m);
    } finally {
      await gw.stop();
    }
  }, 30_000);
});
