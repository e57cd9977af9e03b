/**
 * Broker credentials at start-up (src/adapters/security/mqtt-credentials.ts): one password source, files
 * checked with errors naming the config key, and readable reasons for refused connections.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../../src/app/config/load-config.js';
import { createLogger } from '../../../src/runtime/log.js';
import { describeConnectError, loadMqttCredentials } from '../../../src/adapters/security/mqtt-credentials.js';
import { hasCommand } from '../../../dev/rig/commands.js';
import { makeTempDirSync } from '../../../dev/rig/temp-dir.js';
import { makeTestPki } from '../../helpers/test-pki.js';

const dir = makeTempDirSync('teg-cred-');
const url = 'mqtts://127.0.0.1:8883';

describe('the MQTT password', () => {
  it('comes from mqtt.password, mqtt.passwordFile (less one line break) or mqtt.passwordEnv', () => {
    expect(loadMqttCredentials({ url, username: 'gw', password: 'inline-pw' })).toMatchObject({
      username: 'gw',
      password: 'inline-pw',
      passwordSource: 'mqtt.password',
    });
    const f = join(dir, 'pw');
    writeFileSync(f, 'file pw with spaces \n', { mode: 0o600 });
    expect(loadMqttCredentials({ url, username: 'gw', passwordFile: f })).toMatchObject({
      password: 'file pw with spaces ',
      passwordSource: 'mqtt.passwordFile',
      warnings: [],
    });
    expect(loadMqttCredentials({ url, username: 'gw', passwordEnv: 'TEG_PW' }, { TEG_PW: 'env-pw' })).toMatchObject({
      password: 'env-pw',
      passwordSource: '$TEG_PW',
    });
  });

  it('has one source only: two are a config error naming the second key', () => {
    const cfg = (mqtt: Record<string, unknown>) => () =>
      validateConfig({
        mqtt: { url, ...mqtt },
        tables: [{ id: 't', game: 'baccarat', devices: [{ id: 'd', kind: 'card-shoe', transport: { type: 'simulator' } }] }],
      });
    expect(cfg({ password: 'a', passwordEnv: 'X' })).toThrow(
      /mqtt\.passwordEnv: set only one of password, passwordFile, passwordEnv \(password and passwordEnv are set\)/,
    );
    expect(cfg({ passwordFile: '/x', password: 'a' })).toThrow(/mqtt\.passwordFile: set only one/);
    expect(cfg({ passwordEnv: 'not a name' })).toThrow(/mqtt\.passwordEnv: must be an environment variable name/);
    expect(() => loadMqttCredentials({ url, password: 'a', passwordFile: '/x' })).toThrow(/^mqtt\.passwordFile: set only one/);
  });

  it('fails at start-up naming the key: unset variable, unreadable or empty file', () => {
    expect(() => loadMqttCredentials({ url, passwordEnv: 'TEG_NOPE' }, {})).toThrow(
      'mqtt.passwordEnv: the environment variable TEG_NOPE is not set or is empty',
    );
    expect(() => loadMqttCredentials({ url, passwordFile: join(dir, 'nope') })).toThrow(/^mqtt\.passwordFile: cannot read ".*nope": no such file$/);
    const empty = join(dir, 'empty');
    writeFileSync(empty, '');
    expect(() => loadMqttCredentials({ url, passwordFile: empty })).toThrow(/^mqtt\.passwordFile: ".*empty" is empty$/);
    const two = join(dir, 'two');
    writeFileSync(two, 'a\nb\n');
    expect(() => loadMqttCredentials({ url, passwordFile: two })).toThrow(/more than one line/);
    if (process.getuid?.() !== 0) {
      const locked = join(dir, 'locked');
      writeFileSync(locked, 'x');
      chmodSync(locked, 0o000);
      expect(() => loadMqttCredentials({ url, passwordFile: locked })).toThrow(/^mqtt\.passwordFile: cannot read ".*locked": permission denied/);
    }
  });

  it('warns (without the secret) about a loose password file, an inline password, a password in clear', () => {
    const f = join(dir, 'loose');
    writeFileSync(f, 'loose-secret-pw');
    chmodSync(f, 0o644);
    const c = loadMqttCredentials({ url: 'mqtt://broker:1883', username: 'gw', passwordFile: f });
    expect(c.warnings.join('\n')).toMatch(/mqtt\.passwordFile: ".*loose" is accessible to other users \(mode 0644\)/);
    expect(c.warnings.join('\n')).toMatch(/the password is sent unencrypted to mqtt:\/\/broker:1883/);
    expect(c.warnings.join('\n')).not.toContain('loose-secret-pw');
    expect(loadMqttCredentials({ url, username: 'gw', password: 'inline-x' }).warnings.join('\n')).toMatch(/written in the configuration file/);
    // a broker on this PC (the local bridge) is not "in clear over the network"
    expect(loadMqttCredentials({ url: 'mqtt://127.0.0.1:1883', username: 'gw', passwordEnv: 'P' }, { P: 'x-pw' }).warnings).toEqual([]);
    expect(loadMqttCredentials({ url: 'mqtt://localhost', username: 'gw', passwordEnv: 'P' }, { P: 'x-pw' }).warnings).toEqual([]);
  });

  it('is masked in every log line once loaded', () => {
    const lines: string[] = [];
    const log = createLogger({ json: true, write: (l) => lines.push(l) });
    loadMqttCredentials({ url, username: 'gw', passwordEnv: 'TEG_PW2' }, { TEG_PW2: 'Zq9-very-secret' });
    log.warn('oops, the password is Zq9-very-secret', { note: 'Zq9-very-secret' });
    expect(lines.join('\n')).not.toContain('Zq9-very-secret');
    expect(lines.join('\n')).toContain('[redacted]');
  });
});

describe.skipIf(!hasCommand('openssl'))('the TLS files', () => {
  const pki = makeTestPki(makeTempDirSync('teg-cred-pki-'), ['tablegw', 'other']);

  it('are read once: CA, client certificate and its key', () => {
    const c = loadMqttCredentials({ url, ca: pki.caCert, cert: pki.clients.tablegw.cert, key: pki.clients.tablegw.key });
    expect(c.ca?.toString()).toContain('BEGIN CERTIFICATE');
    expect(c.cert?.toString()).toContain('BEGIN CERTIFICATE');
    expect(c.key?.toString()).toContain('PRIVATE KEY');
    // certificates valid for 2 days: a warning that they expire soon
    expect(c.warnings.some((w) => /^mqtt\.cert: the certificate .* expires on/.test(w))).toBe(true);
  });

  it('fail at start-up naming the key', () => {
    expect(() => loadMqttCredentials({ url, ca: join(pki.dir, 'nope.crt') })).toThrow(/^mqtt\.ca: cannot read ".*nope\.crt": no such file$/);
    expect(() => loadMqttCredentials({ url, ca: pki.caKey })).toThrow(/^mqtt\.ca: ".*" is not a PEM certificate/);
    expect(() => loadMqttCredentials({ url, cert: pki.clients.tablegw.cert, key: pki.clients.other.key })).toThrow(
      /^mqtt\.key: ".*client-other\.key" is not the private key of the certificate in mqtt\.cert/,
    );
    expect(() => loadMqttCredentials({ url, cert: pki.clients.tablegw.cert, key: pki.clients.tablegw.cert })).toThrow(
      /^mqtt\.key: ".*" is not a PEM private key/,
    );
    expect(() => loadMqttCredentials({ url, cert: pki.clients.tablegw.cert })).toThrow(/^mqtt\.key: mqtt\.cert and mqtt\.key go together/);
    expect(() => loadMqttCredentials({ url: 'mqtt://h:1883', ca: pki.caCert })).toThrow(
      /^mqtt\.ca: a TLS file is set but mqtt\.url "mqtt:\/\/h:1883" is not TLS/,
    );
  });
});

describe('describeConnectError', () => {
  const err = (message: string, code?: string | number) => Object.assign(new Error(message), code !== undefined ? { code } : {});
  it('names what to check, for refused CONNACKs and TLS failures', () => {
    expect(describeConnectError(err('Connection refused: Bad User Name or Password', 134), url)).toMatch(
      /^the broker refused the user name or password \(check mqtt\.username and the password\)/,
    );
    expect(describeConnectError(err('Connection refused: Not authorized', 5), url)).toMatch(/^the broker refused the connection: not authorized/);
    expect(
      describeConnectError(
        err('C0:error:0A00045C:SSL routines:ssl3_read_bytes:tlsv13 alert certificate required', 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED'),
        url,
      ),
    ).toMatch(/^TLS: the broker requires a client certificate \(set mqtt\.cert and mqtt\.key\)/);
    expect(describeConnectError(err('self-signed certificate in certificate chain', 'SELF_SIGNED_CERT_IN_CHAIN'), url)).toMatch(
      /not signed by a trusted CA \(check mqtt\.ca\)/,
    );
    expect(describeConnectError(err('connect ECONNREFUSED 127.0.0.1:1', 'ECONNREFUSED'), 'mqtts://user:pw@127.0.0.1:1')).toBe(
      'nothing accepts connections at mqtts://127.0.0.1:1 [connect ECONNREFUSED 127.0.0.1:1]',
    );
  });
});
