/**
 * The step machine of `tablegw learn` (src/app/tools/learn-guide.ts), without a terminal or a
 * port: bytes, ticks and typed lines in, prompts, script lines and learner requests out. One
 * session runs the real learner on bytes a shipped profile's encoder wrote.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadProfileFile } from '../../../drivers/profiles/profile-schema.js';
import { profileWire } from '../../../simulators/devices/wire.js';
import {
  GUIDE_DEFAULTS,
  type GuideInput,
  type GuideOptions,
  type GuideOutput,
  type GuideState,
  guideStep,
  initialGuide,
  learnVariants,
  parseTyped,
  scriptVariants,
} from '../../../src/app/tools/learn-guide.js';
import { type LearnResult, learnProfile } from '../../../src/app/tools/profile-learn.js';
import type { CaptureChunk } from '../../../src/app/tools/capture-file.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');

/** drives the machine like the command does; `learn` requests are answered by `learner` */
function session(o: GuideOptions, learner?: (scripts: string[]) => LearnResult | { script: string; result: LearnResult }) {
  let state: GuideState = initialGuide();
  const outputs: GuideOutput[] = [];
  const chunks: CaptureChunk[] = [];
  let now = 0;
  const feed = (input: GuideInput): void => {
    const step = guideStep(o, state, input);
    state = step.state;
    for (const out of step.outputs) {
      outputs.push(out);
      if (out.type === 'learn' && learner) {
        const r = learner(out.scripts);
        feed({ type: 'learned', outcome: 'result' in r ? r : { script: out.scripts[0], result: r }, now });
      }
    }
  };
  return {
    feed,
    outputs,
    chunks,
    state: () => state,
    said: () =>
      outputs
        .filter((x) => x.type === 'say')
        .map((x) => x.text)
        .join('\n'),
    script: () => outputs.flatMap((x) => (x.type === 'script' ? [x.line] : [])),
    /** time passes in ticks of 20 ms */
    wait(ms: number): void {
      for (const end = now + ms; now < end; ) {
        now += 20;
        feed({ type: 'tick', now });
      }
    },
    /** bytes arrive (one chunk), then some silence */
    hear(bytes: Uint8Array, ms = 100): void {
      chunks.push({ t: now, bytes: Buffer.from(bytes) });
      feed({ type: 'bytes', t: now, bytes });
      this.wait(ms);
    },
    type(text: string): void {
      feed({ type: 'line', text, now });
    },
    finished: () => outputs.find((x) => x.type === 'finish'),
  };
}

const shoe = (): GuideOptions => ({ ...GUIDE_DEFAULTS, kind: 'card-shoe', idleMs: 1000 });
const failed: LearnResult = { exit: 1, status: 'failed', code: 'no-profile', reason: 'no profile of the grammar decodes the capture', closest: [] };

describe('the guide: steps and prompts', () => {
  it('idle first, then load, then deal; each burst of bytes is one hex row; lines during the idle wait', () => {
    const s = session(shoe());
    s.feed({ type: 'start', now: 0 });
    expect(s.said()).toContain('Leave the shoe idle for 1 s');
    s.type('AS');
    expect(s.said()).toContain('Wait: the shoe stays idle for 1 s first.');
    // a frame cut in two chunks 2 ms apart is one burst: one row
    s.feed({ type: 'bytes', t: 100, bytes: Buffer.from('\x021,H', 'latin1') });
    s.feed({ type: 'bytes', t: 102, bytes: Buffer.from('\x03V', 'latin1') });
    s.wait(400);
    s.hear(Buffer.from('\x022,H\x03U', 'latin1'));
    s.wait(600);
    const rows = s.outputs.filter((x) => x.type === 'say' && x.text.startsWith('  heard '));
    expect(rows.map((x) => (x as { text: string }).text)).toEqual([
      '  heard      1       100.0           00000000  02 31 2c 48 03 56                                .1,H.V',
      expect.stringMatching(/^ {2}heard {6}2 +\d+\.0 +\+\d+ {2}00000006 {2}02 32 2c 48 03 55 +\.2,H\.U$/),
    ]);
    expect(s.said()).toContain('Heard 2 frame(s) while idle.');
    expect(s.said()).toContain('Load the shoe');
    expect(s.state().phase).toBe('load');
    s.type('what');
    expect(s.said()).toContain('Press Enter once the shoe is loaded, or type skip.');
    s.type('');
    expect(s.state().phase).toBe('deal');
    expect(s.script()).toEqual(['LOADED   # or nothing, if the device did not report it so']);
    expect(s.said()).toContain('Deal the cards one by one');
  });

  it('a device that never pauses: a burst ends after MAX_BURST bytes', () => {
    const s = session(shoe());
    s.feed({ type: 'start', now: 0 });
    for (let t = 0; t < 60; t++) s.feed({ type: 'bytes', t, bytes: new Uint8Array(10).fill(0x41) });
    s.wait(100);
    const groups = s.outputs.filter((x) => x.type === 'say' && x.text.startsWith('  heard '));
    // 600 bytes in 10-byte chunks: 260 + 260 + 80
    expect(groups.map((g) => (g as { text: string }).text.split('\n').length)).toEqual([17, 17, 5]);
    expect(s.state().bytes).toBe(600);
  });

  it('a silent idle device is told as such and the guide goes on', () => {
    const s = session({ ...GUIDE_DEFAULTS, kind: 'dice-sensor', idleMs: 200 });
    s.feed({ type: 'start', now: 0 });
    s.wait(300);
    expect(s.said()).toContain('Nothing heard while idle (some devices stay silent when idle');
    // no load step for dice
    expect(s.state().phase).toBe('deal');
    expect(s.said()).toContain('Roll the dice');
  });

  it('cards typed as printed (10H, TD, ks, several to a line), undo, bad tokens; the count of frames heard since the entry before', () => {
    const s = session(shoe());
    s.feed({ type: 'start', now: 0 });
    s.wait(1000);
    s.type('skip');
    s.hear(Buffer.from('x'));
    s.type('10H');
    s.type('TD, ks');
    expect(s.said()).toContain('10H (cards so far: 1; 1 frame(s) heard since the entry before)');
    expect(s.said()).toContain('TD ks (cards so far: 3; 0 frame(s) heard since the entry before): nothing came from the shoe, was it read?');
    s.type('QX');
    expect(s.said()).toContain('Not understood: "QX": not a card (AS, 10H, TD, 7C)');
    s.type('undo');
    expect(s.said()).toContain('Took back ks.');
    s.type('MISREAD');
    s.type('7d');
    s.type('cut');
    expect(s.script()).toEqual([
      'TH',
      'TD',
      'KS',
      '# undo ks',
      'MISREAD',
      'RESCAN:7D   # or 7D, if the device did not report it so',
      'CUT   # or nothing, if the device did not report it so',
    ]);
  });

  it('cards typed at the load step: the shoe was loaded and the deal has begun', () => {
    const s = session(shoe());
    s.feed({ type: 'start', now: 0 });
    s.wait(1000);
    s.type('AS 10d');
    expect(s.state().phase).toBe('deal');
    expect(s.script()).toEqual(['LOADED   # or nothing, if the device did not report it so', 'AS', 'TD']);
  });

  it('parseTyped: dice rolls and balls', () => {
    expect(parseTyped('dice-sensor', '1 4 6', false)).toEqual({ do: 'events', events: [{ choices: ['ROLL:1,4,6'], said: '1 4 6' }] });
    expect(parseTyped('dice-sensor', '146', false)).toMatchObject({ do: 'events', events: [{ choices: ['ROLL:1,4,6'] }] });
    expect(parseTyped('dice-sensor', '1 7 6', false)).toMatchObject({ do: 'bad' });
    expect(parseTyped('dice-sensor', 'noread', false)).toMatchObject({ do: 'events', events: [{ choices: ['NOREAD'] }] });
    expect(parseTyped('card-shoe', 'NOREAD', false)).toMatchObject({ do: 'bad' });
    expect(parseTyped('ball-reader', 'START 17 80', false)).toMatchObject({
      do: 'events',
      events: [{ choices: ['START', ''] }, { choices: ['BALL:17'] }, { choices: ['BALL:80'] }],
    });
    expect(parseTyped('ball-reader', '81', false)).toMatchObject({ do: 'bad', why: '"81": a ball is 1..80' });
    expect(parseTyped('ball-reader', 'AS', false)).toMatchObject({ do: 'bad' });
    expect(parseTyped('card-shoe', 'MISREAD', false)).toMatchObject({ do: 'events', events: [{ choices: ['MISREAD'] }] });
    expect(parseTyped('dice-sensor', 'MISREAD', false)).toMatchObject({ do: 'bad' });
  });

  it('scriptVariants: the preferred reading first, every combination of the events the device may not report, capped', () => {
    const ev = (...choices: string[]) => ({ choices, said: choices[0] });
    expect(scriptVariants([ev('LOADED', ''), ev('AS'), ev('CUT', '')])).toEqual(['LOADED AS CUT\n', 'LOADED AS\n', 'AS CUT\n', 'AS\n']);
    // 8 open events are 256 readings: the first 4 vary, the later ones stay preferred
    const many = ['AS', '2S', '3S', '4S', '5S', '6S', '7S', '8S'].flatMap((c) => [ev(c), ev('CUT', '')]);
    const v = scriptVariants(many, 16);
    expect(v).toHaveLength(16);
    expect(new Set(v).size).toBe(16);
    for (const x of v) expect(x.replace(/\s+/g, ' ').trim()).toMatch(/5S CUT 6S CUT 7S CUT 8S CUT$/);
  });

  it('done with nothing heard at all: exit 1, nothing heard, the learner never runs', () => {
    let ran = 0;
    const s = session(shoe(), () => {
      ran++;
      return failed;
    });
    s.feed({ type: 'start', now: 0 });
    s.wait(1000);
    s.type('');
    s.type('AS KD');
    s.type('done');
    expect(ran).toBe(0);
    expect(s.finished()).toMatchObject({ exit: 1, reason: 'nothing-heard' });
    expect(s.said()).toContain('Nothing was heard from the shoe');
  });

  it('done before any card asks for cards; the input closing then ends it (exit 1)', () => {
    const s = session(shoe(), () => failed);
    s.feed({ type: 'start', now: 0 });
    s.hear(Buffer.from('x'));
    s.wait(1000);
    s.type('skip');
    s.type('done');
    expect(s.said()).toContain('No card typed yet');
    expect(s.finished()).toBeUndefined();
    s.feed({ type: 'end-of-input', now: 2000 });
    expect(s.finished()).toMatchObject({ exit: 1, reason: 'input-closed' });
  });

  it('the learner asking for more cards sends the technician back to the deal; after maxRounds its answer stands (exit 3)', () => {
    const ambiguous: LearnResult = {
      exit: 3,
      status: 'ambiguous',
      reason: 'the deal does not say every card code',
      tellApart: ['deal more cards: the card codes fit no preset, and an explicit table needs all 52 cards (12 seen)'],
      candidates: [{ description: 'start 0x02, end 0x03; xor8 binary-be after-end', matched: 2 }],
    };
    let runs = 0;
    const s = session({ ...shoe(), maxRounds: 2 }, () => {
      runs++;
      return ambiguous;
    });
    s.feed({ type: 'start', now: 0 });
    s.hear(Buffer.from('x'));
    s.wait(1000);
    s.type('skip');
    s.type('AS');
    s.type('done');
    expect(s.said()).toContain('The learner says: deal more cards');
    expect(s.said()).toContain('Keep dealing');
    expect(s.state().phase).toBe('deal');
    s.type('KD');
    s.type('done');
    expect(runs).toBe(2);
    expect(s.finished()).toMatchObject({ exit: 3, reason: 'ambiguous', script: 'AS KD\n' });
    expect(s.said()).toContain('Several profiles fit: the deal does not say every card code.\n  candidate: start 0x02, end 0x03; xor8 binary-be after-end');
  });

  it('learnVariants keeps the first reading that learns, else the first ambiguous, else the preferred failure', () => {
    const ok = { exit: 0, status: 'learned', yaml: '', notes: [], warnings: [], equivalent: 1 } as unknown as LearnResult;
    const amb: LearnResult = { exit: 3, status: 'ambiguous', reason: 'r', tellApart: [], candidates: [] };
    const by = (m: Record<string, LearnResult>) => (sc: string) => m[sc];
    expect(learnVariants(['a', 'b', 'c'], by({ a: failed, b: ok, c: amb })).script).toBe('b');
    expect(learnVariants(['a', 'b', 'c'], by({ a: failed, b: amb, c: failed })).script).toBe('b');
    expect(learnVariants(['a', 'b'], by({ a: failed, b: failed })).script).toBe('a');
  });
});

describe('the guide with the real learner', () => {
  it('a shoe in a shipped format: idle, load, deal, done; the learner asks for a misread; with it the profile learns (exit 0)', () => {
    const profile = loadProfileFile(join(ROOT, 'drivers/profiles/shipped/stx-etx-bcc-shoe.yaml'));
    const wire = profileWire(profile);
    let seq = 1;
    const frame = (type: string, fields: string[] = []): Buffer => {
      const b = wire.encode('SHOE', seq++, type, fields);
      return Buffer.isBuffer(b) ? b : Buffer.from(b!, 'latin1');
    };
    let captured: CaptureChunk[] = [];
    const s = session(shoe(), (scripts) => learnVariants(scripts, (script) => learnProfile({ capture: captured, script, kind: 'card-shoe', name: 'guided' })));
    captured = s.chunks;
    s.feed({ type: 'start', now: 0 });
    for (let k = 0; k < 4; k++) s.hear(frame('HB'), 250);
    expect(s.state().phase).toBe('load');
    s.hear(frame('STATE', ['LOADED']));
    s.type('');
    const deck = 'A23456789TJQK'.split('').flatMap((r) => ['S', 'H', 'D', 'C'].map((x) => r + x));
    deck.forEach((card, k) => {
      if (k % 10 === 9) s.hear(frame('HB'), 50);
      if (k === 20) s.hear(Buffer.from(wire.noise()), 50);
      s.hear(frame('CARD', [card]));
      s.type(card);
    });
    // the shoe reports no cut card; the technician saw it
    s.type('CUT');
    s.hear(frame('HB'));
    s.type('done');
    expect(s.said()).toContain('The learner says: include a misread');
    expect(s.state().phase).toBe('misread');
    s.hear(frame('MISREAD'));
    s.type('misread');
    expect(s.said()).toContain('Now rescan the card');
    s.hear(frame('CARD', ['QH', 'R']));
    s.type('QH');
    const fin = s.finished();
    expect(fin).toMatchObject({ exit: 0, reason: 'learned' });
    if (fin?.type !== 'finish' || fin.outcome?.result.exit !== 0) throw new Error('not learned');
    // the reading that learned: the load reported, the cut card not, the rescan as a rescan
    expect(fin.script.split(/\s+/).filter(Boolean)).toEqual(['LOADED', ...deck, 'MISREAD', 'RESCAN:QH']);
    expect(fin.outcome.result.profile.messages.map((m) => m.type).sort()).toEqual(['CARD', 'CARD', 'HB', 'MISREAD', 'STATE']);
  });

  it('a ball reader (reference format): a draw typed as numbers; START and END tried as reported and not', () => {
    const profile = loadProfileFile(join(ROOT, 'drivers/profiles/shipped/reference-ball-reader.yaml'));
    const wire = profileWire(profile);
    let seq = 1;
    const frame = (type: string, fields: string[] = []): Buffer => Buffer.from(wire.encode('BALL', seq++, type, fields) as string, 'latin1');
    let captured: CaptureChunk[] = [];
    const s = session({ ...GUIDE_DEFAULTS, kind: 'ball-reader', idleMs: 1000 }, (scripts) =>
      learnVariants(scripts, (script) => learnProfile({ capture: captured, script, kind: 'ball-reader', name: 'guided-balls' })),
    );
    captured = s.chunks;
    s.feed({ type: 'start', now: 0 });
    for (let k = 0; k < 4; k++) s.hear(frame('HB'), 250);
    expect(s.said()).toContain('Draw the balls one at a time');
    // this reader announces the start of a draw but not its end
    s.hear(frame('START'));
    s.type('start');
    const balls = [17, 3, 80, 44, 1, 29, 65, 12, 8, 71, 36, 50, 22, 9, 60, 41, 77, 5, 33, 58];
    balls.forEach((b, k) => {
      if (k === 10) s.hear(frame('HB'), 50);
      s.hear(frame('BALL', [String(b)]));
      s.type(String(b));
    });
    s.type('end');
    s.hear(frame('HB'));
    s.type('done');
    const fin = s.finished();
    expect(fin).toMatchObject({ exit: 0, reason: 'learned' });
    if (fin?.type !== 'finish') throw new Error('not finished');
    expect(fin.script.split(/\s+/).filter(Boolean)).toEqual(['START', ...balls.map((b) => `BALL:${b}`)]);
  });

  it('a shuffler (ascii-shuffler): states and counts typed as the shuffler shows them', () => {
    const profile = loadProfileFile(join(ROOT, 'drivers/profiles/shipped/ascii-shuffler.yaml'));
    const wire = profileWire(profile);
    let seq = 1;
    const frame = (type: string, fields: string[] = []): Buffer => {
      const b = wire.encode('SHUF', seq++, type, fields);
      if (b === null) throw new Error(`ascii-shuffler cannot say ${type}`);
      return Buffer.isBuffer(b) ? b : Buffer.from(b, 'latin1');
    };
    let captured: CaptureChunk[] = [];
    const s = session({ ...GUIDE_DEFAULTS, kind: 'shuffler', idleMs: 1000 }, (scripts) =>
      learnVariants(scripts, (script) => learnProfile({ capture: captured, script, kind: 'shuffler', name: 'guided-shuffler' })),
    );
    captured = s.chunks;
    s.feed({ type: 'start', now: 0 });
    for (let k = 0; k < 4; k++) s.hear(frame('HB'), 250);
    expect(s.said()).toContain('Run the shuffler through its cycles');
    const cycle: Array<[string, string[], string]> = [
      ['STATE', ['SHUFFLING'], 'shuffling'],
      ['COUNT', ['52'], '52'],
      ['STATE', ['READY'], 'READY'],
      ['STATE', ['IDLE'], 'idle'],
      ['STATE', ['SHUFFLING'], 'shuffling'],
      ['STATE', ['JAM'], 'jam'],
      ['STATE', ['DOOR_OPEN'], 'door'],
      ['STATE', ['SHUFFLING'], 'shuffling'],
      ['COUNT', ['51'], 'COUNT:51'],
      ['STATE', ['READY'], 'ready'],
      ['STATE', ['IDLE'], 'idle'],
    ];
    for (const [type, fields, typedAs] of cycle) {
      s.hear(frame(type, fields));
      s.type(typedAs);
    }
    s.type('PAUSED');
    expect(s.said()).toContain('Not understood: "PAUSED": not a shuffler state');
    s.hear(frame('HB'));
    s.type('done');
    const fin = s.finished();
    expect(fin, s.said()).toMatchObject({ exit: 0, reason: 'learned' });
    if (fin?.type !== 'finish') throw new Error('not finished');
    expect(fin.script.split(/\s+/).filter(Boolean)).toEqual([
      'SHUF:SHUFFLING',
      'COUNT:52',
      'SHUF:READY',
      'SHUF:IDLE',
      'SHUF:SHUFFLING',
      'SHUF:JAM',
      'SHUF:DOOR_OPEN',
      'SHUF:SHUFFLING',
      'COUNT:51',
      'SHUF:READY',
      'SHUF:IDLE',
    ]);
  });

  it('a dice reader (reference format): rolls typed as they lie, a NOREAD, learned', () => {
    const profile = loadProfileFile(join(ROOT, 'drivers/profiles/shipped/reference-dice-sensor.yaml'));
    const wire = profileWire(profile);
    let seq = 1;
    const frame = (type: string, fields: string[] = []): Buffer => Buffer.from(wire.encode('DICE', seq++, type, fields) as string, 'latin1');
    let captured: CaptureChunk[] = [];
    const s = session({ ...GUIDE_DEFAULTS, kind: 'dice-sensor', idleMs: 1000 }, (scripts) =>
      learnVariants(scripts, (script) => learnProfile({ capture: captured, script, kind: 'dice-sensor', name: 'guided-dice', transport: 'serial' })),
    );
    captured = s.chunks;
    s.feed({ type: 'start', now: 0 });
    for (let k = 0; k < 4; k++) s.hear(frame('HB'), 250);
    expect(s.said()).toContain('Roll the dice, one roll at a time');
    const rolls = [
      [1, 4, 6],
      [2, 2, 3],
      [6, 5, 4],
      [1, 1, 1],
      [3, 4, 5],
      [2, 6, 6],
      [5, 5, 1],
      [4, 3, 2],
      [6, 1, 2],
      [3, 3, 6],
      [4, 4, 4],
      [1, 2, 5],
    ];
    rolls.forEach((r, k) => {
      if (k === 6) {
        s.hear(frame('NOREAD'));
        s.type('noread');
      }
      s.hear(frame('ROLL', [...r.map(String), '3']));
      s.type(k % 2 ? r.join(' ') : r.join(''));
      if (k % 4 === 3) s.hear(frame('HB'));
    });
    s.type('done');
    const fin = s.finished();
    expect(fin, s.said()).toMatchObject({ exit: 0, reason: 'learned' });
    if (fin?.type !== 'finish') throw new Error('not finished');
    const want = rolls.map((r) => `ROLL:${r.join(',')}`);
    want.splice(6, 0, 'NOREAD');
    expect(fin.script.split(/\s+/).filter(Boolean)).toEqual(want);
  });
});
