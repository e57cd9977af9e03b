/**
 * The keys each table accepts privileged requests from (`tables[].requests.privileged`,
 * docs/SECURITY.md "Privileged requests"), read once at start-up: a key file that cannot be read or
 * is not an Ed25519 public key stops the gateway with an error naming its config key.
 */
import type { TableConfig } from '../../core/vocabulary/config-schema.js';
import { publicKeyOf, RequestVerifier, type PrivilegedKey } from './request-signing.js';
import { CredentialError, readConfigFile } from './secret-files.js';

/** the keys of table `t` (the `index`th of `tables`) */
export function loadPrivilegedKeys(t: Pick<TableConfig, 'requests'>, index: number): PrivilegedKey[] {
  return t.requests.privileged.keys.map((k, j) => {
    const at = `tables[${index}].requests.privileged.keys[${j}]`;
    const configKey = k.publicKeyFile !== undefined ? `${at}.publicKeyFile` : `${at}.publicKey`;
    const pem = k.publicKeyFile !== undefined ? readConfigFile(configKey, k.publicKeyFile) : Buffer.from(k.publicKey ?? '', 'utf8');
    try {
      return { name: k.name, publicKey: publicKeyOf(pem), commands: [...k.commands] };
    } catch (e) {
      const msg = (e as Error).message;
      throw new CredentialError(configKey, /Ed25519/.test(msg) ? msg : `not a PEM public key (the .pub of tablegw keygen): ${msg.slice(0, 120)}`);
    }
  });
}

/** the request verifier of table `t` (src/runtime/request-admission.ts hands it every signed request) */
export function createRequestVerifier(t: Pick<TableConfig, 'id' | 'requests'>, index: number): RequestVerifier {
  return new RequestVerifier({ tableId: t.id, keys: loadPrivilegedKeys(t, index), maxSkewMs: t.requests.privileged.maxSkewSeconds * 1000 });
}
