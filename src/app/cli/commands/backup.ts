/**
 * `tablegw backup <file>` and `tablegw restore <file>` (docs/OPERATIONS.md "Backups" and
 * "Replacing the table PC"): src/adapters/store/backup.ts does the work.
 */
import { createPublicKey } from 'node:crypto';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { BackupError, manifestPathOf, restoreBackup, takeBackup } from '../../../adapters/store/backup.js';
import { loadSigningKey } from '../../../adapters/security/signer.js';
import { keyFingerprint } from '../../../adapters/security/signing.js';
import type { GatewayConfig } from '../../../core/vocabulary/config-schema.js';
import { loadConfigFile } from '../../config/load-config.js';
import { parsedOrNull, type CliCommand } from './command.js';

/** the exit code of a refused backup or restore (sysexits EX_DATAERR), 1 for other errors */
export const BACKUP_REFUSED_EXIT_CODE = 65;

const backupHelp = `Usage: tablegw backup [--config <gateway.yaml>] <file>

Copies the journal (<dataDir>/gateway.db) to <file> with SQLite's online backup, consistent while
the gateway runs (it only reads the journal and does not take the data-dir lock), and writes
<file>.manifest.json: the tables, their stream epochs and last seq, the journal schema version,
the time and the SHA-256 of <file>, signed with the gateway's key (signing.privateKeyFile).
Keep both files off the table PC. Exits 0 when done, 65 with a [code] when refused, 1 on error.`;

const restoreHelp = `Usage: tablegw restore [--config <gateway.yaml>] <file>

Makes the backup <file> (with <file>.manifest.json) the journal of the config's data dir. Refused,
changing nothing, when a gateway runs on the data dir [restore-running], the manifest is missing or
unsigned [restore-unsigned], its signature is not the configured key's [restore-bad-signature], the
file does not match it [restore-damaged], or it was written by a newer tablegw [restore-newer-schema].
The journal that was there is kept as gateway.db.replaced-<time>. Every table keeps its epoch and
goes on 10,000 seqs above the backup's (no seq the old PC may have published is reused), and a
restored-from-backup alert at the next start names what may be missing.
Exits 0 when done, 65 with a [code] when refused, 1 on error.`;

function key(cfg: GatewayConfig) {
  if (!cfg.signing) return null;
  const privateKey = loadSigningKey(cfg.signing.privateKeyFile);
  return { privateKey, keyId: cfg.signing.keyId ?? keyFingerprint(privateKey) };
}

function refused(name: string, e: unknown): number {
  if (e instanceof BackupError) {
    console.error(`${name}: ${e.message}`);
    return BACKUP_REFUSED_EXIT_CODE;
  }
  console.error(`${name}: ${(e as Error).message}`);
  return 1;
}

const args = (argv: string[]) => parseArgs({ args: argv, allowPositionals: true, options: { config: { type: 'string' } } });

/** the one backup file and the config file of `backup` / `restore`, or the exit code of a usage error */
function fileArg(name: string, help: string, argv: string[]): { file: string; config: string } | number {
  const parsed = parsedOrNull(name, help, () => args(argv));
  if (!parsed) return 2;
  const file = parsed.positionals[0];
  if (!file || parsed.positionals.length > 1) {
    console.error(`${name}: give one backup file\n\n${help}`);
    return 2;
  }
  return { file, config: parsed.values.config ?? 'config/default.yaml' };
}

/** the gateway's signing key, or a refusal with `code` saying why it is needed */
function keyOrRefuse(cfg: GatewayConfig, code: ConstructorParameters<typeof BackupError>[0], why: string) {
  const k = key(cfg);
  if (!k) throw new BackupError(code, 'signing.privateKeyFile', why);
  return k;
}

export const command: CliCommand = {
  summary: 'copy the journal while the gateway runs, with a signed manifest',
  help: backupHelp,
  async run(argv) {
    const a = fileArg('backup', backupHelp, argv);
    if (typeof a === 'number') return a;
    const { file } = a;
    try {
      const cfg = loadConfigFile(a.config);
      const k = keyOrRefuse(cfg, 'backup-no-key', "a backup is signed with the gateway's key: configure signing (tablegw keygen --out <name>)");
      const m = await takeBackup(resolve(cfg.dataDir), resolve(file), k);
      console.log(
        `backup: ${resolve(file)} (${m.database.bytes} bytes), manifest ${manifestPathOf(resolve(file))}: ${m.tables.map((t) => `${t.id} seq ${t.lastSeq}`).join(', ') || 'no tables'}`,
      );
      return 0;
    } catch (e) {
      return refused('backup', e);
    }
  },
};

export const restoreCommand: CliCommand = {
  summary: "make a signed backup the data dir's journal (the streams go on above it)",
  help: restoreHelp,
  async run(argv) {
    const a = fileArg('restore', restoreHelp, argv);
    if (typeof a === 'number') return a;
    const { file } = a;
    try {
      const cfg = loadConfigFile(a.config);
      const k = keyOrRefuse(
        cfg,
        'restore-unsigned',
        "a restore checks the backup's signature with the gateway's key: configure signing with the key the backup was made with",
      );
      const r = restoreBackup(resolve(cfg.dataDir), resolve(file), createPublicKey(k.privateKey));
      for (const t of r.tables) console.log(`restore: table ${t.id}: epoch ${t.epoch}, backup at seq ${t.backupSeq}, goes on above seq ${t.startsAbove}`);
      if (r.keptAs) console.log(`restore: the previous journal is kept as ${r.keptAs}`);
      console.log('restore: done; start the gateway');
      return 0;
    } catch (e) {
      return refused('restore', e);
    }
  },
};
