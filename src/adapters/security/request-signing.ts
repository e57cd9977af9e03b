/**
 * Ed25519 signatures on privileged requests (docs/SECURITY.md, "Privileged requests"): what a pit
 * tool puts on a `void-round`, `correction`, `resume-round`, `end-shoe` or `new-shoe`, and how the
 * gateway checks it. Depends on nothing but `node:crypto` and `./signing.ts` (the canonical JSON of
 * result signatures): a pit tool can import or copy both.
 *
 * A signed request is the request's JSON object with one more member:
 *   "signature": { "alg": "Ed25519", "keyId": <the key's name in the table's config>,
 *                  "table": <table id>, "command": <command>, "ts": <ISO 8601 UTC time of signing>,
 *                  "sig": <base64 of the 64-byte signature> }
 * The signed bytes are the UTF-8 of the canonical JSON (RFC 8785, `canonicalJson` of signing.ts) of
 * the whole object, `signature` included but without its `sig`: the body, its `transaction`, the
 * key's name, the table, the command and the time are all covered, so a signature for one table,
 * command or moment is worth nothing for another.
 */
import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { signedBytes, SIGNATURE_ALG } from './signing.js';

export interface RequestSignature {
  alg: typeof SIGNATURE_ALG;
  /** the key's `name` in the table's `requests.privileged.keys`: the gateway publishes it as `by` */
  keyId: string;
  table: string;
  command: string;
  /** when it was signed: ISO 8601 UTC (`2026-12-06T23:50:00.000Z`) */
  ts: string;
  sig: string;
}

export interface SignRequestOptions {
  table: string;
  command: string;
  /** the request's JSON object (`transaction` and args); a `signature` member in it is replaced */
  body: Record<string, unknown>;
  /** Ed25519 private key: a KeyObject or PKCS#8 PEM (`tablegw keygen`) */
  privateKey: KeyObject | string | Buffer;
  /** the key's name in the table's config */
  keyId: string;
  /** when it is signed (ms since the epoch; default now) */
  at?: number;
}

/** the request object with its `signature` member (deterministic for the same inputs and time) */
export function signRequest(o: SignRequestOptions): Record<string, unknown> & { signature: RequestSignature } {
  const key = typeof o.privateKey === 'string' || Buffer.isBuffer(o.privateKey) ? createPrivateKey(o.privateKey) : o.privateKey;
  if (key.type !== 'private' || key.asymmetricKeyType !== 'ed25519') throw new TypeError('signRequest: not an Ed25519 private key');
  const { signature: _old, ...body } = o.body;
  const covered = { alg: SIGNATURE_ALG, keyId: o.keyId, table: o.table, command: o.command, ts: new Date(o.at ?? Date.now()).toISOString() } as const;
  const sig = sign(null, signedBytes({ ...body, signature: covered }), key).toString('base64');
  return { ...body, signature: { ...covered, sig } };
}

/** a key a table accepts privileged requests from (from its config, read at start-up) */
export interface PrivilegedKey {
  name: string;
  publicKey: KeyObject;
  commands: readonly string[];
}

export type RequestSignatureCode = 'bad-signature' | 'unknown-key' | 'key-not-allowed' | 'stale-request' | 'replayed-request';

/** the outcome for one request: not signed (the table decides whether it needed to be), a verified signer, or a refusal */
export type RequestSignatureCheck = { kind: 'unsigned' } | { kind: 'signed'; signer: string } | { kind: 'refused'; code: RequestSignatureCode; reason: string };

export interface RequestVerifierOptions {
  tableId: string;
  keys: readonly PrivilegedKey[];
  /** how far the signature's `ts` may be from the gateway's clock, either way */
  maxSkewMs: number;
}

/**
 * Checks the signatures of one table's requests and remembers the accepted ones' transactions for
 * as long as their time stamp is within the window, so the same signed request is taken once.
 */
export class RequestVerifier {
  private readonly keys: ReadonlyMap<string, PrivilegedKey>;
  /** `<keyId>\0<transaction>` -> until when (ms) it is remembered */
  private readonly seen = new Map<string, number>();
  private sweepAt = 0;

  constructor(private readonly o: RequestVerifierOptions) {
    this.keys = new Map(o.keys.map((k) => [k.name, k]));
  }

  /** `payload`: the request's raw text; `at`: when it was received (the gateway's clock) */
  check(command: string, payload: string, at: number): RequestSignatureCheck {
    let json: unknown;
    try {
      json = JSON.parse(payload);
    } catch {
      return { kind: 'unsigned' }; // the table answers invalid-json
    }
    if (json === null || typeof json !== 'object' || Array.isArray(json) || !Object.hasOwn(json, 'signature')) return { kind: 'unsigned' };
    const body = json as Record<string, unknown>;
    const s = body.signature;
    const refuse = (code: RequestSignatureCode, reason: string): RequestSignatureCheck => ({ kind: 'refused', code, reason });
    if (s === null || typeof s !== 'object' || Array.isArray(s)) return refuse('bad-signature', 'signature is not an object');
    const { alg, keyId, table, command: signedCommand, ts, sig } = s as Record<string, unknown>;
    if (alg !== SIGNATURE_ALG) return refuse('bad-signature', `signature.alg is ${JSON.stringify(alg)}, not "${SIGNATURE_ALG}"`);
    if (typeof keyId !== 'string' || typeof table !== 'string' || typeof signedCommand !== 'string' || typeof ts !== 'string' || typeof sig !== 'string') {
      return refuse('bad-signature', 'signature needs keyId, table, command, ts and sig, each a string');
    }
    const key = this.keys.get(keyId);
    if (!key) return refuse('unknown-key', `key "${keyId.slice(0, 64)}" is not one of this table's privileged keys (requests.privileged.keys)`);
    if (!/^[A-Za-z0-9+/]{86}==$/.test(sig)) return refuse('bad-signature', 'signature.sig is not 64 bytes of base64');
    let bytes: Buffer;
    try {
      bytes = signedBytes(body);
    } catch (e) {
      return refuse('bad-signature', (e as Error).message);
    }
    if (!verify(null, bytes, key.publicKey, Buffer.from(sig, 'base64'))) return refuse('bad-signature', `the signature does not verify with key "${keyId}"`);
    if (table !== this.o.tableId) return refuse('bad-signature', `signed for table "${table.slice(0, 32)}", not ${this.o.tableId}`);
    if (signedCommand !== command) return refuse('bad-signature', `signed for command "${signedCommand.slice(0, 32)}", not ${command.slice(0, 32)}`);
    if (!key.commands.includes(command))
      return refuse('key-not-allowed', `key "${keyId}" may not sign ${command.slice(0, 32)} on this table (it may: ${key.commands.join(', ') || 'nothing'})`);
    const tx = body.transaction;
    if (typeof tx !== 'string' || tx.length === 0) return refuse('bad-signature', 'a signed request carries its `transaction` (what makes it unique)');
    const signedAt = Date.parse(ts);
    if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(ts) || Number.isNaN(signedAt))
      return refuse('bad-signature', 'signature.ts is not an ISO 8601 UTC time (2026-12-06T23:50:00.000Z)');
    const skew = at - signedAt;
    if (Math.abs(skew) > this.o.maxSkewMs) {
      return refuse(
        'stale-request',
        `signed at ${ts}, ${Math.round(Math.abs(skew) / 1000)} s ${skew > 0 ? 'ago' : "ahead of this gateway's clock"}: more than requests.privileged.maxSkewSeconds (${this.o.maxSkewMs / 1000})`,
      );
    }
    const memo = `${keyId}\u0000${tx}`;
    const until = this.seen.get(memo);
    if (until !== undefined && until >= at) return refuse('replayed-request', `transaction "${tx.slice(0, 64)}" signed by "${keyId}" was already taken`);
    this.remember(memo, signedAt + this.o.maxSkewMs, at);
    return { kind: 'signed', signer: key.name };
  }

  /**
   * Remembers a request the table already took (from the journal at start-up), so a copy of it is
   * refused `replayed-request` after a restart too. `payload`: its raw text.
   */
  noteTaken(payload: string, at: number): void {
    try {
      const json = JSON.parse(payload) as { transaction?: unknown; signature?: { keyId?: unknown; ts?: unknown } };
      const s = json?.signature;
      if (typeof json.transaction !== 'string' || typeof s?.keyId !== 'string' || typeof s.ts !== 'string') return;
      const signedAt = Date.parse(s.ts);
      if (!Number.isNaN(signedAt)) this.remember(`${s.keyId}\u0000${json.transaction}`, signedAt + this.o.maxSkewMs, at);
    } catch {
      // not JSON: nothing to remember
    }
  }

  /** `requests.privileged.maxSkewSeconds` in ms */
  get maxSkewMs(): number {
    return this.o.maxSkewMs;
  }

  /** how many transactions are remembered now (for tests and metrics) */
  get remembered(): number {
    return this.seen.size;
  }

  private remember(memo: string, until: number, at: number): void {
    this.seen.set(memo, Math.max(until, this.seen.get(memo) ?? 0));
    // expired entries are dropped at most once a second: the rate limit bounds the map in between
    if (at >= this.sweepAt) {
      this.sweepAt = at + 1000;
      for (const [k, u] of this.seen) if (u < at) this.seen.delete(k);
    }
  }
}

/** a public key from an SPKI PEM (or a private key's PEM, whose public half is taken) */
export function publicKeyOf(pem: string | Buffer): KeyObject {
  const k = createPublicKey(pem);
  if (k.asymmetricKeyType !== 'ed25519')
    throw new TypeError(`an ${k.asymmetricKeyType ?? 'unknown'} key: privileged requests are signed with Ed25519 (tablegw keygen)`);
  return k;
}
