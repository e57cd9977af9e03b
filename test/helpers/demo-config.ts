/**
 * config/default.yaml (the demo) on a free broker port, any free status-page port and a temp data
 * dir, written as a config file for the command line; `patch` changes it before it is written.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { freePort } from '../../dev/rig/free-port.js';
import { makeTempDir } from '../../dev/rig/temp-dir.js';

const ROOT = join(import.meta.dirname, '..', '..');

export async function demoConfig(
  gatewayId: string,
  patch: (c: Record<string, any>) => void = () => {},
): Promise<{ file: string; brokerPort: number; cfg: Record<string, any> }> {
  const cfg = parseYaml(readFileSync(join(ROOT, 'config', 'default.yaml'), 'utf8')) as Record<string, any>;
  const dir = await makeTempDir('teg-cli-');
  const brokerPort = await freePort();
  cfg.embeddedBroker.port = brokerPort;
  cfg.http.port = 0;
  cfg.dataDir = join(dir, 'data');
  cfg.gatewayId = gatewayId;
  patch(cfg);
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify(cfg));
  return { file, brokerPort, cfg };
}
