/**
 * The device corpus over real serial lines (issue 32 point 6): every card-shoe format of the
 * corpus that a serial line carries (dev/corpus/index.ts; the HID card reader is not a serial
 * device) deals the same three baccarat rounds on its own table, one real pty per shoe, read
 * through its hand-written profile by the real gateway with Mosquitto. The bytes are written by
 * the format's independent encoder, with line faults among the frames (noise, a frame cut short,
 * a bad check value) in the same writes as the frames next to them. Every card is placed right,
 * every fault is a counted reject, and no frame is lost (no frame-gap alert).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/app/config/load-config.js';
import { startGateway, type Gateway } from '../../src/app/gateway.js';
import { loadSimulators } from '../../simulators/load.js';
import { silentLogger } from '../../src/runtime/log.js';
import { startMosquitto, type MosquittoBroker } from '../../dev/rig/mosquitto.js';
import { recordMqtt, type MqttRecorder, type RecordedMessage } from '../../dev/rig/mqtt-recorder.js';
import { createPtyPair, type PtyPair } from '../../dev/rig/pty-pair.js';
import { realIoOrSkip } from '../helpers/real-io.js';
import { makeTempDir, removeTempDir } from '../../dev/rig/temp-dir.js';
import { buildDeal, CORPUS, shoeDeal } from '../../dev/corpus/index.js';

const io = realIoOrSkip(['socat', 'mosquitto']);
const SHOES = CORPUS.filter((e) => e.kind === 'card-shoe' && e.encoder.reportBytes === undefined);
const tableOf = (name: string) => `corpus-${name}`.slice(0, 40);

describe.skipIf(!io.available)('every serial card-shoe format of the corpus, dealt over a real pty with line faults', () => {
  let broker: MosquittoBroker;
  let gw: Gateway;
  let rec: MqttRecorder;
  const ptys = new Map<string, PtyPair>();
  let dataDir: string;
  const on = (table: string, suffix: string) => (m: RecordedMessage) => m.topic === `casino/${table}/${suffix}`;

  beforeAll(async () => {
    broker = await startMosquitto();
    for (const e of SHOES) ptys.set(e.name, await createPtyPair());
    dataDir = await makeTempDir('teg-corpus-');
    rec = await recordMqtt(broker.url, 'casino/#');
    const cfg = validateConfig({
      mqtt: { url: broker.url }, dataDir, http: { enabled: false },
      tables: SHOES.map((e) => ({
        id: tableOf(e.name), game: 'baccarat', betting: 'none',
        devices: [{ id: 'shoe-1', kind: 'card-shoe', profile: e.profilePath, transport: { type: 'serial', path: ptys.get(e.name)!.gatewayPath } }],
      })),
    });
    gw = await startGateway(cfg, { simulators: loadSimulators, logger: silentLogger });
    for (const e of SHOES) {
      await rec.waitFor((m) => on(tableOf(e.name), 'devices/shoe-1')(m) && m.payload.state === 'connected');
      await rec.waitFor((m) => on(tableOf(e.name), 'status')(m) && m.payload.state === 'online');
    }
  }, 60_000);

  afterAll(async () => {
    await gw?.stop();
    await rec?.close();
    for (const p of ptys.values()) await p.dispose();
    await broker?.stop();
    if (dataDir) await removeTempDir(dataDir);
  });

  it.each(SHOES.map((e) => [e.name, e] as const))('%s: every card placed right, every fault a reject, no frame lost', async (_name, e) => {
    const table = tableOf(e.name);
    const deal = buildDeal(e, shoeDeal(false));
    // several frames and faults per write: no pause for a timer to separate them
    const pty = ptys.get(e.name)!;
    for (let i = 0; i < deal.writes.length; i += 4) await pty.write(Buffer.concat(deal.writes.slice(i, i + 4)));
    await rec.waitForCount(on(table, 'result'), 3, 20_000);
    const [r1, r2, r3] = rec.messages.filter(on(table, 'result')).map((m) => m.payload);
    expect(r1).toMatchObject({ status: 'complete', cards: { player: ['9H', '9C'], banker: ['KD', '2S'], burn: [] }, outcome: { winner: 'player', natural: true, playerPair: true } });
    expect(r2).toMatchObject({ status: 'complete', cards: { player: ['2H', '3C', '8D'], banker: ['3D', 'KS'] }, outcome: { winner: 'tie' } });
    expect(r3).toMatchObject({ status: 'complete', cards: { player: ['6H', 'KC'], banker: ['4D', 'AS', '3H'] } });
    const dealt = rec.messages.filter((m) => on(table, 'events')(m) && m.payload.kind === 'card').map((m) => m.payload.card);
    expect(dealt.filter((c: string | null) => c !== null)).toEqual(['2C', '9H', 'KD', '9C', '2S', '2H', '3D', '3C', 'KS', '8D', '6H', '4D', 'KC', 'AS', '3H']);
    await rec.waitFor((m) => on(table, 'alerts')(m) && m.payload.kind === 'bad-frame');
    expect(rec.messages.filter((m) => on(table, 'alerts')(m) && m.payload.kind === 'frame-gap')).toEqual([]);
  }, 30_000);
});
