/**
 * Broker failover (docs/SCALING.md): `mqtt.url` as a list of two real Mosquittos. The first is
 * stopped mid-shoe: the table moves to the second, publishes `online` there (retained), and the
 * results the first never acknowledged follow, under their own seq; when the first is back the
 * table returns to it and leaves `offline` on the second. Across both brokers: every seq once
 * (identical re-deliveries allowed), each broker's stream in order, no gap. The health message
 * names the broker. A move back after the dealing stopped leaves the first broker holding the
 * latest retained round and result (sent again on the move).
 */
import { describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../../src/app/gateway.js';
import { loadSimulators } from '../../simulators/load.js';
import { startMosquitto } from '../../dev/rig/mosquitto.js';
import { realIoOrSkip } from '../helpers/real-io.js';
import { makeTempDir } from '../../dev/rig/temp-dir.js';
import { capturingLogger, checkSeq, floorConfig, resultsOf, subscriber, until } from '../helpers/floor.js';
import { stopsAfterEach } from '../helpers/cleanup.js';

const io = realIoOrSkip('mosquitto');
const T = 'fo-01';

describe.skipIf(!io.available)('broker failover between two Mosquittos (mqtt.url as a list)', () => {
  const cleanup = stopsAfterEach();

  it('fails over mid-shoe and back: nothing lost, each seq once, in order; online/offline retained right; health names the broker', async () => {
    const a = await startMosquitto({ persistent: true });
    const b = await startMosquitto();
    cleanup.push(
      () => a.stop(),
      () => b.stop(),
    );
    const sa = await subscriber(a.url, 'fo-sub-a');
    const sb = await subscriber(b.url, 'fo-sub-b');
    cleanup.push(
      () => sa.close(),
      () => sb.close(),
    );
    const { log, lines } = capturingLogger();
    const gw: Gateway = await startGateway(
      floorConfig({ url: [a.url, b.url], dataDir: await makeTempDir('teg-fo-data-'), tables: [T], cardIntervalMs: 20, decks: 6 }),
      { simulators: loadSimulators, logger: log, simulatorShoes: 1 },
    );
    cleanup.push(() => gw.stop());

    await until(() => resultsOf(sa.got, T).length >= 3, 20_000, 'three results on the first broker');
    const killedAt = Date.now();
    await a.pause();
    const firstOnB = await sb.waitFor((m) => m.topic === `casino/${T}/result` && !m.retain, 20_000, 'a result on the second broker');
    const status = await sb.waitFor((m) => m.topic === `casino/${T}/status` && m.payload.state === 'online', 5_000, 'online on the second broker');
    expect(status.at).toBeLessThanOrEqual(firstOnB.at);
    const health = await sb.waitFor((m) => m.topic === `casino/${T}/health` && m.payload.broker === b.url, 10_000, 'health naming the second broker');
    expect(health.payload.mqtt).toBe('connected');
    console.log(`[failover] Mosquitto pair: first result on the second broker ${firstOnB.at - killedAt} ms after the first was stopped`);

    await until(() => resultsOf(sb.got, T).length >= 2, 20_000, 'two results on the second broker');
    const resumedAt = Date.now();
    await a.resume();
    const backOnA = await sa
      .waitFor(
        (m) => m.topic === `casino/${T}/result` && !m.retain && m.at > resumedAt && m.payload.seq > (resultsOf(sb.got, T).at(-1)?.seq ?? 0),
        20_000,
        'a result on the first broker again',
      )
      .catch((e) => {
        console.log(lines.slice(-15).join('\n'));
        throw e;
      });
    console.log(`[failover] back on the first broker ${backOnA.at - resumedAt} ms after it returned`);
    await sb.waitFor((m) => m.topic === `casino/${T}/status` && m.payload.state === 'offline', 10_000, 'offline left on the second broker');

    // the shoe dealt out, the outbox empty: the last seq used reached a broker
    const rt = gw.tables[0];
    await until(() => (rt.outbox?.depth ?? 0) === 0 && resultsOf(sa.got, T).length + resultsOf(sb.got, T).length >= 12, 40_000, 'the shoe dealt and delivered');
    const lastSeq = rt.snapshot.seq;
    await until(() => [...sa.got, ...sb.got].some((m) => m.payload?.seq === lastSeq), 10_000, `seq ${lastSeq} delivered`);

    // each broker's stream in order: the first before its stop, the second, and the first after
    // its return for what the table sent it then (messages it had taken before its stop but not
    // yet handed to its subscriber come after its restart, from its persistence)
    const lastOnB = Math.max(...checkSeq(sb.got, T, { gaps: false }));
    checkSeq(
      sa.got.filter((m) => m.at < killedAt),
      T,
      { gaps: false },
    );
    checkSeq(
      sa.got.filter((m) => m.at >= resumedAt && m.payload?.seq > lastOnB),
      T,
      { gaps: false },
    );
    const all = checkSeq(
      [...sa.got, ...sb.got].filter((m) => typeof m.payload?.seq === 'number').sort((x, y) => x.payload?.seq - y.payload?.seq),
      T,
    );
    // no gap (checkSeq) through the last seq the table had used (a health message may follow it)
    expect(all.at(-1)).toBeGreaterThanOrEqual(lastSeq);
    // retained state on the broker the table is on now. The simulator goes on dealing, so results
    // keep coming: the one retained when `fresh` subscribes is at least the last seen before, and
    // one the table published (one seen only after the subscription comes to `fresh` as a live
    // message, not as the retained one)
    const lastResult = resultsOf([...sa.got, ...sb.got], T).at(-1);
    const fresh = await subscriber(a.url, 'fo-check-a', [`casino/${T}/status`, `casino/${T}/result`], { clean: true });
    cleanup.push(() => fresh.close());
    await fresh.waitFor((m) => m.topic === `casino/${T}/status` && m.retain && m.payload.state === 'online', 5_000, 'retained online on the first broker');
    const retained = await fresh
      .waitFor((m) => m.topic === `casino/${T}/result` && m.retain, 5_000, 'a result retained on the first broker')
      .catch((e) => {
        console.log(
          `DIAG last ${lastResult.seq} retained ${JSON.stringify(fresh.got.map((m) => [m.topic, m.payload?.seq]))} onA ${JSON.stringify(resultsOf(sa.got, T).map((r) => r.seq))} onB ${JSON.stringify(resultsOf(sb.got, T).map((r) => r.seq))}\n${lines.join('\n')}`,
        );
        throw e;
      });
    expect(retained.payload.seq).toBeGreaterThanOrEqual(lastResult.seq);
    await until(() => resultsOf(sa.got, T).some((r) => r.seq === retained.payload.seq), 5_000, `result ${retained.payload.seq} published on the first broker`);
    const text = lines.join('\n');
    expect(text).toMatch(/connection to mqtt:\/\/127\.0\.0\.1:\d+ lost; reconnecting/);
    expect(text).toMatch(/answers again: moving back to it/);
  }, 90_000);

  it('moves back after the dealing stopped on the second broker: the first holds the latest round and result again (resent under their own seq)', async () => {
    const a = await startMosquitto();
    const b = await startMosquitto();
    cleanup.push(
      () => a.stop(),
      () => b.stop(),
    );
    const sb = await subscriber(b.url, 'fo2-sub-b');
    cleanup.push(() => sb.close());
    const { log, lines } = capturingLogger();
    const gw: Gateway = await startGateway(
      floorConfig({ url: [a.url, b.url], dataDir: await makeTempDir('teg-fo2-data-'), tables: [T], cardIntervalMs: 20, decks: 6 }),
      { simulators: loadSimulators, logger: log, simulatorShoes: 1 },
    );
    cleanup.push(() => gw.stop());
    const rt = gw.tables[0];
    // the latest round and result the gateway published, whichever broker took them (a device that
    // went quiet when the dealer stopped can still move the round after the outbox drained)
    const latest = new Map<string, { seq: number; roundId?: string }>();
    const sub = rt.published$.subscribe((m) => {
      if (m.topic === 'round' || m.topic === 'result') latest.set(m.topic, m.payload as { seq: number; roundId?: string });
    });
    cleanup.push(async () => sub.unsubscribe());
    await until(() => rt.snapshot.seq > 30, 20_000, 'dealing on the first broker');
    await a.pause();
    await until(() => resultsOf(sb.got, T).length >= 2, 20_000, 'two results on the second broker').catch((e) => {
      console.log(lines.slice(-20).join('\n'), sb.got.length);
      throw e;
    });
    // the dealer stops: nothing new is published once the outbox is empty
    await Promise.all(gw.simulators.map((s) => s.stop()));
    await until(() => (rt.outbox?.depth ?? 0) === 0, 10_000, 'the outbox empty on the second broker');
    await a.resume();
    await sb.waitFor((m) => m.topic === `casino/${T}/status` && m.payload.state === 'offline', 20_000, 'offline left on the second broker');
    const movedAt = lines.findIndex((l) => /answers again: moving back to it/.test(l));
    await until(() => lines.slice(movedAt).some((l) => /connected to .*\(broker 1 of 2\)/.test(l)), 10_000, 'connected to the first broker again');
    // what a client that subscribes on the first broker now reads (retained copies only)
    const retainedOnA = async (): Promise<Map<string, any>> => {
      const fresh = await subscriber(a.url, `fo2-check-${Date.now()}`, [`casino/${T}/result`, `casino/${T}/round`], { clean: true });
      await new Promise((r) => setTimeout(r, 500));
      await fresh.close();
      return new Map(fresh.got.filter((m) => m.retain).map((m) => [m.topic.split('/').at(-1)!, m.payload]));
    };
    const current = () => seen.get('result')?.seq === latest.get('result')?.seq && seen.get('round')?.seq === latest.get('round')?.seq;
    let seen = await retainedOnA();
    for (let i = 0; i < 10 && !current(); i++) seen = await retainedOnA();
    expect(latest.get('result')?.seq).toBeGreaterThan(0);
    expect(seen.get('result')?.seq, 'the latest result retained on the first broker').toBe(latest.get('result')?.seq);
    expect(seen.get('result')?.roundId).toBe(latest.get('result')?.roundId);
    expect(seen.get('round')?.seq, 'the latest round retained on the first broker').toBe(latest.get('round')?.seq);
  }, 90_000);
});
