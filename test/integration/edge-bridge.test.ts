/**
 * The edge bridge (docs/SCALING.md): the gateway on its table PC's own Mosquitto, which runs
 * deploy/mosquitto-bridge.conf (rendered by dev/rig/bridge-config.ts) into a central
 * Mosquitto. The central broker is stopped while rounds go on and started again: its persistent
 * subscriber receives every result, in order, nothing lost (the local broker held them).
 */
import { describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../../src/app/gateway.js';
import { loadSimulators } from '../../simulators/load.js';
import { renderBridgeConfig } from '../../dev/rig/bridge-config.js';
import { startMosquitto } from '../../dev/rig/mosquitto.js';
import { realIoOrSkip } from '../helpers/real-io.js';
import { makeTempDir } from '../../dev/rig/temp-dir.js';
import { checkSeq, floorConfig, resultsOf, subscriber, until } from '../helpers/floor.js';
import { stopsAfterEach } from '../helpers/cleanup.js';

const io = realIoOrSkip('mosquitto');
const T = 'eb-01';

describe.skipIf(!io.available)('the edge bridge: local Mosquitto bridged to a central one (deploy/mosquitto-bridge.conf)', () => {
  const cleanup = stopsAfterEach();

  it('the central broker goes away while rounds go on and comes back: its subscriber gets every result in order', async () => {
    const central = await startMosquitto({ persistent: true });
    cleanup.push(() => central.stop());
    const localStore = await makeTempDir('teg-local-');
    const bridge = renderBridgeConfig({
      pcName: 'test-pc',
      central: [`127.0.0.1:${central.port}`],
      omitListener: true,
      persistenceDir: localStore,
      tls: false,
      restartTimeout: [1, 2],
    });
    expect(bridge).toMatch(/^connection floor-central-test-pc$/m);
    const local = await startMosquitto({ extraConfig: bridge });
    cleanup.push(() => local.stop());
    const engine = await subscriber(central.url, 'central-engine', 'casino/#');
    cleanup.push(() => engine.close());
    const bridgeUp = await engine.waitFor((m) => m.topic === 'casino/_bridges/test-pc/state' && m.raw === '1', 15_000, 'the bridge notification');
    expect(bridgeUp.raw).toBe('1');

    const gw: Gateway = await startGateway(
      floorConfig({ url: local.url, dataDir: await makeTempDir('teg-eb-data-'), tables: [T], cardIntervalMs: 25, decks: 4 }),
      { simulators: loadSimulators, logger: (await import('../../src/runtime/log.js')).silentLogger, simulatorShoes: 1 },
    );
    cleanup.push(() => gw.stop());
    await until(() => resultsOf(engine.got, T).length >= 2, 20_000, 'results at the central broker');
    await central.pause();
    const rt = gw.tables[0];
    const seqAtCut = rt.snapshot.seq;
    await until(() => rt.snapshot.seq >= seqAtCut + 30, 20_000, 'rounds going on while the central broker is away');
    await central.resume();
    const back = Date.now();
    await until(
      () => (rt.outbox?.depth ?? 0) === 0 && engine.got.some((m) => m.payload?.seq === rt.snapshot.seq && m.at > back),
      60_000,
      'everything at the central broker after its return',
    );
    const seqs = checkSeq(engine.got, T);
    expect(seqs.at(-1)).toBeGreaterThanOrEqual(seqAtCut + 30);
    console.log(
      `[bridge] ${seqs.length} messages (${resultsOf(engine.got, T).length} results) at the central subscriber, none lost; caught up ${Date.now() - back} ms after the central broker returned`,
    );
  }, 90_000);
});
