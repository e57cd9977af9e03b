/**
 * `tablegw keygen` and `tablegw verify` (src/app/cli/commands/): keys made by either keygen or the
 * documented openssl lines sign results that verify from a file, stdin-style lines or a broker.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { command as keygen } from '../../../src/app/cli/commands/keygen.js';
import { command as verify, messagesOf, verifyMessage } from '../../../src/app/cli/commands/verify.js';
import { startEmbeddedBroker } from '../../../src/adapters/mqtt/embedded-broker.js';
import { createEnvelopeSigner } from '../../../src/adapters/security/signer.js';
import { keyFingerprint, signEnvelope } from '../../../src/adapters/security/signing.js';
import { hasCommand } from '../../../dev/rig/commands.js';
import { makeTempDirSync } from '../../../dev/rig/temp-dir.js';

const result = (seq: number, table = 'bac-01') => ({
  v: 1,
  type: 'result',
  table,
  game: 'baccarat',
  seq,
  ts: '2026-11-30T12:00:00.123Z',
  roundId: `${table}-s0001-r${String(seq).padStart(4, '0')}`,
  status: 'complete',
  cards: { player: ['AS', '9H'], banker: ['KD', '7C'] },
  outcome: { winner: 'player' },
});

function captureOutput() {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((...a) => {
    out.push(a.join(' '));
  });
  vi.spyOn(console, 'error').mockImplementation((...a) => {
    err.push(a.join(' '));
  });
  return { out, err };
}

afterEach(() => vi.restoreAllMocks());

describe('tablegw keygen', () => {
  it('writes a private key (mode 600) and a public key, prints the fingerprint, never overwrites', async () => {
    const dir = makeTempDirSync('teg-keygen-');
    const { out, err } = captureOutput();
    expect(await keygen.run(['--out', join(dir, 'gw')])).toBe(0);
    expect(statSync(join(dir, 'gw.key')).mode & 0o777).toBe(0o600);
    const pub = readFileSync(join(dir, 'gw.pub'), 'utf8');
    expect(pub).toContain('BEGIN PUBLIC KEY');
    expect(out.join('\n')).toContain(`fingerprint: ${keyFingerprint(pub)}`);
    expect(await keygen.run(['--out', join(dir, 'gw')])).toBe(1);
    expect(err.join('\n')).toMatch(/exist.*--force/);
    expect(await keygen.run(['--out', join(dir, 'gw'), '--force'])).toBe(0);
    expect(readFileSync(join(dir, 'gw.pub'), 'utf8')).not.toBe(pub);
  });
});

describe('tablegw verify', () => {
  const dir = makeTempDirSync('teg-verify-');
  let keyPem = '';
  let pubFile = '';

  it('verifies messages from a file: JSON lines and "mosquitto_sub -v" lines; fails tampered, unsigned and misrouted ones', async () => {
    captureOutput();
    await keygen.run(['--out', join(dir, 'gw')]);
    vi.restoreAllMocks();
    keyPem = readFileSync(join(dir, 'gw.key'), 'utf8');
    pubFile = join(dir, 'gw.pub');
    const good = JSON.stringify(signEnvelope(result(1), keyPem));
    const good2 = JSON.stringify(signEnvelope(result(2), keyPem));
    const tampered = good.replace('"winner":"player"', '"winner":"banker"');
    const unsigned = JSON.stringify(result(3));
    const file = join(dir, 'messages.txt');
    writeFileSync(
      file,
      [good, `casino/bac-01/result ${good2}`, tampered, unsigned, `casino/bac-02/result ${good}`, `casino/bac-01/round ${good}`].join('\n') + '\n',
    );
    const { out } = captureOutput();
    expect(await verify.run(['--public-key', pubFile, file])).toBe(1);
    expect(out).toEqual([
      expect.stringMatching(/^OK {3}seq 1 bac-01-s0001-r0001 \(key ed25519:[0-9a-f]{16}, verified by ed25519:[0-9a-f]{16}\)$/),
      expect.stringMatching(/^OK {3}casino\/bac-01\/result seq 2 /),
      expect.stringMatching(/^FAIL seq 1 bac-01-s0001-r0001: signature does not match/),
      'FAIL seq 3 bac-01-s0001-r0003: no signature',
      'FAIL casino/bac-02/result seq 1 bac-01-s0001-r0001: signed for table "bac-01" but received on casino/bac-02/result',
      'FAIL casino/bac-01/round seq 1 bac-01-s0001-r0001: a signed "result" message received on casino/bac-01/round',
    ]);
    writeFileSync(file, `${good}\n${good2}\n${unsigned}\n`);
    out.length = 0;
    expect(await verify.run(['--public-key', pubFile, '--allow-unsigned', file])).toBe(0);
    expect(out[2]).toBe('SKIP seq 3 bac-01-s0001-r0003: not signed');
  });

  it('reads one JSON document or an array', () => {
    expect(messagesOf('{\n "a": 1\n}\n')).toEqual([{ text: '{\n "a": 1\n}' }]);
    expect(messagesOf('[{"a":1},{"b":2}]')).toEqual([{ text: '{"a":1}' }, { text: '{"b":2}' }]);
  });

  it('accepts any of several keys (key rotation) and needs a key', async () => {
    const other = join(dir, 'other');
    captureOutput();
    await keygen.run(['--out', other]);
    const signedByOther = JSON.stringify(signEnvelope(result(7), readFileSync(`${other}.key`, 'utf8'), 'gw-2027'));
    expect(verifyMessage(signedByOther, [readFileSync(pubFile, 'utf8')]).ok).toBe(false);
    expect(verifyMessage(signedByOther, [readFileSync(pubFile, 'utf8'), readFileSync(`${other}.pub`, 'utf8')])).toMatchObject({ ok: true, keyId: 'gw-2027' });
    expect(await verify.run([join(dir, 'messages.txt')])).toBe(2);
  });

  it.skipIf(!hasCommand('openssl'))('works with keys made by the documented openssl lines', () => {
    const key = join(dir, 'ossl.key');
    const pub = join(dir, 'ossl.pub');
    execFileSync('openssl', ['genpkey', '-algorithm', 'ed25519', '-out', key]);
    execFileSync('openssl', ['pkey', '-in', key, '-pubout', '-out', pub]);
    const signer = createEnvelopeSigner({ privateKeyFile: key, types: ['result'] });
    expect(verifyMessage(signer.serialize(result(9) as any), [readFileSync(pub, 'utf8')])).toMatchObject({ ok: true, keyId: signer.fingerprint });
    // and openssl itself verifies the signature over the canonical bytes
    const signed = JSON.parse(signer.serialize(result(9) as any));
    const { signature, ...others } = signed;
    // the signed form: everything, the signature's alg and keyId included, but its sig
    const { sig: _sig, ...covered } = signature;
    const rest = { ...others, signature: covered };
    const sortKeys = (v: any): any =>
      Array.isArray(v)
        ? v.map(sortKeys)
        : v && typeof v === 'object'
          ? Object.fromEntries(
              Object.keys(v)
                .sort()
                .map((k) => [k, sortKeys(v[k])]),
            )
          : v;
    writeFileSync(join(dir, 'msg.bin'), JSON.stringify(sortKeys(rest)));
    writeFileSync(join(dir, 'msg.sig'), Buffer.from(signature.sig, 'base64'));
    const r = execFileSync(
      'openssl',
      ['pkeyutl', '-verify', '-pubin', '-inkey', pub, '-rawin', '-in', join(dir, 'msg.bin'), '-sigfile', join(dir, 'msg.sig')],
      { encoding: 'utf8' },
    );
    expect(r).toMatch(/Signature Verified Successfully/);
  });

  it('verifies what arrives on a broker topic (retained results included)', async () => {
    const broker = await startEmbeddedBroker('127.0.0.1', 0);
    const pub = mqtt.connect(broker.url, { protocolVersion: 4 });
    try {
      await new Promise<void>((r) => pub.once('connect', () => r()));
      await pub.publishAsync('casino/bac-01/result', JSON.stringify(signEnvelope(result(11), keyPem)), { qos: 1, retain: true });
      await pub.publishAsync('casino/bac-09/result', JSON.stringify(signEnvelope(result(12, 'bac-09'), keyPem)), { qos: 1, retain: true });
      const { out } = captureOutput();
      expect(await verify.run(['--public-key', pubFile, '--url', broker.url, '--count', '2', '--timeout', '10'])).toBe(0);
      expect(out.sort()).toEqual([
        expect.stringMatching(/^OK {3}casino\/bac-01\/result seq 11 /),
        expect.stringMatching(/^OK {3}casino\/bac-09\/result seq 12 /),
      ]);
      await pub.publishAsync('casino/bac-01/result', JSON.stringify({ ...signEnvelope(result(13), keyPem), seq: 14 }), { qos: 1, retain: true });
      out.length = 0;
      expect(await verify.run(['--public-key', pubFile, '--url', broker.url, '--topic', 'casino/bac-01/result', '--count', '1', '--timeout', '10'])).toBe(1);
      expect(out[0]).toMatch(/^FAIL casino\/bac-01\/result seq 14 .*signature does not match/);
    } finally {
      await pub.endAsync(true);
      await broker.close();
    }
  });
});
