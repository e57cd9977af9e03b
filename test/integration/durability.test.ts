/**
 * Nothing lost: a subscriber that stays up sees every result, in order, with no gap in `seq` and
 * the content a fault-free run gives — while the gateway is SIGKILLed mid-round and restarted, and
 * while the broker is stopped mid-shoe and restarted.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/app/config/load-config.js';
import { startGateway, type Gateway } from '../../src/app/gateway.js';
import { loadSimulators } from '../../simulators/load.js';
import { silentLogger } from '../../src/runtime/log.js';
import { GatewayStore } from '../../src/adapters/store/gateway-store.js';
import { replayTable } from '../../src/app/replay/replay-journal.js';
import { startMosquitto } from '../../dev/rig/mosquitto.js';
import { createPtyPair } from '../../dev/rig/pty-pair.js';
import { realIoOrSkip } from '../helpers/real-io.js';
import { ReferenceShoe } from '../helpers/reference-shoe.js';
import { makeTempDir } from '../../dev/rig/temp-dir.js';

const io = realIoOrSkip(['socat', 'mosquitto']);
const ROOT = join(import.meta.dirname, '..', '..');

interface Received {
  topic: string;
  raw: string;
  payload: any;
}

/** a subscriber with a persistent session (QoS 1), so the broker keeps its messages across its own restart */
async function persistentSubscriber(
  url: string,
  clientId: string,
): Promise<{ client: MqttClient; got: Received[]; waitFor(pred: (m: Received) => boolean, ms?: number): Promise<Received> }> {
  const got: Received[] = [];
  const client = mqtt.connect(url, { clientId, clean: false, reconnectPeriod: 100, protocolVersion: 4 });
  client.on('message', (topic, payload) => {
    const raw = payload.toString('utf8');
    let p: unknown = null;
    try {
      p = JSON.parse(raw);
    } catch {
      /* keep raw */
    }
    got.push({ topic, raw, payload: p });
  });
  await new Promise<void>((resolve) => client.once('connect', () => resolve()));
  await client.subscribeAsync('casino/#', { qos: 1 });
  const waitFor = async (pred: (m: Received) => boolean, ms = 15000) => {
    const end = Date.now() + ms;
    for (;;) {
      const m = got.find(pred);
      if (m) return m;
      if (Date.now() > end)
        throw new Error(
          `timed out; got ${got.length} messages, last: ${got
            .slice(-5)
            .map((x) => x.topic)
            .join(', ')}`,
        );
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return { client, got, waitFor };
}

/** per table: every seq'd message once, the same content if seen twice, and no gap */
function checkSeq(got: Received[], table: string): number[] {
  const bySeq = new Map<number, string>();
  for (const m of got) {
    if (!m.topic.startsWith(`casino/${table}/`) || m.topic.endsWith('/status')) continue;
    const seq = m.payload.seq as number;
    const prev = bySeq.get(seq);
    if (prev !== undefined) expect(m.raw, `seq ${seq} delivered twice with different content`).toBe(prev);
    bySeq.set(seq, m.raw);
  }
  const seqs = [...bySeq.keys()].sort((a, b) => a - b);
  for (let i = 1; i < seqs.length; i++) expect(seqs[i], `gap after seq ${seqs[i - 1]}`).toBe(seqs[i - 1] + 1);
  return seqs;
}

const results = (got: Received[], table: string) => {
  const seen = new Map<number, any>();
  for (const m of got) if (m.topic === `casino/${table}/result`) seen.set(m.payload.seq, m.payload);
  return [...seen.values()].sort((a, b) => a.seq - b.seq).map((r) => ({ roundId: r.roundId, status: r.status, cards: r.cards, outcome: r.outcome }));
};

const ROUNDS = [
  ['9H', 'KD', '9C', '2S'],
  ['2H', '3D', '3C', 'KS', '8D'],
  ['6H', '4D', 'KC', 'AS', '3H'],
  ['7H', '7D', 'KH', 'KD'],
];
const EXPECTED = [
  { cards: { player: ['9H', '9C'], banker: ['KD', '2S'], burn: [] }, winner: 'player' },
  { cards: { player: ['2H', '3C', '8D'], banker: ['3D', 'KS'], burn: [] }, winner: 'tie' },
  { cards: { player: ['6H', 'KC'], banker: ['4D', 'AS', '3H'], burn: [] }, winner: 'banker' },
  { cards: { player: ['7H', 'KH'], banker: ['7D', 'KD'], burn: [] }, winner: 'tie' },
];

describe.skipIf(!io.available)('durable delivery and crash recovery', () => {
  const cleanups: Array<() => Promise<unknown> | unknown> = [];
  afterEach(async () => {
    for (const c of cleanups.reverse()) await c();
    cleanups.length = 0;
  });

  /** a broker that keeps its subscribers' sessions across its own restart, a pty, a persistent subscriber and a gateway */
  async function outageRig(tableId: string, journal: Record<string, unknown> = {}) {
    const brokerDir = await makeTempDir('teg-broker-');
    const broker = await startMosquitto({ extraConfig: `persistence true\npersistence_location ${brokerDir}/\nautosave_interval 1\n` });
    cleanups.push(() => broker.stop());
    const pty = await createPtyPair();
    cleanups.push(() => pty.dispose());
    const dataDir = await makeTempDir(`teg-${tableId}-`);
    const sub = await persistentSubscriber(broker.url, `${tableId}-sub`);
    cleanups.push(() => sub.client.endAsync());
    const gw: Gateway = await startGateway(
      validateConfig({
        mqtt: { url: broker.url },
        dataDir,
        journal,
        tables: [
          {
            id: tableId,
            game: 'baccarat',
            devices: [{ id: 'shoe-1', kind: 'card-shoe', staleAfterMs: 60000, transport: { type: 'serial', path: pty.gatewayPath } }],
          },
        ],
      }),
      { simulators: loadSimulators, logger: silentLogger },
    );
    cleanups.push(() => gw.stop());
    await sub.waitFor((m) => m.topic === `casino/${tableId}/devices/shoe-1` && m.payload.state === 'connected');
    return { broker, pty, sub, gw };
  }

  it('the gateway SIGKILLed mid-round restarts from its journal and carries on with the next card', async () => {
    const broker = await startMosquitto();
    cleanups.push(() => broker.stop());
    const pty = await createPtyPair();
    cleanups.push(() => pty.dispose());
    const dataDir = await makeTempDir('teg-crash-');
    const cfgFile = join(dataDir, 'gateway.yaml');
    writeFileSync(
      cfgFile,
      JSON.stringify({
        mqtt: { url: broker.url },
        dataDir: join(dataDir, 'data'),
        tables: [
          {
            id: 'crash-01',
            game: 'baccarat',
            devices: [{ id: 'shoe-1', kind: 'card-shoe', staleAfterMs: 60000, transport: { type: 'serial', path: pty.gatewayPath } }],
          },
        ],
      }),
    );
    const sub = await persistentSubscriber(broker.url, 'crash-sub');
    cleanups.push(() => sub.client.endAsync());
    let child: ChildProcess | null = null;
    const startChild = async () => {
      child = spawn(process.execPath, ['--import', 'tsx', 'src/app/cli/main.ts', 'start', '--config', cfgFile], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, LOG_FORMAT: 'json' },
      });
      let err = '';
      child.stderr!.on('data', (d) => {
        err += String(d);
      });
      const online = sub.got.length;
      await sub
        .waitFor((m) => sub.got.indexOf(m) >= online && m.topic === 'casino/crash-01/devices/shoe-1' && m.payload.state === 'connected', 20000)
        .catch((e) => {
          throw new Error(`${(e as Error).message}\nstderr: ${err}`);
        });
    };
    cleanups.push(() => {
      child?.kill('SIGKILL');
    });
    await startChild();
    const shoe = new ReferenceShoe(pty);
    await shoe.send('STATE', 'LOADED');
    await shoe.cards('AS', 'QC'); // reveal A -> burn 1
    await shoe.cards(...ROUNDS[0]);
    await sub.waitFor((m) => m.topic === 'casino/crash-01/result');
    await shoe.cards(...ROUNDS[1].slice(0, 3));
    await sub.waitFor((m) => m.topic === 'casino/crash-01/events' && m.payload.card === '3C');
    await new Promise((r) => setTimeout(r, 100));
    // power cut
    const dead = new Promise((r) => child!.once('exit', r));
    child!.kill('SIGKILL');
    await dead;
    await startChild();
    await shoe.cards(...ROUNDS[1].slice(3));
    await shoe.cards(...ROUNDS[2], ...ROUNDS[3]);
    await sub.waitFor((m) => m.topic === 'casino/crash-01/result' && m.payload.cards.player[0] === '7H');
    const got = results(sub.got, 'crash-01');
    expect(got).toHaveLength(4);
    got.forEach((r, i) => {
      expect(r.status).toBe('complete');
      expect(r.cards).toEqual(EXPECTED[i].cards);
      expect(r.outcome.winner).toBe(EXPECTED[i].winner);
    });
    expect(got.map((r) => r.roundId)).toEqual(['crash-01-s0002-r0001', 'crash-01-s0002-r0002', 'crash-01-s0002-r0003', 'crash-01-s0002-r0004']);
    checkSeq(sub.got, 'crash-01');
    // the journal replays to the same bytes
    const dead2 = new Promise((r) => child!.once('exit', r));
    child!.kill('SIGTERM');
    await dead2;
    const store = new GatewayStore(join(dataDir, 'data'), { synchronous: 'normal', retentionDays: 14 });
    try {
      const rep = replayTable(store, 'crash-01');
      expect(rep.mismatch).toBeNull();
      expect(rep.results).toBe(4);
    } finally {
      store.close();
    }
  }, 90_000);

  it('the broker stopped mid-shoe: results wait in the outbox and arrive after its restart, in order, without a gap', async () => {
    const { broker, pty, sub, gw } = await outageRig('out-01');
    const shoe = new ReferenceShoe(pty);
    await shoe.cards(...ROUNDS[0]);
    await sub.waitFor((m) => m.topic === 'casino/out-01/result');
    await new Promise((r) => setTimeout(r, 300));
    await broker.pause();
    await shoe.cards(...ROUNDS[1], ...ROUNDS[2]);
    const table = gw.tables[0];
    const end = Date.now() + 5000;
    while (table.outbox.depth < 2 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    expect(table.outbox.depth).toBeGreaterThanOrEqual(2); // both results (and their events) wait
    await new Promise((r) => setTimeout(r, 500));
    await broker.resume();
    await shoe.cards(...ROUNDS[3]);
    await sub.waitFor((m) => m.topic === 'casino/out-01/result' && m.payload.cards.player[0] === '7H', 30000);
    const got = results(sub.got, 'out-01');
    expect(got.map((r) => r.cards)).toEqual(EXPECTED.map((e) => e.cards));
    checkSeq(sub.got, 'out-01');
    const endDrain = Date.now() + 5000;
    while (table.outbox.depth > 0 && Date.now() < endDrain) await new Promise((r) => setTimeout(r, 20));
    expect(table.outbox.depth).toBe(0);
  }, 90_000);

  it('an outbox at its bound raises outbox-filling and outbox-full, holds the shoe (LOCK) and releases it (UNLOCK) once drained; nothing is dropped', async () => {
    const { broker, pty, sub } = await outageRig('full-01', { outboxMaxMessages: 12 });
    await broker.pause();
    const shoe = new ReferenceShoe(pty);
    await shoe.cards(...ROUNDS[0], ...ROUNDS[1]); // 9 cards: 9 events + round snapshots + 2 results > 12
    await pty.waitForReceived('LOCK', 10000);
    expect(pty.received().toString('latin1')).toMatch(/\$GW,\d+,LOCK\*[0-9A-F]{2}\r\n/);
    pty.clearReceived();
    await broker.resume();
    await pty.waitForReceived('UNLOCK', 20000);
    const full = await sub.waitFor((m) => m.topic === 'casino/full-01/alerts' && m.payload.kind === 'outbox-full', 20000);
    expect(full.payload.severity).toBe('critical');
    await sub.waitFor((m) => m.topic === 'casino/full-01/alerts' && m.payload.kind === 'outbox-filling');
    await sub.waitFor((m) => m.topic === 'casino/full-01/result' && m.payload.cards.player[0] === '2H', 20000);
    expect(results(sub.got, 'full-01').map((r) => r.cards)).toEqual(EXPECTED.slice(0, 2).map((e) => e.cards));
    checkSeq(sub.got, 'full-01');
  }, 90_000);
});
