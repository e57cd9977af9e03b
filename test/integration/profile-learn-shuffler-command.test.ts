/**
 * `tablegw profile learn --kind shuffler` on the command line: the corpus shuffler's capture and
 * script learned into a profile that `profile check` accepts; a bad shuffler token is exit 65
 * naming its line, an unknown kind exit 2; nothing written on either.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildCapture, CORPUS } from '../../dev/corpus/index.js';
import { cleanupTempDirs, makeTempDir } from '../../dev/rig/temp-dir.js';
import { tablegw } from '../helpers/tablegw-cli.js';

afterAll(cleanupTempDirs);

const SHUFFLER = CORPUS.find((e) => e.name === 'hex-trailer-shuffler')!;

describe('tablegw profile learn --kind shuffler', () => {
  it('learns the shuffler from a capture and a script of SHUF: and COUNT: tokens; profile check accepts it', async () => {
    const dir = await makeTempDir('teg-learn-shuf-');
    const built = buildCapture(SHUFFLER);
    const capFile = join(dir, 'shuffler.jsonl');
    writeFileSync(capFile, built.text);
    const script = join(dir, 'shuffles.txt');
    writeFileSync(script, `# two shuffles, one jammed\n${built.script}`);
    expect(built.script).toContain('COUNT:416');
    const out = join(dir, 'learned.yaml');
    const r = await tablegw(['profile', 'learn', capFile, '--deal', script, '--kind', 'shuffler', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const yaml = readFileSync(out, 'utf8');
    expect(yaml).toMatch(/^talker: "SHUF"$/m);
    expect(yaml).toMatch(/^# - count: decimal, from 2 counts$/m);
    const check = await tablegw(['profile', 'check', out, capFile]);
    expect(check.code, check.stdout).toBe(0);
    expect(check.stdout).toContain('re-chunked (1-byte chunks, random cuts, the whole capture at once): the same frames and rejects');
    expect(check.stdout).toMatch(/frames by type: .*COUNT 2/);
  }, 60_000);

  it('bad input: a bad shuffler state or count is 65 naming its line, an unknown kind 2; nothing written', async () => {
    const dir = await makeTempDir('teg-learn-shuf-');
    const capFile = join(dir, 'shuffler.jsonl');
    writeFileSync(capFile, buildCapture(SHUFFLER).text);
    const script = join(dir, 'shuffles.txt');
    const out = join(dir, 'learned.yaml');
    writeFileSync(script, 'SHUF:IDLE\nSHUF:SHUFFLE COUNT:52\n');
    const badState = await tablegw(['profile', 'learn', capFile, '--deal', script, '--kind', 'shuffler', '--out', out]);
    expect(badState.code).toBe(65);
    expect(badState.stderr).toContain('line 2: "SHUF:SHUFFLE": SHUF: needs a shuffler state');
    writeFileSync(script, 'SHUF:IDLE COUNT:1000\n');
    const badCount = await tablegw(['profile', 'learn', capFile, '--deal', script, '--kind', 'shuffler', '--out', out]);
    expect(badCount.code).toBe(65);
    expect(badCount.stderr).toContain('line 1: "COUNT:1000": COUNT: needs the number of cards counted, 0..999');
    const kind = await tablegw(['profile', 'learn', capFile, '--deal', script, '--kind', 'shuffle', '--out', out]);
    expect(kind.code).toBe(2);
    expect(kind.stderr).toContain('shuffler');
    expect(existsSync(out)).toBe(false);
  }, 60_000);
});
