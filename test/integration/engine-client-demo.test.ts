/**
 * The example engine (examples/engine-client-demo/, built on @table-edge/engine-client) drives the
 * demo's 10 tables as config/examples/engine-demo.yaml sets them up (every game an engine of your
 * own can drive left to it; blackjack and Hold'em with the virtual engine) on the real gateway
 * and a real Mosquitto with persistence, through a gateway restart in the middle of rounds and a
 * broker restart: every request gets exactly one answer (a retry's is the first again,
 * `replayed: true`), every round opened exactly one result, the rounds cut by the restart finish
 * in their own shoe, nothing is lost (every gap filled), nothing counted twice, and every result's
 * signature verifies. The pace is the demo's made fast (40 ms a card, no pause between rounds);
 * the demo's faults stay on.
 */
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { EngineClient, type ResponseMessage, type StreamEvent } from '@table-edge/engine-client';
import { DemoEngine } from '../../examples/engine-client-demo/demo-engine.js';
import { validateConfig } from '../../src/app/config/load-config.js';
import { startGateway, type Gateway } from '../../src/app/gateway.js';
import { loadSimulators } from '../../simulators/load.js';
import { silentLogger } from '../../src/runtime/log.js';
import { startMosquitto } from '../../dev/rig/mosquitto.js';
import { makeTempDir } from '../../dev/rig/temp-dir.js';
import { realIoOrSkip } from '../helpers/real-io.js';
import { until } from '../helpers/floor.js';

const io = realIoOrSkip(['mosquitto']);

type Raw = { tables: Array<{ id: string; game: string; betting: string; devices: Array<{ transport: Record<string, unknown> }> }> } & Record<string, unknown>;

/** voids that a restart must never cause (a card dealt into no round, a new shoe mid-round) */
const RESTART_VOIDS = ['round-void', 'exposed-card', 'unnecessary-card', 'card-after-last-round', 'foreign-card'];

describe.skipIf(!io.available)('the example engine on the demo, through a gateway and a broker restart', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanup.reverse()) await c().catch(() => {});
    cleanup.length = 0;
  });

  it('drives the 10 demo tables: one answer per request, one result per round, rounds cut by the restart finish in their shoe, nothing lost', async () => {
    const broker = await startMosquitto({ persistent: true });
    cleanup.push(() => broker.stop());
    const dir = await makeTempDir('teg-engine-demo-');
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const keyFile = join(dir, 'signing.key');
    writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });

    const raw = parseYaml(readFileSync(join(import.meta.dirname, '../../config/examples/engine-demo.yaml'), 'utf8')) as Raw;
    expect(raw.tables).toHaveLength(10);
    for (const t of raw.tables) for (const d of t.devices) Object.assign(d.transport, { cardIntervalMs: 40, roundIntervalMs: 0 });
    const cfg = validateConfig({
      ...raw,
      gatewayId: 'engine-demo',
      mqtt: { ...(raw.mqtt as object), url: broker.url, protocolVersion: 5, reconnectMinMs: 100, reconnectMaxMs: 500, sessionExpirySec: 300 },
      dataDir: join(dir, 'data'),
      http: { enabled: false },
      health: { intervalMs: 0 },
      signing: { privateKeyFile: keyFile },
    });
    const start = () => startGateway(cfg, { simulators: loadSimulators, logger: silentLogger });
    let gw: Gateway | null = await start();
    cleanup.push(async () => {
      await gw?.stop();
    });

    const client = await EngineClient.connect({
      url: broker.url,
      clientId: 'engine-demo-it',
      publicKeys: [publicKey.export({ type: 'spki', format: 'pem' }).toString()],
    });
    cleanup.push(() => client.close());
    const events: StreamEvent[] = [];
    client.events$.subscribe((e) => events.push(e));
    await client.gateway((g) => g.gatewayId === 'engine-demo' && g.state === 'online');
    await until(() => client.tables().length === 10, 5_000, 'the 10 tables');
    const tables = client.tables();
    const driven = DemoEngine.drivable(tables);
    // every game an engine can drive is left to it; blackjack and Hold'em stay with the virtual engine
    expect(driven.sort()).toEqual(
      raw.tables
        .filter((t) => t.game !== 'blackjack' && t.game !== 'holdem')
        .map((t) => t.id)
        .sort(),
    );
    expect(driven).toHaveLength(8);

    // what the test sees besides the engine: every answer and alert, each table's latest round
    const responses = new Map<string, ResponseMessage[]>();
    const alerts: Array<{ table: string; kind: string }> = [];
    const lastRound = new Map<string, { roundId?: string; phase: string; shoeId?: string; cards: number }>();
    for (const t of tables) {
      responses.set(t.id, []);
      client.of(t.id, 'response').subscribe((r) => responses.get(t.id)!.push(r));
      client.of(t.id, 'alert').subscribe((a) => alerts.push({ table: t.id, kind: a.kind }));
      client.of(t.id, 'round').subscribe((r) => {
        const dealt = 'cards' in r ? Object.values(r.cards as Record<string, unknown[]>).flat().length : 'balls' in r ? (r.balls as unknown[]).length : 0;
        lastRound.set(t.id, { roundId: r.roundId, phase: r.phase, shoeId: r.shoeId, cards: dealt });
      });
    }

    const engine = new DemoEngine({ client, bettingMs: 250, request: { timeoutMs: 700, attempts: 40, backoffMs: 200, maxBackoffMs: 1_000 } });
    engine.start(tables);
    const progress = async (rounds: number, what: string) => {
      await until(() => engine.failure !== undefined || engine.roundsDone() >= rounds, 90_000, what);
      if (engine.failure) throw engine.failure;
    };
    await progress(2, 'two rounds on every driven table');

    // the gateway stops in the middle of rounds: some in betting, some with cards dealt
    const inProgress = () => driven.filter((t) => ['betting', 'dealing', 'awaiting-rescan', 'awaiting-decision'].includes(lastRound.get(t)?.phase ?? ''));
    await until(
      () =>
        inProgress().some((t) => lastRound.get(t)!.phase === 'betting') &&
        inProgress().some((t) => lastRound.get(t)!.phase !== 'betting' && lastRound.get(t)!.cards > 0),
      30_000,
      'rounds in betting and rounds being dealt',
    );
    await gw.stop();
    gw = null;
    const cut = new Map(inProgress().map((t) => [t, { ...lastRound.get(t)! }]));
    expect(cut.size).toBeGreaterThanOrEqual(2);
    // the engine goes on asking meanwhile, and retries (the same transaction) when no answer comes: the
    // requests wait in the tables' sessions, the first is executed, the retries get its answer again
    await new Promise((r) => setTimeout(r, 2_000));
    gw = await start();
    await progress(engine.roundsDone() + 2, 'two more rounds after the gateway restart');
    await broker.restart();
    await progress(engine.roundsDone() + 2, 'two more rounds after the broker restart');
    await engine.stop();
    await new Promise((r) => setTimeout(r, 500)); // late copies, if any, would come now

    // the rounds the restart cut finished in their own shoe, not voided by it
    for (const [t, r] of cut) {
      const result = engine.results.get(t)!.find((x) => x.roundId === r.roundId);
      expect(result, `${t} ${r.roundId}`).toBeDefined();
      if (r.shoeId) expect(result!.shoeId, `${t} ${r.roundId}: the same shoe`).toBe(r.shoeId);
      if (result!.status === 'void') expect(RESTART_VOIDS, `${t} ${r.roundId}`).not.toContain(result!.reason);
    }
    expect(alerts.filter((a) => a.kind === 'shoe-void' || a.kind === 'exposed-card' || a.kind === 'out-of-order-card')).toEqual([]);

    for (const t of driven) {
      // exactly one answer to every request: one fresh answer per transaction, any other a replay of it
      const mine = engine.asked.filter((a) => a.table === t);
      expect(new Set(mine.map((a) => a.transaction)).size).toBe(mine.length);
      const byTx = new Map<string, ResponseMessage[]>();
      for (const r of responses.get(t)!) byTx.set(String(r.transaction), [...(byTx.get(String(r.transaction)) ?? []), r]);
      for (const a of mine) {
        const all = byTx.get(a.transaction) ?? [];
        const fresh = all.filter((r) => !r.replayed);
        expect(fresh, `${t} ${a.command} ${a.transaction}`).toHaveLength(1);
        // a replay is the first answer again (an error answer too)
        for (const r of all.filter((x) => x.replayed))
          expect([r.replayOf, r.status, r.code, r.data]).toEqual([fresh[0].seq, fresh[0].status, fresh[0].code, fresh[0].data]);
        expect(a.answer.replayed ? a.answer.replayOf : a.answer.seq).toBe(fresh[0].seq);
      }
      expect([...byTx.keys()].every((tx) => tx.startsWith(client.runId))).toBe(true);
      // one result per round opened, in order, none counted twice; a void only from the demo's faults
      const got = engine.results.get(t)!;
      const opened = engine.opened.get(t)!;
      expect(
        got.map((r) => r.roundId).filter((id) => opened.includes(id!)),
        t,
      ).toEqual(opened);
      // a refused open-betting that opened and voided its round (a deck that cannot hold another round): that one void result
      const refusedWithResult = got.filter((r) => !opened.includes(r.roundId!));
      for (const r of refusedWithResult) {
        expect(engine.roundIds.get(t), `${t} ${r.roundId}: a round id the engine asked for`).toContain(r.roundId);
        expect(r, `${t} ${r.roundId}`).toMatchObject({ status: 'void', reason: 'deck-exhausted' });
      }
      expect(new Set(got.map((r) => r.roundId)).size, `${t}: no round counted twice`).toBe(got.length);
      expect(new Set(engine.roundIds.get(t)).size).toBe(engine.roundIds.get(t)!.length);
      for (const r of got) if (r.status === 'void') expect(RESTART_VOIDS, `${t} ${r.roundId}`).not.toContain(r.reason);
    }
    // the restart made the engine retry: some retries were answered with the first answer again
    expect([...responses.values()].flat().filter((r) => r.replayed && String(r.transaction).startsWith(client.runId)).length).toBeGreaterThan(0);
    // the tables of the virtual engine: each round one result too
    for (const t of tables.filter((x) => !driven.includes(x.id))) {
      const ids = engine.results.get(t.id)!.map((r) => r.roundId);
      expect(ids.length, t.id).toBeGreaterThan(0);
      expect(new Set(ids).size, t.id).toBe(ids.length);
    }
    // nothing lost: every gap reported was filled; every result signed and verified
    for (const t of tables) expect(client.missing(t.id), t.id).toEqual([]);
    expect(events.filter((e) => e.kind === 'signature-failure' || e.kind === 'invalid')).toEqual([]);
    expect([...engine.results.values()].flat().every((r) => typeof (r as { signature?: unknown }).signature === 'object')).toBe(true);
    // the broker kept the engine's session across its restart
    expect(events.filter((e) => e.kind === 'connection' && e.state === 'connected')).toEqual([
      { kind: 'connection', state: 'connected', sessionPresent: true },
    ]);
  }, 240_000);
});
