/**
 * Step 6 of docs/DEVICES.md "Write a profile for your device", for real: the guide's config
 * (its profile, its table) runs a real gateway on a real Mosquitto, and the guide's example
 * capture is played into it over a real pty, chunk by chunk as recorded (time compressed). The
 * shoe is read through the example profile: connected, its cards dealt, and the two rejects and
 * the lost SEQ 6 of the capture counted and alerted as the guide says.
 */
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { validateConfig } from '../../src/app/config/load-config.js';
import { startGateway, type Gateway } from '../../src/app/gateway.js';
import { loadSimulators } from '../../simulators/load.js';
import { silentLogger } from '../../src/runtime/log.js';
import { readCaptureFile } from '../../src/app/tools/capture-file.js';
import { startMosquitto, type MosquittoBroker } from '../../dev/rig/mosquitto.js';
import { recordMqtt, type MqttRecorder } from '../../dev/rig/mqtt-recorder.js';
import { createPtyPair, type PtyPair } from '../../dev/rig/pty-pair.js';
import { realIoOrSkip } from '../helpers/real-io.js';
import { cleanupTempDirs, makeTempDir } from '../../dev/rig/temp-dir.js';

const io = realIoOrSkip(['socat', 'mosquitto']);
const EXAMPLES = join(import.meta.dirname, '..', '..', 'docs', 'examples');

describe.skipIf(!io.available)("the profile guide's table, running", () => {
  let broker: MosquittoBroker;
  let gw: Gateway | undefined;
  let rec: MqttRecorder;
  let pty: PtyPair;

  beforeAll(async () => {
    broker = await startMosquitto();
    pty = await createPtyPair();
    rec = await recordMqtt(broker.url, 'casino/#');
    // the guide's config, on this machine: the profile where it is, the pty, the test broker
    const raw = parse(readFileSync(join(EXAMPLES, 'acme-table.yaml'), 'utf8'));
    raw.mqtt.url = broker.url;
    raw.dataDir = await makeTempDir('teg-guide-');
    raw.http = { enabled: false };
    raw.tables[0].devices[0].profile = join(EXAMPLES, 'acme-shoe.yaml');
    raw.tables[0].devices[0].transport.path = pty.gatewayPath;
    gw = await startGateway(validateConfig(raw, 'acme-table.yaml'), { simulators: loadSimulators, logger: silentLogger });
    await rec.waitFor((m) => m.topic === 'casino/bac-07/devices/shoe-1' && m.payload.state === 'connected', 20_000);
  }, 60_000);

  afterAll(async () => {
    await gw?.stop();
    await rec?.close();
    await pty?.dispose();
    await broker?.stop();
    await cleanupTempDirs();
  });

  it('reads the captured shoe through the example profile: cards dealt, rejects and the lost SEQ alerted', async () => {
    const capture = readCaptureFile(join(EXAMPLES, 'acme-shoe.capture.jsonl'));
    let last = 0;
    for (const c of capture.chunks) {
      await new Promise((r) => setTimeout(r, Math.min(100, (c.t - last) / 10)));
      last = c.t;
      await pty.write(c.bytes);
    }
    const A = 'casino/bac-07/alerts';
    const E = 'casino/bac-07/events';
    // the six cards of the capture: the first turned (7H), burns face down, the misread answered by its rescan
    const cards = await rec.waitForCount((m) => m.topic === E && m.payload.kind === 'card', 6, 20_000);
    expect(cards[0].payload).toMatchObject({ role: 'reveal', card: '7H', cardNo: 1 });
    expect(cards.slice(1, 4).map((c) => [c.payload.role, c.payload.card])).toEqual([
      ['burn', null],
      ['burn', null],
      ['burn', null],
    ]);
    await rec.waitFor((m) => m.topic === E && m.payload.kind === 'rescan');
    await rec.waitFor((m) => m.topic === E && m.payload.kind === 'cut');
    // the damaged SEQ 6: a gap (the profile has no REPEAT template: nothing can ask for it again)
    const gap = await rec.waitFor((m) => m.topic === A && m.payload.kind === 'frame-gap', 20_000);
    expect(gap.payload).toMatchObject({ deviceId: 'shoe-1', missing: 1, fromSeq: 6, deviceSeq: 7 });
    // both rejects of the capture, counted by reason in bad-frame alerts (one per second at most)
    const reasons: Record<string, number> = {};
    const deadline = Date.now() + 20_000;
    while ((reasons.noise ?? 0) + (reasons['bad-checksum'] ?? 0) < 2 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      for (const k of Object.keys(reasons)) delete reasons[k];
      for (const a of rec.messages.filter((m) => m.topic === A && m.payload.kind === 'bad-frame')) {
        for (const [k, n] of Object.entries(a.payload.reasons as Record<string, number>)) reasons[k] = (reasons[k] ?? 0) + n;
      }
    }
    expect(reasons).toEqual({ noise: 1, 'bad-checksum': 1 });
    // no card held as out of order (the rescan resolved the misread), and no sample shows a card code
    expect(rec.messages.filter((m) => m.topic === A && m.payload.kind === 'out-of-order-card')).toEqual([]);
    for (const a of rec.messages.filter((m) => m.topic === A && m.payload.kind === 'bad-frame')) expect(a.payload.sample).not.toMatch(/1U|[0-9]{1,2}[PCKT]/);
  }, 60_000);
});
