/**
 * Every shipped profile under random bytes and random chunking (fast-check): the decoder never
 * throws, yields only well-formed frames (no partial card, every field in range) or rejects with a
 * stable reason, and — for byte streams — the same output whatever the chunking.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DeviceFrame, FrameReject, RejectReason } from '../../../src/core/vocabulary/frames.js';
import { SHOE_STATES } from '../../../drivers/codecs/shoe-codec.js';
import { SHUFFLER_STATES } from '../../../drivers/codecs/shuffler-codec.js';
import { compileProfile } from '../../../drivers/profiles/profile-decoder.js';
import { type DeviceProfile, loadProfileFile } from '../../../drivers/profiles/profile-schema.js';
import { isCard } from '../../../src/core/vocabulary/card.js';
import { splitAt } from '../../helpers/chunks.js';

const RUNS = Number(process.env.FC_RUNS ?? 1000);
const DIR = join(__dirname, '../../../drivers/profiles/shipped');
const NAMES = readdirSync(DIR)
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => f.slice(0, -5))
  .sort();
const REASONS: RejectReason[] = ['noise', 'too-long', 'bad-checksum', 'malformed', 'unknown-talker', 'unknown-type', 'bad-field'];

type Item = DeviceFrame | FrameReject;
const int = (x: unknown, lo: number, hi: number) => Number.isInteger(x) && (x as number) >= lo && (x as number) <= hi;

/** A list of what is wrong with an item; empty when it is a complete frame or a proper reject. */
function problems(p: DeviceProfile, it: Item): string[] {
  if ('reason' in it) return REASONS.includes(it.reason) && typeof it.raw === 'string' && !('type' in it) ? [] : [`bad reject ${JSON.stringify(it)}`];
  const bad: string[] = [];
  if (it.talker !== p.talker) bad.push('talker');
  if (!int(it.seq, 0, 65535)) bad.push('seq');
  switch (it.type) {
    case 'CARD':
      if (typeof it.card !== 'string' || !isCard(it.card) || typeof it.rescan !== 'boolean') bad.push('card');
      break;
    case 'ROLL':
      if (it.dice.length !== 3 || !it.dice.every((d) => int(d, 1, 6)) || !int(it.bounces, 0, 99)) bad.push('roll');
      break;
    case 'BALL':
      if (!int(it.ball, 0, 999)) bad.push('ball');
      break;
    case 'COUNT':
      if (!int(it.count, 0, 999)) bad.push('count');
      break;
    case 'STATE':
      if (!SHOE_STATES.includes(it.state)) bad.push('state');
      break;
    case 'SHUF_STATE':
      if (!SHUFFLER_STATES.includes(it.state)) bad.push('state');
      break;
    case 'TAG':
      if (!it.uid || it.uid !== it.uid.toUpperCase()) bad.push('uid');
      break;
    case 'ERR':
      if (typeof it.code !== 'string' || typeof it.text !== 'string') bad.push('err');
      break;
    case 'VER':
      if (
        typeof it.model !== 'string' ||
        typeof it.firmware !== 'string' ||
        (it.capabilities !== undefined && !it.capabilities.every((c) => typeof c === 'string' && c !== ''))
      )
        bad.push('ver');
      break;
    case 'HB':
    case 'MISREAD':
    case 'CUT':
    case 'DROP':
    case 'SHAKE':
    case 'COCKED':
    case 'NOREAD':
    case 'START':
    case 'END':
      break;
    default:
      bad.push(`type ${(it as { type: string }).type}`);
  }
  return bad;
}

describe.each(NAMES)('fuzz: shipped profile %s', (name) => {
  const profile = loadProfileFile(join(DIR, `${name}.yaml`));
  const f = profile.framing;
  const special = Buffer.from(
    `${f.start ?? ''}${f.end ?? ''}${f.acceptEnd.join('')}${profile.integrity.separator ?? ''}0123456789ABCDEFabcdef,;*_$\r\n\u0002\u0003\u00aaSHDCRBTK`,
    'latin1',
  );
  const byteArb = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(...special));
  const dataArb = fc.array(byteArb, { maxLength: 400 }).map((a) => Buffer.from(a));
  const cutsArb = fc.array(fc.nat(), { maxLength: 20 });

  it('never throws; only complete frames or stable rejects; any chunking gives the same output', () => {
    fc.assert(
      fc.property(dataArb, cutsArb, cutsArb, fc.boolean(), (data, a, b, idle) => {
        const one = compileProfile(profile);
        const two = compileProfile(profile);
        const outA: Item[] = [];
        const outB: Item[] = [];
        if (profile.input === 'bytes') {
          for (const c of splitAt(data, a)) outA.push(...one.push(c));
          for (const c of splitAt(data, b)) outB.push(...two.push(c));
          if (idle) {
            outA.push(...one.flushIdle());
            outB.push(...two.flushIdle());
          }
          expect(outB).toEqual(outA);
        } else {
          // HID: chunks are reports (whole or not)
          for (const c of splitAt(data, a)) outA.push(...one.push(c), ...one.flushIdle());
        }
        for (const it of outA) expect(problems(profile, it), JSON.stringify(it)).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  });
});
