/**
 * `tablegw profile check` / `profile list` as functions (src/app/tools/profile-check.ts): the gateway's
 * own schema and decoder on a profile and a capture, chunk by chunk, and the verdicts an installer
 * reads.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { shippedProfiles } from '../../../src/app/config/device-profiles.js';
import {
  checkProfile,
  decodeCapture,
  formatDecode,
  frameText,
  leadingComment,
  listShippedProfiles,
  rechunkCheck,
  verdict,
} from '../../../src/app/tools/profile-check.js';
import { cleanupTempDirs, makeTempDir } from '../../../dev/rig/temp-dir.js';

afterAll(cleanupTempDirs);

const chunk = (t: number, s: string) => ({ t, bytes: Buffer.from(s, 'latin1') });

function stxEtx() {
  const c = checkProfile('stx-etx-shoe');
  if (!c.ok) throw new Error(c.errors.join('\n'));
  return c.profile;
}

describe('checkProfile', () => {
  it('takes a shipped name or a path, and names every mistake with its key path', async () => {
    const ok = checkProfile('stx-etx-shoe');
    expect(ok).toMatchObject({ ok: true, file: 'drivers/profiles/shipped/stx-etx-shoe.yaml', profile: { name: 'stx-etx-shoe', talker: 'SHOE' } });
    const dir = await makeTempDir('teg-profile-');
    const bad = join(dir, 'bad.yaml');
    writeFileSync(
      bad,
      'name: bad\ntalker: SHOE\nframing: { start: "\\u0002" }\nintegrity: { algorithm: crc33, seperator: "*" }\nmessages:\n  - { name: card, pattern: "(?<seq>\\\\d+),C", type: CARD, seq: sq }\n',
    );
    const r = checkProfile(bad);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.code).toBe('profile-invalid');
    expect(r.errors).toEqual([
      `${bad}: framing: needs "end", "length", "lengthField" or (last resort) "idleMs"`,
      expect.stringMatching(new RegExp(`^${bad}: integrity\\.algorithm: `)),
      `${bad}: integrity.seperator: unknown key; did you mean separator?`,
      `${bad}: messages.card.pattern: needs a named group "card"`,
      `${bad}: messages.card.seq: names no group of the pattern ("sq")`,
    ]);
    const notYaml = join(dir, 'broken.yaml');
    writeFileSync(notYaml, 'name: [unclosed\n');
    expect(checkProfile(notYaml)).toMatchObject({ ok: false, code: 'profile-invalid', errors: [expect.stringMatching(/not valid YAML/)] });
    const empty = join(dir, 'empty.yaml');
    writeFileSync(empty, '');
    expect(checkProfile(empty)).toMatchObject({
      ok: false,
      code: 'profile-invalid',
      errors: [`${empty}: is empty, not a profile: a profile is a YAML mapping with name:, talker:, framing: and messages: (docs/DEVICES.md)`],
    });
    const scalar = join(dir, 'scalar.yaml');
    writeFileSync(scalar, 'hello\n');
    expect(checkProfile(scalar)).toMatchObject({ ok: false, errors: [expect.stringContaining(': is a string, not a profile')] });
    expect(checkProfile('no-such-profile')).toMatchObject({
      ok: false,
      code: 'profile-missing',
      errors: [expect.stringMatching(/^no shipped profile "no-such-profile" \(shipped: .*stx-etx-shoe/)],
    });
  });
});

describe('decodeCapture', () => {
  it('decodes chunk by chunk: a frame split over two chunks is one frame, at the time of its last chunk', () => {
    const r = decodeCapture(stxEtx(), [chunk(0, 'zz\x021,C,S_K*37\x03\x022,C,'), chunk(40.5, 'H_10*'), chunk(41, '00\x03\x023,L*')]);
    expect(r.items).toEqual([
      { t: 0, reject: { reason: 'noise', raw: 'zz' } },
      { t: 0, frame: { talker: 'SHOE', seq: 1, type: 'CARD', card: 'KS', rescan: false } },
      { t: 41, reject: { reason: 'bad-checksum', raw: '\\x022,C,H_10*00\\x03' } },
    ]);
    expect(r.summary).toEqual({ chunks: 3, bytes: 32, frames: 1, rejects: 2, framesByType: { CARD: 1 }, rejectsByReason: { noise: 1, 'bad-checksum': 1 } });
  });

  it('prints every frame and reject with its time, then the summary and the verdict', () => {
    const lines = formatDecode(decodeCapture(stxEtx(), [chunk(0, '\x021,C,S_K*37\x03'), chunk(1250, '\x022,HB*18\x03\x023,X*00\x03')]));
    expect(lines).toEqual([
      '   0 ms  frame   CARD seq=1 card=KS rescan=false',
      '1250 ms  frame   HB seq=2',
      '1250 ms  reject  bad-checksum  \\x023,X*00\\x03',
      '',
      '2 chunk(s), 29 byte(s)',
      'frames by type: CARD 1, HB 1',
      'rejects by reason: bad-checksum 1',
      '2 frames, 1 reject: rejects by reason: bad-checksum (1)',
    ]);
    expect(frameText({ talker: 'DICE', seq: 0, type: 'ROLL', dice: [1, 2, 3], bounces: 2 })).toBe('ROLL seq=0 dice=1,2,3 bounces=2');
  });

  it('says plainly when the profile does not match the device: all rejects, with the most common reason', () => {
    // a four-digit shoe's lines read with the STX/ETX profile, and with the right framing but the wrong checksum kind
    const fourDigit = Array.from({ length: 6 }, (_, i) => chunk(i * 100, `\x02C10${i}0,1B\x03`));
    const s = decodeCapture(stxEtx(), fourDigit).summary;
    expect(s.frames).toBe(0);
    expect(verdict(s)).toBe('0 frames, 6 rejects: this profile does not match what the device sends; most common: malformed (6)');
    const mixed = decodeCapture(stxEtx(), [chunk(0, 'garbage\x021,C,S_K*00\x03\x022,C,S_Q*00\x03')]).summary;
    expect(verdict(mixed)).toBe('0 frames, 3 rejects: this profile does not match what the device sends; most common: bad-checksum (2)');
    expect(formatDecode(decodeCapture(stxEtx(), fourDigit)).at(-1)).toBe(
      'hint: the check value is not where the profile says: look at integrity.separator, integrity.encoding and integrity.place, and framing.start',
    );
    expect(formatDecode(decodeCapture(stxEtx(), [chunk(0, '\x021,C,S_K*37\x03')])).at(-1)).toMatch(/^1 frame, 0 rejects/); // no hint when frames decode
    expect(verdict(decodeCapture(stxEtx(), [chunk(0, '\x021,C,S_K*37')]).summary)).toMatch(
      /^0 frames, 0 rejects: the capture holds no complete frame \(11 bytes\)/,
    );
    expect(verdict(decodeCapture(stxEtx(), []).summary)).toMatch(/the capture is empty/);
  });
});

describe('profile list', () => {
  it('lists every shipped profile with its talker and the first sentence of its leading comment', () => {
    const list = listShippedProfiles();
    expect(list.map((e) => e.name)).toEqual(shippedProfiles());
    expect(list.find((e) => e.name === 'stx-etx-shoe')).toMatchObject({
      talker: 'SHOE',
      description: 'RS-232 card shoe: STX <seq>,<code> ETX with an LRC as two hex digits after "*"',
    });
    expect(list.find((e) => e.name === 'modbus-dice')?.talker).toBe('DICE');
    for (const e of list) {
      expect(e.error).toBeUndefined();
      expect(e.description.length).toBeGreaterThan(10);
    }
    expect(leadingComment('# yaml-language-server: $schema=x\n# A shoe. More text.\n# And more.\nname: x\n# not this\n')).toBe('A shoe');
    expect(leadingComment('name: x\n')).toBe('');
  });
});

describe('profile check: warnings and the re-chunked decode', () => {
  it('warns about a profile without integrity, idle framing beside an end sequence, and v1 keys', async () => {
    expect(checkProfile('stx-etx-shoe')).toMatchObject({ ok: true, warnings: [] });
    expect(checkProfile('serial-scanner')).toMatchObject({ ok: true, warnings: [expect.stringMatching(/^integrity: none: a frame corrupted on the line/)] });
    const dir = await makeTempDir('teg-profile-');
    const v1 = join(dir, 'v1.yaml');
    writeFileSync(
      v1,
      'name: v1\ntalker: SHOE\nframing: { end: "\\r", idleMs: 30 }\nintegrity: { kind: xor8, format: hex, separator: "," }\nmessages:\n  - { name: card, pattern: "C(?<card>..)", type: CARD }\n',
    );
    const r = checkProfile(v1);
    expect(r.ok && r.warnings).toEqual([
      expect.stringMatching(/^framing\.idleMs: frames end by an end sequence, so the idle timeout is not used/),
      'integrity.kind (profile language v1) read as integrity.algorithm: xor8; write it so',
      'integrity.format (profile language v1) read as integrity.encoding: hex; write it so',
    ]);
  });

  it('decodes the capture again byte by byte, cut at random and all at once: the same items', () => {
    const p = stxEtx();
    const frame = (seq: number, card: string) => {
      const body = `${seq},C,${card}`;
      let v = 0;
      for (const c of body) v = (v + c.charCodeAt(0)) & 0xff;
      return `\x02${body}*${((0x100 - v) & 0xff).toString(16).toUpperCase().padStart(2, '0')}\x03`;
    };
    const chunks = [
      chunk(0, `xx${frame(1, 'S_K')}${frame(2, 'H_10')}`.slice(0, 9)),
      chunk(5, `xx${frame(1, 'S_K')}${frame(2, 'H_10')}`.slice(9)),
      chunk(9, `\x02garbage${frame(3, 'C_2')}`),
    ];
    const asArrived = decodeCapture(p, chunks);
    expect(asArrived.summary.frames).toBe(3);
    const r = rechunkCheck(p, chunks, asArrived);
    expect(r).toEqual({ variants: ['1-byte chunks', 'random cuts', 'the whole capture at once'], same: true });
    // a profile whose frames end by silence keeps the silences: no "all at once"
    const idle = checkProfile('serial-scanner');
    if (!idle.ok) throw new Error('serial-scanner');
    const idleProfile = { ...idle.profile, framing: { ...idle.profile.framing, end: undefined, idleMs: 20 } };
    const c2 = [chunk(0, 'H1'), chunk(5, '0'), chunk(40, 'SA'), chunk(90, 'D')];
    const d2 = decodeCapture(idleProfile, c2);
    expect(d2.items.map((i) => ('frame' in i ? i.frame.type : i.reject.reason))).toEqual(['CARD', 'CARD', 'unknown-type']);
    expect(rechunkCheck(idleProfile, c2, d2)).toEqual({ variants: ['1-byte chunks', 'random cuts'], same: true });
  });
});
