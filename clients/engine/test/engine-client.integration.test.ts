/**
 * An engine built on the client drives `betting: engine` simulated tables left to it
 * (`transport.engine: external`) on the real gateway and a real Mosquitto, through a gateway
 * restart and a broker restart: every request gets exactly one answer (a retry's is the first
 * answer again, `replayed: true`, never a second execution), every round opened has exactly one
 * result, nothing is lost (every gap reported is filled), signed results verify, and a forged one
 * is reported as a signature failure, not delivered.
 */
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { validateConfig } from '../../../src/app/config/load-config.js';
import { startGateway, type Gateway } from '../../../src/app/gateway.js';
import { loadSimulators } from '../../../simulators/load.js';
import { silentLogger } from '../../../src/runtime/log.js';
import { startMosquitto } from '../../../dev/rig/mosquitto.js';
import { makeTempDir } from '../../../dev/rig/temp-dir.js';
import { realIoOrSkip } from '../../../test/helpers/real-io.js';
import { until } from '../../../test/helpers/floor.js';
import { EngineClient, type ResponseMessage, type StreamEvent } from '../src/index.js';

const io = realIoOrSkip(['mosquitto']);

const TABLES = [
  { id: 'cl-bac-1', game: 'baccarat' },
  { id: 'cl-bac-2', game: 'baccarat' },
  { id: 'cl-dt-1', game: 'dragon-tiger' },
];

describe.skipIf(!io.available)('the engine client against the real gateway and Mosquitto', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanup.reverse()) await c().catch(() => {});
    cleanup.length = 0;
  });

  it('drives engine tables through a gateway restart and a broker restart: one answer per request, one result per round, nothing lost', async () => {
    const broker = await startMosquitto({ persistent: true });
    cleanup.push(() => broker.stop());
    const dir = await makeTempDir('teg-client-');
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const keyFile = join(dir, 'signing.key');
    writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    const cfg = validateConfig({
      gatewayId: 'client-it',
      mqtt: { url: broker.url, protocolVersion: 5, reconnectMinMs: 100, reconnectMaxMs: 500, sessionExpirySec: 300 },
      dataDir: join(dir, 'data'),
      http: { enabled: false },
      health: { intervalMs: 0 },
      signing: { privateKeyFile: keyFile },
      tables: TABLES.map((t) => ({
        id: t.id,
        game: t.game,
        betting: 'engine',
        devices: [{ id: 'shoe-1', kind: 'card-shoe', transport: { type: 'simulator', seed: t.id, cardIntervalMs: 0, roundIntervalMs: 0, engine: 'external' } }],
      })),
    });
    let gw: Gateway | null = await startGateway(cfg, { simulators: loadSimulators, logger: silentLogger, fast: true });
    cleanup.push(async () => {
      await gw?.stop();
    });

    const engine = await EngineClient.connect({
      url: broker.url,
      clientId: 'client-it-engine',
      publicKeys: [publicKey.export({ type: 'spki', format: 'pem' }).toString()],
    });
    cleanup.push(() => engine.close());
    const events: StreamEvent[] = [];
    engine.events$.subscribe((e) => events.push(e));
    const shoeState = new Map<string, string>();
    const responses = new Map<string, ResponseMessage[]>(); // table -> every answer (deduped by the client)
    const results = new Map<string, Array<{ roundId?: string; status: string; seq: number }>>();
    for (const t of TABLES) {
      responses.set(t.id, []);
      results.set(t.id, []);
      engine.of(t.id, 'response').subscribe((r) => responses.get(t.id)!.push(r));
      engine.of(t.id, 'shoe').subscribe((m) => shoeState.set(t.id, m.state));
      engine.results$(t.id).subscribe((r) => results.get(t.id)!.push({ roundId: r.roundId, status: r.status, seq: r.seq }));
    }

    // discovery: the gateway's retained info names the tables, each one left to an engine
    const info = await engine.gateway((g) => g.gatewayId === 'client-it' && g.state === 'online');
    expect(info.state).toBe('online');
    await until(() => engine.tables().length === TABLES.length, 5_000, 'the tables');
    expect(
      engine
        .tables()
        .map((t) => [t.id, t.game, t.betting])
        .sort(),
    ).toEqual(TABLES.map((t) => [t.id, t.game, 'engine']).sort());

    // the engine: per table, rounds one after the other, each opened and closed by it
    const asked: Array<{ table: string; command: string; transaction: string; answer: ResponseMessage }> = [];
    const ask = async (table: string, command: 'open-betting' | 'close-betting', args: Record<string, unknown>) => {
      const transaction = engine.newTransaction();
      const answer = await engine.request(table, command, args as never, { transaction, timeoutMs: 1_500, attempts: 40, backoffMs: 200, maxBackoffMs: 1_000 });
      asked.push({ table, command, transaction, answer });
      expect(answer, `${table} ${command}`).toMatchObject({ transaction, command });
      return answer;
    };
    const refused = new Set<string>();
    const opened = new Map<string, string[]>(TABLES.map((t) => [t.id, []]));
    let stopAt = Number.POSITIVE_INFINITY;
    let paused = false;
    const idle = new Set<string>();
    const drive = async (table: string) => {
      for (let n = 1; n <= stopAt; n++) {
        idle.add(table);
        while (paused) await new Promise((r) => setTimeout(r, 20));
        idle.delete(table);
        const roundId = `${table}-R${n}`;
        // open on a shoe that deals; a refusal (the shoe is being changed) is retried later as a new request
        let open = null;
        for (let i = 0; i < 100 && open?.status !== 'ok'; i++) {
          if (open) {
            expect(open).toMatchObject({ status: 'error', code: 'wrong-phase' });
            await new Promise((r) => setTimeout(r, 100));
          }
          await until(() => shoeState.get(table) === 'dealing' || shoeState.get(table) === 'last-round', 30_000, `${table}: a shoe to deal from`);
          open = await ask(table, 'open-betting', { roundId });
        }
        expect(open).toMatchObject({ status: 'ok', data: { roundId } });
        opened.get(table)!.push(roundId);
        const closed = await ask(table, 'close-betting', {});
        // the table may void a round while betting is open (e.g. a card dealt face up: the new shoe's burn): then there is nothing to close
        if (closed.status === 'error') {
          expect(closed.code).toBe('wrong-phase');
          refused.add(roundId);
        }
        await until(() => results.get(table)!.some((r) => r.roundId === roundId), 30_000, `the result of ${roundId}`);
      }
    };
    const failures: unknown[] = [];
    const loops = TABLES.map((t) =>
      drive(t.id).catch((e: unknown) => {
        failures.push(e);
      }),
    );
    const roundsDone = () => Math.min(...TABLES.map((t) => results.get(t.id)!.length));
    const progress = async (rounds: number, what: string) => {
      await until(() => failures.length > 0 || roundsDone() >= rounds, 60_000, what);
      if (failures.length) throw failures[0];
    };

    await progress(2, 'two rounds on every table');
    // the gateway restarts between rounds (a restarted simulated shoe starts a new shoe: mid-round it would void the round);
    // the engine asks meanwhile: its requests wait in the table's session and are answered once it is back
    paused = true;
    await until(() => idle.size === TABLES.length, 30_000, 'the rounds in progress');
    await gw.stop();
    gw = null;
    paused = false;
    await new Promise((r) => setTimeout(r, 800));
    gw = await startGateway(cfg, { simulators: loadSimulators, logger: silentLogger, fast: true });
    const afterGatewayRestart = roundsDone();
    await progress(afterGatewayRestart + 2, 'two more rounds after the gateway restart');
    // the broker restarts mid-run (with its persistence: sessions survive)
    await broker.restart();
    const afterBrokerRestart = roundsDone();
    await progress(afterBrokerRestart + 2, 'two more rounds after the broker restart');
    stopAt = 0;
    await Promise.all(loops);
    expect(failures).toEqual([]);
    await new Promise((r) => setTimeout(r, 500)); // late copies, if any, would come now

    // exactly one answer to every request: executed once (one fresh answer per transaction), any other answer a replay of it
    for (const t of TABLES) {
      const byTx = new Map<string, ResponseMessage[]>();
      for (const r of responses.get(t.id)!) byTx.set(String(r.transaction), [...(byTx.get(String(r.transaction)) ?? []), r]);
      const mine = asked.filter((a) => a.table === t.id);
      expect(new Set(mine.map((a) => a.transaction)).size).toBe(mine.length);
      for (const a of mine) {
        const all = byTx.get(a.transaction) ?? [];
        const fresh = all.filter((r) => !r.replayed);
        expect(fresh, `${t.id} ${a.command} ${a.transaction}`).toHaveLength(1);
        for (const r of all.filter((x) => x.replayed)) {
          // the first answer again, field for field (an error answer has a code and no data)
          const same = (x: ResponseMessage) => ({ status: x.status, code: x.code, error: x.error, data: x.data });
          expect(r.replayOf).toBe(fresh[0].seq);
          expect(same(r)).toEqual(same(fresh[0]));
        }
        expect(a.answer.replayed ? a.answer.replayOf : a.answer.seq).toBe(fresh[0].seq);
      }
      // every answer the table gave was to one of this engine's requests
      expect([...byTx.keys()].every((tx) => tx.startsWith(engine.runId))).toBe(true);
      // one result per round opened, complete, none counted twice
      const got = results.get(t.id)!;
      expect(got.map((r) => r.roundId)).toEqual(opened.get(t.id));
      for (const r of got) expect(r.status, r.roundId).toBe(refused.has(r.roundId!) ? 'void' : 'complete');
      // nothing lost: every gap reported was filled
      expect(engine.missing(t.id), t.id).toEqual([]);
    }
    expect(events.filter((e) => e.kind === 'signature-failure' || e.kind === 'invalid')).toEqual([]);
    // the broker restarted with its persistence: the engine's session (and what was queued for it) survived
    expect(events.filter((e) => e.kind === 'connection' && e.state === 'disconnected').length).toBeGreaterThanOrEqual(1);
    expect(events.filter((e) => e.kind === 'connection' && e.state === 'connected')).toEqual([
      { kind: 'connection', state: 'connected', sessionPresent: true },
    ]);

    // a forged result (a real one, its outcome changed, as a new seq) is reported, not delivered
    const real = results.get(TABLES[0].id)!.at(-1)!;
    const rogue = mqtt.connect(broker.url, { clientId: 'rogue', protocolVersion: 5 });
    cleanup.push(() => rogue.endAsync(true));
    await new Promise<void>((resolve) => rogue.once('connect', () => resolve()));
    const lastResult = await new Promise<Record<string, unknown>>((resolve) => {
      rogue.on('message', (_t, p) => resolve(JSON.parse(p.toString())));
      void rogue.subscribeAsync(`casino/${TABLES[0].id}/result`, { qos: 1 });
    });
    expect(lastResult.seq).toBe(real.seq);
    const forged = { ...lastResult, seq: (lastResult.seq as number) + 1000, outcome: { ...(lastResult.outcome as object), winner: 'tie' } };
    const before = results.get(TABLES[0].id)!.length;
    await rogue.publishAsync(`casino/${TABLES[0].id}/result`, JSON.stringify(forged), { qos: 1 });
    await until(() => events.some((e) => e.kind === 'signature-failure'), 5_000, 'the signature failure');
    expect(events.find((e) => e.kind === 'signature-failure')).toMatchObject({
      table: TABLES[0].id,
      seq: real.seq + 1000,
      topic: `casino/${TABLES[0].id}/result`,
    });
    expect(results.get(TABLES[0].id)!.length).toBe(before);
  }, 180_000);
});
