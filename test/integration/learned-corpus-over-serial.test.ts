/**
 * The device corpus over real serial lines through LEARNED profiles (issue 32 points 4 and 6): for
 * each format `tablegw profile learn` takes (test/corpus/learn-corpus.test.ts), the profile is
 * learned from the corpus capture of the known deal and its script, written as the YAML the
 * learner writes, and read by the real gateway with Mosquitto over a real pty. The device's bytes
 * come from the format's independent encoder, with line faults among the frames (noise, a frame cut
 * short, a bad check value) in the same writes as the frames next to them. A shoe's three
 * baccarat rounds are placed right card for card; a shuffler's states and counts are read in
 * order; every fault is a counted reject and no frame is lost.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/app/config/load-config.js';
import { startGateway, type Gateway } from '../../src/app/gateway.js';
import { loadSimulators } from '../../simulators/load.js';
import { silentLogger } from '../../src/runtime/log.js';
import { parseCapture } from '../../src/app/tools/capture-file.js';
import { learnProfile } from '../../src/app/tools/profile-learn.js';
import { startMosquitto, type MosquittoBroker } from '../../dev/rig/mosquitto.js';
import { recordMqtt, type MqttRecorder, type RecordedMessage } from '../../dev/rig/mqtt-recorder.js';
import { createPtyPair, type PtyPair } from '../../dev/rig/pty-pair.js';
import { realIoOrSkip } from '../helpers/real-io.js';
import { makeTempDir, removeTempDir } from '../../dev/rig/temp-dir.js';
import { buildCapture, buildDeal, CORPUS, type CorpusEntry, shoeDeal } from '../../dev/corpus/index.js';

const io = realIoOrSkip(['socat', 'mosquitto']);
/** the serial corpus formats dealt here through their learned profile */
const LEARNED_SHOES = ['ascii-crlf-shoe', 'decimal-sum-shoe', 'table-char-shoe'].map((n) => CORPUS.find((e) => e.name === n)!);
const SHUFFLER = CORPUS.find((e) => e.name === 'hex-trailer-shuffler')!;
const LINES = [...LEARNED_SHOES, SHUFFLER];
const tableOf = (name: string) => `learned-${name}`.slice(0, 40);

/** the profile learned from the corpus capture, as the YAML file `tablegw profile learn --out` writes */
function learnTo(dir: string, e: CorpusEntry): string {
  const built = buildCapture(e);
  const r = learnProfile({ capture: parseCapture(built.text, e.name).chunks, script: built.script, kind: e.kind as never, name: `learned-${e.name}` });
  if (r.exit !== 0) throw new Error(`${e.name}: learn exit ${r.exit}: ${r.reason}`);
  const file = join(dir, `learned-${e.name}.yaml`);
  writeFileSync(file, r.yaml);
  return file;
}

describe.skipIf(!io.available)('the corpus over real ptys with line faults, read through the profiles profile learn wrote', () => {
  let broker: MosquittoBroker;
  let gw: Gateway;
  let rec: MqttRecorder;
  const ptys = new Map<string, PtyPair>();
  let shoeForShuffler: PtyPair;
  let dataDir: string;
  const on = (table: string, suffix: string) => (m: RecordedMessage) => m.topic === `casino/${table}/${suffix}`;

  beforeAll(async () => {
    broker = await startMosquitto();
    for (const e of LINES) ptys.set(e.name, await createPtyPair());
    shoeForShuffler = await createPtyPair();
    dataDir = await makeTempDir('teg-learned-corpus-');
    const learned = new Map(LINES.map((e) => [e.name, learnTo(dataDir, e)]));
    rec = await recordMqtt(broker.url, 'casino/#');
    const cfg = validateConfig({
      mqtt: { url: broker.url },
      dataDir,
      http: { enabled: false },
      tables: [
        ...LEARNED_SHOES.map((e) => ({
          id: tableOf(e.name),
          game: 'baccarat',
          betting: 'none',
          devices: [{ id: 'shoe-1', kind: 'card-shoe', profile: learned.get(e.name)!, transport: { type: 'serial', path: ptys.get(e.name)!.gatewayPath } }],
        })),
        {
          id: tableOf(SHUFFLER.name),
          game: 'three-card-poker',
          betting: 'none',
          devices: [
            { id: 'shoe-1', kind: 'card-shoe', transport: { type: 'serial', path: shoeForShuffler.gatewayPath } },
            {
              id: 'shuf-1',
              kind: 'shuffler',
              profile: learned.get(SHUFFLER.name)!,
              transport: { type: 'serial', path: ptys.get(SHUFFLER.name)!.gatewayPath },
            },
          ],
        },
      ],
    });
    gw = await startGateway(cfg, { simulators: loadSimulators, logger: silentLogger });
    for (const [e, dev] of [...LEARNED_SHOES.map((x) => [x, 'shoe-1'] as const), [SHUFFLER, 'shuf-1'] as const]) {
      await rec.waitFor((m) => on(tableOf(e.name), `devices/${dev}`)(m) && m.payload.state === 'connected');
      await rec.waitFor((m) => on(tableOf(e.name), 'status')(m) && m.payload.state === 'online');
    }
  }, 60_000);

  afterAll(async () => {
    await gw?.stop();
    await rec?.close();
    for (const p of ptys.values()) await p.dispose();
    await shoeForShuffler?.dispose();
    await broker?.stop();
    if (dataDir) await removeTempDir(dataDir);
  });

  it.each(LEARNED_SHOES.map((e) => [e.name, e] as const))(
    '%s: every card placed right, every fault a reject, no frame lost',
    async (_name, e) => {
      const table = tableOf(e.name);
      const deal = buildDeal(e, shoeDeal(false));
      // several frames and faults per write: no pause for a timer to separate them
      const pty = ptys.get(e.name)!;
      for (let i = 0; i < deal.writes.length; i += 4) await pty.write(Buffer.concat(deal.writes.slice(i, i + 4)));
      await rec.waitForCount(on(table, 'result'), 3, 20_000);
      const [r1, r2, r3] = rec.messages.filter(on(table, 'result')).map((m) => m.payload);
      expect(r1).toMatchObject({
        status: 'complete',
        cards: { player: ['9H', '9C'], banker: ['KD', '2S'], burn: [] },
        outcome: { winner: 'player', natural: true, playerPair: true },
      });
      expect(r2).toMatchObject({ status: 'complete', cards: { player: ['2H', '3C', '8D'], banker: ['3D', 'KS'] }, outcome: { winner: 'tie' } });
      expect(r3).toMatchObject({ status: 'complete', cards: { player: ['6H', 'KC'], banker: ['4D', 'AS', '3H'] } });
      const dealt = rec.messages.filter((m) => on(table, 'events')(m) && m.payload.kind === 'card').map((m) => m.payload.card);
      expect(dealt.filter((c: string | null) => c !== null)).toEqual([
        '2C',
        '9H',
        'KD',
        '9C',
        '2S',
        '2H',
        '3D',
        '3C',
        'KS',
        '8D',
        '6H',
        '4D',
        'KC',
        'AS',
        '3H',
      ]);
      await rec.waitFor((m) => on(table, 'alerts')(m) && m.payload.kind === 'bad-frame');
      expect(rec.messages.filter((m) => on(table, 'alerts')(m) && m.payload.kind === 'frame-gap')).toEqual([]);
    },
    30_000,
  );

  it('hex-trailer-shuffler: every state and count read in order, every fault a reject', async () => {
    const table = tableOf(SHUFFLER.name);
    const deal = buildDeal(SHUFFLER);
    const pty = ptys.get(SHUFFLER.name)!;
    for (let i = 0; i < deal.writes.length; i += 4) await pty.write(Buffer.concat(deal.writes.slice(i, i + 4)));
    const want = deal.expected.filter((x) => x.startsWith('SHUF_STATE ') || x.startsWith('COUNT ')).map((x) => x.split(' ')[1]);
    expect(want).toEqual(['IDLE', 'SHUFFLING', '416', 'READY', 'JAM', 'IDLE', '52']);
    const got = await rec.waitForCount((m) => on(table, 'events')(m) && m.payload.kind === 'shuffler', want.length, 20_000);
    expect(got.map((m) => String(m.payload.state ?? m.payload.count))).toEqual(want);
    await rec.waitFor((m) => on(table, 'alerts')(m) && m.payload.kind === 'bad-frame');
    // what the table does with them: the JAM and the count that is not the deck size are alerts
    await rec.waitFor((m) => on(table, 'alerts')(m) && m.payload.kind === 'shuffler-jam');
  }, 30_000);
});
