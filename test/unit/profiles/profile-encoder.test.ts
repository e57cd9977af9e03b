/**
 * The profile encoder is the decoder's inverse: for every shipped profile and every message, a
 * frame encoded with the message's `emit` template and decoded by compileProfile is the same frame
 * (many random values). Templates that cannot match their pattern are caught, not sent.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DeviceFrame } from '../../../src/core/vocabulary/frames.js';
import { cardDecoder, type CardCodeOptions } from '../../../drivers/profiles/card-codes.js';
import { compileProfile } from '../../../drivers/profiles/profile-decoder.js';
import {
  cardSpellings,
  createProfileEncoder,
  emitTemplateProblems,
  ProfileEncodeError,
  type EncodableFrame,
} from '../../../drivers/profiles/profile-encoder.js';
import { loadProfileFile, validateProfile, type DeviceProfile } from '../../../drivers/profiles/profile-schema.js';
import { RANKS, SUITS } from '../../../src/core/vocabulary/card.js';

const SHIPPED = join(import.meta.dirname, '../../../drivers/profiles/shipped');
const shipped = readdirSync(SHIPPED)
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => loadProfileFile(join(SHIPPED, f)));
const ALL_CARDS = RANKS.flatMap((r) => SUITS.map((s) => r + s));

const card = fc.constantFrom(...ALL_CARDS);
const seq = fc.integer({ min: 0, max: 65535 });
const SHOE_STATES = ['LOADED', 'OPEN', 'CLOSED', 'EMPTY'] as const;
const SHUF_STATES = ['IDLE', 'SHUFFLING', 'READY', 'JAM', 'DOOR_OPEN', 'ERROR'] as const;

/** random frames one message of a profile can say (its constant fields fixed) */
function framesOf(m: DeviceProfile['messages'][number]): fc.Arbitrary<EncodableFrame> {
  const f = m.fields;
  switch (m.type) {
    case 'CARD':
      return card.map((c) => ({ type: 'CARD', card: c, rescan: f.rescan === true }));
    case 'BALL':
      return fc.integer({ min: 1, max: 80 }).map((ball) => ({ type: 'BALL', ball }));
    case 'COUNT':
      return fc.integer({ min: 0, max: 999 }).map((count) => ({ type: 'COUNT', count }));
    case 'TAG':
      return fc.stringMatching(/^[0-9A-F]{8,24}$/).map((uid) => ({ type: 'TAG', uid }));
    case 'ROLL':
      return fc
        .tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 99 }))
        .map(([a, b, c, n]) => ({ type: 'ROLL', dice: [a, b, c], bounces: f.bounces !== undefined ? Number(f.bounces) : n }));
    case 'STATE':
      return fc.constantFrom(...(f.state !== undefined ? [String(f.state)] : SHOE_STATES)).map((state) => ({ type: 'STATE', state }) as EncodableFrame);
    case 'SHUF_STATE':
      return fc.constantFrom(...(f.state !== undefined ? [String(f.state)] : SHUF_STATES)).map((state) => ({ type: 'SHUF_STATE', state }) as EncodableFrame);
    case 'VER':
      return fc
        .tuple(fc.stringMatching(/^[A-Za-z0-9._-]{1,16}$/), fc.stringMatching(/^[A-Za-z0-9._-]{1,16}$/))
        .map(([model, firmware]) => ({ type: 'VER', model, firmware }));
    case 'ERR':
      return fc.tuple(fc.stringMatching(/^[A-Z0-9_]{1,16}$/), fc.stringMatching(/^[a-z ]{0,20}$/)).map(([code, text]) => ({ type: 'ERR', code, text }));
    default:
      return fc.constant({ type: m.type } as EncodableFrame);
  }
}

describe('profile encoder', () => {
  it('there are shipped profiles, and every message of each has an emit template', () => {
    expect(shipped.length).toBeGreaterThanOrEqual(5);
    for (const p of shipped) for (const m of p.messages) expect(m.emit, `${p.name}.${m.name}`).toBeDefined();
  });

  for (const p of shipped) {
    for (const m of p.messages) {
      it(`${p.name}, message ${m.name}: encode then decode gives the frame back`, () => {
        const encoder = createProfileEncoder(p);
        fc.assert(
          fc.property(framesOf(m), seq, (frame, n) => {
            const bytes = encoder.encode({ ...frame, seq: n });
            const out = compileProfile(p).push(bytes);
            const want: DeviceFrame = { ...frame, talker: p.talker, seq: m.seq ? n : 0 } as DeviceFrame;
            expect(out).toEqual([want]);
          }),
          { numRuns: 200 },
        );
      });
    }
  }

  it('several frames back to back decode in order (framing resets between them)', () => {
    for (const p of shipped) {
      const encoder = createProfileEncoder(p);
      const frames = p.messages.map((m) => fc.sample(framesOf(m), 1)[0]);
      const out = compileProfile(p).push(Buffer.concat(frames.map((f, i) => encoder.encode({ ...f, seq: i }))));
      expect(
        out.map((f) => ('reason' in f ? f.reason : f.type)),
        p.name,
      ).toEqual(frames.map((f) => f.type));
    }
  });

  it('a frame the profile has no message for is refused with a clear error', () => {
    const keno = createProfileEncoder(shipped.find((p) => p.name === 'star-keno')!);
    expect(keno.canEncode({ type: 'HB' })).toBe(false);
    expect(() => keno.encode({ type: 'HB' })).toThrow(ProfileEncodeError);
    expect(() => keno.encode({ type: 'HB' })).toThrow(/no message with an emit template says HB/);
  });

  it('a rescan CARD uses the rescan message when there is one, the card message otherwise (the R is lost)', () => {
    const stx = shipped.find((p) => p.name === 'stx-etx-shoe')!;
    const four = shipped.find((p) => p.name === 'four-digit-shoe')!;
    expect(createProfileEncoder(stx).body({ type: 'CARD', card: 'TD', rescan: true, seq: 7 })).toBe('7,R,D_10');
    expect(createProfileEncoder(stx).body({ type: 'CARD', card: 'TD', rescan: false, seq: 7 })).toBe('7,C,D_10');
    expect(createProfileEncoder(four).body({ type: 'CARD', card: 'KH', rescan: true })).toBe('C2130');
  });

  it('a template whose rendering does not match its pattern is caught, naming the profile and message', () => {
    const p = validateProfile('bad.yaml', {
      name: 'bad',
      talker: 'SHOE',
      framing: { end: '\r' },
      messages: [{ name: 'card', pattern: 'C(?<card>[SHDC]_(?:10|[2-9AJQK]))', type: 'CARD', emit: 'C{card}!' }],
      cards: { preset: 'suit_rank' },
    });
    expect(() => createProfileEncoder(p).encode({ type: 'CARD', card: 'AS', rescan: false })).toThrow(
      /bad: the rendered body does not match its message's pattern \(card: "CS_A!"/,
    );
    const q = validateProfile('q.yaml', {
      name: 'q',
      talker: 'BALL',
      framing: { end: '\r' },
      messages: [{ name: 'ball', pattern: 'B(?<ball>\\d+)', type: 'BALL', emit: 'B{number}' }],
    });
    expect(() => createProfileEncoder(q).encode({ type: 'BALL', ball: 3 })).toThrow(/names \{number\}/);
  });

  it('the template self-test: every shipped template says every value; a template that cannot is named with its first failing value', () => {
    for (const p of shipped) expect(emitTemplateProblems(p), p.name).toEqual([]);
    const p = validateProfile('half.yaml', {
      name: 'half',
      talker: 'SHOE',
      framing: { end: '\r' },
      cards: { preset: 'rank-suit' },
      // the pattern takes only T for tens, the emit is fine; the misread emit has a typo
      messages: [
        { name: 'card', pattern: 'C(?<card>[2-9TJQKA][SHDC])', type: 'CARD', emit: 'C{card}' },
        { name: 'misread', pattern: 'M', type: 'MISREAD', emit: 'MM' },
        { name: 'seqd', pattern: '(?<n>\\d{1,3}),H', type: 'HB', seq: 'n', emit: '{seq},H' },
      ],
    });
    const problems = emitTemplateProblems(p);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^messages\.misread\.emit: .*"MM"/);
    expect(problems[1]).toMatch(/^messages\.seqd\.emit: .*"65535,H"/);
    // renders and matches its own pattern, but the decoder reads it otherwise
    const q = validateProfile('shadow.yaml', {
      name: 'shadow',
      talker: 'BALL',
      framing: { start: '*', end: '\r' },
      messages: [
        { name: 'any', pattern: '.*', type: 'START', emit: 'S' },
        { name: 'ball', pattern: 'B(?<ball>\\d+)', type: 'BALL', emit: 'B{ball}' },
        { name: 'end', pattern: 'E\\*', type: 'END', emit: 'E*' },
      ],
    });
    expect(emitTemplateProblems(q)).toEqual([
      'messages.ball.emit: "*B1\\r" decodes as START, not BALL',
      'messages.end.emit: "*E*\\r" decodes as malformed, START, not END',
    ]);
  });

  it('a frame that does not fit the fixed length is refused', () => {
    const p = validateProfile('f.yaml', {
      name: 'f',
      talker: 'BALL',
      framing: { length: 4 },
      messages: [{ name: 'ball', pattern: 'B(?<ball>\\d+)', type: 'BALL', emit: 'B{ball}' }],
    });
    const e = createProfileEncoder(p);
    expect(e.encode({ type: 'BALL', ball: 123 })).toEqual(Buffer.from('B123'));
    expect(() => e.encode({ type: 'BALL', ball: 7 })).toThrow(/a frame is 4 bytes, this one would be 2/);
  });

  it('downlinks: the template framed and checked like the uplink, {seq} counting, {from} filled; none = null', () => {
    const stx = createProfileEncoder(shipped.find((p) => p.name === 'stx-etx-shoe')!);
    // LRC written here: two's complement of the byte sum
    const lrc = (s: string) => ((256 - ([...s].reduce((a, c) => a + c.charCodeAt(0), 0) % 256)) % 256).toString(16).toUpperCase().padStart(2, '0');
    expect(stx.command('rescan')!.toString('latin1')).toBe(`\u00020,RS*${lrc('0,RS')}\u0003`);
    expect(stx.command('lock')!.toString('latin1')).toBe(`\u00021,LK*${lrc('1,LK')}\u0003`);
    expect(stx.command('repeat', { from: 42 })!.toString('latin1')).toBe(`\u00022,RP,42*${lrc('2,RP,42')}\u0003`);
    expect(createProfileEncoder(shipped.find((p) => p.name === 'four-digit-shoe')!).command('rescan')).toBeNull();
  });

  it('binary profiles: checksum bytes low first, over the body only', () => {
    const dice = createProfileEncoder(shipped.find((p) => p.name === 'modbus-dice')!);
    const b = dice.encode({ type: 'ROLL', dice: [6, 5, 4], bounces: 0 });
    expect([...b.subarray(0, 5)]).toEqual([0xaa, 0x01, 0x06, 0x05, 0x04]);
    let crc = 0xffff;
    for (const x of [1, 6, 5, 4]) {
      crc ^= x;
      for (let i = 0; i < 8; i++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
    }
    expect([b[5], b[6]]).toEqual([crc & 0xff, crc >> 8]);
  });

  it('every card preset: every spelling of every card decodes to that card', () => {
    const presets: CardCodeOptions[] = [
      { preset: 'rank-suit' },
      { preset: 'suit-rank' },
      { preset: 'suit_rank' },
      { preset: 'four-digit' },
      { preset: 'index52' },
      { preset: 'index52', suitOrder: ['C', 'D', 'H', 'S'] },
      {
        preset: 'custom',
        order: 'rank-suit',
        ranks: {
          '01': 'A',
          '02': '2',
          '03': '3',
          '04': '4',
          '05': '5',
          '06': '6',
          '07': '7',
          '08': '8',
          '09': '9',
          '10': 'T',
          '11': 'J',
          '12': 'Q',
          '13': 'K',
        },
        suits: { s: 'S', h: 'H', d: 'D', c: 'C' },
      },
      {
        preset: 'custom',
        order: 'suit-rank',
        ranks: { A: 'A', '2': '2', '3': '3', '4': '4', '5': '5', '6': '6', '7': '7', '8': '8', '9': '9', X: 'T', B: 'J', D: 'Q', K: 'K' },
        suits: { P: 'S', C: 'H', K: 'D', T: 'C' },
      },
    ];
    for (const o of presets) {
      const decode = cardDecoder(o);
      const seen = new Set<string>();
      for (const c of ALL_CARDS) {
        const spellings = cardSpellings(c, o);
        expect(spellings.length, `${o.preset} ${c}`).toBeGreaterThan(0);
        for (const s of spellings) {
          expect(decode(s), `${o.preset}: ${s}`).toBe(c);
          seen.add(s);
        }
      }
      expect(seen.size, o.preset).toBeGreaterThanOrEqual(52);
    }
    expect(cardSpellings('AS', { preset: 'four-digit' })).toEqual(['1010']);
    expect(cardSpellings('KC', { preset: 'four-digit' })).toEqual(['3130']);
    expect(cardSpellings('AC', { preset: 'index52', suitOrder: ['C', 'D', 'H', 'S'] })).toEqual(['1', '01']);
  });
});
