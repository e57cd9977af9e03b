/**
 * The broker credentials of `mqtt.*` (docs/SECURITY.md), loaded once at start-up: the password
 * from exactly one of `password`, `passwordFile` or `passwordEnv`, and the TLS files `ca`, `cert`,
 * `key`. Each problem is a CredentialError naming the configuration key; nothing read here is ever
 * logged (the password is registered with the logger's secret filter as soon as it is known).
 */
import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { registerSecret } from '../../runtime/log.js';
import { CredentialError, looseModeWarning, readConfigFile } from './secret-files.js';

export interface MqttCredentialSettings {
  /** one broker URL or the failover list (every URL is checked) */
  url: string | readonly string[];
  username?: string;
  password?: string;
  passwordFile?: string;
  passwordEnv?: string;
  ca?: string;
  cert?: string;
  key?: string;
}

export interface MqttCredentials {
  username?: string;
  password?: string;
  /** where the password came from, for log lines: `mqtt.password`, `mqtt.passwordFile`, `$NAME` */
  passwordSource?: string;
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
  /** things a technician should fix, worded for the log (no secrets) */
  warnings: string[];
}

const DAY = 86_400_000;

function urlList(url: string | readonly string[]): readonly string[] {
  return typeof url === 'string' ? [url] : url;
}

function isTlsUrl(url: string): boolean {
  return /^(mqtts|tls|wss):\/\//.test(url);
}

function loadPassword(m: MqttCredentialSettings, env: NodeJS.ProcessEnv, out: MqttCredentials): void {
  const set = [
    m.password !== undefined && 'mqtt.password',
    m.passwordFile !== undefined && 'mqtt.passwordFile',
    m.passwordEnv !== undefined && 'mqtt.passwordEnv',
  ].filter(Boolean);
  if (set.length > 1)
    throw new CredentialError(String(set[1]), `set only one of mqtt.password, mqtt.passwordFile, mqtt.passwordEnv (${set.join(' and ')} are set)`);
  if (m.password !== undefined) {
    if (m.password === '') throw new CredentialError('mqtt.password', 'is empty');
    out.password = m.password;
    out.passwordSource = 'mqtt.password';
    out.warnings.push('mqtt.password: the password is written in the configuration file; prefer mqtt.passwordFile (mode 600) or mqtt.passwordEnv');
  } else if (m.passwordFile !== undefined) {
    // the whole file is the password, less one trailing line break (echo / editors add one)
    const text = readConfigFile('mqtt.passwordFile', m.passwordFile)
      .toString('utf8')
      .replace(/\r?\n$/, '');
    if (text === '') throw new CredentialError('mqtt.passwordFile', `"${m.passwordFile}" holds no password`);
    if (/[\r\n]/.test(text)) throw new CredentialError('mqtt.passwordFile', `"${m.passwordFile}" has more than one line; it must hold the password only`);
    out.password = text;
    out.passwordSource = 'mqtt.passwordFile';
    const w = looseModeWarning('mqtt.passwordFile', m.passwordFile);
    if (w) out.warnings.push(w);
  } else if (m.passwordEnv !== undefined) {
    const v = env[m.passwordEnv];
    if (v === undefined || v === '') throw new CredentialError('mqtt.passwordEnv', `the environment variable ${m.passwordEnv} is not set or is empty`);
    out.password = v;
    out.passwordSource = `$${m.passwordEnv}`;
  }
  if (out.password !== undefined) {
    registerSecret(out.password);
    // in clear over the network, not to a broker on this PC (the local bridge of docs/INSTALL.md)
    for (const url of urlList(m.url)) {
      if (!isTlsUrl(url) && url !== 'embedded' && !/^[a-z]+:\/\/([^@/]*@)?(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?(\/|$)/i.test(url)) {
        out.warnings.push(`mqtt.url: the password is sent unencrypted to ${url.replace(/\/\/[^@/]*@/, '//')} (use mqtts://)`);
      }
    }
    if (m.username === undefined) out.warnings.push('mqtt.username is not set: most brokers ignore a password without a user name');
  }
}

function certificate(configKey: string, path: string, pem: Buffer): X509Certificate {
  if (!pem.includes('-----BEGIN CERTIFICATE-----'))
    throw new CredentialError(configKey, `"${path}" is not a PEM certificate (no -----BEGIN CERTIFICATE----- line)`);
  try {
    return new X509Certificate(pem);
  } catch (e) {
    throw new CredentialError(configKey, `"${path}" is not a valid certificate: ${(e as Error).message}`);
  }
}

function validity(configKey: string, path: string, c: X509Certificate, now: number, out: MqttCredentials): void {
  const to = Date.parse(c.validTo);
  const from = Date.parse(c.validFrom);
  if (to < now) out.warnings.push(`${configKey}: the certificate in "${path}" expired on ${c.validTo}; the broker will refuse it`);
  else if (from > now) out.warnings.push(`${configKey}: the certificate in "${path}" is not valid before ${c.validFrom} (is the clock right?)`);
  else if (to - now < 30 * DAY) out.warnings.push(`${configKey}: the certificate in "${path}" expires on ${c.validTo}`);
}

/**
 * Reads and checks every credential `m` names. Throws CredentialError (naming the key) for a file
 * that cannot be read or used, an unset environment variable, a certificate that does not match
 * its key; returns warnings for things that work but should be fixed.
 */
export function loadMqttCredentials(m: MqttCredentialSettings, env: NodeJS.ProcessEnv = process.env, now = Date.now()): MqttCredentials {
  const out: MqttCredentials = { warnings: [] };
  if (m.username !== undefined) out.username = m.username;
  loadPassword(m, env, out);
  const plain = urlList(m.url).find((u) => !isTlsUrl(u));
  if ((m.ca || m.cert || m.key) && plain !== undefined) {
    throw new CredentialError(
      m.ca ? 'mqtt.ca' : m.cert ? 'mqtt.cert' : 'mqtt.key',
      `a TLS file is set but mqtt.url "${plain}" is not TLS (use mqtts://host:8883)`,
    );
  }
  if (m.ca !== undefined) {
    out.ca = readConfigFile('mqtt.ca', m.ca);
    validity('mqtt.ca', m.ca, certificate('mqtt.ca', m.ca, out.ca), now, out);
  }
  if ((m.cert === undefined) !== (m.key === undefined)) {
    throw new CredentialError(m.cert === undefined ? 'mqtt.cert' : 'mqtt.key', 'mqtt.cert and mqtt.key go together (a client certificate and its private key)');
  }
  if (m.cert !== undefined && m.key !== undefined) {
    out.cert = readConfigFile('mqtt.cert', m.cert);
    const c = certificate('mqtt.cert', m.cert, out.cert);
    validity('mqtt.cert', m.cert, c, now, out);
    out.key = readConfigFile('mqtt.key', m.key);
    let key: KeyObject;
    try {
      key = createPrivateKey(out.key);
    } catch (e) {
      const msg = (e as Error).message;
      throw new CredentialError(
        'mqtt.key',
        /passphrase/i.test(msg)
          ? `"${m.key}" is encrypted; the gateway needs an unencrypted key file (openssl pkey -in in.pem -out key.pem) protected by its file mode`
          : `"${m.key}" is not a PEM private key`,
      );
    }
    if (!c.checkPrivateKey(key)) throw new CredentialError('mqtt.key', `"${m.key}" is not the private key of the certificate in mqtt.cert "${m.cert}"`);
    const w = looseModeWarning('mqtt.key', m.key);
    if (w) out.warnings.push(w);
  }
  return out;
}

/**
 * One readable, secret-free sentence for an MQTT connection failure (a refused CONNACK, a TLS
 * handshake failure, a socket error), naming the configuration keys to check.
 */
export function describeConnectError(e: unknown, url: string): string {
  const err = e as Error & { code?: string | number; reason?: string };
  const code = err?.code;
  // OpenSSL's "80DC...:error:0A000418:SSL routines:ssl3_read_bytes:tlsv1 alert unknown ca:../deps/...:SSL alert number 48" -> "tlsv1 alert unknown ca"
  const msg = String(err?.message ?? e)
    .replace(/^[0-9A-F]+:error:[0-9A-F]+:SSL routines:[^:]*:([^:]+):[\s\S]*$/, '$1')
    .trim();
  const where = url.replace(/\/\/[^@/]*@/, '//');
  if (typeof code === 'number') {
    // CONNACK return codes (MQTT 3.1.1) and reason codes (MQTT 5)
    if (code === 4 || code === 134) return `the broker refused the user name or password (check mqtt.username and the password) [${msg}]`;
    if (code === 5 || code === 135)
      return `the broker refused the connection: not authorized (check mqtt.username, the password, and the broker's ACL) [${msg}]`;
    if (code === 2 || code === 133) return `the broker refused the client id (mqtt.clientIdPrefix) [${msg}]`;
    if (code === 138) return `the broker has banned this client [${msg}]`;
    return `the broker refused the connection [${msg}]`;
  }
  const text = `${code ?? ''} ${msg}`;
  if (/CERTIFICATE_REQUIRED|certificate required/i.test(text)) return `TLS: the broker requires a client certificate (set mqtt.cert and mqtt.key) [${msg}]`;
  if (/SELF_SIGNED_CERT|UNABLE_TO_VERIFY_LEAF|UNABLE_TO_GET_ISSUER|unable to verify|self[- ]signed/i.test(text))
    return `TLS: the broker's certificate is not signed by a trusted CA (check mqtt.ca) [${msg}]`;
  if (/ERR_TLS_CERT_ALTNAME_INVALID|altnames|Hostname\/IP does not match/i.test(text))
    return `TLS: the broker's certificate is not issued for the host in mqtt.url (${where}) [${msg}]`;
  if (/CERT_HAS_EXPIRED|certificate has expired/i.test(text)) return `TLS: the broker's certificate has expired [${msg}]`;
  if (/alert (bad certificate|unknown ca|certificate unknown|certificate expired|certificate revoked|decrypt error|access denied)/i.test(text)) {
    return `TLS: the broker rejected the client certificate (is mqtt.cert valid and signed by a CA the broker trusts?) [${msg}]`;
  }
  if (/wrong version number|WRONG_VERSION_NUMBER|packet length too long/i.test(text))
    return `TLS: the broker does not speak TLS on ${where} (use mqtt:// or the TLS port) [${msg}]`;
  if (code === 'ECONNREFUSED') return `nothing accepts connections at ${where} [${msg}]`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `the broker host in mqtt.url cannot be resolved [${msg}]`;
  if (code === 'ECONNRESET' || code === 'EPIPE')
    return `the broker closed the connection during the handshake (a TLS or authentication problem on the broker's side? see its log) [${msg}]`;
  return msg;
}
