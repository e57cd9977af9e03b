/**
 * The clustered tier (docs/SCALING.md): a real 3-node nats-server cluster (JetStream, MQTT on
 * every node, stream_replicas 3). The gateway (mqtt.url: the three nodes; MQTT 5 by default, so
 * it must fall back to 3.1.1 by itself) deals a shoe into it; a persistent QoS 1 subscriber sits on
 * another node. The node the gateway is on is SIGKILLed mid-shoe. Checked: every seq once
 * (identical re-deliveries allowed), in order, no gap, and the retained status/result/round right
 * on both surviving nodes. The failover time is printed, not asserted.
 */
import { describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../../src/app/gateway.js';
import { loadSimulators } from '../../simulators/load.js';
import { startNatsCluster, type NatsCluster } from '../../dev/rig/nats-cluster.js';
import { realIoOrSkip } from '../helpers/real-io.js';
import { makeTempDir } from '../../dev/rig/temp-dir.js';
import { capturingLogger, checkSeq, floorConfig, resultsOf, subscriber, until } from '../helpers/floor.js';
import { stopsAfterEach } from '../helpers/cleanup.js';

const io = realIoOrSkip('nats-server');
const T = 'nc-01';

describe.skipIf(!io.available)('a 3-node NATS cluster as the broker tier (real nats-server)', () => {
  const cleanup = stopsAfterEach();

  it('the node the gateway is on is SIGKILLed mid-shoe: every result once, in order, no seq gap, retained state right on the survivors', async () => {
    const cluster: NatsCluster = await startNatsCluster();
    cleanup.push(() => cluster.stop());
    const [n1, n2, n3] = cluster.nodes;
    const sub = await subscriber(n3.mqttUrl, 'nc-engine', 'casino/#');
    cleanup.push(() => sub.close());
    const { log, lines } = capturingLogger();
    const gw: Gateway = await startGateway(
      floorConfig({ url: cluster.mqttUrls, dataDir: await makeTempDir('teg-nc-data-'), tables: [T], cardIntervalMs: 30, decks: 6 }),
      { simulators: loadSimulators, logger: log, simulatorShoes: 1 },
    );
    cleanup.push(() => gw.stop());

    await until(() => resultsOf(sub.got, T).length >= 3, 30_000, 'three results through the cluster');
    expect(lines.join('\n')).toMatch(/refuses MQTT 5 .*speaking MQTT 3\.1\.1/);
    // a 6-deck shoe (~10 s of cards) is still being dealt at the kill even when the cluster was slow
    // to take the first results (a 2-deck shoe could be dealt out before three results arrived)
    const before = resultsOf(sub.got, T).at(-1).seq;
    const killedAt = Date.now();
    await n1.kill();
    const after = await sub.waitFor((m) => m.topic === `casino/${T}/result` && !m.retain && m.payload.seq > before, 40_000, 'a result after the kill');
    console.log(`[failover] NATS cluster: first new result ${after.at - killedAt} ms after SIGKILL of the gateway's node`);

    const rt = gw.tables[0];
    let stableSince = Date.now();
    let lastCount = -1;
    await until(
      () => {
        const n = sub.got.length;
        if (n !== lastCount) {
          lastCount = n;
          stableSince = Date.now();
        }
        return (rt.outbox?.depth ?? 0) === 0 && sub.got.some((m) => m.payload?.seq === rt.snapshot.seq) && Date.now() - stableSince > 1_500;
      },
      60_000,
      'the shoe dealt and delivered',
    );
    // the health summary follows the connection: after the failover it names a surviving node
    await until(
      () => sub.got.some((m) => m.topic === `casino/${T}/health` && m.at > killedAt && [n2.mqttUrl, n3.mqttUrl].includes(m.payload?.broker)),
      20_000,
      'a health message naming the surviving node',
    );
    const seqs = checkSeq(sub.got, T);
    expect(seqs.at(-1)).toBe(rt.snapshot.seq);
    const results = resultsOf(sub.got, T);
    expect(results.length).toBeGreaterThanOrEqual(4);
    console.log(`[failover] NATS cluster: ${results.length} results, seq 1..${seqs.at(-1)} delivered without a gap`);
    const lastRound = sub.got.filter((m) => m.topic === `casino/${T}/round` && !m.retain).at(-1)!;

    for (const node of [n2, n3]) {
      const fresh = await subscriber(node.mqttUrl, `nc-check-${node.name}`, [`casino/${T}/status`, `casino/${T}/result`, `casino/${T}/round`], { clean: true });
      cleanup.push(() => fresh.close());
      await fresh.waitFor((m) => m.topic === `casino/${T}/status` && m.retain && m.payload.state === 'online', 15_000, `retained online on ${node.name}`);
      await fresh.waitFor(
        (m) => m.topic === `casino/${T}/result` && m.retain && m.payload.seq === results.at(-1).seq,
        15_000,
        `the last result retained on ${node.name}`,
      );
      await fresh.waitFor(
        (m) => m.topic === `casino/${T}/round` && m.retain && m.payload.seq === lastRound.payload.seq,
        15_000,
        `the last round retained on ${node.name}`,
      );
    }
  }, 180_000);
});
