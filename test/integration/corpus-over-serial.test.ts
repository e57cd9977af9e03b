/**
 * The device corpus over real serial lines (issue 32 point 6): every format of the corpus that a
 * serial line carries (dev/corpus/index.ts; the HID card reader is not a serial device) is read by
 * the real gateway with Mosquitto over a real pty twice, on tables of its own: through its
 * hand-written profile, and through the profile `tablegw profile learn` writes from the format's
 * capture of a known deal (dev/corpus buildCapture), as the YAML file the learner writes. The
 * bytes are written by the format's independent encoder, with line faults among the frames
 * (noise, a frame cut short, a bad check value) in the same writes as the frames next to them.
 * The card shoes deal the same three baccarat rounds, the keno reader draws, the dice reader rolls
 * a session it never showed the learner (SEQs and dice words that need escaping on the wire), the
 * shuffler reports its states and counts beside a reference shoe. Every card, ball, roll and state
 * is read right, every fault is a counted reject, and no frame is lost (no frame-gap alert).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
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
import { buildCapture, buildDeal, CORPUS, type CorpusEntry, type DealStep, KENO_BALLS, shoeDeal } from '../../dev/corpus/index.js';
import { parseCapture } from '../../src/app/tools/capture-file.js';
import { learnProfile } from '../../src/app/tools/profile-learn.js';

const io = realIoOrSkip(['socat', 'mosquitto']);
const SHOES = CORPUS.filter((e) => e.kind === 'card-shoe' && e.encoder.reportBytes === undefined);
const KENO = CORPUS.find((e) => e.name === 'sync-keno')!;
const DICE = CORPUS.find((e) => e.name === 'bitfield-dice')!;
const SHUFFLER = CORPUS.find((e) => e.name === 'hex-trailer-shuffler')!;
const LINES = [...SHOES, KENO, DICE, SHUFFLER];
type Read = 'hand' | 'learned';
const READS: Read[] = ['hand', 'learned'];
const tableOf = (read: Read, name: string) => `${read === 'hand' ? 'corpus' : 'learned'}-${name}`.slice(0, 40);

/** the profile `profile learn` writes for the format from its capture of the known deal, as a file */
async function learnedProfileFile(e: CorpusEntry, dir: string): Promise<string> {
  const built = buildCapture(e);
  const r = learnProfile({ capture: parseCapture(built.text, e.name).chunks, script: built.script, kind: e.kind as never, name: `learned-${e.name}` });
  if (r.exit !== 0) throw new Error(`${e.name}: profile learn exit ${r.exit}: ${r.reason}`);
  const file = join(dir, `learned-${e.name}.yaml`);
  await writeFile(file, r.yaml);
  return file;
}

/** a dice session the learner never saw: 30 rolls and no-reads with line faults, SEQ from 0x70 (so 0x7D..0x7F occur) */
function diceSession(): DealStep[] {
  const steps: DealStep[] = [{ k: 'hb' }];
  for (let i = 0; i < 30; i++) {
    if (i % 6 === 2) steps.push({ fault: 'noise' });
    if (i % 7 === 4) steps.push({ fault: 'bad-check' });
    if (i % 9 === 6) steps.push({ fault: 'truncated' });
    if (i % 8 === 5) steps.push({ k: 'noread' });
    steps.push({ k: 'roll', dice: [1 + (i % 6), 1 + ((i * 5 + 2) % 6), 1 + ((i * 7 + 3) % 6)], bounces: (i * 13) % 32 });
    if (i % 10 === 9) steps.push({ k: 'hb' });
  }
  return steps;
}

/** the table that reads a format, and the id of its device there */
function tableFor(e: CorpusEntry, read: Read, profile: string, path: string, refShoePath: string): { table: Record<string, unknown>; device: string } {
  const id = tableOf(read, e.name);
  const device = (dev: string, kind: string) => ({ id: dev, kind, profile, transport: { type: 'serial', path } });
  switch (e.kind) {
    case 'card-shoe':
      return { device: 'shoe-1', table: { id, game: 'baccarat', betting: 'none', devices: [device('shoe-1', 'card-shoe')] } };
    case 'ball-reader':
      return { device: 'balls-1', table: { id, game: 'keno', betting: 'none', devices: [device('balls-1', 'ball-reader')] } };
    case 'dice-sensor':
      return { device: 'dice-1', table: { id, game: 'sic-bo', betting: 'none', minBounces: 0, devices: [device('dice-1', 'dice-sensor')] } };
    default:
      return {
        device: 'shuf-1',
        table: {
          id,
          game: 'three-card-poker',
          betting: 'none',
          devices: [{ id: 'shoe-1', kind: 'card-shoe', transport: { type: 'serial', path: refShoePath } }, device('shuf-1', 'shuffler')],
        },
      };
  }
}

describe.skipIf(!io.available)(
  'the serial formats of the corpus over real ptys with line faults, through their hand-written and their learned profiles',
  () => {
    let broker: MosquittoBroker;
    let gw: Gateway;
    let rec: MqttRecorder;
    /** `<read>:<format>` -> the device's pty; `<read>:reference-shoe` beside the shuffler */
    const ptys = new Map<string, PtyPair>();
    let dataDir: string;
    const on = (table: string, suffix: string) => (m: RecordedMessage) => m.topic === `casino/${table}/${suffix}`;
    const ptyOf = (read: Read, e: CorpusEntry) => ptys.get(`${read}:${e.name}`)!;

    beforeAll(async () => {
      broker = await startMosquitto();
      dataDir = await makeTempDir('teg-corpus-');
      const tables: Array<{ table: Record<string, unknown>; device: string }> = [];
      for (const read of READS) {
        ptys.set(`${read}:reference-shoe`, await createPtyPair());
        for (const e of LINES) {
          const pty = await createPtyPair();
          ptys.set(`${read}:${e.name}`, pty);
          const profile = read === 'hand' ? e.profilePath : await learnedProfileFile(e, dataDir);
          tables.push(tableFor(e, read, profile, pty.gatewayPath, ptys.get(`${read}:reference-shoe`)!.gatewayPath));
        }
      }
      rec = await recordMqtt(broker.url, 'casino/#');
      const cfg = validateConfig({ mqtt: { url: broker.url }, dataDir, http: { enabled: false }, tables: tables.map((t) => t.table) });
      gw = await startGateway(cfg, { simulators: loadSimulators, logger: silentLogger });
      for (const t of tables) {
        const id = String(t.table.id);
        await rec.waitFor((m) => on(id, `devices/${t.device}`)(m) && m.payload.state === 'connected');
        await rec.waitFor((m) => on(id, 'status')(m) && m.payload.state === 'online');
      }
    }, 90_000);

    afterAll(async () => {
      await gw?.stop();
      await rec?.close();
      for (const p of ptys.values()) await p.dispose();
      await broker?.stop();
      if (dataDir) await removeTempDir(dataDir);
    });

    /** writes a deal's bytes, several frames and faults per write: no pause for a timer to separate them */
    async function send(pty: PtyPair, writes: readonly Buffer[]): Promise<void> {
      for (let i = 0; i < writes.length; i += 4) await pty.write(Buffer.concat(writes.slice(i, i + 4)));
    }

    /** every fault was a counted reject (a bad-frame alert), and no frame was lost (no frame-gap) */
    async function faultsRejectedNothingLost(table: string): Promise<void> {
      await rec.waitFor((m) => on(table, 'alerts')(m) && m.payload.kind === 'bad-frame');
      expect(rec.messages.filter((m) => on(table, 'alerts')(m) && m.payload.kind === 'frame-gap')).toEqual([]);
    }

    describe.each(READS)('through the %s profile', (read) => {
      it.each(SHOES.map((e) => [e.name, e] as const))(
        '%s: every card placed right, every fault a reject, no frame lost',
        async (_name, e) => {
          const table = tableOf(read, e.name);
          await send(ptyOf(read, e), buildDeal(e, shoeDeal(false)).writes);
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
          await faultsRejectedNothingLost(table);
        },
        30_000,
      );

      it('sync-keno: the draw is one complete result with every ball in order, every fault a reject', async () => {
        const table = tableOf(read, KENO.name);
        await send(ptyOf(read, KENO), buildDeal(KENO).writes);
        const r = (await rec.waitFor(on(table, 'result'), 20_000)).payload;
        expect(r).toMatchObject({ status: 'complete', balls: KENO_BALLS });
        await faultsRejectedNothingLost(table);
      }, 30_000);

      it('bitfield-dice: every roll of a session with escaped bytes read with its dice and bounces, every fault a reject', async () => {
        const table = tableOf(read, DICE.name);
        const deal = buildDeal(DICE, diceSession(), 0x70);
        expect(Buffer.concat(deal.writes).includes(0x7d)).toBe(true);
        await send(ptyOf(read, DICE), deal.writes);
        const rolls = deal.expected.filter((x) => x.startsWith('ROLL ')).map((x) => x.slice(5).split(' ')[0]);
        expect(rolls).toHaveLength(30);
        const results = await rec.waitForCount(on(table, 'result'), rolls.length, 20_000);
        expect(results.map((m) => `${m.payload.dice.join(',')}/${m.payload.bounces}`)).toEqual(rolls);
        expect(results.every((m) => m.payload.status === 'complete')).toBe(true);
        await faultsRejectedNothingLost(table);
      }, 30_000);

      it('hex-trailer-shuffler: every state and count read in order, every fault a reject', async () => {
        const table = tableOf(read, SHUFFLER.name);
        const deal = buildDeal(SHUFFLER);
        await send(ptyOf(read, SHUFFLER), deal.writes);
        const want = deal.expected.filter((x) => x.startsWith('SHUF_STATE ') || x.startsWith('COUNT ')).map((x) => x.split(' ')[1]);
        expect(want).toEqual(['IDLE', 'SHUFFLING', '416', 'READY', 'JAM', 'IDLE', '52']);
        const got = await rec.waitForCount((m) => on(table, 'events')(m) && m.payload.kind === 'shuffler', want.length, 20_000);
        expect(got.map((m) => String(m.payload.state ?? m.payload.count))).toEqual(want);
        await rec.waitFor((m) => on(table, 'alerts')(m) && m.payload.kind === 'bad-frame');
        // what the table does with them: the JAM is an alert
        await rec.waitFor((m) => on(table, 'alerts')(m) && m.payload.kind === 'shuffler-jam');
      }, 30_000);
    });
  },
);
