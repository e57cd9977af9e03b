import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadProfileFile } from '../../drivers/profiles/profile-schema.js';
import { dealCapture, shuffledDeck } from '../../simulators/devices/deal-capture.js';
import { captureText } from '../helpers/capture-text.js';
import { cleanupTempDirs, makeTempDir } from '../../dev/rig/temp-dir.js';
import { ROOT, tablegw } from '../helpers/tablegw-cli.js';

afterAll(cleanupTempDirs);

describe('tablegw profile learn on the command line', () => {
  it('learns a shoe from a capture and a script, writes a profile that profile check accepts; capture show shows the bytes', async () => {
    const dir = await makeTempDir('teg-learn-cli-');
    const deck = shuffledDeck(31);
    const steps = ['LOADED', ...deck.slice(0, 5), 'MISREAD', `RESCAN:${deck[5]}`, ...deck.slice(6), 'CUT'];
    const cap = dealCapture(loadProfileFile(join(ROOT, 'drivers/profiles/shipped/stx-etx-bcc-shoe.yaml')), steps, { seed: 9 });
    const capFile = join(dir, 'shoe.jsonl');
    writeFileSync(capFile, captureText(cap.chunks));
    const script = join(dir, 'deal.txt');
    writeFileSync(script, `# shoe 1, dealt from the top\n${steps.slice(0, 10).join(' ')}\n${steps.slice(10).join(', ')}\n`);
    const out = join(dir, 'learned.yaml');
    const r = await tablegw(['profile', 'learn', capFile, '--deal', script, '--out', out]);
    expect(r.stderr).toContain('verified on the capture as it arrived and re-chunked');
    expect(r.code).toBe(0);
    const yaml = readFileSync(out, 'utf8');
    expect(yaml).toMatch(/^# - integrity: xor8 binary-be after-end .* verified on \d+ of \d+ frames/m);
    const check = await tablegw(['profile', 'check', out, capFile]);
    expect(check.code).toBe(0);
    expect(check.stdout).toContain('re-chunked (1-byte chunks, random cuts, the whole capture at once): the same frames and rejects');
    expect(check.stdout).toContain('frames by type: CARD 52,');

    const show = await tablegw(['capture', 'show', capFile, '--limit', '3']);
    expect(show.code).toBe(0);
    const first = cap.chunks[0].bytes;
    expect(show.stdout).toContain(`00000000  ${[...first.subarray(0, 16)].map((x) => x.toString(16).padStart(2, '0')).join(' ')}`);
    expect(show.stdout).toContain(`${cap.chunks.length - 3} more chunk(s)`);
  }, 60_000);

  it('a script that does not match is exit 1 naming the closest candidates; nothing is written', async () => {
    const dir = await makeTempDir('teg-learn-cli-');
    const deck = shuffledDeck(32);
    const cap = dealCapture(loadProfileFile(join(ROOT, 'drivers/profiles/shipped/reference-shoe.yaml')), deck, { seed: 3 });
    const capFile = join(dir, 'shoe.jsonl');
    writeFileSync(capFile, captureText(cap.chunks));
    const script = join(dir, 'deal.txt');
    writeFileSync(script, shuffledDeck(33).join(' '));
    const out = join(dir, 'learned.yaml');
    const r = await tablegw(['profile', 'learn', capFile, '--deal', script, '--out', out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('nothing written');
    expect(r.stderr).toMatch(/closest: start 0x24, end 0x0d 0x0a; xor8 hex before-end after "\*" over payload: .*script/);
    expect(existsSync(out)).toBe(false);
  }, 60_000);

  it('bad input: a bad script token is 65, a missing capture 66, no --deal 2', async () => {
    const dir = await makeTempDir('teg-learn-cli-');
    const capFile = join(dir, 'c.jsonl');
    writeFileSync(capFile, captureText([{ t: 0, bytes: Buffer.from('\x021,C,AS\x03', 'latin1') }]));
    const script = join(dir, 'deal.txt');
    writeFileSync(script, 'AS\nKD QX\n');
    const bad = await tablegw(['profile', 'learn', capFile, '--deal', script]);
    expect(bad.code).toBe(65);
    expect(bad.stderr).toContain('line 2: "QX"');
    expect((await tablegw(['profile', 'learn', join(dir, 'nope.jsonl'), '--deal', script])).code).toBe(66);
    expect((await tablegw(['profile', 'learn', capFile])).code).toBe(2);
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, captureText([]));
    writeFileSync(script, 'AS KD');
    const e = await tablegw(['profile', 'learn', empty, '--deal', script]);
    expect(e.code).toBe(1);
    expect(e.stderr).toContain('the capture holds no bytes');
  }, 60_000);
});
