/**
 * Signed privileged requests at the runtime's edge (docs/SECURITY.md, "Privileged requests"): the
 * signature over the canonical JSON, the key's name and commands, the table, the time window and
 * the transaction remembered for it; and what the admission writes into the machine's input.
 */
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RequestVerifier, signRequest } from '../../../src/adapters/security/request-signing.js';
import { RequestAdmission } from '../../../src/runtime/request-admission.js';
import { canonicalJson } from '../../../src/adapters/security/signing.js';

const T0 = Date.UTC(2026, 11, 6, 23, 50, 0);
const pit = generateKeyPairSync('ed25519');
const other = generateKeyPairSync('ed25519');
const verifier = () =>
  new RequestVerifier({
    tableId: 'dt-01',
    maxSkewMs: 30_000,
    keys: [
      { name: 'pit-7', publicKey: pit.publicKey, commands: ['correction', 'void-round'] },
      { name: 'floor-1', publicKey: other.publicKey, commands: ['resume-round'] },
    ],
  });
const correction = { transaction: 'c-1', kind: 'cards', roundId: 'dt-01-s0001-r0004', cards: { dragon: ['KS'], tiger: ['2H'] } };
const signed = (o: Partial<Parameters<typeof signRequest>[0]> = {}) =>
  signRequest({ table: 'dt-01', command: 'correction', body: correction, privateKey: pit.privateKey, keyId: 'pit-7', at: T0, ...o });

describe('RequestVerifier', () => {
  it("a request signed by a listed key for its command, table and time: its signer is the key's name", () => {
    const req = signed();
    expect(req.signature).toMatchObject({ alg: 'Ed25519', keyId: 'pit-7', table: 'dt-01', command: 'correction', ts: '2026-12-06T23:50:00.000Z' });
    expect(verifier().check('correction', JSON.stringify(req), T0 + 2_000)).toEqual({ kind: 'signed', signer: 'pit-7' });
  });

  it('the signature covers the canonical form: another key order or whitespace still verifies', () => {
    const req = signed();
    const reordered = JSON.stringify(JSON.parse(canonicalJson({ ...req, signature: undefined } as Record<string, unknown>)), null, 2);
    const text = `${reordered.slice(0, -2)},\n  "signature": ${JSON.stringify(req.signature)}\n}`;
    expect(verifier().check('correction', text, T0)).toEqual({ kind: 'signed', signer: 'pit-7' });
  });

  it('no signature member: unsigned (the table machine decides whether one was needed)', () => {
    expect(verifier().check('correction', JSON.stringify(correction), T0)).toEqual({ kind: 'unsigned' });
    expect(verifier().check('correction', 'not json', T0)).toEqual({ kind: 'unsigned' });
  });

  it.each([
    ['a changed card', () => JSON.stringify({ ...signed(), cards: { dragon: ['2H'], tiger: ['KS'] } }), 'bad-signature'],
    ['a changed round', () => JSON.stringify({ ...signed(), roundId: 'dt-01-s0001-r0003' }), 'bad-signature'],
    ['a changed time stamp', () => JSON.stringify({ ...signed(), signature: { ...signed().signature, ts: '2026-12-06T23:50:01.000Z' } }), 'bad-signature'],
    ["another key's name on pit-7's signature", () => JSON.stringify({ ...signed(), signature: { ...signed().signature, keyId: 'floor-1' } }), 'bad-signature'],
    ['signed by an unlisted key under a listed name', () => JSON.stringify(signed({ privateKey: generateKeyPairSync('ed25519').privateKey })), 'bad-signature'],
    ['signed for another table', () => JSON.stringify(signed({ table: 'dt-02' })), 'bad-signature'],
    ['a signature of void-round sent as a correction', () => JSON.stringify(signed({ command: 'void-round' })), 'bad-signature'],
    ['no transaction', () => JSON.stringify(signed({ body: { kind: 'void' } })), 'bad-signature'],
    ['a signature that is not an object', () => JSON.stringify({ ...correction, signature: 'pit-7' }), 'bad-signature'],
    ['another algorithm', () => JSON.stringify({ ...signed(), signature: { ...signed().signature, alg: 'HS256' } }), 'bad-signature'],
    ['a key the table does not list', () => JSON.stringify(signed({ keyId: 'pit-boss-anyone' })), 'unknown-key'],
    ['__proto__ as a key name', () => JSON.stringify(signed({ keyId: '__proto__' })), 'unknown-key'],
    ['a listed key not allowed this command', () => JSON.stringify(signed({ keyId: 'floor-1', privateKey: other.privateKey })), 'key-not-allowed'],
    ['signed 31 s ago', () => JSON.stringify(signed({ at: T0 - 31_000 })), 'stale-request'],
    ['signed 31 s ahead', () => JSON.stringify(signed({ at: T0 + 31_000 })), 'stale-request'],
  ])('%s: refused %s', (_what, payload, code) => {
    const c = verifier().check('correction', payload(), T0);
    expect(c).toMatchObject({ kind: 'refused', code });
    if (c.kind === 'refused') expect(c.reason.length).toBeGreaterThan(10);
  });

  it('the same signed request twice: the second is replayed-request; a new transaction is taken', () => {
    const v = verifier();
    const text = JSON.stringify(signed());
    expect(v.check('correction', text, T0)).toMatchObject({ kind: 'signed' });
    expect(v.check('correction', text, T0 + 29_000)).toMatchObject({ kind: 'refused', code: 'replayed-request' });
    expect(v.check('correction', JSON.stringify(signed({ body: { ...correction, transaction: 'c-2' } })), T0 + 1)).toMatchObject({ kind: 'signed' });
    // past the window the copy is stale: it is never taken again, and the memory is emptied
    expect(v.check('correction', text, T0 + 31_000)).toMatchObject({ kind: 'refused', code: 'stale-request' });
    v.check('correction', JSON.stringify(signed({ body: { ...correction, transaction: 'c-3' }, at: T0 + 40_000 })), T0 + 40_000);
    expect(v.remembered).toBe(1);
  });

  it('a request the journal says was taken (noteTaken, at a restart) is replayed-request', () => {
    const v = verifier();
    const text = JSON.stringify(signed());
    v.noteTaken(text, T0);
    expect(v.check('correction', text, T0 + 5_000)).toMatchObject({ kind: 'refused', code: 'replayed-request' });
  });
});

describe('RequestAdmission with a verifier', () => {
  const admission = (limits?: { ratePerSec: number; burst: number; maxPayloadBytes: number }) =>
    new RequestAdmission({ tableId: 'dt-01', ownResponsePrefix: 'casino/dt-01/response/', verifier: verifier(), ...(limits ? { limits } : {}) });

  it('writes the verified signer into the input; a refusal with its code; unsigned passes as it is', () => {
    const a = admission();
    expect(a.admit({ command: 'correction', payload: JSON.stringify(signed()), retained: false }, T0)).toMatchObject({
      kind: 'input',
      input: { signer: 'pit-7', command: 'correction' },
    });
    const forged = a.admit({ command: 'correction', payload: JSON.stringify(signed({ keyId: 'pit-boss-anyone' })), retained: false }, T0);
    expect(forged).toMatchObject({ kind: 'input', input: { refusedCode: 'unknown-key' } });
    expect(forged.kind === 'input' && forged.input.signer).toBeUndefined();
    const unsigned = a.admit({ command: 'correction', payload: JSON.stringify(correction), retained: false }, T0);
    expect(unsigned.kind === 'input' && unsigned.input).toEqual({ type: 'request', at: T0, command: 'correction', payload: JSON.stringify(correction) });
    expect(a.counts.refused).toEqual({ 'unknown-key': 1 });
  });

  it("everyday commands are not looked at: a signature there is the machine's invalid-args", () => {
    const a = admission();
    const r = a.admit(
      { command: 'open-betting', payload: JSON.stringify(signed({ command: 'open-betting', body: { transaction: 'o-1' } })), retained: false },
      T0,
    );
    expect(r.kind === 'input' && r.input.signer).toBeUndefined();
    expect(r.kind === 'input' && r.input.refused).toBeUndefined();
  });

  it('the rate limit comes first: a flood of signed requests is refused rate-limited before any verification', () => {
    const a = admission({ ratePerSec: 1, burst: 1, maxPayloadBytes: 16_384 });
    const text = JSON.stringify(signed());
    expect(a.admit({ command: 'correction', payload: text, retained: false }, T0)).toMatchObject({ input: { signer: 'pit-7' } });
    expect(a.admit({ command: 'correction', payload: text, retained: false }, T0)).toMatchObject({ input: { refusedCode: 'rate-limited' } });
  });
});
