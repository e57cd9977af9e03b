/**
 * `tablegw check-config` checks every file the configuration names and the data directory, lists
 * every problem in one run (exit 1), and never prints a secret. The store names the data
 * directory and the cause when it cannot create or open the journal.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { configFileProblems, dataDirProblem, maskUrl } from '../../../src/app/config/check-config.js';
import { validateConfig } from '../../../src/app/config/load-config.js';
import { makeTempDirSync, removeTempDir } from '../../../dev/rig/temp-dir.js';
import { GatewayStore } from '../../../src/adapters/store/gateway-store.js';

const dir = makeTempDirSync('teg-check-');
afterAll(() => removeTempDir(dir));
const missing = (name: string) => join(dir, 'missing', name);

function run(config: unknown) {
  const file = join(dir, `cfg-${Math.random().toString(16).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(config));
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/app/cli/main.ts', 'check-config', file], { encoding: 'utf8' });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

// (an RFID shoe's deck registry is read by the config loader itself: a missing one is a ConfigError naming its key)
// /dev/null: a character device every user may open (check-config checks that each serial path exists: serial-paths.ts)
const shoe = { id: 'shoe-1', kind: 'card-shoe', transport: { type: 'serial', path: '/dev/null' } };

describe('check-config', () => {
  it('lists every missing file it names in one run and exits non-zero', () => {
    const r = run({
      mqtt: { url: 'mqtts://broker:8883', ca: missing('ca.crt'), cert: missing('pc.crt'), key: missing('pc.key'), username: 'pc', passwordFile: missing('pw') },
      signing: { privateKeyFile: missing('signing.key') },
      dataDir: join(dir, 'data'),
      tables: [{ id: 'rf-01', game: 'baccarat', devices: [shoe] }],
    });
    expect(r.code).toBe(1);
    expect(r.out).not.toMatch(/: valid/);
    for (const key of ['mqtt.ca', 'mqtt.cert', 'mqtt.key', 'mqtt.passwordFile', 'signing.privateKeyFile']) {
      expect(r.out).toContain(key);
    }
    expect(r.out).toMatch(/5 problem\(s\)/);
  });

  it('never prints the broker password (in the URL or in the file) and says valid when all is well', () => {
    const r = run({
      mqtt: { url: 'mqtt://pc:s3cr3t-in-url@broker:1883', username: 'pc', password: 'hunter2-secret' },
      dataDir: join(dir, 'data-ok'),
      tables: [{ id: 'rf-01', game: 'baccarat', devices: [shoe] }],
    });
    expect(r.out).toContain(': valid');
    expect(r.code).toBe(0);
    expect(r.out).not.toContain('s3cr3t-in-url');
    expect(r.out).not.toContain('hunter2-secret');
    expect(r.out).toContain('mqtt://pc:[redacted]@broker:1883');
  });

  it('names the data directory and the cause when the journal cannot live there', () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    expect(dataDirProblem(join(file, 'data'))).toMatch(/dataDir: ".*a-file\/data" cannot be created: ".*a-file" is a file/);
    const cfg = validateConfig({
      mqtt: { url: 'embedded' },
      dataDir: join(file, 'data'),
      tables: [{ id: 't', game: 'baccarat', devices: [{ id: 's', kind: 'card-shoe', transport: { type: 'serial', path: '/dev/null' } }] }],
    });
    expect(configFileProblems(cfg)).toEqual([expect.stringMatching(/^dataDir: /)]);
    expect(() => new GatewayStore(join(file, 'data'))).toThrow(/^dataDir: cannot create ".*a-file\/data": /);
    const dbIsADir = join(dir, 'db-dir');
    mkdirSync(join(dbIsADir, 'gateway.db'), { recursive: true });
    expect(() => new GatewayStore(dbIsADir)).toThrow(/^dataDir: cannot open the journal ".*db-dir\/gateway\.db": /);
    expect(maskUrl('mqtts://u:p@h:8883')).toBe('mqtts://u:[redacted]@h:8883');
  });
});
