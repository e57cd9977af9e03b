/**
 * A gateway restart in the middle of a round on simulated tables left to an external engine
 * (`transport.engine: external`), on the real gateway and a real Mosquitto: the simulated shoe
 * keeps its cards and the keno machine its draw (docs/DEVICES.md "Simulated devices across a
 * gateway restart"), so the round cut by the restart — while cards are dealt, or while betting
 * is open — finishes in the same shoe with the cards dealt before the restart, nothing voids the
 * round or the shoe, and the next round is dealt from the same shoe without an operator.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EngineClient, type AnyGameResultMessage } from '@table-edge/engine-client';
import { validateConfig } from '../../src/app/config/load-config.js';
import { startGateway, type Gateway } from '../../src/app/gateway.js';
import { loadSimulators } from '../../simulators/load.js';
import { silentLogger } from '../../src/runtime/log.js';
import { startMosquitto } from '../../dev/rig/mosquitto.js';
import { makeTempDir } from '../../dev/rig/temp-dir.js';
import { realIoOrSkip } from '../helpers/real-io.js';
import { until } from '../helpers/floor.js';

const io = realIoOrSkip(['mosquitto']);

describe.skipIf(!io.available)('a gateway restart in the middle of a round on simulated tables of an external engine', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanup.reverse()) await c().catch(() => {});
    cleanup.length = 0;
  });

  it('the round finishes in the same shoe (or draw) after the restart; the next round follows on the same shoe', async () => {
    const broker = await startMosquitto({ persistent: true });
    cleanup.push(() => broker.stop());
    const dir = await makeTempDir('teg-sim-restart-');
    const sim = (interval: number) => ({ type: 'simulator', cardIntervalMs: interval, roundIntervalMs: 0, engine: 'external' });
    const cfg = validateConfig({
      gatewayId: 'sim-restart',
      mqtt: { url: broker.url, protocolVersion: 5, reconnectMinMs: 100, reconnectMaxMs: 500, sessionExpirySec: 300 },
      dataDir: join(dir, 'data'),
      http: { enabled: false },
      health: { intervalMs: 0 },
      tables: [
        // no seed configured: the restarted dealer takes the one it drew from its checkpoint
        { id: 'rs-bac', game: 'baccarat', betting: 'engine', devices: [{ id: 'shoe-1', kind: 'card-shoe', transport: sim(150) }] },
        { id: 'rs-keno', game: 'keno', betting: 'engine', devices: [{ id: 'balls-1', kind: 'ball-reader', transport: sim(100) }] },
      ],
    });
    const start = () => startGateway(cfg, { simulators: loadSimulators, logger: silentLogger });
    let gw: Gateway | null = await start();
    cleanup.push(async () => {
      await gw?.stop();
    });
    const restart = async () => {
      await gw!.stop();
      gw = null;
      gw = await start();
    };

    const client = await EngineClient.connect({ url: broker.url, clientId: 'sim-restart-engine' });
    cleanup.push(() => client.close());
    const results: AnyGameResultMessage[] = [];
    const alerts: string[] = [];
    const rounds = new Map<string, { roundId?: string; phase: string; shoeId?: string; dealt: string[] }>();
    const shoe = new Map<string, { shoeId: string; state: string }>();
    for (const t of ['rs-bac', 'rs-keno']) {
      client.results$(t).subscribe((r) => results.push(r));
      client.of(t, 'alert').subscribe((a) => alerts.push(`${t} ${a.kind}`));
      client.of(t, 'shoe').subscribe((s) => shoe.set(t, { shoeId: s.shoeId, state: s.state }));
      client.of(t, 'round').subscribe((r) => {
        const dealt =
          'balls' in r
            ? (r.balls as number[]).map(String)
            : Object.entries((r as { cards?: Record<string, Array<string | null>> }).cards ?? {}).flatMap(([p, cs]) => cs.map((c) => `${p}:${c}`));
        rounds.set(t, { roundId: r.roundId, phase: r.phase, shoeId: r.shoeId, dealt });
      });
    }
    await client.gateway((g) => g.gatewayId === 'sim-restart' && g.state === 'online');
    const ask = async (table: string, command: 'open-betting' | 'close-betting', args: object = {}) => {
      const a = await client.request(table, command, args as never, { timeoutMs: 1_500, attempts: 20, backoffMs: 200, maxBackoffMs: 1_000 });
      expect(a, `${table} ${command}`).toMatchObject({ status: 'ok' });
      return a;
    };
    const resultOf = async (table: string, roundId: string) => {
      await until(() => results.some((r) => r.table === table && r.roundId === roundId), 20_000, `the result of ${table} ${roundId}`);
      return results.find((r) => r.table === table && r.roundId === roundId)!;
    };
    await until(() => shoe.get('rs-bac')?.state === 'dealing', 10_000, 'the baccarat shoe dealing');
    const theShoe = shoe.get('rs-bac')!.shoeId;

    // 1. cards being dealt: baccarat after its second card, keno after its third ball
    await ask('rs-bac', 'open-betting', { roundId: 'B1' });
    await ask('rs-keno', 'open-betting', { roundId: 'K1' });
    await ask('rs-bac', 'close-betting');
    await ask('rs-keno', 'close-betting');
    await until(() => (rounds.get('rs-bac')?.dealt.length ?? 0) >= 2 && (rounds.get('rs-keno')?.dealt.length ?? 0) >= 3, 10_000, 'cards and balls dealt');
    await restart();
    const before = { bac: rounds.get('rs-bac')!, keno: rounds.get('rs-keno')! };
    expect(before.bac).toMatchObject({ roundId: 'B1', phase: 'dealing' });
    expect(before.keno).toMatchObject({ roundId: 'K1', phase: 'dealing' });
    const b1 = await resultOf('rs-bac', 'B1');
    const k1 = await resultOf('rs-keno', 'K1');
    expect(b1).toMatchObject({ status: 'complete', shoeId: theShoe });
    // the cards dealt before the restart are the round's first cards
    const b1Cards = Object.entries((b1 as { cards?: Record<string, string[]> }).cards ?? {})
      .filter(([p]) => p !== 'burn')
      .flatMap(([p, cs]) => cs.map((c) => `${p}:${c}`));
    for (const c of before.bac.dealt) expect(b1Cards).toContain(c);
    expect(k1.status).toBe('complete');
    const balls = (k1 as { balls?: number[] }).balls!;
    expect(balls).toHaveLength(20);
    expect(new Set(balls).size).toBe(20);
    expect(balls.slice(0, before.keno.dealt.length).map(String)).toEqual(before.keno.dealt);

    // 2. betting open (baccarat: nothing dealt yet): the engine closes betting after the restart
    await ask('rs-bac', 'open-betting', { roundId: 'B2' });
    await until(() => rounds.get('rs-bac')?.roundId === 'B2' && rounds.get('rs-bac')?.phase === 'betting', 5_000, 'B2 in betting');
    await restart();
    await ask('rs-bac', 'close-betting');
    expect(await resultOf('rs-bac', 'B2')).toMatchObject({ status: 'complete', shoeId: theShoe });

    // 3. the next round, no operator: the same shoe deals on
    await ask('rs-bac', 'open-betting', { roundId: 'B3' });
    await ask('rs-bac', 'close-betting');
    expect(await resultOf('rs-bac', 'B3')).toMatchObject({ status: 'complete', shoeId: theShoe });
    await ask('rs-keno', 'open-betting', { roundId: 'K2' });
    await ask('rs-keno', 'close-betting');
    expect(await resultOf('rs-keno', 'K2')).toMatchObject({ status: 'complete' });

    // nothing voided, no card dealt outside a round, no second LOADED
    expect(alerts.filter((a) => /void|exposed|unnecessary|after-last-round|no-round-open|out-of-order|foreign/.test(a))).toEqual([]);
    // one result per round, none twice
    expect(results.filter((r) => r.table === 'rs-bac').map((r) => r.roundId)).toEqual(['B1', 'B2', 'B3']);
    expect(results.filter((r) => r.table === 'rs-keno').map((r) => r.roundId)).toEqual(['K1', 'K2']);
    expect(shoe.get('rs-bac')!.shoeId).toBe(theShoe);
  }, 120_000);
});
