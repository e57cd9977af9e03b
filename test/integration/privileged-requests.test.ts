/**
 * Privileged requests on a real Mosquitto with the password file and ACL of docs/SECURITY.md:
 * each engine account writes requests to its own tables only, the pit tool to the privileged
 * commands. A foreign engine's correction is refused by the broker (MQTT 5 PUBACK "not
 * authorized") and never reaches the table; the table's own engine's unsigned correction, with a
 * self-declared `by`, is refused by the gateway (`signature-required`) and changes nothing; the
 * pit's correction signed with `tablegw sign-request` by a key the table lists is taken, with `by`
 * the key's configured name; the same signed bytes again are `replayed-request`.
 * The keys are made with `tablegw keygen`, the request signed with `tablegw sign-request`.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/app/config/load-config.js';
import { startGateway, type Gateway } from '../../src/app/gateway.js';
import { loadSimulators } from '../../simulators/load.js';
import { silentLogger } from '../../src/runtime/log.js';
import { startMosquitto, type MosquittoBroker } from '../../dev/rig/mosquitto.js';
import { recordMqtt, type MqttRecorder } from '../../dev/rig/mqtt-recorder.js';
import { createPtyPair, type PtyPair } from '../../dev/rig/pty-pair.js';
import { realIoOrSkip } from '../helpers/real-io.js';
import { ReferenceShoe } from '../helpers/reference-shoe.js';
import { makeTempDir, removeTempDir } from '../../dev/rig/temp-dir.js';

const io = realIoOrSkip(['socat', 'mosquitto', 'mosquitto_passwd']);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ROOT = join(import.meta.dirname, '..', '..');
const DT = 'dt-07';
const PW = { 'table-pc-07': 'pc-pw-1', 'engine-baccarat': 'bac-pw-2', 'engine-dragon-tiger': 'dt-pw-3', 'pit-tool': 'pit-pw-4', observer: 'obs-pw-5' };

/** docs/SECURITY.md's sample ACL, for a PC running bac-07 and dt-07 */
const ACL = `
user table-pc-07
topic write casino/bac-07/#
topic read  casino/bac-07/request/#
topic write casino/dt-07/#
topic read  casino/dt-07/request/#

user engine-baccarat
topic read  casino/bac-07/#
topic write casino/bac-07/request/#

user engine-dragon-tiger
topic read  casino/dt-07/#
topic write casino/dt-07/request/#

user pit-tool
topic read  casino/+/response/#
topic write casino/+/request/void-round
topic write casino/+/request/correction
topic write casino/+/request/resume-round
topic write casino/+/request/end-shoe
topic write casino/+/request/new-shoe

user observer
topic read  #
`;

function tablegw(args: string[]): string {
  return execFileSync(process.execPath, ['--import', 'tsx', 'src/app/cli/main.ts', ...args], { cwd: ROOT, encoding: 'utf8' });
}

describe.skipIf(!io.available)("privileged requests with the broker's password file and ACL (real Mosquitto)", () => {
  let broker: MosquittoBroker;
  let rec: MqttRecorder;
  let pty: PtyPair;
  let gw: Gateway | undefined;
  let dir: string;
  const clients: MqttClient[] = [];
  const connect = async (user: keyof typeof PW) => {
    const c = await mqtt.connectAsync(broker.url, {
      protocolVersion: 5,
      clientId: `${user}-${process.pid}`,
      username: user,
      password: PW[user],
      reconnectPeriod: 0,
    });
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    dir = await makeTempDir('teg-priv-');
    broker = await startMosquitto({ users: PW, acl: ACL });
    pty = await createPtyPair();
    rec = await recordMqtt(broker.url, `casino/${DT}/#`, { username: 'observer', password: PW.observer });
    tablegw(['keygen', '--out', join(dir, 'pit-boss-7')]);
    const cfg = validateConfig({
      mqtt: { url: broker.url, username: 'table-pc-07', password: PW['table-pc-07'] },
      dataDir: join(dir, 'data'),
      http: { enabled: false },
      health: { intervalMs: 0 },
      tables: [
        {
          id: DT,
          game: 'dragon-tiger',
          betting: 'engine',
          devices: [{ id: 'shoe-1', kind: 'card-shoe', staleAfterMs: 60_000, transport: { type: 'serial', path: pty.gatewayPath } }],
          requests: {
            privileged: { keys: [{ name: 'pit-boss-7', publicKeyFile: join(dir, 'pit-boss-7.pub'), commands: ['correction', 'void-round', 'resume-round'] }] },
          },
        },
      ],
    });
    gw = await startGateway(cfg, { simulators: loadSimulators, logger: silentLogger });
    await rec.waitFor((m) => m.topic === `casino/${DT}/devices/shoe-1` && m.payload?.state === 'connected', 10_000);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true).catch(() => {})));
    await gw?.stop();
    await rec?.close();
    await pty?.dispose();
    await broker?.stop();
    if (dir) await removeTempDir(dir);
  });

  it("a foreign engine is refused by the broker, an unsigned correction by the gateway; the signed one is taken with by = the key's name", async () => {
    const dtEngine = await connect('engine-dragon-tiger');
    const answer = async (command: string, transaction: string) =>
      (await rec.waitFor((m) => m.topic === `casino/${DT}/response/${command}` && m.payload?.transaction === transaction, 5000)).payload;
    await dtEngine.publishAsync(`casino/${DT}/request/open-betting`, JSON.stringify({ transaction: 'o1' }), { qos: 1 });
    expect(await answer('open-betting', 'o1')).toMatchObject({ status: 'ok' });
    const shoe = new ReferenceShoe(pty);
    await shoe.cards('4D');
    await dtEngine.publishAsync(`casino/${DT}/request/close-betting`, JSON.stringify({ transaction: 'c1' }), { qos: 1 });
    expect(await answer('close-betting', 'c1')).toMatchObject({ status: 'ok' });
    await shoe.cards('2H', 'KS'); // dragon 2, tiger K: tiger wins
    const result = (await rec.waitFor((m) => m.topic === `casino/${DT}/result` && m.payload?.status === 'complete', 5000)).payload;
    expect(result).toMatchObject({ cards: { dragon: ['2H'], tiger: ['KS'] }, outcome: { winner: 'tiger' } });
    const swap = { kind: 'cards', roundId: result.roundId, cards: { dragon: ['KS'], tiger: ['2H'] } };

    // the baccarat engine's account may not write dt-07's requests: the broker says so (PUBACK 0x87)
    const bacEngine = await connect('engine-baccarat');
    await expect(
      bacEngine.publishAsync(`casino/${DT}/request/correction`, JSON.stringify({ transaction: 'x1', by: 'pit-boss-anyone', ...swap }), { qos: 1 }),
    ).rejects.toMatchObject({ code: 135 });
    // the table's own engine: the gateway refuses an unsigned correction of a completed round
    await dtEngine.publishAsync(`casino/${DT}/request/correction`, JSON.stringify({ transaction: 'x2', by: 'pit-boss-anyone', ...swap }), { qos: 1 });
    expect(await answer('correction', 'x2')).toMatchObject({ status: 'error', code: 'signature-required' });
    await sleep(300);
    expect(rec.messages.filter((m) => m.topic === `casino/${DT}/response/correction` && m.payload?.transaction === 'x1')).toEqual([]);
    expect(rec.messages.filter((m) => m.topic === `casino/${DT}/result` && m.payload?.status !== 'complete')).toEqual([]);

    // the pit: signed with its key by tablegw sign-request, sent from its own account
    const signed = tablegw([
      'sign-request',
      '--key',
      join(dir, 'pit-boss-7.key'),
      '--key-id',
      'pit-boss-7',
      '--table',
      DT,
      '--command',
      'correction',
      '--transaction',
      'p1',
      JSON.stringify({ ...swap, by: 'someone-else', reason: 'cards swapped' }),
    ]).trim();
    const pit = await connect('pit-tool');
    await pit.publishAsync(`casino/${DT}/request/correction`, signed, { qos: 1 });
    expect(await answer('correction', 'p1')).toMatchObject({ status: 'ok', data: { roundId: result.roundId, supersedesSeq: result.seq } });
    const corrected = (await rec.waitFor((m) => m.topic === `casino/${DT}/result` && m.payload?.status === 'corrected', 5000)).payload;
    expect(corrected).toMatchObject({
      roundId: result.roundId,
      outcome: { winner: 'dragon' },
      correction: { kind: 'cards', by: 'pit-boss-7', reason: 'cards swapped' },
    });
    // the same signed bytes again: executed once; within the idempotency window the retry gets the
    // first answer again (docs/ENGINES.md), never a second correction
    await pit.publishAsync(`casino/${DT}/request/correction`, signed, { qos: 1 });
    await rec.waitForCount((m) => m.topic === `casino/${DT}/response/correction` && m.payload?.transaction === 'p1', 2, 5000);
    const answers = rec.messages.filter((m) => m.topic === `casino/${DT}/response/correction` && m.payload?.transaction === 'p1').map((m) => m.payload);
    expect(answers[1]).toMatchObject({ status: 'ok', replayed: true, replayOf: answers[0].seq, data: answers[0].data });
    expect(rec.messages.filter((m) => m.topic === `casino/${DT}/result` && m.payload?.status === 'corrected')).toHaveLength(1);
  }, 60_000);
});
