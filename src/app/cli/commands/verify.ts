/**
 * `tablegw verify`: checks the Ed25519 signatures of gateway messages (docs/SECURITY.md) — from a
 * file or stdin, or live from a broker topic — with the gateway's public key.
 */
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import mqtt, { type IClientOptions } from 'mqtt';
import { loadMqttCredentials, type MqttCredentials } from '../../../adapters/security/mqtt-credentials.js';
import { checkEnvelopeSignature } from '../../../adapters/security/signing.js';
import { parsedOrNull, type CliCommand } from './command.js';

const help = `Usage: tablegw verify --public-key <gateway.pub> [<file> | -]
       tablegw verify --public-key <gateway.pub> --url <broker> [--topic <filter>] [--count <n>] [--timeout <s>]

Checks the Ed25519 signature of gateway messages (docs/SECURITY.md): the signature must match the
canonical JSON of the message under one of the public keys, and a message received on a topic
must belong to that topic's table and type. Prints one line per message; exits 0 when every
message verified, 1 when any did not, 2 on a usage error.

Messages from a file: one JSON message per line, lines as printed by "mosquitto_sub -v"
("<topic> <json>"), or one JSON message or an array of them. From stdin ("-" or no file): the
same, one line at a time as it arrives (mosquitto_sub -v ... | tablegw verify -k gw.pub -).
  --public-key <f>      the gateway's public key, SPKI PEM (tablegw keygen, or
                        openssl pkey -in signing.key -pubout); repeat it to accept several keys
  --allow-unsigned      skip messages without a signature instead of failing them
  --json                one JSON line per message: {topic, seq, ok, keyId | reason}
From a broker:
  --url <broker>        mqtt:// or mqtts:// URL; subscribes to --topic
  --topic <filter>      default "<prefix>/+/result"; repeat for several
  --prefix <p>          topic prefix (default casino)
  --count <n>           stop after n messages (retained ones included)
  --timeout <s>         stop after s seconds
  --username <u>        broker user name
  --password-file <f>   file holding the broker password (never a password on the command line)
  --password-env <VAR>  environment variable holding it
  --ca <file>           CA certificate for mqtts://
  --cert <file> --key <file>   client certificate and key, when the broker requires one`;

/** the first topic segment after the table -> the message type published there (mqtt-api.md) */
const TOPIC_TYPES: Record<string, string> = {
  result: 'result',
  round: 'round',
  shoe: 'shoe',
  events: 'event',
  alerts: 'alert',
  health: 'health',
  devices: 'device',
  response: 'response',
  status: 'status',
};

export interface VerifyReport {
  topic?: string;
  seq?: unknown;
  roundId?: unknown;
  ok: boolean;
  skipped?: boolean;
  keyId?: string;
  /** the fingerprint of the public key that verified the signature */
  verifiedBy?: string;
  reason?: string;
}

/** checks one message (its JSON text), received on `topic` when known, against the keys */
export function verifyMessage(text: string, keys: readonly string[], o: { topic?: string; allowUnsigned?: boolean } = {}): VerifyReport {
  let msg: Record<string, unknown>;
  try {
    const v = JSON.parse(text) as unknown;
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return { topic: o.topic, ok: false, reason: 'not a JSON object' };
    msg = v as Record<string, unknown>;
  } catch (e) {
    return { topic: o.topic, ok: false, reason: `not JSON: ${(e as Error).message}` };
  }
  const base: VerifyReport = { ok: false, ...(o.topic ? { topic: o.topic } : {}), seq: msg.seq, ...(msg.roundId ? { roundId: msg.roundId } : {}) };
  if (msg.signature === undefined && o.allowUnsigned) return { ...base, ok: true, skipped: true, reason: 'not signed' };
  let last = 'no public key';
  let ok: string | null = null;
  let verifiedBy = '';
  for (const k of keys) {
    const r = checkEnvelopeSignature(msg, k);
    if (r.ok) {
      ok = r.keyId;
      verifiedBy = r.verifiedBy;
      break;
    }
    last = r.reason;
  }
  if (ok === null) return { ...base, reason: last };
  // a valid signature on the wrong topic is a replayed or misrouted message: `<prefix>/<table>/<kind>...`
  if (o.topic) {
    const parts = o.topic.split('/');
    const at = parts.findIndex((p, i) => p === msg.table && i + 1 < parts.length && TOPIC_TYPES[parts[i + 1]] !== undefined);
    if (at < 0) return { ...base, reason: `signed for table ${JSON.stringify(msg.table)} but received on ${o.topic}` };
    const want = TOPIC_TYPES[parts[at + 1]];
    if (want !== msg.type) return { ...base, reason: `a signed ${JSON.stringify(msg.type)} message received on ${o.topic}` };
  }
  return { ...base, ok: true, keyId: ok, verifiedBy };
}

/** the messages in a file's text: one JSON document (object or array), else one message per line */
export function messagesOf(text: string): Array<{ topic?: string; text: string }> {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  try {
    const whole = JSON.parse(trimmed) as unknown;
    if (Array.isArray(whole)) return whole.map((m) => ({ text: JSON.stringify(m) }));
    if (whole && typeof whole === 'object') return [{ text: trimmed }];
  } catch {
    // one per line
  }
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => {
      if (l.startsWith('{')) return { text: l };
      const sp = l.indexOf(' ');
      return sp > 0 ? { topic: l.slice(0, sp), text: l.slice(sp + 1).trim() } : { text: l };
    });
}

function line(r: VerifyReport, json: boolean): string {
  if (json) return JSON.stringify(r);
  const what = [r.topic, r.seq !== undefined ? `seq ${String(r.seq)}` : '', r.roundId ? String(r.roundId) : ''].filter(Boolean).join(' ');
  if (r.skipped) return `SKIP ${what}: not signed`;
  return r.ok ? `OK   ${what} (key ${r.keyId}, verified by ${r.verifiedBy})` : `FAIL ${what || '(message)'}: ${r.reason}`;
}

export const command: CliCommand = {
  summary: 'verify the Ed25519 signatures of gateway messages (file, stdin or a broker topic)',
  help,
  async run(argv) {
    const parsed = parsedOrNull('verify', help, () =>
      parseArgs({
        args: argv,
        allowPositionals: true,
        options: {
          'public-key': { type: 'string', short: 'k', multiple: true },
          'allow-unsigned': { type: 'boolean' },
          json: { type: 'boolean' },
          url: { type: 'string' },
          topic: { type: 'string', multiple: true },
          prefix: { type: 'string' },
          count: { type: 'string' },
          timeout: { type: 'string' },
          username: { type: 'string' },
          'password-file': { type: 'string' },
          'password-env': { type: 'string' },
          ca: { type: 'string' },
          cert: { type: 'string' },
          key: { type: 'string' },
        },
      }),
    );
    if (!parsed) return 2;
    const { values, positionals } = parsed;
    const keyFiles = values['public-key'] ?? [];
    if (keyFiles.length === 0) {
      console.error(`verify: --public-key is required\n\n${help}`);
      return 2;
    }
    let keys: string[];
    try {
      keys = keyFiles.map((f) => readFileSync(f, 'utf8'));
    } catch (e) {
      console.error(`verify: cannot read the public key: ${(e as Error).message}`);
      return 2;
    }
    const json = !!values.json;
    const allowUnsigned = !!values['allow-unsigned'];
    let failed = 0;
    let seen = 0;
    const report = (r: VerifyReport) => {
      seen++;
      if (!r.ok) failed++;
      console.log(line(r, json));
    };

    if (!values.url) {
      if (positionals.length > 1) {
        console.error(help);
        return 2;
      }
      const src = positionals[0];
      if (!src || src === '-') {
        // stdin line by line, as it comes (e.g. piped from mosquitto_sub -v)
        const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
        for await (const l of rl) for (const m of messagesOf(l)) report(verifyMessage(m.text, keys, { topic: m.topic, allowUnsigned }));
      } else {
        let text: string;
        try {
          text = readFileSync(src, 'utf8');
        } catch (e) {
          console.error(`verify: cannot read ${src}: ${(e as Error).message}`);
          return 2;
        }
        for (const m of messagesOf(text)) report(verifyMessage(m.text, keys, { topic: m.topic, allowUnsigned }));
      }
      if (seen === 0) {
        console.error('verify: no message to verify');
        return 1;
      }
      if (!json) console.error(`${seen - failed}/${seen} verified`);
      return failed ? 1 : 0;
    }

    // from a broker
    const count = values.count ? Number(values.count) : Infinity;
    const timeoutMs = values.timeout ? Number(values.timeout) * 1000 : Infinity;
    if (!(count > 0) || !(timeoutMs > 0)) {
      console.error(`verify: --count and --timeout take positive numbers\n\n${help}`);
      return 2;
    }
    let cred: MqttCredentials;
    try {
      cred = loadMqttCredentials({
        url: values.url,
        username: values.username,
        passwordFile: values['password-file'],
        passwordEnv: values['password-env'],
        ca: values.ca,
        cert: values.cert,
        key: values.key,
      });
    } catch (e) {
      console.error(`verify: ${(e as Error).message}`);
      return 2;
    }
    const topics = values.topic ?? [`${values.prefix ?? 'casino'}/+/result`];
    const opts: IClientOptions = {
      clientId: `tablegw-verify-${process.pid}`,
      reconnectPeriod: 1000,
      connectTimeout: 10_000,
      protocolVersion: 4,
      clean: true,
      ...(cred.username !== undefined ? { username: cred.username } : {}),
      ...(cred.password !== undefined ? { password: cred.password } : {}),
      ...(cred.ca ? { ca: cred.ca } : {}),
      ...(cred.cert ? { cert: cred.cert, key: cred.key } : {}),
    };
    const client = mqtt.connect(values.url, opts);
    return new Promise<number>((resolve) => {
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        process.off('SIGINT', finish);
        if (!json) console.error(`${seen - failed}/${seen} verified`);
        void client
          .endAsync(true)
          .catch(() => {})
          .then(() => resolve(failed || seen === 0 ? 1 : 0));
      };
      const timer = Number.isFinite(timeoutMs) ? setTimeout(finish, timeoutMs) : undefined;
      process.on('SIGINT', finish);
      client.on('error', (e) => console.error(`verify: ${e.message}`));
      client.on('connect', () => {
        client.subscribe(topics, { qos: 1 }, (err) => {
          if (err) console.error(`verify: cannot subscribe to ${topics.join(', ')}: ${err.message}`);
        });
      });
      client.on('message', (topic, buf) => {
        if (done) return;
        report(verifyMessage(buf.toString('utf8'), keys, { topic, allowUnsigned }));
        if (seen >= count) finish();
      });
    });
  },
};
