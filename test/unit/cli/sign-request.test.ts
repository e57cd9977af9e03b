/**
 * `tablegw sign-request`: a pit tool's signed request, checked by the gateway's own verifier
 * (docs/SECURITY.md "Privileged requests").
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { command } from '../../../src/app/cli/commands/sign-request.js';
import { RequestVerifier } from '../../../src/adapters/security/request-signing.js';

const pair = generateKeyPairSync('ed25519');
const dir = mkdtempSync(join(tmpdir(), 'teg-sign-request-'));
const keyFile = join(dir, 'pit-7.key');
writeFileSync(keyFile, pair.privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((...a) => {
    out.push(a.join(' '));
  });
  vi.spyOn(console, 'error').mockImplementation((...a) => {
    err.push(a.join(' '));
  });
  const code = await command.run(args);
  return { code, out: out.join('\n'), err: err.join('\n') };
}
afterEach(() => {
  vi.restoreAllMocks();
});

describe('tablegw sign-request', () => {
  it('prints one line of JSON the table verifies, with by and a transaction; the same bytes are taken once', async () => {
    const r = await run([
      '--key',
      keyFile,
      '--key-id',
      'pit-7',
      '--table',
      'dt-07',
      '--command',
      'void-round',
      '{"roundId":"dt-07-s0001-r0002","reason":"dealer error","by":"someone"}',
    ]);
    expect(r.code).toBe(0);
    const req = JSON.parse(r.out) as Record<string, unknown>;
    expect(req).toMatchObject({
      roundId: 'dt-07-s0001-r0002',
      reason: 'dealer error',
      by: 'pit-7',
      signature: { alg: 'Ed25519', keyId: 'pit-7', table: 'dt-07', command: 'void-round' },
    });
    expect(String(req.transaction)).toMatch(/^pit-7-[0-9a-f-]{36}$/);
    const v = new RequestVerifier({ tableId: 'dt-07', keys: [{ name: 'pit-7', publicKey: pair.publicKey, commands: ['void-round'] }], maxSkewMs: 30_000 });
    expect(v.check('void-round', r.out, Date.now())).toEqual({ kind: 'signed', signer: 'pit-7' });
    expect(v.check('void-round', r.out, Date.now())).toMatchObject({ kind: 'refused', code: 'replayed-request' });
    expect(v.check('correction', r.out, Date.now())).toMatchObject({ kind: 'refused', code: 'bad-signature' });
  });

  it('--transaction is kept; an everyday command, a body that is not an object, a missing option are refused', async () => {
    const ok = await run(['--key', keyFile, '--key-id', 'pit-7', '--table', 'dt-07', '--command', 'resume-round', '--transaction', 't-9']);
    expect(JSON.parse(ok.out)).toMatchObject({ transaction: 't-9', by: 'pit-7' });
    expect((await run(['--key', keyFile, '--key-id', 'pit-7', '--table', 'dt-07', '--command', 'open-betting'])).code).toBe(2);
    expect((await run(['--key', keyFile, '--key-id', 'pit-7', '--table', 'dt-07', '--command', 'correction', '[1]'])).code).toBe(2);
    expect((await run(['--key', keyFile, '--table', 'dt-07', '--command', 'correction'])).code).toBe(2);
    const badKey = await run(['--key', join(dir, 'nope.key'), '--key-id', 'pit-7', '--table', 'dt-07', '--command', 'correction']);
    expect(badKey.code).toBe(1);
    expect(badKey.err).toContain('no such file');
  });
});
