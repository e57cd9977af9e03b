/**
 * A profile's own copy of the streaming code has the settings that follow from its shape written
 * in as literals (profile-decoder.ts `copyText`): the statement that reads them is gone and no
 * `K_` name is left, for every corpus and shipped profile; and the constants are those of the
 * profile (a change of framing or check changes them).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS } from '../../../dev/corpus/index.js';
import { copyText, shapeConstants } from '../../../drivers/profiles/profile-decoder.js';
import { type DeviceProfile, loadProfileFile } from '../../../drivers/profiles/profile-schema.js';

const SHIPPED = join(import.meta.dirname, '../../../drivers/profiles/shipped');
const profiles: Array<[string, DeviceProfile]> = [
  ...CORPUS.map((e): [string, DeviceProfile] => [e.name, loadProfileFile(e.profilePath)]),
  ...readdirSync(SHIPPED)
    .filter((f) => f.endsWith('.yaml'))
    .map((f): [string, DeviceProfile] => [f, loadProfileFile(join(SHIPPED, f))]),
];

describe('shape constants written into a profile copy', () => {
  it.each(profiles)('%s: the copy reads no shape constant at run time', (_name, p) => {
    const text = copyText(shapeConstants(p));
    expect(text).not.toMatch(/streamShape/);
    expect(text).not.toMatch(/(?<![.\w$])K_\w+/);
    // and it still is a function text the engine compiles
    expect(() => new Function('__name', `'use strict'; return (${text});`)).not.toThrow();
  });

  it('the constants follow the profile: framing and check', () => {
    const table = profiles.find(([n]) => n === 'table-char-shoe')![1];
    const k = shapeConstants(table);
    expect(k).toMatchObject({ K_startLen: 1, K_start0: 0x3d, K_max: 16, K_csLen: 2, K_sepLen: 1, K_afterEnd: false, K_hasStuff: false, K_binary: false });
    const lrc = profiles.find(([n]) => n === 'stx-etx-lrc-shoe')![1];
    expect(shapeConstants(lrc)).toMatchObject({
      K_start0: 2,
      K_trailer: 1,
      K_csLen: 1,
      K_csBinary: true,
      K_afterEnd: true,
      K_payloadOnly: false,
      K_contiguous: true,
    });
  });
});
