/**
 * docs/DEVICES.md "Write a profile for your device" cannot rot: its profile and config are the
 * files in docs/examples/, the config validates (profile included), and every output it shows is
 * what the real command prints for the example capture — the frames exactly, the first-try
 * verdict, the lines of the serial-scanner view.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { validateConfig } from '../../src/app/config/load-config.js';
import { readCaptureFile } from '../../src/app/tools/capture-file.js';
import { checkProfile, decodeCapture, formatDecode, verdict } from '../../src/app/tools/profile-check.js';

const ROOT = join(import.meta.dirname, '..', '..');
const EXAMPLES = join(ROOT, 'docs', 'examples');
const example = (f: string) => readFileSync(join(EXAMPLES, f), 'utf8');

const devices = readFileSync(join(ROOT, 'docs', 'DEVICES.md'), 'utf8');
const guide = devices.slice(devices.indexOf('### Write a profile for your device'), devices.indexOf('### Keys and the decisions the spec leaves open'));
/** the fenced blocks of the guide, in order */
const blocks = [...guide.matchAll(/```(\w*)\n([\s\S]*?)\n```/g)].map((m) => ({ lang: m[1], text: m[2] }));
const blockStarting = (first: string) => {
  const b = blocks.find((x) => x.text.startsWith(first));
  if (!b) throw new Error(`no block starting with "${first}" in the guide`);
  return b.text;
};

function tablegw(args: string[], cwd: string): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'app', 'cli', 'main.ts'), ...args], {
    cwd,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.on('data', (b: Buffer) => {
    stdout += b.toString();
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout })));
}

function exampleProfile() {
  const c = checkProfile(join(EXAMPLES, 'acme-shoe.yaml'));
  if (!c.ok) throw new Error(c.errors.join('\n'));
  return c.profile;
}

describe('the profile guide in docs/DEVICES.md', () => {
  it('shows the example profile and config files as they are', () => {
    expect(guide.length).toBeGreaterThan(1000);
    expect(blockStarting('# yaml-language-server: $schema=../profile.schema.json\n# Acme DS-3')).toBe(example('acme-shoe.yaml').trimEnd());
    expect(blockStarting('# yaml-language-server: $schema=../config.schema.json')).toBe(example('acme-table.yaml').trimEnd());
  });

  it('its config validates, with its profile, once the profile is where the guide copies it', () => {
    const text = example('acme-table.yaml');
    expect(text).toContain('profile: /etc/tablegw/profiles/acme-shoe.yaml');
    const cfg = validateConfig(parse(text.replace('/etc/tablegw/profiles/acme-shoe.yaml', join(EXAMPLES, 'acme-shoe.yaml'))), 'acme-table.yaml');
    const shoe = cfg.tables[0].devices[0];
    expect(shoe).toMatchObject({ id: 'shoe-1', kind: 'card-shoe', profile: join(EXAMPLES, 'acme-shoe.yaml'), transport: { type: 'serial', baudRate: 9600 } });
    // and the same config with a broken profile is refused with both key paths
    expect(() =>
      validateConfig(parse(text.replace('/etc/tablegw/profiles/acme-shoe.yaml', join(ROOT, 'drivers', 'profiles', 'shipped', 'modbus-dice.yaml')))),
    ).toThrow(/tables\[0\]\.devices\[0\]\.profile: profile "modbus-dice" speaks DICE, a card-shoe needs SHOE/);
  });

  it('prints exactly the check output the guide shows: every frame, both rejects, the summary', async () => {
    const shown = blockStarting('tablegw profile check acme-shoe.yaml acme-shoe.capture.jsonl\n').split('\n');
    const r = await tablegw(['profile', 'check', 'acme-shoe.yaml', 'acme-shoe.capture.jsonl'], EXAMPLES);
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd()).toBe(shown.slice(1).join('\n'));
    // the frames it shows are the shoe's: loaded, heartbeats, six cards (one the rescan of a misread), the cut card
    const frames = decodeCapture(exampleProfile(), readCaptureFile(join(EXAMPLES, 'acme-shoe.capture.jsonl')).chunks).items.flatMap((i) =>
      'frame' in i ? [i.frame] : [],
    );
    expect(frames.map((f) => (f.type === 'CARD' ? `${f.card}${f.rescan ? ' rescan' : ''}` : f.type))).toEqual([
      'STATE',
      'HB',
      '7H',
      'KS',
      'MISREAD',
      'TD rescan',
      'QD',
      'HB',
      'CUT',
      'JC',
      '5S',
    ]);
    expect(frames.map((f) => f.seq)).toEqual([0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11]);
  }, 60_000);

  it('shows the real first-try verdict, the serial-scanner view and the capture lines', () => {
    const capture = readCaptureFile(join(EXAMPLES, 'acme-shoe.capture.jsonl'));
    const xor = { ...exampleProfile(), integrity: { ...exampleProfile().integrity, algorithm: 'xor8' as const } };
    const firstTry = formatDecode(decodeCapture(xor, capture.chunks));
    expect(firstTry.at(-2)).toBe(verdict(decodeCapture(xor, capture.chunks).summary));
    expect(blockStarting('0 frames, 13 rejects:')).toBe(firstTry.slice(-2).join('\n'));

    const scanner = checkProfile('serial-scanner');
    if (!scanner.ok) throw new Error('serial-scanner does not load');
    const real = formatDecode(decodeCapture(scanner.profile, capture.chunks));
    const excerpt = blockStarting('tablegw profile check serial-scanner acme-shoe.capture.jsonl\n')
      .split('\n')
      .slice(1)
      .filter((l) => l.trim() !== '...');
    expect(excerpt.length).toBeGreaterThan(4);
    expect(real.slice(0, excerpt.length)).toEqual(excerpt);

    const lines = example('acme-shoe.capture.jsonl').split('\n');
    expect(blockStarting('{"t":')).toBe(lines.slice(1, 3).join('\n'));
  });
});
