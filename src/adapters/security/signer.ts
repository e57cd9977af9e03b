/**
 * The gateway side of result signatures: loads `signing.privateKeyFile` once at start-up and gives
 * the table runtime its `serialize` hook — the JSON text of an envelope, with a `signature` member
 * when its type is one of `signing.types` (results by default). Deterministic (Ed25519), so the
 * journal replays to the same bytes (`tablegw replay` needs the same serializer).
 */
import { createPrivateKey, type KeyObject } from 'node:crypto';
import type { SigningConfig } from '../../core/vocabulary/config-schema.js';
import type { Envelope } from '../../core/table/types.js';
import { CredentialError, looseModeWarning, readConfigFile } from './secret-files.js';
import { keyFingerprint, signEnvelope } from './signing.js';
import { envelopeText } from '../../core/vocabulary/envelope-text.js';

export interface EnvelopeSigner {
  /** the `serialize` hook of TableRuntime */
  serialize(e: Envelope): string;
  /** the key id written into every signature */
  keyId: string;
  /** `ed25519:` + 16 hex digits of the public key's SHA-256 */
  fingerprint: string;
  /** e.g. a key file readable by other users */
  warnings: string[];
}

/** reads an Ed25519 private key (PKCS#8 PEM); CredentialError naming `configKey` otherwise */
export function loadSigningKey(path: string, configKey = 'signing.privateKeyFile'): KeyObject {
  const pem = readConfigFile(configKey, path);
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch (e) {
    const msg = (e as Error).message;
    throw new CredentialError(
      configKey,
      /passphrase/i.test(msg)
        ? `"${path}" is encrypted; the gateway needs an unencrypted key protected by its file mode (chmod 600)`
        : `"${path}" is not a PEM private key (make one with: tablegw keygen --out <name>)`,
    );
  }
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new CredentialError(
      configKey,
      `"${path}" is an ${key.asymmetricKeyType ?? 'unknown'} key; signatures need an Ed25519 key (tablegw keygen --out <name>)`,
    );
  }
  return key;
}

export function createEnvelopeSigner(cfg: SigningConfig): EnvelopeSigner {
  const key = loadSigningKey(cfg.privateKeyFile);
  const fingerprint = keyFingerprint(key);
  const keyId = cfg.keyId ?? fingerprint;
  const types: ReadonlySet<string> = new Set(cfg.types);
  const warn = looseModeWarning('signing.privateKeyFile', cfg.privateKeyFile);
  return {
    keyId,
    fingerprint,
    warnings: warn ? [warn] : [],
    serialize: (e) => envelopeText(types.has(e.type) ? signEnvelope(e, key, keyId) : e),
  };
}
