/**
 * The device corpus over real serial lines (issue 32 point 6): every card-shoe format of the
 * corpus that a serial line carries (dev/corpus/index.ts; the HID card reader is not a serial
 * device) deals the same three baccarat rounds on its own table, the keno format draws on a keno
 * table and the dice format rolls on a sic bo table, one real pty per device, read through the
 * hand-written profile by the real gateway with Mosquitto. The bytes are written by the format's
 * independent encoder, with line faults among the frames (noise, a frame cut short, a bad check
 * value) in the same writes as the frames next to them. Every card, ball and roll is placed
 * right, every fault is a counted reject, and no frame is lost (no frame-gap alert). The formats
 * `tablegw profile learn` takes (LEARNED) deal the same again on tables of their own, read through
 * the profile learned from the format's capture of a known deal (dev/corpus buildCapture).
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
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildCapture, buildDeal, CORPUS, type CorpusEntry, KENO_BALLS, shoeDeal } from '../../dev/corpus/index.js';
import { parseCapture } from '../../src/app/tools/capture-file.js';
import { learnProfile } from '../../src/app/tools/profile-learn.js';

const io = realIoOrSkip(['socat', 'mosquitto']);
const SHOES = CORPUS.filter((e) => e.kind === 'card-shoe' && e.encoder.reportBytes === undefined);
const KENO = CORPUS.find((e) => e.name === 'sync-keno')!;
const DICE = CORPUS.find((e) => e.name === 'bitfield-dice')!;
const LINES = [...SHOES, KENO, DICE];
const tableOf = (name: string) => `corpus-${name}`.slice(0, 40);
/** the formats also read through their learned profile, on tables of their own */
const LEARNED = LINES.filter((e) => ['length-le-shoe', 'sync-keno', 'modbus-rtu-shoe'].includes(e.name));
const learnedTableOf = (name: string) => `learned-${name}`.slice(0, 40);

/** the profile `profile learn` writes for the format from its capture of the known deal, as a file */
async function learnedProfileFile(e: CorpusEntry, dir: string): Promise<string> {
  const built = buildCapture(e);
  const r = learnProfile({ capture: parseCapture(built.text, e.name).chunks, script: built.script, kind: e.kind as never, name: `learned-${e.name}` });
  if (r.exit !== 0) throw new Error(`${e.name}: profile learn exit ${r.exit}: ${r.reason}`);
  const file = join(dir, `learned-${e.name}.yaml`);
  await writeFile(file, r.yaml);
  return file;
}

describe.skipIf(!io.available)('the serial formats of the corpus over real ptys with line faults', () => {
  let broker: MosquittoBroker;
  let gw: Gateway;
  let rec: MqttRecorder;
  const ptys = new Map<string, PtyPair>();
  let dataDir: string;
  const on = (table: string, suffix: string) => (m: RecordedMessage) => m.topic === `casino/${table}/${suffix}`;

  beforeAll(async () => {
    broker = await startMosquitto();
    for (const e of LINES) ptys.set(e.name, await createPtyPair());
    for (const e of LEARNED) ptys.set(`learned:${e.name}`, await createPtyPair());
    dataDir = await makeTempDir('teg-corpus-');
    const learnedFiles = new Map<string, string>();
    for (const e of LEARNED) learnedFiles.set(e.name, await learnedProfileFile(e, dataDir));
    const kindOf = { 'card-shoe': ['baccarat', 'shoe-1'], 'ball-reader': ['keno', 'balls-1'] } as const;
    rec = await recordMqtt(broker.url, 'casino/#');
    const cfg = validateConfig({
      mqtt: { url: broker.url },
      dataDir,
      http: { enabled: false },
      tables: [
        ...SHOES.map((e) => ({
          id: tableOf(e.name),
          game: 'baccarat',
          betting: 'none',
          devices: [{ id: 'shoe-1', kind: 'card-shoe', profile: e.profilePath, transport: { type: 'serial', path: ptys.get(e.name)!.gatewayPath } }],
        })),
        {
          id: tableOf(KENO.name),
          game: 'keno',
          betting: 'none',
          devices: [{ id: 'balls-1', kind: 'ball-reader', profile: KENO.profilePath, transport: { type: 'serial', path: ptys.get(KENO.name)!.gatewayPath } }],
        },
        {
          id: tableOf(DICE.name),
          game: 'sic-bo',
          betting: 'none',
          minBounces: 0,
          devices: [{ id: 'dice-1', kind: 'dice-sensor', profile: DICE.profilePath, transport: { type: 'serial', path: ptys.get(DICE.name)!.gatewayPath } }],
        },
        ...LEARNED.map((e) => {
          const [game, dev] = kindOf[e.kind as keyof typeof kindOf];
          return {
            id: learnedTableOf(e.name),
            game,
            betting: 'none',
            devices: [
              { id: dev, kind: e.kind, profile: learnedFiles.get(e.name)!, transport: { type: 'serial', path: ptys.get(`learned:${e.name}`)!.gatewayPath } },
            ],
          };
        }),
      ],
    });
    gw = await startGateway(cfg, { simulators: loadSimulators, logger: silentLogger });
    for (const [e, dev] of [...SHOES.map((x) => [x, 'shoe-1'] as const), [KENO, 'balls-1'] as const, [DICE, 'dice-1'] as const]) {
      await rec.waitFor((m) => on(tableOf(e.name), `devices/${dev}`)(m) && m.payload.state === 'connected');
      await rec.waitFor((m) => on(tableOf(e.name), 'status')(m) && m.payload.state === 'online');
    }
    for (const e of LEARNED) {
      await rec.waitFor((m) => on(learnedTableOf(e.name), `devices/${e.kind === 'ball-reader' ? 'balls-1' : 'shoe-1'}`)(m) && m.payload.state === 'connected');
      await rec.waitFor((m) => on(learnedTableOf(e.name), 'status')(m) && m.payload.state === 'online');
    }
  }, 60_000);

  afterAll(async () => {
    await gw?.stop();
    await rec?.close();
    for (const p of ptys.values()) await p.dispose();
    await broker?.stop();
    if (dataDir) await removeTempDir(dataDir);
  });

  /** the shoe deals three baccarat rounds with line faults on the pty; the table places every card right */
  async function shoeDealsRight(e: CorpusEntry, table: string, pty: PtyPair): Promise<void> {
    const deal = buildDeal(e, shoeDeal(false));
    // several frames and faults per write: no pause for a timer to separate them
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
    expect(dealt.filter((c: string | null) => c !== null)).toEqual(['2C', '9H', 'KD', '9C', '2S', '2H', '3D', '3C', 'KS', '8D', '6H', '4D', 'KC', 'AS', '3H']);
    await rec.waitFor((m) => on(table, 'alerts')(m) && m.payload.kind === 'bad-frame');
    expect(rec.messages.filter((m) => on(table, 'alerts')(m) && m.payload.kind === 'frame-gap')).toEqual([]);
  }

  /** the keno draw with line faults on the pty is one complete result with every ball in order */
  async function kenoDrawsRight(table: string, pty: PtyPair): Promise<void> {
    const deal = buildDeal(KENO);
    for (let i = 0; i < deal.writes.length; i += 4) await pty.write(Buffer.concat(deal.writes.slice(i, i + 4)));
    const r = (await rec.waitFor(on(table, 'result'), 20_000)).payload;
    expect(r).toMatchObject({ status: 'complete', balls: KENO_BALLS });
    await rec.waitFor((m) => on(table, 'alerts')(m) && m.payload.kind === 'bad-frame');
    expect(rec.messages.filter((m) => on(table, 'alerts')(m) && m.payload.kind === 'frame-gap')).toEqual([]);
  }

  it.each(SHOES.map((e) => [e.name, e] as const))(
    '%s: every card placed right, every fault a reject, no frame lost',
    (_name, e) => shoeDealsRight(e, tableOf(e.name), ptys.get(e.name)!),
    30_000,
  );

  it(
    'sync-keno: the draw with line faults is one complete result with every ball in order',
    () => kenoDrawsRight(tableOf(KENO.name), ptys.get(KENO.name)!),
    30_000,
  );

  it.each(LEARNED.map((e) => [e.name, e] as const))(
    '%s through the profile learned from its capture: every card or ball placed right, every fault a reject, no frame lost',
    (_name, e) =>
      e.kind === 'ball-reader'
        ? kenoDrawsRight(learnedTableOf(e.name), ptys.get(`learned:${e.name}`)!)
        : shoeDealsRight(e, learnedTableOf(e.name), ptys.get(`learned:${e.name}`)!),
    30_000,
  );

  it('bitfield-dice: every roll with line faults is read with its dice and bounces', async () => {
    const table = tableOf(DICE.name);
    const deal = buildDeal(DICE);
    const pty = ptys.get(DICE.name)!;
    for (let i = 0; i < deal.writes.length; i += 4) await pty.write(Buffer.concat(deal.writes.slice(i, i + 4)));
    const rolls = deal.expected.filter((x) => x.startsWith('ROLL ')).map((x) => x.slice(5).split(' ')[0]);
    const results = await rec.waitForCount(on(table, 'result'), rolls.length, 20_000);
    expect(results.map((m) => `${m.payload.dice.join(',')}/${m.payload.bounces}`)).toEqual(rolls);
    expect(results.every((m) => m.payload.status === 'complete')).toBe(true);
    await rec.waitFor((m) => on(table, 'alerts')(m) && m.payload.kind === 'bad-frame');
    expect(rec.messages.filter((m) => on(table, 'alerts')(m) && m.payload.kind === 'frame-gap')).toEqual([]);
  }, 30_000);
});
