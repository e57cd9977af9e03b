/** `tablegw keygen --out <name>`: an Ed25519 key pair for result signatures (docs/SECURITY.md). */
import { generateKeyPairSync } from 'node:crypto';
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { keyFingerprint } from '../../../adapters/security/signing.js';
import { parsedOrNull, type CliCommand } from './command.js';

const help = `Usage: tablegw keygen --out <name> [--force]

Makes an Ed25519 key pair for result signatures (docs/SECURITY.md):
  <name>.key   the private key (PKCS#8 PEM, mode 600): signing.privateKeyFile on the table PC only
  <name>.pub   the public key (SPKI PEM): give it to every subscriber that verifies (tablegw verify)
and prints the key's fingerprint (the default signing.keyId). Existing files are not overwritten
unless --force. The same with openssl:
  openssl genpkey -algorithm ed25519 -out <name>.key && chmod 600 <name>.key
  openssl pkey -in <name>.key -pubout -out <name>.pub`;

export const command: CliCommand = {
  summary: 'make an Ed25519 key pair for result signatures',
  help,
  async run(argv) {
    const parsed = parsedOrNull('keygen', help, () => parseArgs({ args: argv, options: { out: { type: 'string', short: 'o' }, force: { type: 'boolean' } } }));
    if (!parsed) return 2;
    const { values } = parsed;
    if (!values.out) {
      console.error(help);
      return 2;
    }
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const keyFile = `${values.out}.key`;
    const pubFile = `${values.out}.pub`;
    const flag = values.force ? 'w' : 'wx';
    const existing = [keyFile, pubFile].filter((f) => existsSync(f));
    if (existing.length && !values.force) {
      console.error(`keygen: ${existing.join(' and ')} exist${existing.length === 1 ? 's' : ''} (use --force to replace)`);
      return 1;
    }
    try {
      writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag });
      chmodSync(keyFile, 0o600); // also when --force rewrote an existing file
      writeFileSync(pubFile, publicKey.export({ type: 'spki', format: 'pem' }), { mode: 0o644, flag });
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      console.error(`keygen: ${err.code === 'EEXIST' ? `${err.path ?? values.out} exists (use --force to replace it)` : err.message}`);
      return 1;
    }
    console.log(`private key: ${keyFile} (mode 600; keep it on the table PC only)`);
    console.log(`public key:  ${pubFile}`);
    console.log(`fingerprint: ${keyFingerprint(publicKey)}`);
    return 0;
  },
};
