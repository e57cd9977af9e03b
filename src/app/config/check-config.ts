/**
 * `tablegw check-config`: beyond the schema, every file the configuration names is checked (the
 * broker's CA, the client certificate and key, the password file, the signing key, each RFID
 * deck registry, each device profile), every serial device must exist and be openable by the
 * service user (serial-paths.ts), and the data directory must be writable. Every problem is
 * listed in one run, and the summary masks secrets the way the logger does.
 */
import { loadPrivilegedKeys } from '../../adapters/security/privileged-keys.js';
import { createPrivateKey } from 'node:crypto';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { loadMqttCredentials } from '../../adapters/security/mqtt-credentials.js';
import { readConfigFile } from '../../adapters/security/secret-files.js';
import type { GatewayConfig } from '../../core/vocabulary/config-schema.js';
import { loadProfileFile } from '../../../drivers/profiles/profile-schema.js';
import { serialDeviceProblems } from './serial-paths.js';

const CENSOR = '[redacted]';

/** `mqtt://user:secret@host` -> `mqtt://user:[redacted]@host` (as src/runtime/log.ts masks URLs) */
export function maskUrl(url: string): string {
  return url.replace(/([a-z][a-z0-9+.-]*:\/\/)([^/\s:@]+):([^/\s@]+)@/gi, `$1$2:${CENSOR}@`);
}

/** why the data directory cannot hold the journal (cause and path), or null */
export function dataDirProblem(dataDir: string): string | null {
  const dir = resolve(dataDir);
  if (existsSync(dir)) {
    if (!statSync(dir).isDirectory()) return `dataDir: "${dir}" exists but is not a directory`;
    try {
      accessSync(dir, constants.W_OK | constants.X_OK);
    } catch {
      return `dataDir: "${dir}" is not writable by this user (uid ${process.getuid?.() ?? '?'}), or is on a read-only file system: the journal cannot be created there`;
    }
    return null;
  }
  // it will be created: its nearest existing parent must be writable
  let parent = dirname(dir);
  while (!existsSync(parent) && dirname(parent) !== parent) parent = dirname(parent);
  if (!statSync(parent).isDirectory()) return `dataDir: "${dir}" cannot be created: "${parent}" is a file, not a directory`;
  try {
    accessSync(parent, constants.W_OK | constants.X_OK);
  } catch {
    return `dataDir: "${dir}" does not exist and cannot be created: "${parent}" is not writable by this user, or is on a read-only file system`;
  }
  return null;
}

/** every problem with the files the configuration names; empty when all are usable */
export function configFileProblems(cfg: GatewayConfig): string[] {
  const problems: string[] = [];
  const check = (key: string, path: string | undefined, parse?: (b: Buffer) => void) => {
    if (path === undefined) return;
    try {
      const b = readConfigFile(key, path);
      parse?.(b);
    } catch (e) {
      problems.push((e as Error).message.startsWith(key) ? (e as Error).message : `${key}: ${(e as Error).message}`);
    }
  };
  const m = cfg.mqtt as GatewayConfig['mqtt'] & { ca?: string; cert?: string; key?: string; passwordFile?: string };
  check('mqtt.ca', m.ca);
  check('mqtt.cert', m.cert);
  check('mqtt.key', m.key);
  check('mqtt.passwordFile', m.passwordFile);
  if (problems.length === 0 && m.url !== 'embedded') {
    // the files can be read: now what the gateway checks at start (the key matches the certificate, ...)
    try {
      loadMqttCredentials(m as Parameters<typeof loadMqttCredentials>[0]);
    } catch (e) {
      problems.push((e as Error).message);
    }
  }
  check('signing.privateKeyFile', cfg.signing?.privateKeyFile, (b) => {
    const k = createPrivateKey(b);
    if (k.asymmetricKeyType !== 'ed25519') throw new Error(`"${cfg.signing?.privateKeyFile}" is a ${k.asymmetricKeyType} key, not Ed25519`);
  });
  cfg.tables.forEach((t, i) => {
    // the privileged-request keys, read as the gateway reads them at start (docs/SECURITY.md)
    try {
      loadPrivilegedKeys(t, i);
    } catch (e) {
      problems.push((e as Error).message);
    }
    t.devices.forEach((d, j) => {
      const dev = d as typeof d & { deckRegistry?: string; profile?: string };
      check(`tables[${i}].devices[${j}].deckRegistry`, dev.deckRegistry);
      if (typeof dev.profile === 'string') check(`tables[${i}].devices[${j}].profile`, dev.profile);
    });
  });
  // every serial device: there, and openable by the service user (serial-paths.ts)
  problems.push(...serialDeviceProblems(cfg));
  const dd = dataDirProblem(cfg.dataDir);
  if (dd) problems.push(dd);
  return problems;
}

/** the summary `check-config` prints: no secret in it */
export function describeConfig(cfg: GatewayConfig): string[] {
  const lines = [
    `  broker: ${
      cfg.mqtt.url === 'embedded'
        ? `embedded on ${cfg.embeddedBroker.host}:${cfg.embeddedBroker.port}`
        : [cfg.mqtt.url]
            .flat()
            .map((u) => maskUrl(u))
            .join(' then ')
    }, topics under ${cfg.mqtt.topicPrefix}/`,
  ];
  const m = cfg.mqtt as { username?: string; password?: string; passwordFile?: string; passwordEnv?: string };
  if (m.username !== undefined)
    lines.push(
      `  user: ${m.username}, password ${m.password !== undefined ? `${CENSOR} (in the file)` : m.passwordFile ? `from ${m.passwordFile}` : m.passwordEnv ? `from $${m.passwordEnv}` : 'none'}`,
    );
  for (const t of cfg.tables) {
    const keys = t.requests.privileged.keys;
    lines.push(
      `  table ${t.id}: ${t.game}, betting ${t.betting}, privileged requests ${keys.length ? `signed by ${keys.map((k) => `${k.name} (${k.commands.join(', ')})`).join('; ')}` : 'refused (no keys)'}`,
    );
    for (const d of t.devices) {
      const how = `${d.profile ? `, profile ${basename(d.profile).replace(/\.ya?ml$/, '')}` : ''}${d.role ? `, role ${d.role}` : ''}`;
      lines.push(
        `    ${d.id}: ${d.kind} via ${d.transport.type}${d.transport.type === 'serial' ? ` ${d.transport.path} @${d.transport.baudRate ?? (d.profile !== undefined ? loadProfileFile(d.profile).line?.baudRate : undefined) ?? 9600}` : ''}${how}`,
      );
    }
  }
  return lines;
}
