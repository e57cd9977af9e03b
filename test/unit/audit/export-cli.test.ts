/** `tablegw export` / `verify-export` on the command line: times, usage errors, exit codes by problem. */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { command as exportCommand, parseTime } from '../../../src/app/cli/commands/export.js';
import { command as verifyCommand } from '../../../src/app/cli/commands/verify-export.js';
import { exportJournal } from '../../../src/adapters/store/journal-export.js';
import { buildJournal } from '../../helpers/export-journal.js';

describe('export on the command line', () => {
  it('takes ISO 8601 times and dates (UTC), nothing else', () => {
    expect(parseTime('2026-12-01')).toBe(Date.parse('2026-12-01T00:00:00Z'));
    expect(parseTime('2026-12-01T10:30:00Z')).toBe(Date.parse('2026-12-01T10:30:00Z'));
    expect(parseTime('2026-12-01T10:30:00+01:00')).toBe(Date.parse('2026-12-01T09:30:00Z'));
    for (const bad of ['yesterday', '1733011200', '2026-13-01', '']) expect(parseTime(bad)).toBeNull();
  });

  it('usage errors exit 2; verify-export exits with the code of each problem', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'log').mockImplementation(() => {});
    expect(await exportCommand.run(['--from', '2026-12-02', '--to', '2026-12-01', 'x.jsonl'])).toBe(2);
    expect(await exportCommand.run(['--from', '2026-12-01', 'x.jsonl'])).toBe(2);
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const dir = mkdtempSync(join(tmpdir(), 'export-cli-'));
    const pub = join(dir, 'gw.pub');
    writeFileSync(pub, publicKey.export({ type: 'spki', format: 'pem' }));
    const file = join(dir, 'a.jsonl');
    exportJournal({ dataDir: buildJournal(['sic-bo'], { steps: 5 }).dir, file, range: {}, gatewayId: 'gw', key: { privateKey, keyId: 'k' } });
    expect(await verifyCommand.run(['--public-key', pub, file])).toBe(0);
    const lines = readFileSync(file, 'utf8').split('\n');
    const swapped = join(dir, 'swapped.jsonl');
    writeFileSync(swapped, [lines[0], lines[2], lines[1], ...lines.slice(3)].join('\n'));
    expect(await verifyCommand.run(['--public-key', pub, swapped])).toBe(11);
    const other = join(dir, 'other.pub');
    writeFileSync(other, generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }));
    expect(await verifyCommand.run(['--public-key', other, file])).toBe(12);
    expect(await verifyCommand.run([join(dir, 'missing.jsonl')])).toBe(1);
    expect(await verifyCommand.run([])).toBe(2);
    vi.restoreAllMocks();
  });
});
