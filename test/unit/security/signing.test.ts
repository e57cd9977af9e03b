/**
 * Result signatures: the canonical JSON form, Ed25519 sign/verify, determinism (a replayed journal
 * reproduces signed messages byte for byte), and the gateway's signer (src/adapters/security/).
 */
import { generateKeyPairSync } from 'node:crypto';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateMessage } from '../../../src/core/table/messages.js';
import { CredentialError } from '../../../src/adapters/security/secret-files.js';
import { createEnvelopeSigner } from '../../../src/adapters/security/signer.js';
import { canonicalJson, checkEnvelopeSignature, keyFingerprint, signEnvelope, verifyEnvelope } from '../../../src/adapters/security/signing.js';
import { TableHarness } from '../../helpers/table-harness.js';
import { makeTempDirSync } from '../../../dev/rig/temp-dir.js';

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const publicPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const other = generateKeyPairSync('ed25519');

const result = {
  v: 1,
  type: 'result',
  table: 'bac-01',
  game: 'baccarat',
  seq: 1042,
  ts: '2026-11-30T12:00:00.123Z',
  shoeId: 'bac-01-s0007',
  roundId: 'bac-01-s0007-r0031',
  status: 'complete',
  cards: { player: ['AS', '9H', '3D'], banker: ['KD', '7C'], burn: [] },
  outcome: {
    winner: 'banker',
    playerTotal: 3,
    bankerTotal: 7,
    natural: false,
    playerNatural: false,
    bankerNatural: false,
    playerPair: false,
    bankerPair: false,
    cardCount: 5,
    size: 'big',
  },
};

describe('canonicalJson', () => {
  it('sorts keys at every depth, keeps array order, writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, 1, { z: true, y: null }], c: 'x' } })).toBe('{"a":{"c":"x","d":[3,1,{"y":null,"z":true}]},"b":1}');
  });

  it('leaves out the top-level signature only', () => {
    expect(canonicalJson({ a: { signature: 1 } })).toBe('{"a":{"signature":1}}');
    // the top-level signature's alg and keyId are covered; only its sig is left out (mqtt-api.md, "Signatures")
    expect(canonicalJson({ signature: { alg: 'Ed25519', keyId: 'k1', sig: 'x' }, a: { signature: 1 } })).toBe(
      '{"a":{"signature":1},"signature":{"alg":"Ed25519","keyId":"k1"}}',
    );
  });

  it('is RFC 8785 (JCS) on its example', () => {
    const input = JSON.parse(
      '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001], "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/", "literals": [null, true, false]}',
    );
    expect(canonicalJson(input)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it('orders keys by UTF-16 code units (JCS), not by code points', () => {
    // U+FB33 sorts after U+1F600 (a surrogate pair starting 0xD83D) in UTF-16 order
    expect(canonicalJson({ '\uFB33': 1, '\u{1F600}': 2, a: 3, A: 4, é: 5 })).toBe('{"A":4,"a":3,"é":5,"\u{1F600}":2,"\uFB33":1}');
  });

  it('leaves out undefined members and refuses what JSON cannot carry', () => {
    expect(canonicalJson({ a: undefined, b: [undefined, 1] })).toBe('{"b":[null,1]}');
    expect(() => canonicalJson({ a: NaN })).toThrow(/\$\.a is NaN/);
    expect(() => canonicalJson({ a: { b: 10n } })).toThrow(/\$\.a\.b is a bigint/);
  });

  it('is the same for an object and for its JSON round trip, whatever the key order (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        const env = { x: a, y: b } as Record<string, unknown>;
        const text = canonicalJson(env);
        expect(canonicalJson(JSON.parse(JSON.stringify(env)))).toBe(text);
        expect(canonicalJson({ y: b, x: a })).toBe(text);
        // it is JSON, and it means the same
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(env)));
      }),
      { numRuns: 300 },
    );
  });
});

describe('signEnvelope / verifyEnvelope', () => {
  it('signs with a signature object and verifies with the public key PEM', () => {
    const signed = signEnvelope(result, privateKey, 'gw-key-1');
    expect(signed.signature).toEqual({ alg: 'Ed25519', keyId: 'gw-key-1', sig: expect.stringMatching(/^[A-Za-z0-9+/]{86}==$/) });
    expect(verifyEnvelope(signed, publicPem)).toBe(true);
    expect(verifyEnvelope(JSON.stringify(signed), publicPem)).toBe(true);
    expect(checkEnvelopeSignature(signed, publicPem)).toEqual({ ok: true, keyId: 'gw-key-1', verifiedBy: keyFingerprint(publicPem) });
    // the keyId is signed: a broker that renames the key breaks the signature
    expect(checkEnvelopeSignature({ ...signed, signature: { ...signed.signature, keyId: 'someone-else' } }, publicPem)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^signature does not match/),
    });
    // the published message is valid against the API's result schema
    expect(validateMessage('result', JSON.parse(JSON.stringify(signed)))).toEqual([]);
  });

  it('is deterministic: the same envelope and key give the same bytes', () => {
    const a = JSON.stringify(signEnvelope(result, privateKey));
    const b = JSON.stringify(signEnvelope(structuredClone(result), privatePem));
    expect(a).toBe(b);
    // re-signing a signed message replaces the signature with the same one
    expect(JSON.stringify(signEnvelope(JSON.parse(a), privateKey))).toBe(a);
  });

  it('defaults the key id to the key fingerprint', () => {
    const signed = signEnvelope(result, privateKey);
    expect(signed.signature.keyId).toBe(keyFingerprint(publicKey));
    expect(keyFingerprint(privateKey)).toBe(keyFingerprint(publicPem));
    expect(keyFingerprint(publicKey)).toMatch(/^ed25519:[0-9a-f]{16}$/);
  });

  it('still verifies after the JSON is re-serialised with other key order and whitespace', () => {
    const signed = signEnvelope(result, privateKey);
    const reordered = JSON.stringify(Object.fromEntries(Object.entries(signed).reverse()), null, 2);
    expect(verifyEnvelope(reordered, publicPem)).toBe(true);
  });

  it('fails for any change to the message, another key, or a malformed signature', () => {
    const signed = signEnvelope(result, privateKey);
    const tampered = (f: (m: any) => void) => {
      const m = structuredClone(signed) as any;
      f(m);
      return m;
    };
    expect(
      verifyEnvelope(
        tampered((m) => {
          m.outcome.winner = 'player';
        }),
        publicPem,
      ),
    ).toBe(false);
    expect(
      verifyEnvelope(
        tampered((m) => {
          m.seq = 1043;
        }),
        publicPem,
      ),
    ).toBe(false);
    expect(
      verifyEnvelope(
        tampered((m) => {
          m.table = 'bac-02';
        }),
        publicPem,
      ),
    ).toBe(false);
    expect(
      verifyEnvelope(
        tampered((m) => {
          m.extra = 1;
        }),
        publicPem,
      ),
    ).toBe(false);
    expect(
      verifyEnvelope(
        tampered((m) => {
          m.cards.player.reverse();
        }),
        publicPem,
      ),
    ).toBe(false);
    expect(verifyEnvelope(signed, other.publicKey)).toBe(false);
    expect(checkEnvelopeSignature(signed, other.publicKey)).toMatchObject({ ok: false, reason: expect.stringMatching(/does not match/) });
    expect(checkEnvelopeSignature(result, publicPem)).toEqual({ ok: false, reason: 'no signature' });
    expect(
      checkEnvelopeSignature(
        tampered((m) => {
          m.signature.alg = 'none';
        }),
        publicPem,
      ),
    ).toMatchObject({ ok: false, reason: expect.stringMatching(/not Ed25519/) });
    expect(
      checkEnvelopeSignature(
        tampered((m) => {
          m.signature.sig = 'AAAA';
        }),
        publicPem,
      ),
    ).toMatchObject({ ok: false, reason: expect.stringMatching(/64 bytes/) });
    expect(checkEnvelopeSignature('{not json', publicPem)).toMatchObject({ ok: false, reason: expect.stringMatching(/^not JSON/) });
    expect(checkEnvelopeSignature(signed, 'not a key')).toMatchObject({ ok: false, reason: expect.stringMatching(/^bad public key/) });
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    expect(checkEnvelopeSignature(signed, rsa.publicKey)).toMatchObject({ ok: false, reason: expect.stringMatching(/not an Ed25519 public key/) });
  });
});

describe('the gateway signer (signing config)', () => {
  const dir = makeTempDirSync('teg-signer-');
  const keyFile = join(dir, 'signing.key');
  writeFileSync(keyFile, privatePem, { mode: 0o600 });

  it('signs the configured types only, as JSON text', () => {
    const s = createEnvelopeSigner({ privateKeyFile: keyFile, types: ['result'] });
    const r = JSON.parse(s.serialize(result as any));
    expect(verifyEnvelope(r, publicPem)).toBe(true);
    expect(r.signature.keyId).toBe(s.fingerprint);
    const round = { ...result, type: 'round' };
    expect(s.serialize(round as any)).toBe(JSON.stringify(round));
    expect(s.warnings).toEqual([]);
    expect(createEnvelopeSigner({ privateKeyFile: keyFile, keyId: 'casino-a-2026', types: ['result'] }).keyId).toBe('casino-a-2026');
  });

  it('names signing.privateKeyFile when the key cannot be used', () => {
    expect(() => createEnvelopeSigner({ privateKeyFile: join(dir, 'missing.key'), types: ['result'] })).toThrow(
      /^signing\.privateKeyFile: cannot read ".*missing\.key": no such file$/,
    );
    const rsaFile = join(dir, 'rsa.key');
    writeFileSync(rsaFile, generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }));
    expect(() => createEnvelopeSigner({ privateKeyFile: rsaFile, types: ['result'] })).toThrow(CredentialError);
    expect(() => createEnvelopeSigner({ privateKeyFile: rsaFile, types: ['result'] })).toThrow(
      /^signing\.privateKeyFile: .* is an rsa key; signatures need an Ed25519 key/,
    );
    const junk = join(dir, 'junk.key');
    writeFileSync(junk, 'hello');
    expect(() => createEnvelopeSigner({ privateKeyFile: junk, types: ['result'] })).toThrow(/^signing\.privateKeyFile: ".*junk\.key" is not a PEM private key/);
  });

  it('warns when the key file is readable by other users', () => {
    const loose = join(dir, 'loose.key');
    writeFileSync(loose, privatePem);
    chmodSync(loose, 0o644);
    expect(createEnvelopeSigner({ privateKeyFile: loose, types: ['result'] }).warnings[0]).toMatch(
      /^signing\.privateKeyFile: ".*loose\.key" is accessible to other users \(mode 0644\)/,
    );
  });

  it('reproduces signed results byte for byte when the same inputs are replayed through the machine', () => {
    const signer = createEnvelopeSigner({ privateKeyFile: keyFile, types: ['result', 'round'] });
    const run = (): string[] => {
      const h = new TableHarness();
      h.frame({ type: 'STATE', state: 'LOADED' } as any);
      // a baccarat shoe: reveal + burn as the reveal says, then rounds
      h.cards('5H', 'AS', 'KD', '3C', '4H', '2S', '9D', '8C', 'TS', 'JH', '6D', '7S', '2C', 'QH', '9S', '4D');
      return h.outputs.flatMap((o) => (o.type === 'publish' ? [signer.serialize(o.payload)] : []));
    };
    const first = run();
    const second = run();
    expect(first.filter((t) => t.includes('"type":"result"')).length).toBeGreaterThan(0);
    expect(second).toEqual(first);
    for (const t of first.filter((x) => x.includes('"type":"result"'))) expect(verifyEnvelope(t, publicPem)).toBe(true);
  });
});
