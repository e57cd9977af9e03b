/**
 * A learned profile over a real serial line (issue 32 point 6, its other half): the profile
 * `tablegw profile learn` writes from the corpus capture of the bit-field dice reader is the dice
 * sensor's profile of a real gateway on a real pty with Mosquitto; the reader's independent
 * encoder writes a session of rolls, no-reads and line faults (noise, a frame cut short, a bad
 * check value, several per write), with SEQ values and dice words that need escaping on the wire.
 * Every roll is a complete result with its dice and bounces, every fault a counted reject, no
 * frame lost.
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
import { buildCapture, buildDeal, CORPUS, type DealStep } from '../../dev/corpus/index.js';

const io = realIoOrSkip(['socat', 'mosquitto']);
const DICE = CORPUS.find((e) => e.name === 'bitfield-dice')!;
const TABLE = 'learned-bitfield-dice';

/** a session the learner never saw: 30 rolls and no-reads with line faults, SEQ from 0x70 (so 0x7D..0x7F occur) */
function session(): DealStep[] {
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

describe.skipIf(!io.available)('a learned profile over a real pty with line faults', () => {
  let broker: MosquittoBroker;
  let gw: Gateway;
  let rec: MqttRecorder;
  let pty: PtyPair;
  let dataDir: string;
  const on = (suffix: string) => (m: RecordedMessage) => m.topic === `casino/${TABLE}/${suffix}`;

  beforeAll(async () => {
    broker = await startMosquitto();
    pty = await createPtyPair();
    dataDir = await makeTempDir('teg-learned-serial-');
    const built = buildCapture(DICE);
    const r = learnProfile({ capture: parseCapture(built.text).chunks, script: built.script, kind: 'dice-sensor', name: 'learned-bitfield-dice' });
    if (r.exit !== 0) throw new Error(`learn exit ${r.exit}: ${JSON.stringify(r)}`);
    const profile = join(dataDir, 'learned-bitfield-dice.yaml');
    writeFileSync(profile, r.yaml);
    rec = await recordMqtt(broker.url, 'casino/#');
    const cfg = validateConfig({
      mqtt: { url: broker.url },
      dataDir,
      http: { enabled: false },
      tables: [
        {
          id: TABLE,
          game: 'sic-bo',
          betting: 'none',
          minBounces: 0,
          devices: [{ id: 'dice-1', kind: 'dice-sensor', profile, transport: { type: 'serial', path: pty.gatewayPath } }],
        },
      ],
    });
    gw = await startGateway(cfg, { simulators: loadSimulators, logger: silentLogger });
    await rec.waitFor((m) => on('devices/dice-1')(m) && m.payload.state === 'connected');
    await rec.waitFor((m) => on('status')(m) && m.payload.state === 'online');
  }, 60_000);

  afterAll(async () => {
    await gw?.stop();
    await rec?.close();
    await pty?.dispose();
    await broker?.stop();
    if (dataDir) await removeTempDir(dataDir);
  });

  it('bitfield-dice: every roll read with its dice and bounces, every fault a reject, no frame lost', async () => {
    const deal = buildDeal(DICE, session(), 0x70);
    expect(Buffer.concat(deal.writes).includes(0x7d)).toBe(true);
    for (let i = 0; i < deal.writes.length; i += 4) await pty.write(Buffer.concat(deal.writes.slice(i, i + 4)));
    const rolls = deal.expected.filter((x) => x.startsWith('ROLL ')).map((x) => x.slice(5).split(' ')[0]);
    expect(rolls).toHaveLength(30);
    const results = await rec.waitForCount(on('result'), rolls.length, 20_000);
    expect(results.map((m) => `${m.payload.dice.join(',')}/${m.payload.bounces}`)).toEqual(rolls);
    expect(results.every((m) => m.payload.status === 'complete')).toBe(true);
    await rec.waitFor((m) => on('alerts')(m) && m.payload.kind === 'bad-frame');
    expect(rec.messages.filter((m) => on('alerts')(m) && m.payload.kind === 'frame-gap')).toEqual([]);
  }, 30_000);
});
