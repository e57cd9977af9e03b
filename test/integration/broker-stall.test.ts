/**
 * A broker that stops acknowledging (docs/FAULTS.md "Broker stalled"): a real Mosquitto behind a
 * TCP proxy (dev/rig/puback-proxy.ts) that swallows every PUBACK for a while, the connection and
 * its keepalive up. The table must notice within `mqtt.ackTimeoutMs` (degraded, `/readyz` not
 * ready), drop the connection and make it again, journal `broker-stalled` and publish it once the
 * broker moves again; and every message must arrive, in order, each seq with one content.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../../src/app/gateway.js';
import { loadSimulators } from '../../simulators/load.js';
import { startMosquitto } from '../../dev/rig/mosquitto.js';
import { startPubackProxy } from '../../dev/rig/puback-proxy.js';
import { makeTempDir } from '../../dev/rig/temp-dir.js';
import { realIoOrSkip } from '../helpers/real-io.js';
import { capturingLogger, checkSeq, floorConfig, resultsOf, subscriber, until } from '../helpers/floor.js';

const io = realIoOrSkip('mosquitto');
const T = 'stall-01';
const ACK_TIMEOUT_MS = 2_000;

describe.skipIf(!io.available)('a broker that stops acknowledging (PUBACKs swallowed by a proxy in front of a real Mosquitto)', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanup.reverse()) await c().catch(() => {});
    cleanup.length = 0;
  }, 60_000);

  it('is noticed within the timeout: degraded, not ready, link re-made, broker-stalled journaled and published after; nothing lost or reordered', async () => {
    const broker = await startMosquitto();
    cleanup.push(() => broker.stop());
    const proxy = await startPubackProxy(broker.port);
    cleanup.push(() => proxy.close());
    // a failed run: the gateway's stop (its `offline`) is not left waiting for a PUBACK
    cleanup.push(async () => {
      proxy.swallowing = false;
    });
    const sub = await subscriber(broker.url, 'stall-sub');
    cleanup.push(() => sub.close());
    const dataDir = await makeTempDir('teg-stall-');
    const cfg = floorConfig({ url: proxy.url, dataDir, tables: [T], cardIntervalMs: 60, decks: 2, mqtt: { ackTimeoutMs: ACK_TIMEOUT_MS } });
    cfg.http = { ...cfg.http, enabled: true, port: 0 };
    const { log, lines } = capturingLogger();
    const gw: Gateway = await startGateway(cfg, { simulators: loadSimulators, logger: log, simulatorShoes: 1 });
    cleanup.push(() => gw.stop());
    const rt = gw.tables[0];
    const readyz = async () => {
      const r = await fetch(`${gw.observability.httpUrl}/readyz`);
      return { status: r.status, body: (await r.json()) as { status: string; reasons: string[]; tables: Array<{ ready: boolean; problems: string[] }> } };
    };

    await until(() => resultsOf(sub.got, T).length >= 2, 30_000, 'two results');
    await until(() => rt.brokerStall === null && (rt.outbox.depth ?? 0) < 64, 5_000, 'the outbox moving');
    expect((await readyz()).status).toBe(200);

    proxy.swallowing = true;
    const swallowFrom = performance.now();
    const connectionsBefore = proxy.connections;
    await until(() => rt.brokerStall !== null, ACK_TIMEOUT_MS + 3_000, 'the stall noticed');
    const detectedMs = performance.now() - swallowFrom;
    // the first unacknowledged message goes in flight at once (a card every 60 ms): noticed at the
    // timeout plus at most one check interval (a quarter of it) and scheduling
    expect(detectedMs).toBeGreaterThanOrEqual(ACK_TIMEOUT_MS - 100);
    expect(detectedMs).toBeLessThan(ACK_TIMEOUT_MS * 1.25 + 500);
    const metrics = await (await fetch(`${gw.observability.httpUrl}/metrics`)).text();
    expect(metrics).toMatch(/^tablegw_mqtt_broker_stalled\{table="stall-01"\} 1$/m);
    const notReady = await readyz();
    expect(notReady.status).toBe(503);
    expect(notReady.body.status).toBe('not ready');
    expect(notReady.body.reasons.join('; ')).toMatch(/stall-01: broker stalled: no acknowledgement \(PUBACK\)/);
    // the link is dropped and made again (still swallowed: noticed again on the new connection)
    await until(() => proxy.connections > connectionsBefore, 5_000, 'the link re-made');
    await new Promise((r) => setTimeout(r, ACK_TIMEOUT_MS + 1_500));
    expect(rt.brokerStall).not.toBeNull();
    expect(proxy.swallowed).toBeGreaterThan(0);

    proxy.swallowing = false;
    const alert = await sub.waitFor((m) => m.topic === `casino/${T}/alerts` && m.payload?.kind === 'broker-stalled', 20_000, 'broker-stalled published');
    expect(alert.payload.severity).toBe('critical');
    expect(alert.payload.timeoutMs).toBe(ACK_TIMEOUT_MS);
    expect(alert.payload.inFlight).toBeGreaterThan(0);
    // journaled as a machine input (replayed like any other), once for the whole stall
    const db = new Database(join(dataDir, 'gateway.db'), { readonly: true });
    const journaled = db
      .prepare(
        `SELECT input FROM inputs WHERE table_id = ? AND json_extract(input, '$.type') = 'gateway-alert' AND json_extract(input, '$.kind') = 'broker-stalled'`,
      )
      .all(T) as Array<{ input: string }>;
    db.close();
    expect(journaled).toHaveLength(1);
    expect(JSON.parse(journaled[0].input).data.timeoutMs).toBe(ACK_TIMEOUT_MS);
    await until(() => rt.brokerStall === null, 10_000, 'the stall over');
    await until(() => lines.some((l) => l.includes('acknowledges again')), 5_000, 'the recovery logged');
    const degraded = await sub.waitFor(
      (m) => m.topic === `casino/${T}/health` && m.payload?.status === 'degraded' && m.payload.problems.some((p: string) => p.startsWith('broker stalled')),
      20_000,
      'a degraded health naming the stall',
    );
    expect(degraded.payload.seq).toBeGreaterThan(0);
    await until(() => lines.some((l) => l.includes('dropping the connection')), 1_000, 'the drop logged');

    // everything delivered: each seq once in content, first deliveries in order, no gap up to the
    // last seq the table had used when its outbox was empty
    await until(() => rt.outbox.depth === 0, 30_000, 'the outbox drained');
    const lastSeq = rt.snapshot.seq;
    await until(() => sub.got.some((m) => m.payload?.seq === lastSeq), 10_000, `seq ${lastSeq} delivered`);
    const seqs = checkSeq(sub.got, T);
    expect(seqs.at(-1)).toBeGreaterThanOrEqual(lastSeq);
    expect(await (await fetch(`${gw.observability.httpUrl}/metrics`)).text()).toMatch(/^tablegw_mqtt_broker_stalled\{table="stall-01"\} 0$/m);
    // the broker's part of readiness is back (the simulated shoe, dealt out, may be stale by now)
    const ready = await readyz();
    expect(ready.body.reasons.filter((r) => !/device shoe-1 is stale/.test(r))).toEqual([]);
  }, 150_000);
});
