/**
 * deploy/mosquitto-bridge.conf as a template (docs/SCALING.md "The edge bridge"): the file an
 * installer copies to /etc/mosquitto/conf.d/ is the file the bridge test runs. `renderBridgeConfig`
 * puts this PC's name, the central addresses, the local port and the persistence directory in,
 * and drops the TLS lines when the central broker is reached without TLS (the test, or a floor
 * network that does not use it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/runtime/paths.js';

export const BRIDGE_TEMPLATE = path.join(PROJECT_ROOT, 'deploy', 'mosquitto-bridge.conf');

export interface BridgeSettings {
  /** replaces the template's "bac-pc-07" (client ids, connection name, notification topic) */
  pcName: string;
  /** host:port of each central node, in failover order */
  central: string[];
  /** the local listener; omitted: keep the template's `listener` line */
  localPort?: number;
  /** leave the `listener` / `allow_anonymous` lines out (a harness writes its own) */
  omitListener?: boolean;
  persistenceDir?: string;
  /** false: no bridge_cafile/certfile/keyfile/insecure lines */
  tls?: boolean;
  /** `restart_timeout <base> <cap>` of the bridge's reconnect backoff (seconds) */
  restartTimeout?: [number, number];
}

export function renderBridgeConfig(s: BridgeSettings, template = fs.readFileSync(BRIDGE_TEMPLATE, 'utf8')): string {
  const out: string[] = [];
  for (const raw of template.split('\n')) {
    let line = raw.replaceAll('bac-pc-07', s.pcName);
    if (/^listener\s/.test(line)) {
      if (s.omitListener) continue;
      if (s.localPort !== undefined) line = `listener ${s.localPort} 127.0.0.1`;
    }
    if (/^allow_anonymous\s/.test(line) && s.omitListener) continue;
    if (/^persistence_location\s/.test(line) && s.persistenceDir) line = `persistence_location ${s.persistenceDir.replace(/\/?$/, '/')}`;
    if (/^address\s/.test(line)) line = `address ${s.central.join(' ')}`;
    if (/^restart_timeout\s/.test(line) && s.restartTimeout) line = `restart_timeout ${s.restartTimeout[0]} ${s.restartTimeout[1]}`;
    if (s.tls === false && /^bridge_(cafile|certfile|keyfile|insecure)\s/.test(line)) continue;
    out.push(line);
  }
  return out.join('\n');
}
