/**
 * `tablegw profile learn` on the command line with the capture files `tablegw capture` writes for
 * a HID device (transport `hid`: one input report per chunk) and for the serial dice reader with
 * its dice in bit fields: the profile written is one `tablegw profile check` accepts on the same
 * capture, re-chunked the way its transport delivers bytes.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { buildCapture, CORPUS } from '../../dev/corpus/index.js';
import { cleanupTempDirs, makeTempDir } from '../../dev/rig/temp-dir.js';
import { tablegw } from '../helpers/tablegw-cli.js';

afterAll(cleanupTempDirs);

const HID = CORPUS.find((e) => e.name === 'hid-card-reader')!;
const DICE = CORPUS.find((e) => e.name === 'bitfield-dice')!;

describe('tablegw profile learn on HID and bit-field captures', () => {
  it('learns a report layout from a HID capture file; profile check accepts it with the reports kept whole', async () => {
    const dir = await makeTempDir('teg-learn-hid-');
    const built = buildCapture(HID);
    expect(built.text.split('\n')[0]).toContain('"transport":"hid"');
    const capFile = join(dir, 'reader.capture');
    const script = join(dir, 'reader.deal');
    writeFileSync(capFile, built.text);
    writeFileSync(script, `# HID card reader, one deal\n${built.script}`);
    const out = join(dir, 'reader.yaml');
    const r = await tablegw(['profile', 'learn', capFile, '--deal', script, '--out', out, '--name', 'my-reader']);
    expect(r.stderr).toContain('verified on the capture as it arrived and with its reports batched');
    expect(r.code).toBe(0);
    const p = parseYaml(readFileSync(out, 'utf8'));
    expect(p).toMatchObject({ name: 'my-reader', talker: 'SHOE', input: 'hid-report', report: { length: 8, type: { offset: 2 } } });
    expect(readFileSync(out, 'utf8')).toMatch(/^# - checksum: crc8 at offset 7 over bytes 0\.\.6, verified on 22 of 24 reports/m);
    const check = await tablegw(['profile', 'check', out, capFile]);
    expect(check.code).toBe(0);
    expect(check.stdout).toContain('re-chunked (one report per read, reports batched): the same frames and rejects');
    expect(check.stdout).toContain('frames by type: CARD 17, HB 3, MISREAD 1, STATE 1');
  }, 60_000);

  it('learns the dice reader with bit fields (--kind dice-sensor) from its script with NOREAD', async () => {
    const dir = await makeTempDir('teg-learn-dice-');
    const built = buildCapture(DICE);
    expect(built.script).toContain('NOREAD');
    const capFile = join(dir, 'dice.capture');
    const script = join(dir, 'dice.deal');
    writeFileSync(capFile, built.text);
    writeFileSync(script, built.script);
    const out = join(dir, 'dice.yaml');
    const r = await tablegw(['profile', 'learn', capFile, '--deal', script, '--kind', 'dice-sensor', '--out', out, '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.notes.join('\n')).toMatch(/dice: d1 bits 0-2, d2 bits 3-5, d3 bits 6-8, bounces bits 9-13 of the little-endian word at offset 2/);
    const check = await tablegw(['profile', 'check', out, capFile]);
    expect(check.code).toBe(0);
    expect(check.stdout).toContain('frames by type: ROLL 5, HB 3, NOREAD 1');
    // a script that does not match the rolls (the last die of the last roll): nothing fits, nothing written
    writeFileSync(script, built.script.replace('ROLL:5,5,2', 'ROLL:5,5,3'));
    const bad = join(dir, 'bad.yaml');
    const wrong = await tablegw(['profile', 'learn', capFile, '--deal', script, '--out', bad]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('nothing written');
    expect(existsSync(bad)).toBe(false);
  }, 60_000);
});
