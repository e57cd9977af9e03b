/**
 * HID profiles end to end: the real gateway and a real Mosquitto, simulated devices with HID
 * profiles writing input reports through the wire seam. A keyboard-wedge scanner with `profile:
 * wedge-scanner` (8-byte keyboard reports, one per chunk) is a baccarat table's only card reader,
 * so its dealing reader; a dice sensor with `profile: hid-dice-sensor` (§2b vendor reports) rolls
 * sic bo. A chunk that is not whole reports would be a `malformed` reject, never a card or a roll:
 * complete rounds mean the gateway read the reports.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/app/config/load-config.js';
import { startGateway, type Gateway } from '../../src/app/gateway.js';
import { loadSimulators } from '../../simulators/load.js';
import { startMosquitto, type MosquittoBroker } from '../../dev/rig/mosquitto.js';
import { recordMqtt, type MqttRecorder, type RecordedMessage } from '../../dev/rig/mqtt-recorder.js';
import { makeTempDir, removeTempDir } from '../../dev/rig/temp-dir.js';
import { silentLogger } from '../../src/runtime/log.js';
import { realIoOrSkip } from '../helpers/real-io.js';

const io = realIoOrSkip(['mosquitto']);
const sim = (seed: number, faults: Record<string, number> = {}) => ({ type: 'simulator', seed, cardIntervalMs: 0, roundIntervalMs: 0, faults });

describe.skipIf(!io.available)('simulated HID-profile devices through the gateway and Mosquitto', () => {
  let broker: MosquittoBroker;
  let gw: Gateway;
  let rec: MqttRecorder;
  let dataDir: string;
  const on = (table: string, suffix: string) => (m: RecordedMessage) => m.topic === `casino/${table}/${suffix}`;
  const payloads = (table: string, suffix: string) => rec.messages.filter(on(table, suffix)).map((m) => m.payload);

  beforeAll(async () => {
    broker = await startMosquitto();
    dataDir = await makeTempDir('teg-hidprof-');
    rec = await recordMqtt(broker.url, 'casino/#');
    const cfg = validateConfig({
      mqtt: { url: broker.url },
      http: { enabled: false },
      dataDir,
      tables: [
        {
          id: 'wedge-bac',
          game: 'baccarat',
          betting: 'none',
          devices: [{ id: 'scan-1', kind: 'barcode-scanner', profile: 'wedge-scanner', transport: sim(21, { badBarcodeRate: 0.1 }) }],
        },
        { id: 'hid-sb', game: 'sic-bo', betting: 'none', devices: [{ id: 'dice-1', kind: 'dice-sensor', profile: 'hid-dice-sensor', transport: sim(22) }] },
      ],
    });
    expect(cfg.tables[0].devices[0].role).toBe('dealer');
    gw = await startGateway(cfg, { simulators: loadSimulators, logger: silentLogger, fast: true });
  });

  afterAll(async () => {
    await Promise.all((gw?.simulators ?? []).map((s) => s.stop()));
    await gw?.stop();
    await rec?.close();
    await broker?.stop();
    if (dataDir) await removeTempDir(dataDir);
  });

  it('the wedge scanner deals complete baccarat rounds; its bad labels are bad frames, never cards', async () => {
    const results = await rec.waitForCount(on('wedge-bac', 'result'), 5, 60_000);
    expect(
      results.every((r) => r.payload.status === 'complete'),
      JSON.stringify(results.find((r) => r.payload.status !== 'complete')?.payload),
    ).toBe(true);
    const cards = payloads('wedge-bac', 'events').filter((e) => e.kind === 'card');
    expect(cards.length).toBeGreaterThanOrEqual(20);
    expect(cards.every((e) => e.deviceId === 'scan-1')).toBe(true);
    expect(payloads('wedge-bac', 'alerts').filter((a) => ['unnecessary-card', 'round-void', 'out-of-order-card'].includes(String(a.kind)))).toEqual([]);
    await rec.waitFor((m) => on('wedge-bac', 'alerts')(m) && m.payload.kind === 'bad-frame', 30_000);
  }, 90_000);

  it('the HID dice sensor rolls complete sic bo rounds', async () => {
    const results = await rec.waitForCount(on('hid-sb', 'result'), 3, 60_000);
    expect(
      results.every((r) => r.payload.status === 'complete'),
      JSON.stringify(results.find((r) => r.payload.status !== 'complete')?.payload),
    ).toBe(true);
    expect(payloads('hid-sb', 'alerts').filter((a) => a.kind === 'bad-frame')).toEqual([]);
  }, 90_000);
});
