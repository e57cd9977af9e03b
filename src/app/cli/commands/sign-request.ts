/** `tablegw sign-request`: a privileged request signed for one table (docs/SECURITY.md, "Privileged requests"). */
import { randomUUID, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { signRequest } from '../../../adapters/security/request-signing.js';
import { loadSigningKey } from '../../../adapters/security/signer.js';
import { PRIVILEGED_COMMANDS } from '../../../core/vocabulary/requests.js';
import { parsedOrNull, type CliCommand } from './command.js';

const help = `Usage: tablegw sign-request --key <file.key> --key-id <name> --table <id> --command <command>
                             [--transaction <id>] [<body JSON> | -]

Prints the request, signed, as one line of JSON, to publish on <prefix>/<table>/request/<command>:
  --key          the pit's Ed25519 private key (PKCS#8 PEM, from tablegw keygen)
  --key-id       the key's name in the table's requests.privileged.keys (the gateway publishes it as \`by\`)
  --table        the table id the request is for (the signature is worth nothing on another)
  --command      one of ${PRIVILEGED_COMMANDS.join(', ')}
  --transaction  the request's transaction (default: a fresh random one); the gateway takes a
                 signed transaction once
  <body JSON>    the request's arguments, e.g. '{"kind":"cards","roundId":"dt-01-s0001-r0004","cards":{...}}'
                 (- reads it from stdin; default {}). \`by\` is set to the key's name.
The signature is timed now: publish it within the table's requests.privileged.maxSkewSeconds (default 30 s).
Example:
  tablegw sign-request --key pit-7.key --key-id pit-7 --table dt-01 --command void-round \\
    '{"roundId":"dt-01-s0001-r0004","reason":"dealer error"}' | mosquitto_pub -t casino/dt-01/request/void-round -s`;

export const command: CliCommand = {
  summary: 'sign a privileged request (void-round, correction, resume-round, end-shoe, new-shoe) with a pit key',
  help,
  async run(argv) {
    const parsed = parsedOrNull('sign-request', help, () =>
      parseArgs({
        args: argv,
        allowPositionals: true,
        options: {
          key: { type: 'string' },
          'key-id': { type: 'string' },
          table: { type: 'string' },
          command: { type: 'string' },
          transaction: { type: 'string' },
        },
      }),
    );
    if (!parsed) return 2;
    const { values, positionals } = parsed;
    const { key, 'key-id': keyId, table, command: cmd } = values;
    if (!key || !keyId || !table || !cmd || positionals.length > 1) {
      console.error(help);
      return 2;
    }
    if (!(PRIVILEGED_COMMANDS as readonly string[]).includes(cmd)) {
      console.error(`sign-request: --command must be one of ${PRIVILEGED_COMMANDS.join(', ')} (everyday commands are not signed)`);
      return 2;
    }
    let body: unknown = {};
    const text = positionals[0] === '-' ? readFileSync(0, 'utf8') : positionals[0];
    if (text !== undefined) {
      try {
        body = JSON.parse(text);
      } catch (e) {
        console.error(`sign-request: the body is not JSON: ${(e as Error).message}`);
        return 2;
      }
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      console.error('sign-request: the body is a JSON object');
      return 2;
    }
    let privateKey: KeyObject;
    try {
      privateKey = loadSigningKey(key, '--key');
    } catch (e) {
      console.error(`sign-request: ${(e as Error).message}`);
      return 1;
    }
    const withBy = cmd === 'void-round' || cmd === 'correction' || cmd === 'resume-round' ? { by: keyId } : {};
    const request = signRequest({
      table,
      command: cmd,
      keyId,
      privateKey,
      body: {
        ...(body as Record<string, unknown>),
        ...withBy,
        transaction: values.transaction ?? (body as { transaction?: string }).transaction ?? `${keyId}-${randomUUID()}`,
      },
    });
    console.log(JSON.stringify(request));
    return 0;
  },
};
