/**
 * One baccarat table whose card shoe speaks a device profile over a real serial line: a private
 * Mosquitto, a socat pty pair, the gateway in process, and a recorder of everything it publishes.
 * For the tests that deal a vendor format through a profile (the shoe's side of the pty is the
 * test's to write).
 */
import { startGateway, type Gateway } from '../../src/app/gateway.js';
import { validateConfig } from '../../src/app/config/load-config.js';
import { silentLogger } from '../../src/runtime/log.js';
import { loadSimulators } from '../../simulators/load.js';
import { startMosquitto, type MosquittoBroker } from '../../dev/rig/mosquitto.js';
import { recordMqtt, type MqttRecorder, type RecordedMessage } from '../../dev/rig/mqtt-recorder.js';
import { createPtyPair, type PtyPair } from '../../dev/rig/pty-pair.js';
import { makeTempDir, removeTempDir } from '../../dev/rig/temp-dir.js';

export interface ProfiledShoeTable {
  gw: Gateway;
  rec: MqttRecorder;
  /** the shoe's side: what the test writes is what the gateway reads */
  pty: PtyPair;
  /** a message on `casino/<table>/<suffix>` */
  on(suffix: string): (m: RecordedMessage) => boolean;
  stop(): Promise<void>;
}

/** the table started, its shoe connected and its status online */
export async function startProfiledShoeTable(tableId: string, profile: string): Promise<ProfiledShoeTable> {
  const broker: MosquittoBroker = await startMosquitto();
  const pty = await createPtyPair();
  const dataDir = await makeTempDir(`teg-${tableId}-`);
  const rec = await recordMqtt(broker.url, 'casino/#');
  const on = (suffix: string) => (m: RecordedMessage) => m.topic === `casino/${tableId}/${suffix}`;
  const cfg = validateConfig({
    mqtt: { url: broker.url },
    dataDir,
    http: { enabled: false },
    tables: [
      {
        id: tableId,
        game: 'baccarat',
        betting: 'none',
        devices: [{ id: 'shoe-1', kind: 'card-shoe', profile, transport: { type: 'serial', path: pty.gatewayPath } }],
      },
    ],
  });
  const gw = await startGateway(cfg, { simulators: loadSimulators, logger: silentLogger });
  await rec.waitFor((m) => on('devices/shoe-1')(m) && m.payload.state === 'connected');
  await rec.waitFor((m) => on('status')(m) && m.payload.state === 'online');
  return {
    gw,
    rec,
    pty,
    on,
    async stop() {
      await gw.stop();
      await rec.close();
      await pty.dispose();
      await broker.stop();
      await removeTempDir(dataDir);
    },
  };
}
