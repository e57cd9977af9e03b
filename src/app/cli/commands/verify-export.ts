/** `tablegw verify-export <file> [--public-key <pem>]`: checks an export archive offline (export-archive.ts). */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { EXPORT_EXIT_CODES, verifyExport } from '../../../adapters/security/export-archive.js';
import { parsedOrNull, type CliCommand } from './command.js';

const help = `Usage: tablegw verify-export [--public-key <gateway.pub>] [--json] <file>

Checks an archive written by "tablegw export" (or the scheduled export) without the gateway: every
line in its canonical place in the SHA-256 chain, the entry count, and the Ed25519 signatures of
the header and the trailer (which, through the chain, cover every byte). With --public-key the
signer must be that key (SPKI PEM: tablegw keygen's .pub); without it the key the header names
is used, which shows the archive intact but not who made it.
Exit codes (stable):
  0   verified
  1   the file cannot be read
  2   usage error
  ${EXPORT_EXIT_CODES['export-damaged']}  export-damaged        not an archive, truncated, or a line not as written
  ${EXPORT_EXIT_CODES['export-chain-broken']}  export-chain-broken   an entry changed, missing, added or moved
  ${EXPORT_EXIT_CODES['export-signature-bad']}  export-signature-bad  a signature does not match (or another key signed)
  ${EXPORT_EXIT_CODES['export-unsigned']}  export-unsigned       the archive carries no signature`;

export const command: CliCommand = {
  summary: 'check an export archive offline (chain and signatures)',
  help,
  async run(argv) {
    const parsed = parsedOrNull('verify-export', help, () =>
      parseArgs({
        args: argv,
        allowPositionals: true,
        options: { 'public-key': { type: 'string', short: 'k' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      }),
    );
    if (!parsed) return 2;
    const { values, positionals } = parsed;
    if (values.help) {
      console.log(help);
      return 0;
    }
    if (positionals.length !== 1) {
      console.error(`verify-export: give one archive file\n\n${help}`);
      return 2;
    }
    const file = positionals[0];
    let bytes: Buffer;
    let pub: Buffer | undefined;
    try {
      bytes = readFileSync(file);
      pub = values['public-key'] ? readFileSync(values['public-key']) : undefined;
    } catch (e) {
      console.error(`verify-export: ${(e as Error).message}`);
      return 1;
    }
    const v = verifyExport(bytes, pub);
    if (values.json)
      console.log(
        JSON.stringify(
          v.ok
            ? {
                ok: true,
                file,
                keyId: v.keyId,
                verifiedBy: v.verifiedBy,
                embeddedKey: v.embeddedKey,
                range: v.header.range,
                inputs: v.trailer.inputs,
                messages: v.trailer.messages,
              }
            : { file, ...v },
        ),
      );
    if (!v.ok) {
      if (!values.json) console.error(`verify-export: ${file}${v.line !== undefined ? `:${v.line}` : ''}: ${v.reason} [${v.code}]`);
      return EXPORT_EXIT_CODES[v.code];
    }
    if (!values.json) {
      const r = v.header.range;
      console.log(
        `verify-export: ${file}: verified: ${v.trailer.inputs} input(s), ${v.trailer.messages} message(s) of gateway ${v.header.gatewayId}` +
          ` (${r.fromAt ?? (r.afterInputId !== undefined ? `after input ${r.afterInputId}` : 'the start')} to ${r.toAt ?? 'the end'}${r.tables ? `, tables ${r.tables.join(',')}` : ''}), signed by ${v.keyId} (${v.verifiedBy})` +
          (v.embeddedKey ? '; checked with the key the archive names: pass --public-key to check who signed it' : ''),
      );
    }
    return 0;
  },
};
