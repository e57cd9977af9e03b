/**
 * Two steps of the learner on their own: which repeating body is the heartbeat when several
 * repeat as often (learn/heartbeat.ts), and verify() holding a candidate to the heartbeats too (a
 * profile whose card pattern takes the heartbeat's frame decodes the script's events right but
 * rejects the heartbeats: it must not be written).
 */
import { describe, expect, it } from 'vitest';
import { validateProfile } from '../../../drivers/profiles/profile-schema.js';
import { buildCapture, CORPUS } from '../../../dev/corpus/index.js';
import { parseCapture } from '../../../src/app/tools/capture-file.js';
import { pickHeartbeat } from '../../../src/app/tools/learn/heartbeat.js';
import { eventKey, parseScript, type ScriptEvent } from '../../../src/app/tools/learn/script.js';
import { verify } from '../../../src/app/tools/learn/verify.js';

const events = (text: string): ScriptEvent[] => {
  const r = parseScript(text);
  if (!r.ok) throw new Error(r.reason);
  return r.events;
};
const constant = (e: ScriptEvent): string | undefined => (e.type === 'COUNT' || e.type === 'CARD' ? undefined : eventKey(e));

describe('pickHeartbeat', () => {
  it('of two bodies that repeat as often, takes the one that leaves the frames lining up with the script', () => {
    // IDLE, HB, SHUFFLING, COUNT, READY, HB, JAM, IDLE: "IDL" and "HB" both twice; IDL as the heartbeat would make HB both IDLE and JAM
    const keys = ['IDL', 'HB', 'SHF', 'CNT=52', 'RDY', 'HB', 'JAM', 'IDL'];
    const ev = events('SHUF:IDLE SHUF:SHUFFLING COUNT:52 SHUF:READY SHUF:JAM SHUF:IDLE');
    expect(pickHeartbeat(['IDL', 'HB'], keys, ev, constant)).toBe('HB');
    expect(pickHeartbeat(['HB', 'IDL'], keys, ev, constant)).toBe('HB');
  });
  it('with none that lines up, the first (the alignment then fails with its own reason)', () => {
    const keys = ['A', 'B', 'A', 'B'];
    expect(pickHeartbeat(['A', 'B'], keys, events('SHUF:IDLE SHUF:READY'), constant)).toBe('A');
  });
});

describe('verify with the heartbeats', () => {
  const e = CORPUS.find((x) => x.name === 'ascii-crlf-shoe')!;
  const built = buildCapture(e);
  const chunks = parseCapture(built.text, e.name).chunks;
  const want = events(built.script).map(eventKey);
  const heartbeats = built.expected.filter((x) => x.startsWith('HB')).length;
  const profile = (cardFirst: boolean) => {
    // a card pattern of only the codes dealt (two characters: no ten)
    const card = { name: 'card', pattern: 'S(?<seq>\\d{1,5}):(?<card>[0-9A-Z]{2})', type: 'CARD', seq: 'seq' };
    const rest = [
      { name: 'loaded', pattern: 'S(?<seq>\\d{1,5}):NEW', type: 'STATE', fields: { state: 'LOADED' }, seq: 'seq' },
      { name: 'misread', pattern: 'S(?<seq>\\d{1,5}):\\?\\?', type: 'MISREAD', seq: 'seq' },
      { name: 'heartbeat', pattern: 'S(?<seq>\\d{1,5}):HB', type: 'HB', seq: 'seq' },
    ];
    return validateProfile('p', {
      name: 'p',
      talker: 'SHOE',
      framing: { end: '\r\n', maxLength: 32 },
      integrity: { algorithm: 'xor8', encoding: 'hex', separator: '*' },
      cards: { preset: 'rank-suit' },
      messages: cardFirst ? [card, ...rest] : [...rest, card],
    });
  };

  it('a profile whose card pattern takes the heartbeats fails: it decodes the events, not the heartbeats', () => {
    expect(heartbeats).toBe(3);
    expect(verify(profile(true), chunks, want).ok).toBe(true);
    const v = verify(profile(true), chunks, want, heartbeats);
    expect(v.ok).toBe(false);
    expect(v.problem).toBe('decodes 0 heartbeats where 3 frames repeat while idle');
  });
  it('the same messages with the fixed ones first pass', () => {
    expect(verify(profile(false), chunks, want, heartbeats)).toMatchObject({ ok: true });
  });
});
