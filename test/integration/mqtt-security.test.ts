/**
 * Security against a real Mosquitto configured like a casino's: TLS with a private CA and
 * `require_certificate true`, a password file, and an ACL that lets the gateway publish only under
 * its own table and read its requests, and the engine read results and send requests.
 * The gateway connects and publishes signed results the engine verifies; a wrong password, a
 * missing or untrusted client certificate are refused while the gateway keeps retrying and logs a
 * clear reason; the password never appears in any log line.
 */
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/app/config/load-config.js';
import { startGateway, type Gateway } from '../../src/app/gateway.js';
import { loadSimulators } from '../../simulators/load.js';
import { createLogger, type Logger } from '../../src/runtime/log.js';
import { TableLink } from '../../src/adapters/mqtt/table-link.js';
import { verifyEnvelope } from '../../src/adapters/security/signing.js';
import { startMosquitto, type MosquittoBroker } from '../../dev/rig/mosquitto.js';
import { commandPath } from '../../dev/rig/commands.js';
import { realIoOrSkip } from '../helpers/real-io.js';
import { makeTempDir, removeTempDir } from '../../dev/rig/temp-dir.js';
import { makeTestPki, type TestPki } from '../helpers/test-pki.js';

const io = realIoOrSkip(['mosquitto', 'mosquitto_passwd', 'openssl']);

const GW_PASSWORD = 'Gw-S3cret!pw-7f3a';
const ENGINE_PASSWORD = 'Eng-pw-42-b71c';
const WRONG_PASSWORD = 'Wrong-pw-9d0e';
const TABLE = 'tls-01';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(cond: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

function capturingLogger(): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  return { log: createLogger({ json: true, level: 'debug', write: (l) => lines.push(l) }), lines };
}

describe.skipIf(!io.available)('MQTT over TLS with client certificates, passwords and ACLs (real Mosquitto)', () => {
  let dir: string;
  let pki: TestPki;
  let broker: MosquittoBroker;
  let url: string;
  let publicPem: string;
  let keyFile: string;
  const links: TableLink[] = [];
  const clients: MqttClient[] = [];

  beforeAll(async () => {
    dir = await makeTempDir('teg-tls-');
    pki = makeTestPki(dir, ['tablegw', 'engine']);
    const passwd = join(dir, 'passwd');
    execFileSync(commandPath('mosquitto_passwd'), ['-b', '-c', passwd, 'tablegw', GW_PASSWORD]);
    execFileSync(commandPath('mosquitto_passwd'), ['-b', passwd, 'engine', ENGINE_PASSWORD]);
    const acl = join(dir, 'acl');
    writeFileSync(
      acl,
      [
        // the gateway: publish only under its table, read only its requests
        'user tablegw',
        `topic write casino/${TABLE}/#`,
        `topic read casino/${TABLE}/request/#`,
        '',
        // an engine: read what tables publish, send requests; it cannot publish results
        'user engine',
        'topic read casino/+/result',
        'topic read casino/+/status',
        'topic read casino/+/response/#',
        'topic write casino/+/request/#',
        '',
      ].join('\n'),
    );
    broker = await startMosquitto({
      extraConfig: [
        `cafile ${pki.caCert}`,
        `certfile ${pki.serverCert}`,
        `keyfile ${pki.serverKey}`,
        'require_certificate true',
        'allow_anonymous false',
        `password_file ${passwd}`,
        `acl_file ${acl}`,
        // the keys live in a private temp dir: a broker started as root must not drop to "mosquitto" before reading them
        'user root',
      ].join('\n'),
    });
    url = `mqtts://127.0.0.1:${broker.port}`;
    const kp = generateKeyPairSync('ed25519');
    publicPem = kp.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    keyFile = join(dir, 'signing.key');
    writeFileSync(keyFile, kp.privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  });

  afterAll(async () => {
    await Promise.all(links.map((l) => l.close().catch(() => {})));
    await Promise.all(clients.map((c) => c.endAsync(true).catch(() => {})));
    await broker?.stop();
    if (dir) await removeTempDir(dir);
  });

  async function engineClient(): Promise<{ client: MqttClient; messages: Array<{ topic: string; text: string }> }> {
    const client = mqtt.connect(url, {
      clientId: `engine-${process.pid}-${clients.length}`,
      username: 'engine',
      password: ENGINE_PASSWORD,
      ca: pki.caCert && execFileSync('cat', [pki.caCert]),
      cert: execFileSync('cat', [pki.clients.engine.cert]),
      key: execFileSync('cat', [pki.clients.engine.key]),
      reconnectPeriod: 200,
      protocolVersion: 5,
    });
    clients.push(client);
    client.on('error', () => {});
    const messages: Array<{ topic: string; text: string }> = [];
    client.on('message', (topic, buf) => messages.push({ topic, text: buf.toString('utf8') }));
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('engine could not connect')), 10_000);
      client.once('connect', () => {
        clearTimeout(t);
        resolve();
      });
    });
    await client.subscribeAsync([`casino/${TABLE}/result`, `casino/${TABLE}/status`, `casino/${TABLE}/response/#`], { qos: 1 });
    return { client, messages };
  }

  function link(o: { password?: string; cert?: boolean; ca?: string; cert2?: { cert: string; key: string } }, log: Logger): TableLink {
    const l = new TableLink({
      url,
      tableId: TABLE,
      gameId: 'baccarat',
      topicPrefix: 'casino',
      clientIdPrefix: `probe-${links.length}-`,
      protocolVersion: 5,
      keepaliveSec: 30,
      username: 'tablegw',
      password: o.password,
      ca: o.ca ?? pki.caCert,
      ...(o.cert2 ? o.cert2 : o.cert === false ? {} : { cert: pki.clients.tablegw.cert, key: pki.clients.tablegw.key }),
      logger: log,
    });
    links.push(l);
    l.connect();
    return l;
  }

  it('the gateway connects with its certificate and password file and publishes signed results the engine verifies; the password is never logged', async () => {
    const engine = await engineClient();
    const pwFile = join(dir, 'gw.password');
    writeFileSync(pwFile, `${GW_PASSWORD}\n`, { mode: 0o600 });
    const dataDir = await makeTempDir('teg-tls-data-');
    const cfg = validateConfig({
      mqtt: { url, username: 'tablegw', passwordFile: pwFile, ca: pki.caCert, cert: pki.clients.tablegw.cert, key: pki.clients.tablegw.key },
      dataDir,
      http: { enabled: false },
      health: { intervalMs: 0 },
      signing: { privateKeyFile: keyFile, keyId: 'tls-test-key' },
      tables: [
        {
          id: TABLE,
          game: 'baccarat',
          devices: [{ id: 'shoe-1', kind: 'card-shoe', transport: { type: 'simulator', seed: 'tls-test', cardIntervalMs: 0, roundIntervalMs: 0 } }],
        },
      ],
    });
    const { log, lines } = capturingLogger();
    let gw: Gateway | null = null;
    try {
      gw = await startGateway(cfg, { simulators: loadSimulators, logger: log, fast: true, simulatorShoes: 1 });
      await until(() => engine.messages.filter((m) => m.topic.endsWith('/result')).length >= 3, 30_000, 'three results at the engine');
      const results = engine.messages.filter((m) => m.topic === `casino/${TABLE}/result`);
      for (const r of results) {
        expect(verifyEnvelope(r.text, publicPem)).toBe(true);
        expect(JSON.parse(r.text)).toMatchObject({ type: 'result', table: TABLE, signature: { alg: 'Ed25519', keyId: 'tls-test-key' } });
      }
      expect(engine.messages.some((m) => m.topic.endsWith('/status') && JSON.parse(m.text).state === 'online')).toBe(true);

      // the engine may not publish a result (ACL): a forged one never reaches subscribers
      const forged = { ...JSON.parse(results[0].text), seq: 999_999, outcome: { winner: 'player' } };
      await engine.client.publishAsync(`casino/${TABLE}/result`, JSON.stringify(forged), { qos: 1 }).catch(() => {});
      // a request it may send is answered by the gateway (the gateway may read requests and publish responses)
      await engine.client.publishAsync(`casino/${TABLE}/request/status`, JSON.stringify({ transaction: 'tx-tls' }), { qos: 1 });
      await until(() => engine.messages.some((m) => m.topic.endsWith('/response/status')), 10_000, 'the response to status');
      await sleep(300);
      expect(engine.messages.some((m) => m.text.includes('999999'))).toBe(false);
      expect(JSON.parse(engine.messages.find((m) => m.topic.endsWith('/response/status'))!.text)).toMatchObject({ status: 'ok', transaction: 'tx-tls' });
    } finally {
      await gw?.stop();
      await removeTempDir(dataDir);
    }
    const text = lines.join('\n');
    expect(text).toContain(`connected to ${url}`);
    expect(text).toMatch(/MQTT password from mqtt\.passwordFile/);
    expect(text).toMatch(/signing result messages with Ed25519 key tls-test-key/);
    expect(text).not.toContain(GW_PASSWORD);
  }, 60_000);

  it('a wrong password is refused: the link keeps retrying and logs why, without the password', async () => {
    const { log, lines } = capturingLogger();
    const l = link({ password: WRONG_PASSWORD }, log);
    await until(() => (l.connectFailure?.attempts ?? 0) >= 2, 15_000, 'two refused attempts');
    expect(l.connected).toBe(false);
    expect(l.connectFailure?.reason).toMatch(/^the broker refused the (user name or password|connection: not authorized)/);
    const text = lines.join('\n');
    expect(text).toMatch(/cannot connect to mqtts:\/\/127\.0\.0\.1:\d+: the broker refused the/);
    expect(text).not.toContain(WRONG_PASSWORD);
    expect(text).not.toContain(GW_PASSWORD);
    expect(lines.filter((x) => x.includes('cannot connect')).length).toBe(1); // the same reason is not repeated every second
    await l.close();
  }, 30_000);

  it('a missing client certificate is refused at the TLS handshake, with a reason naming mqtt.cert', async () => {
    const { log, lines } = capturingLogger();
    const l = link({ password: GW_PASSWORD, cert: false }, log);
    await until(() => (l.connectFailure?.attempts ?? 0) >= 2, 15_000, 'two refused attempts');
    expect(l.connected).toBe(false);
    expect(l.connectFailure?.reason).toMatch(/client certificate.*mqtt\.cert|mqtt\.cert.*client certificate/);
    expect(lines.join('\n')).not.toContain(GW_PASSWORD);
    await l.close();
  }, 30_000);

  it('a client certificate from another CA is refused; a broker certificate the configured CA did not sign is refused', async () => {
    const { log, lines } = capturingLogger();
    const rogue = link({ password: GW_PASSWORD, cert2: { cert: pki.rogue.cert, key: pki.rogue.key } }, log);
    const wrongCa = link({ password: GW_PASSWORD, ca: pki.rogue.caCert }, log);
    await until(() => (rogue.connectFailure?.attempts ?? 0) >= 2 && (wrongCa.connectFailure?.attempts ?? 0) >= 2, 15_000, 'refused attempts');
    expect(rogue.connectFailure?.reason).toMatch(/^TLS: the broker rejected the client certificate|^the broker closed the connection during the handshake/);
    expect(wrongCa.connectFailure?.reason).toMatch(/^TLS: the broker's certificate is not signed by a trusted CA \(check mqtt\.ca\)/);
    expect(lines.join('\n')).not.toContain(GW_PASSWORD);
    await rogue.close();
    await wrongCa.close();
  }, 30_000);

  it('an unreadable TLS file or an unset password variable stops the gateway at start-up, naming the key', async () => {
    const base = { url, username: 'tablegw', ca: pki.caCert, cert: pki.clients.tablegw.cert, key: pki.clients.tablegw.key };
    const tables = [{ id: TABLE, game: 'baccarat', devices: [{ id: 'shoe-1', kind: 'card-shoe', transport: { type: 'simulator' } }] }];
    const { log } = capturingLogger();
    const missingCa = validateConfig({ mqtt: { ...base, ca: join(dir, 'no-such-ca.crt'), passwordEnv: 'TEG_TLS_TEST_PW' }, http: { enabled: false }, tables });
    await expect(startGateway(missingCa, { simulators: loadSimulators, logger: log })).rejects.toThrow(
      /^mqtt\.passwordEnv: the environment variable TEG_TLS_TEST_PW is not set/,
    );
    process.env.TEG_TLS_TEST_PW = GW_PASSWORD;
    try {
      await expect(startGateway(missingCa, { simulators: loadSimulators, logger: log })).rejects.toThrow(
        /^mqtt\.ca: cannot read ".*no-such-ca\.crt": no such file$/,
      );
    } finally {
      delete process.env.TEG_TLS_TEST_PW;
    }
  });
});
