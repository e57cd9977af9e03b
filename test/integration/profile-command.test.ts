import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { captureText } from '../helpers/capture-text.js';
import { cleanupTempDirs, makeTempDir } from '../../dev/rig/temp-dir.js';
import { tablegw } from '../helpers/tablegw-cli.js';

afterAll(cleanupTempDirs);

async function captureFile(chunks: Array<[number, string]>): Promise<string> {
  const file = join(await makeTempDir('teg-profile-cli-'), 'c.jsonl');
  writeFileSync(file, captureText(chunks.map(([t, s]) => ({ t, bytes: Buffer.from(s, 'latin1') }))));
  return file;
}

describe('tablegw profile on the command line', () => {
  it('check: a good capture prints its frames and rejects, exit 0; --json carries the same', async () => {
    const cap = await captureFile([
      [0, '\x021,C,S_K*37\x03\x022,C,'],
      [35.5, 'H_10*00\x03'],
    ]);
    const r = await tablegw(['profile', 'check', 'stx-etx-shoe', cap]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('drivers/profiles/shipped/stx-etx-shoe.yaml: valid profile "stx-etx-shoe" (SHOE)');
    expect(r.stdout).toContain(' 0 ms  frame   CARD seq=1 card=KS rescan=false');
    expect(r.stdout).toContain('36 ms  reject  bad-checksum  \\x022,C,H_10*00\\x03');
    expect(r.stdout).toContain('1 frame, 1 reject: rejects by reason: bad-checksum (1)');
    const j = await tablegw(['profile', 'check', 'stx-etx-shoe', cap, '--json']);
    expect(j.code).toBe(0);
    const doc = JSON.parse(j.stdout);
    expect(doc.profile).toMatchObject({ valid: true, name: 'stx-etx-shoe', talker: 'SHOE' });
    expect(doc.capture.summary).toMatchObject({ frames: 1, rejects: 1, framesByType: { CARD: 1 }, rejectsByReason: { 'bad-checksum': 1 } });
    expect(doc.capture).toMatchObject({ verdict: '1 frame, 1 reject: rejects by reason: bad-checksum (1)', hint: null });
    expect(doc.capture.items[1]).toEqual({ t: 35.5, reject: { reason: 'bad-checksum', raw: '\\x022,C,H_10*00\\x03' } });
  }, 60_000);

  it('check: a capture of another format is exit 1 and says the profile does not match', async () => {
    const cap = await captureFile(Array.from({ length: 5 }, (_, i) => [i * 10, `C10${i}0,1B\r`] as [number, string]));
    const r = await tablegw(['profile', 'check', 'stx-etx-shoe', cap]);
    expect(r.code).toBe(1);
    // no STX anywhere: the whole capture is one noise run, reported when the capture ends
    expect(r.stdout).toMatch(/0 frames, 1 reject: this profile does not match what the device sends; most common: noise \(1\)/);
    expect(r.stdout).toContain('hint: bytes arrive outside frames: look at framing.start (and the serial speed: --baud)');
  }, 60_000);

  it('check: an invalid profile is exit 65 with every key path; a missing one 66; a bad capture 65', async () => {
    const dir = await makeTempDir('teg-profile-cli-');
    const bad = join(dir, 'acme.yaml');
    writeFileSync(
      bad,
      'name: acme\ntalker: SHOE\nframing: { end: "\\r" }\nmessages:\n  - { name: card, pattern: "C(?<code>\\\\d{4})", type: CARD }\n  - { name: hb, pattern: "H", type: HEARTBEAT }\n',
    );
    const r = await tablegw(['profile', 'check', bad]);
    expect(r.code).toBe(65);
    expect(r.stderr).toContain(`${bad}: invalid profile, 2 mistake(s)`);
    expect(r.stderr).toContain(`${bad}: messages.card.pattern: needs a named group "card"`);
    expect(r.stderr).toMatch(/messages\.hb\.type: /);
    const missing = await tablegw(['profile', 'check', 'acme-shoe-9000']);
    expect(missing.code).toBe(66);
    expect(missing.stderr).toContain('no shipped profile "acme-shoe-9000"');
    const notCapture = join(dir, 'not-a-capture.jsonl');
    writeFileSync(notCapture, 'hello\n');
    const nc = await tablegw(['profile', 'check', 'stx-etx-shoe', notCapture]);
    expect(nc.code).toBe(65);
    expect(nc.stderr).toContain(`${notCapture}: line 1: not a JSON line`);
    const usage = await tablegw(['profile', 'frobnicate']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('unknown subcommand "frobnicate"');
  }, 90_000);

  it('list: every shipped profile with its talker and description; --help documents the exit codes', async () => {
    const r = await tablegw(['profile', 'list']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^stx-etx-shoe +SHOE +RS-232 card shoe: STX/m);
    expect(r.stdout).toMatch(/^modbus-dice +DICE +Dice reader/m);
    const h = await tablegw(['profile', '--help']);
    expect(h.code).toBe(0);
    expect(h.stdout).toContain('65 the profile or the');
  }, 60_000);
});
