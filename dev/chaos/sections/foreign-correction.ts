/**
 * Foreign correction (issue 33 point 4): a Dragon Tiger table behind a real Mosquitto with the
 * password file and ACL of docs/SECURITY.md (each engine account writes its own tables' requests
 * only; a pit-tool account the privileged commands). After every round the round's result is
 * attacked the ways an engine or anyone on the broker could: the baccarat engine's account writes
 * the Dragon Tiger table's `correction` and `void-round` (the broker must refuse them); the table's
 * own engine sends them unsigned with a self-declared `by`, signed by a key the table does not
 * list, under the pit key's name with another key, with a pit signature captured for another table
 * or command, stale, or the pit's own earlier signed request again; a round held after a frame gap
 * gets unsigned `resume-round`, `void-round`, `new-shoe` and `end-shoe`. The pit's real, signed
 * corrections and resumes go through. Must be 0: results changed by a foreign or unsigned
 * correction, held rounds released without a signature, attacks answered ok, the pit's signed
 * requests refused, error answers without a stable code.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import { validateConfig } from '../../../src/app/config/load-config.js';
import { startGateway } from '../../../src/app/gateway.js';
import { signRequest } from '../../../src/adapters/security/request-signing.js';
import { REQUEST_ERROR_CODES } from '../../../src/core/vocabulary/requests.js';
import { loadSimulators } from '../../../simulators/load.js';
import { createLogger } from '../../../src/runtime/log.js';
import { startMosquitto } from '../../rig/mosquitto.js';
import { recordMqtt, type RecordedMessage } from '../../rig/mqtt-recorder.js';
import { createPtyPair } from '../../rig/pty-pair.js';
import { makeTempDir, removeTempDir } from '../../rig/temp-dir.js';
import { ReferenceShoe } from '../../../test/helpers/reference-shoe.js';
import { prng } from '../prng.js';
import type { ChaosSection } from '../section.js';

const T = 'dt-07';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const PW = { 'table-pc-07': 'pc-pw', 'engine-baccarat': 'bac-pw', 'engine-dragon-tiger': 'dt-pw', 'pit-tool': 'pit-pw', observer: 'obs-pw' };
const PRIVILEGED = ['void-round', 'correction', 'resume-round', 'end-shoe', 'new-shoe'];
const ACL = [
  'user table-pc-07',
  'topic write casino/bac-07/#',
  'topic read casino/bac-07/request/#',
  `topic write casino/${T}/#`,
  `topic read casino/${T}/request/#`,
  '',
  'user engine-baccarat',
  'topic read casino/bac-07/#',
  'topic write casino/bac-07/request/#',
  '',
  'user engine-dragon-tiger',
  `topic read casino/${T}/#`,
  `topic write casino/${T}/request/#`,
  '',
  'user pit-tool',
  'topic read casino/+/response/#',
  ...PRIVILEGED.map((c) => `topic write casino/+/request/${c}`),
  '',
  'user observer',
  'topic read #',
  '',
].join('\n');
const RANKS = 'A23456789TJQK';
const SUITS = 'SHDC';

const section: ChaosSection = {
  name: 'foreign-correction',
  async run({ quick, log }) {
    const rounds = quick ? 4 : 16;
    const rand = prng(33);
    const dir = await makeTempDir('teg-chaos-fc-');
    const broker = await startMosquitto({ users: PW, acl: ACL });
    const pty = await createPtyPair();
    const rec = await recordMqtt(broker.url, `casino/${T}/#`, { username: 'observer', password: PW.observer });
    const pit = generateKeyPairSync('ed25519');
    const floor = generateKeyPairSync('ed25519'); // listed for resume-round only
    const stranger = generateKeyPairSync('ed25519');
    const pem = (k: KeyObject) => k.export({ type: 'spki', format: 'pem' }).toString();
    const logLines: string[] = [];
    const cfg = validateConfig({
      mqtt: { url: broker.url, username: 'table-pc-07', password: PW['table-pc-07'] },
      dataDir: `${dir}/data`,
      http: { enabled: false },
      health: { intervalMs: 0 },
      tables: [
        {
          id: T,
          game: 'dragon-tiger',
          betting: 'engine',
          devices: [{ id: 'shoe-1', kind: 'card-shoe', staleAfterMs: 600_000, transport: { type: 'serial', path: pty.gatewayPath } }],
          requests: {
            privileged: {
              keys: [
                { name: 'pit-boss-7', publicKey: pem(pit.publicKey), commands: PRIVILEGED },
                { name: 'floor-1', publicKey: pem(floor.publicKey), commands: ['resume-round'] },
              ],
            },
          },
        },
      ],
    });
    const gw = await startGateway(cfg, { simulators: loadSimulators, logger: createLogger({ json: true, write: (l) => logLines.push(l) }) });
    const clients: MqttClient[] = [];
    const connect = async (user: keyof typeof PW) => {
      const c = await mqtt.connectAsync(broker.url, { protocolVersion: 5, clientId: `fc-${user}`, username: user, password: PW[user], reconnectPeriod: 0 });
      clients.push(c);
      return c;
    };
    let tx = 0;
    const attacks: Record<string, number> = {};
    let refusedByBroker = 0;
    let brokerLetThrough = 0;
    const attackTx = new Set<string>();
    const pitTx = new Set<string>();
    try {
      await rec.waitFor((m) => m.topic === `casino/${T}/devices/shoe-1` && m.payload?.state === 'connected', 10_000);
      const engine = await connect('engine-dragon-tiger');
      const foreign = await connect('engine-baccarat');
      const pitTool = await connect('pit-tool');
      const shoe = new ReferenceShoe(pty);
      const answer = async (command: string, transaction: string): Promise<RecordedMessage> =>
        rec.waitFor((m) => m.topic === `casino/${T}/response/${command}` && m.payload?.transaction === transaction, 5000);
      const ask = async (client: MqttClient, command: string, body: Record<string, unknown> | string) =>
        client.publishAsync(`casino/${T}/request/${command}`, typeof body === 'string' ? body : JSON.stringify(body), { qos: 1 });
      /** an attack from the table's own engine: answered, never ok */
      const attack = async (kind: string, command: string, body: Record<string, unknown> | string, transaction: string) => {
        attacks[kind] = (attacks[kind] ?? 0) + 1;
        attackTx.add(transaction);
        await ask(engine, command, body);
        await answer(command, transaction);
      };
      const sign = (
        command: string,
        body: Record<string, unknown>,
        o: { key?: KeyObject; keyId?: string; table?: string; signedAs?: string; at?: number } = {},
      ) =>
        signRequest({
          table: o.table ?? T,
          command: o.signedAs ?? command,
          body,
          privateKey: o.key ?? pit.privateKey,
          keyId: o.keyId ?? 'pit-boss-7',
          ...(o.at ? { at: o.at } : {}),
        });
      const card = () => RANKS[Math.floor(rand() * 13)] + SUITS[Math.floor(rand() * 4)];
      let lastPitCorrection = '';
      let heldRounds = 0;
      let heldReleasedUnsigned = 0;

      for (let r = 0; r < rounds; r++) {
        const open = `o${r}`;
        await ask(engine, 'open-betting', { transaction: open });
        await answer('open-betting', open);
        await shoe.cards(card());
        await ask(engine, 'close-betting', { transaction: `c${r}` });
        await answer('close-betting', `c${r}`);
        const held = r % 2 === 1;
        await shoe.cards(card());
        if (held) shoe.seq = (shoe.seq + 2) % 65536; // two frames lost on the line: the round is held
        await shoe.cards(card());
        if (held) {
          heldRounds++;
          await rec.waitFor((m) => m.topic === `casino/${T}/round` && m.payload?.phase === 'held', 5000);
          for (const command of ['resume-round', 'void-round', 'new-shoe', 'end-shoe']) {
            const t = `h${++tx}`;
            const args = command === 'resume-round' ? { by: 'pit-boss-anyone' } : command === 'void-round' ? { reason: 'x' } : {};
            await attack(`unsigned ${command} of a held round`, command, { transaction: t, ...args }, t);
          }
          const t1 = `h${++tx}`;
          await attack(
            'resume-round signed by an unlisted key',
            'resume-round',
            sign('resume-round', { transaction: t1, by: 'x' }, { key: stranger.privateKey, keyId: 'engine-dt' }),
            t1,
          );
          for (const command of ['resume-round', 'void-round']) {
            await foreign.publishAsync(`casino/${T}/request/${command}`, JSON.stringify({ transaction: `f${++tx}`, by: 'x', reason: 'x' }), { qos: 1 }).then(
              () => {
                brokerLetThrough++;
              },
              () => {
                refusedByBroker++;
              },
            );
            attackTx.add(`f${tx}`);
          }
          const lastRound = rec.messages.filter((m) => m.topic === `casino/${T}/round`).at(-1);
          if (lastRound?.payload?.phase !== 'held') heldReleasedUnsigned++;
          // the floor's key may resume
          const ok = `p${++tx}`;
          pitTx.add(ok);
          await ask(pitTool, 'resume-round', sign('resume-round', { transaction: ok, by: 'floor-1' }, { key: floor.privateKey, keyId: 'floor-1' }));
          await answer('resume-round', ok);
        }
        const result = (
          await rec.waitFor(
            (m) =>
              m.topic === `casino/${T}/result` &&
              m.payload?.status === 'complete' &&
              m.payload?.roundId === rec.messages.filter((x) => x.topic === `casino/${T}/round`).at(-1)?.payload?.roundId,
            5000,
          )
        ).payload;
        const swap = { kind: 'cards', roundId: result.roundId, cards: { dragon: result.cards.tiger, tiger: result.cards.dragon } };
        const body = (t: string) => ({ transaction: t, by: 'pit-boss-anyone', reason: 'swap', ...swap });
        const t = () => `a${++tx}`;
        let id = t();
        await attack('unsigned correction', 'correction', body(id), id);
        id = t();
        await attack(
          'unsigned void of the completed round',
          'void-round',
          { transaction: id, roundId: result.roundId, by: 'pit-boss-anyone', reason: 'x' },
          id,
        );
        id = t();
        await attack(
          'signed by a key the table does not list',
          'correction',
          sign('correction', body(id), { key: stranger.privateKey, keyId: 'engine-dt' }),
          id,
        );
        id = t();
        await attack("the pit key's name, another key", 'correction', sign('correction', body(id), { key: stranger.privateKey }), id);
        id = t();
        await attack('a key listed for resume-round only', 'correction', sign('correction', body(id), { key: floor.privateKey, keyId: 'floor-1' }), id);
        id = t();
        await attack('a pit signature for another table', 'correction', sign('correction', body(id), { table: 'bac-07' }), id);
        id = t();
        await attack('a pit signature for another command', 'correction', sign('correction', body(id), { signedAs: 'void-round' }), id);
        id = t();
        await attack('a pit signature 10 minutes old', 'correction', sign('correction', body(id), { at: Date.now() - 600_000 }), id);
        id = t();
        const tampered = { ...sign('correction', { ...body(id), cards: swap.cards }), cards: { dragon: result.cards.dragon, tiger: result.cards.tiger } };
        await attack('a pit signature over other cards', 'correction', tampered, id);
        if (lastPitCorrection) {
          const prev = JSON.parse(lastPitCorrection) as { transaction: string };
          attacks["the pit's earlier signed correction again"] = (attacks["the pit's earlier signed correction again"] ?? 0) + 1;
          const before = rec.messages.filter((m) => m.topic === `casino/${T}/response/correction` && m.payload?.transaction === prev.transaction).length;
          await ask(engine, 'correction', lastPitCorrection);
          await rec.waitForCount((m) => m.topic === `casino/${T}/response/correction` && m.payload?.transaction === prev.transaction, before + 1, 5000);
        }
        for (const command of ['correction', 'void-round']) {
          await foreign.publishAsync(`casino/${T}/request/${command}`, JSON.stringify(body(`f${++tx}`)), { qos: 1 }).then(
            () => {
              brokerLetThrough++;
            },
            () => {
              refusedByBroker++;
            },
          );
          attackTx.add(`f${tx}`);
        }
        // the pit corrects every other round, for real
        if (r % 2 === 0) {
          const ok = `p${++tx}`;
          pitTx.add(ok);
          lastPitCorrection = JSON.stringify(sign('correction', { transaction: ok, reason: 'cards swapped', ...swap }));
          await ask(pitTool, 'correction', lastPitCorrection);
          await answer('correction', ok);
        }
      }
      await sleep(500);
      const responses = rec.messages.filter((m) => m.topic.startsWith(`casino/${T}/response/`)).map((m) => m.payload);
      const attackAnswers = responses.filter((p) => attackTx.has(p?.transaction) || (p?.status === 'error' && pitTx.has(p?.transaction)));
      const answeredOk = responses.filter((p) => attackTx.has(p?.transaction) && p.status === 'ok').length;
      // the pit's earlier request sent again has the pit's transaction: its second answer is an attack's
      const pitOk = new Set(responses.filter((p) => pitTx.has(p?.transaction) && p.status === 'ok').map((p) => p.transaction));
      // a copy of the pit's request within the idempotency window gets the first answer again
      // (`replayed: true`, docs/ENGINES.md): nothing executed, so not an attack answered ok; one
      // executed a second time would be an ok answer without `replayed`
      const pitAnswersOk = responses.filter((p) => pitTx.has(p?.transaction) && p.status === 'ok' && p.replayed !== true).length;
      const replayedAnswers = responses.filter((p) => pitTx.has(p?.transaction) && p.replayed === true).length;
      const pitRefused = pitTx.size - pitOk.size;
      const replayTaken = pitAnswersOk - pitOk.size;
      const corrections = rec.messages.filter((m) => m.topic === `casino/${T}/result` && m.payload?.supersedesSeq !== undefined).map((m) => m.payload);
      const pitCorrectionsTaken = [...pitOk].filter((x) => responses.some((p) => p.transaction === x && p.command === 'correction')).length;
      // every superseding result must be one of the pit's signed corrections taken, with its name as `by`
      const notByPit = corrections.filter((c) => c.correction?.by !== 'pit-boss-7').length;
      const changedByOthers = notByPit + Math.max(0, corrections.length - notByPit - pitCorrectionsTaken);
      const codes: Record<string, number> = {};
      for (const p of attackAnswers) if (p?.status === 'error') codes[p.code] = (codes[p.code] ?? 0) + 1;
      const noCode = attackAnswers.filter((p) => p?.status === 'error' && !(REQUEST_ERROR_CODES as readonly string[]).includes(p.code)).length;
      const foreignAnswered = responses.filter((p) => typeof p?.transaction === 'string' && p.transaction.startsWith('f')).length;
      const attacksSent = Object.values(attacks).reduce((a, b) => a + b, 0);
      log(
        `${rounds} rounds (${heldRounds} held), ${attacksSent} attacks from the table's engine, ${refusedByBroker + brokerLetThrough} from a foreign engine; refusals by code: ${JSON.stringify(codes)}`,
      );
      for (const [k, n] of Object.entries(attacks)) log(`  ${k}: ${n}`);
      return {
        section: 'foreign-correction',
        figures: {
          rounds,
          'held-rounds': heldRounds,
          'attacks-sent': attacksSent,
          'foreign-engine-requests-refused-by-broker': refusedByBroker,
          'foreign-engine-requests-let-through-by-broker': brokerLetThrough,
          'foreign-engine-requests-answered': foreignAnswered,
          'pit-requests-taken': pitOk.size,
          'results changed by a foreign or unsigned correction': changedByOthers,
          'held rounds released without a signature': heldReleasedUnsigned,
          'attacks answered ok': answeredOk + replayTaken,
          'copies answered with the first answer (replayed, nothing executed)': replayedAnswers,
          'pit signed requests refused': pitRefused,
          'error answers without a stable code': noCode,
          'machine-failures': logLines.filter((l) => l.includes('table machine failed')).length,
        },
        zeroColumns: [
          'results changed by a foreign or unsigned correction',
          'held rounds released without a signature',
          'attacks answered ok',
          'pit signed requests refused',
          'error answers without a stable code',
          'foreign-engine-requests-let-through-by-broker',
          'foreign-engine-requests-answered',
          'machine-failures',
        ],
      };
    } finally {
      await Promise.all(clients.map((c) => c.endAsync(true).catch(() => {})));
      await gw.stop();
      await rec.close();
      await pty.dispose();
      await broker.stop();
      await removeTempDir(dir);
    }
  },
};

export default section;
