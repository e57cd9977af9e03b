/**
 * `tablegw export`: a self-verifying archive of a range of the journal (docs/OPERATIONS.md
 * "Audit"), read-only beside a running gateway; `tablegw verify-export` checks one offline.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfigFile } from '../../config/load-config.js';
import { resolveGatewayId } from '../../../adapters/mqtt/gateway-info.js';
import { loadSigningKey } from '../../../adapters/security/signer.js';
import { keyFingerprint } from '../../../adapters/security/signing.js';
import { exportJournal, ExportWriteError } from '../../../adapters/store/journal-export.js';
import { parsedOrNull, type CliCommand } from './command.js';

const help = `Usage: tablegw export --from <time> --to <time> [--table <id>[,<id>...]] [--config <gateway.yaml>] <file>

Writes the journal's inputs of [--from, --to) and every message they published, in journal order,
to <file>: JSON lines, each entry chained to the one before it by SHA-256, a header and a trailer
signed with the gateway's key (signing.privateKeyFile; its key id and public key named in the
header). Check it anywhere with "tablegw verify-export <file> --public-key <gateway.pub>".
The journal is opened read-only: run it while the gateway runs. What the retention already
deleted (journal.retentionDays) is not in it.
  --from, --to <time>   ISO 8601 (2026-12-01T00:00:00Z, or a date: 2026-12-01 is its 00:00 UTC)
  --table <ids>         only these tables (default: all)
  --config <file>       the gateway's configuration (default config/default.yaml): its dataDir,
                        gatewayId and signing key
  --unsigned            write an unsigned archive when no signing key is configured (verify-export
                        refuses it: export-unsigned); without it export refuses to run
Exits 0 when written, 1 on an error (the disk full: export-write-failed, no archive left), 2 on a
usage error.`;

/** an ISO 8601 time or date (UTC), or null */
export function parseTime(s: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}([T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(s)) return null;
  const t = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(s) ? `${s}T00:00:00Z` : s);
  return Number.isFinite(t) ? t : null;
}

export const command: CliCommand = {
  summary: 'write a signed, hash-chained archive of a range of the journal',
  help,
  async run(argv) {
    const parsed = parsedOrNull('export', help, () =>
      parseArgs({
        args: argv,
        allowPositionals: true,
        options: {
          from: { type: 'string' },
          to: { type: 'string' },
          table: { type: 'string' },
          config: { type: 'string' },
          unsigned: { type: 'boolean' },
          help: { type: 'boolean', short: 'h' },
        },
      }),
    );
    if (!parsed) return 2;
    const { values, positionals } = parsed;
    if (values.help) {
      console.log(help);
      return 0;
    }
    if (positionals.length !== 1 || !values.from || !values.to) {
      console.error(`export: give --from, --to and one output file\n\n${help}`);
      return 2;
    }
    const fromAt = parseTime(values.from);
    const toAt = parseTime(values.to);
    if (fromAt === null || toAt === null) {
      console.error(`export: --from and --to must be ISO 8601 times or dates (got "${values.from}", "${values.to}")`);
      return 2;
    }
    if (toAt <= fromAt) {
      console.error('export: --to must be after --from');
      return 2;
    }
    const cfg = loadConfigFile(values.config ?? 'config/default.yaml');
    let key: { privateKey: ReturnType<typeof loadSigningKey>; keyId: string } | null = null;
    if (cfg.signing) {
      const privateKey = loadSigningKey(cfg.signing.privateKeyFile);
      key = { privateKey, keyId: cfg.signing.keyId ?? keyFingerprint(privateKey) };
    } else if (!values.unsigned) {
      console.error(
        'export: no signing key is configured (signing.privateKeyFile; tablegw keygen): the archive could not be verified. Configure one, or pass --unsigned',
      );
      return 1;
    }
    const file = resolve(positionals[0]);
    try {
      const r = exportJournal({
        dataDir: resolve(cfg.dataDir),
        file,
        gatewayId: resolveGatewayId(cfg),
        key,
        range: {
          fromAt,
          toAt,
          ...(values.table
            ? {
                tables: values.table
                  .split(',')
                  .map((s) => s.trim())
                  .filter(Boolean),
              }
            : {}),
        },
      });
      console.log(
        `export: ${file}: ${r.trailer.inputs} input(s), ${r.trailer.messages} message(s), ${r.bytes} bytes, ${key ? `signed by ${key.keyId}` : 'UNSIGNED'}`,
      );
      return 0;
    } catch (e) {
      if (e instanceof ExportWriteError) {
        console.error(e.message);
        return 1;
      }
      throw e;
    }
  },
};
