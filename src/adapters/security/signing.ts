/**
 * Ed25519 signatures over gateway messages (docs/SECURITY.md, "Result signatures").
 *
 * This module depends on nothing but `node:crypto`: a subscriber can copy it (or import it) to
 * verify what a table published without any other part of the gateway.
 *
 * The signed bytes are the UTF-8 encoding of `canonicalJson(envelope)`:
 *   - the envelope object without its top-level `signature` member;
 *   - object members sorted by key, comparing the keys as strings of UTF-16 code units (the order of
 *     JavaScript's default `Array.prototype.sort`), at every depth; array order is kept;
 *   - no whitespace anywhere;
 *   - strings, numbers, `true`, `false` and `null` written exactly as ECMAScript `JSON.stringify`
 *     writes them (numbers in their shortest round-trip form, `-0` as `0`; strings escape only `"`,
 *     `\` and U+0000..U+001F, using `\b \t \n \f \r` or `\u00xx` with lowercase hex);
 *   - members whose value is `undefined` are left out (as `JSON.stringify` does), so the form of an
 *     in-memory envelope equals the form of the same envelope after a JSON round trip.
 * For the JSON the gateway publishes this is exactly RFC 8785 (JSON Canonicalization Scheme).
 *
 * The `signature` member is `{ "alg": "Ed25519", "keyId": string, "sig": base64 of the 64-byte
 * signature }`. Ed25519 is deterministic: the same envelope and key always give the same bytes, so
 * a replayed journal reproduces signed messages byte for byte.
 */
import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

export const SIGNATURE_ALG = 'Ed25519';

export interface EnvelopeSignature {
  alg: typeof SIGNATURE_ALG;
  /** which key signed: the configured `signing.keyId`, else the key's fingerprint (`keyFingerprint`) */
  keyId: string;
  /** base64 (RFC 4648, with padding) of the 64-byte Ed25519 signature */
  sig: string;
}

function canon(value: unknown, path: string): string {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON(): unknown }).toJSON();
  }
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: ${path} is ${value}, which JSON cannot carry`);
      return JSON.stringify(value);
    case 'string':
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) {
        return `[${value.map((v, i) => (v === undefined || typeof v === 'function' || typeof v === 'symbol' ? 'null' : canon(v, `${path}[${i}]`))).join(',')}]`;
      }
      const o = value as Record<string, unknown>;
      const parts: string[] = [];
      for (const k of Object.keys(o).sort()) {
        const v = o[k];
        if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
        parts.push(`${JSON.stringify(k)}:${canon(v, `${path}.${k}`)}`);
      }
      return `{${parts.join(',')}}`;
    }
    default:
      throw new TypeError(`canonicalJson: ${path} is a ${typeof value}, which JSON cannot carry`);
  }
}

/**
 * The canonical JSON text of `envelope` (module comment): keys sorted recursively, no whitespace,
 * the top-level `signature` member excluded. Throws on values JSON cannot carry (NaN, bigint, ...).
 */
export function canonicalJson(envelope: Record<string, unknown>): string {
  if (envelope === null || typeof envelope !== 'object' || Array.isArray(envelope)) throw new TypeError('canonicalJson: an envelope is a JSON object');
  const { signature, ...rest } = envelope;
  // the signature covers its own `alg` and `keyId` (mqtt-api.md, "Signatures"): only `sig` is left out
  if (signature !== null && typeof signature === 'object' && !Array.isArray(signature)) {
    const { sig: _sig, ...covered } = signature as Record<string, unknown>;
    return canon({ ...rest, signature: covered }, '$');
  }
  return canon(rest, '$');
}

/** the bytes that are signed: UTF-8 of the canonical JSON */
export function signedBytes(envelope: Record<string, unknown>): Buffer {
  return Buffer.from(canonicalJson(envelope), 'utf8');
}

function asPrivateKey(key: KeyObject | string | Buffer): KeyObject {
  const k = typeof key === 'string' || Buffer.isBuffer(key) ? createPrivateKey(key) : key;
  if (k.type !== 'private' || k.asymmetricKeyType !== 'ed25519') throw new TypeError(`not an Ed25519 private key (${k.asymmetricKeyType ?? k.type})`);
  return k;
}

function asPublicKey(key: KeyObject | string | Buffer): KeyObject {
  const k = typeof key === 'string' || Buffer.isBuffer(key) ? createPublicKey(key) : key.type === 'private' ? createPublicKey(key) : key;
  if (k.asymmetricKeyType !== 'ed25519') throw new TypeError(`not an Ed25519 public key (${k.asymmetricKeyType ?? k.type})`);
  return k;
}

/** `ed25519:` + the first 16 hex digits of SHA-256 over the raw 32-byte public key */
export function keyFingerprint(key: KeyObject | string | Buffer): string {
  const pub = asPublicKey(key);
  const raw = pub.export({ format: 'jwk' }).x;
  return `ed25519:${createHash('sha256')
    .update(Buffer.from(String(raw), 'base64url'))
    .digest('hex')
    .slice(0, 16)}`;
}

/**
 * The envelope with its `signature` member (replacing any there was). `privateKey`: a KeyObject or a
 * PKCS#8 PEM. Deterministic: the same envelope and key always give the same signature.
 */
export function signEnvelope<T extends Record<string, unknown>>(
  envelope: T,
  privateKey: KeyObject | string | Buffer,
  keyId?: string,
): T & { signature: EnvelopeSignature } {
  const key = asPrivateKey(privateKey);
  const { signature: _old, ...rest } = envelope;
  const covered: Omit<EnvelopeSignature, 'sig'> = { alg: SIGNATURE_ALG, keyId: keyId ?? keyFingerprint(key) };
  const sig = sign(null, signedBytes({ ...rest, signature: covered }), key).toString('base64');
  return { ...(rest as T), signature: { ...covered, sig } };
}

/** `keyId`: the id the (signed) signature names; `verifiedBy`: the fingerprint of the public key that verified it */
export type VerifyResult = { ok: true; keyId: string; verifiedBy: string } | { ok: false; reason: string };

/**
 * Checks an envelope's signature and says why it fails. `envelope`: the parsed message or its JSON
 * text; `publicKey`: an SPKI PEM (or KeyObject). Never throws for a bad message.
 */
export function checkEnvelopeSignature(envelope: Record<string, unknown> | string, publicKey: KeyObject | string | Buffer): VerifyResult {
  let env: unknown = envelope;
  if (typeof envelope === 'string') {
    try {
      env = JSON.parse(envelope);
    } catch (e) {
      return { ok: false, reason: `not JSON: ${(e as Error).message}` };
    }
  }
  if (env === null || typeof env !== 'object' || Array.isArray(env)) return { ok: false, reason: 'not a JSON object' };
  const s = (env as { signature?: unknown }).signature;
  if (s === undefined) return { ok: false, reason: 'no signature' };
  if (s === null || typeof s !== 'object') return { ok: false, reason: 'signature is not an object' };
  const { alg, keyId, sig } = s as Record<string, unknown>;
  if (alg !== SIGNATURE_ALG) return { ok: false, reason: `signature algorithm ${JSON.stringify(alg)} is not ${SIGNATURE_ALG}` };
  if (typeof sig !== 'string' || !/^[A-Za-z0-9+/]{86}==$/.test(sig)) return { ok: false, reason: 'signature value is not 64 bytes of base64' };
  let pub: KeyObject;
  try {
    pub = asPublicKey(publicKey);
  } catch (e) {
    return { ok: false, reason: `bad public key: ${(e as Error).message}` };
  }
  let bytes: Buffer;
  try {
    bytes = signedBytes(env as Record<string, unknown>);
  } catch (e) {
    return { ok: false, reason: (e as Error).message };
  }
  if (!verify(null, bytes, pub, Buffer.from(sig, 'base64'))) {
    return {
      ok: false,
      reason: `signature does not match (signed with ${typeof keyId === 'string' ? keyId : 'an unknown key'}; this key is ${keyFingerprint(pub)})`,
    };
  }
  const verifiedBy = keyFingerprint(pub);
  return { ok: true, keyId: typeof keyId === 'string' ? keyId : verifiedBy, verifiedBy };
}

/**
 * True only when `envelope` carries a valid Ed25519 signature by `publicKey` over its canonical JSON.
 * Returns a boolean on purpose (a result object would always be truthy); `checkEnvelopeSignature`
 * says why a message fails.
 */
export function verifyEnvelope(envelope: Record<string, unknown> | string, publicKey: KeyObject | string | Buffer): boolean {
  return checkEnvelopeSignature(envelope, publicKey).ok;
}
