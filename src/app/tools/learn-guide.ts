/**
 * `tablegw learn <port>`: the guided, live version of `tablegw profile learn` (docs/DEVICES.md,
 * "Teach the gateway a new device"). This module is the step machine that talks to the technician:
 * `guideStep(options, state, input) -> { state, outputs }`, pure (no I/O, no clock: times come in
 * with the inputs). The command (src/app/cli/commands/learn.ts) records the port, feeds the bytes,
 * the typed lines and a tick here, prints the `say` outputs, appends the `script` lines to the
 * script file, runs the learner when asked (`learn`) and writes the files on `finish`.
 *
 * The procedure: the device idle for a few seconds (its heartbeat), then (a shoe) loaded, then the
 * deal: the technician types each card (roll, ball) as it is dealt, while every frame heard is
 * shown as a hex row. `done` runs the learner; when it asks for more cards or a misread, the
 * machine asks the technician for exactly that and learns again.
 *
 * What the technician cannot see — whether the device reports a load, the cut card, a drop, the
 * start or end of a draw, and whether the card after a misread comes as a rescan — is an event with
 * alternatives; `scriptVariants` gives the scripts to try, the preferred one first.
 */
import { chunkRows } from './capture-show.js';
import type { LearnKind, LearnResult } from './profile-learn.js';
import { SHUFFLER_STATES } from '../../../drivers/codecs/shuffler-codec.js';
import { parseScript, scriptCard } from './learn/script.js';

export interface GuideOptions {
  kind: LearnKind;
  /** how long the device is left idle at the start (ms) */
  idleMs: number;
  /** silence that ends a burst of bytes, shown as one row (ms) */
  burstGapMs: number;
  /** bytes per hex row */
  width: number;
  /** how many times the learner may ask for more before the answer stands */
  maxRounds: number;
}

export const GUIDE_DEFAULTS: Omit<GuideOptions, 'kind'> = { idleMs: 5000, burstGapMs: 30, width: 16, maxRounds: 4 };

/** one thing the technician did, as the script tokens it may stand for (preferred first; '' = not reported) */
export interface GuideEvent {
  choices: string[];
  /** what the technician typed, for the messages */
  said: string;
}

export type Phase = 'idle' | 'load' | 'deal' | 'misread' | 'offer-misread' | 'learning' | 'done';

export interface GuideState {
  phase: Phase;
  /** when the phase began (ms since the start of the recording) */
  phaseAt: number;
  events: GuideEvent[];
  /** the burst being heard: bytes not yet followed by `burstGapMs` of silence */
  burst: { t: number; last: number; bytes: number[] } | null;
  bursts: number;
  bytes: number;
  /** stream offset and time of the last burst shown */
  shownOffset: number;
  shownT: number | undefined;
  /** bursts heard in this phase, and since the last event typed */
  inPhase: number;
  sinceEvent: number;
  idleBursts: number;
  /** learner runs so far */
  rounds: number;
  misreadDone: boolean;
  /** the misread step has been answered with MISREAD already (the next card is its rescan) */
  misreadSeen: boolean;
  /** the technician's input has closed: no question can be answered */
  inputClosed: boolean;
  /** the events of the last learner run, and its script */
  last: GuideOutcome | null;
}

/** what the command got from the learner for one `learn` request */
export interface GuideOutcome {
  /** the script that gave `result` (one of the variants) */
  script: string;
  result: LearnResult;
}

export type GuideInput =
  | { type: 'start'; now: number }
  | { type: 'tick'; now: number }
  | { type: 'bytes'; t: number; bytes: Uint8Array }
  | { type: 'line'; text: string; now: number }
  | { type: 'end-of-input'; now: number }
  | { type: 'learned'; outcome: GuideOutcome; now: number };

export type FinishReason = 'learned' | 'failed' | 'ambiguous' | 'nothing-heard' | 'input-closed';

export type GuideOutput =
  | { type: 'say'; text: string }
  /** a line for the script file (a comment says when an event may not have been reported) */
  | { type: 'script'; line: string }
  /** run the learner on the capture so far with each script in turn (the first that learns wins) */
  | { type: 'learn'; scripts: string[] }
  | { type: 'finish'; exit: 0 | 1 | 3; reason: FinishReason; script: string; outcome: GuideOutcome | null };

export interface GuideStep {
  state: GuideState;
  outputs: GuideOutput[];
}

export function initialGuide(): GuideState {
  return {
    phase: 'idle',
    phaseAt: 0,
    events: [],
    burst: null,
    bursts: 0,
    bytes: 0,
    shownOffset: 0,
    shownT: undefined,
    inPhase: 0,
    sinceEvent: 0,
    idleBursts: 0,
    rounds: 0,
    misreadDone: false,
    misreadSeen: false,
    inputClosed: false,
    last: null,
  };
}

const NOUN: Record<LearnKind, { device: string; item: string }> = {
  'card-shoe': { device: 'shoe', item: 'card' },
  'dice-sensor': { device: 'dice reader', item: 'roll' },
  'ball-reader': { device: 'ball reader', item: 'ball' },
  shuffler: { device: 'shuffler', item: 'report' },
};

const DEAL_HELP: Record<LearnKind, string> = {
  'card-shoe':
    'Deal the cards one by one, a whole deck if you can (52 cards; at least 20). After each card, type it as printed on its face: ' +
    'AS, 10H or TH, KD, 7C (several on one line are fine). Each frame the shoe sends shows as a hex row. ' +
    'If the shoe signals a misread, type MISREAD, then the card once it has been rescanned. ' +
    'Type CUT when the cut card comes out, DROP if you press the shoe\'s "card dropped" key, ' +
    'undo to take back the last entry, done when finished.',
  'dice-sensor':
    'Roll the dice, one roll at a time (at least 10 rolls). After each roll type the three dice as they lie: 1 4 6 or 146; ' +
    'NOREAD when the reader signals it could not read them. Each frame the reader sends shows as a hex row. ' +
    'undo takes back the last entry, done when finished.',
  'ball-reader':
    "Draw the balls one at a time (a whole draw if you can). Type START when the draw begins, each ball's number as it is read " +
    '(17), END when the draw is over. Each frame the reader sends shows as a hex row. undo takes back the last entry, done when finished.',
  shuffler:
    'Run the shuffler through its cycles (load it, shuffle, take the cards out; open the door once if you can). Type each state as the ' +
    `shuffler shows it (${SHUFFLER_STATES.join(', ')}) and the number of cards it counted (52). Each frame the shuffler sends ` +
    'shows as a hex row. undo takes back the last entry, done when finished.',
};

/** the most bytes shown as one burst */
export const MAX_BURST = 256;

const say = (text: string): GuideOutput => ({ type: 'say', text });
const seconds = (ms: number): string => String(Math.round(ms / 100) / 10);

/** the scripts the events may stand for, the preferred first; at most `limit` (later alternatives then stay preferred) */
export function scriptVariants(events: readonly GuideEvent[], limit = 16): string[] {
  const open = events.map((e, k) => (e.choices.length > 1 ? k : -1)).filter((k) => k >= 0);
  let varied = open;
  while (varied.reduce((n, k) => n * events[k].choices.length, 1) > limit) varied = varied.slice(0, -1);
  const out: string[] = [];
  const pick = new Array<number>(events.length).fill(0);
  const walk = (i: number): void => {
    if (i === varied.length) {
      out.push(scriptText(events.map((e, k) => e.choices[pick[k]])));
      return;
    }
    for (let c = 0; c < events[varied[i]].choices.length; c++) {
      pick[varied[i]] = c;
      walk(i + 1);
    }
    pick[varied[i]] = 0;
  };
  walk(0);
  return [...new Set(out)];
}

/** script tokens as the script file holds them: 13 to a line */
export function scriptText(tokens: readonly string[]): string {
  const t = tokens.filter(Boolean);
  const lines: string[] = [];
  for (let i = 0; i < t.length; i += 13) lines.push(t.slice(i, i + 13).join(' '));
  return lines.length ? `${lines.join('\n')}\n` : '';
}

/** a line of the script file for one event */
function scriptLine(e: GuideEvent): string {
  const [first, ...rest] = e.choices;
  if (rest.length === 0) return first;
  const alt = rest.map((r) => (r === '' ? 'nothing' : r)).join(' or ');
  return `${first || '#'}   # or ${alt}, if the device did not report it so`;
}

/** what a typed line means in the deal: events, `undo`, `done`, or why it is not understood */
type Typed = { do: 'events'; events: GuideEvent[] } | { do: 'undo' | 'done' | 'finish' } | { do: 'bad'; why: string };

export function parseTyped(kind: LearnKind, text: string, afterMisread: boolean): Typed {
  const line = text.replace(/#.*$/, '').trim();
  const word = line.toLowerCase();
  if (word === 'undo') return { do: 'undo' };
  if (word === 'done') return { do: 'done' };
  if (word === 'finish') return { do: 'finish' };
  if (!line) return { do: 'events', events: [] };
  if (kind === 'dice-sensor') {
    if (word === 'noread') return { do: 'events', events: [{ choices: ['NOREAD'], said: line }] };
    const m = /^(?:roll:\s*)?([1-6])\s*[ ,]?\s*([1-6])\s*[ ,]?\s*([1-6])$/i.exec(line);
    if (m) return { do: 'events', events: [{ choices: [`ROLL:${m[1]},${m[2]},${m[3]}`], said: line }] };
    return { do: 'bad', why: `"${line}": type the three dice, e.g. 1 4 6 (each 1..6), NOREAD, undo or done` };
  }
  const events: GuideEvent[] = [];
  let misread = afterMisread;
  for (const raw of line.split(/[\s,]+/).filter(Boolean)) {
    const tok = raw.toUpperCase();
    if (kind === 'ball-reader' && /^\d{1,2}$/.test(tok)) {
      const n = Number(tok);
      if (n < 1 || n > 80) return { do: 'bad', why: `"${raw}": a ball is 1..80` };
      events.push({ choices: [`BALL:${n}`], said: raw });
      continue;
    }
    if (kind === 'shuffler') {
      const state = tok === 'DOOR' ? 'DOOR_OPEN' : tok.replace(/^SHUF:/, '');
      if ((SHUFFLER_STATES as readonly string[]).includes(state)) {
        events.push({ choices: [`SHUF:${state}`], said: raw });
        continue;
      }
      const n = /^(?:COUNT:)?(\d{1,3})$/.exec(tok);
      if (n) {
        events.push({ choices: [`COUNT:${Number(n[1])}`], said: raw });
        continue;
      }
      return { do: 'bad', why: `"${raw}": not a shuffler state (${SHUFFLER_STATES.join(', ')}) nor a count (0..999)` };
    }
    const card = scriptCard(tok);
    if (card && kind === 'card-shoe') {
      // the card after a misread: its rescan, or (a shoe without rescans) the card read again
      events.push(misread ? { choices: [`RESCAN:${card}`, card], said: raw } : { choices: [card], said: raw });
      misread = false;
      continue;
    }
    const parsed = parseScript(tok);
    if (!parsed.ok)
      return {
        do: 'bad',
        why: `"${raw}": ${kind === 'card-shoe' ? 'not a card (AS, 10H, TD, 7C)' : `not a ${NOUN[kind].item}`} nor MISREAD, CUT, DROP, LOADED, START, END, undo, done`,
      };
    const e = parsed.events[0];
    if (e.type === 'CARD' && kind !== 'card-shoe') return { do: 'bad', why: `"${raw}": a card, but this is a ${NOUN[kind].device}` };
    if (e.type === 'MISREAD') {
      if (kind !== 'card-shoe') return { do: 'bad', why: `"${raw}": a misread is a shoe's` };
      misread = true;
      events.push({ choices: ['MISREAD'], said: raw });
    } else if (e.type === 'CARD') {
      events.push({ choices: [tok.startsWith('RESCAN:') ? `RESCAN:${e.card}` : e.card], said: raw });
      misread = false;
    } else if (e.type === 'CUT' || e.type === 'DROP' || e.type === 'START' || e.type === 'END' || e.type === 'STATE') {
      // the technician saw it happen; whether the device reports it, only the learner can tell
      const t = e.type === 'STATE' ? 'LOADED' : e.type;
      events.push({ choices: [t, ''], said: raw });
    } else if (e.type === 'BALL') events.push({ choices: [`BALL:${e.ball}`], said: raw });
    else if (e.type === 'ROLL') events.push({ choices: [`ROLL:${e.dice.join(',')}`], said: raw });
    else return { do: 'bad', why: `"${raw}": not a ${NOUN[kind].item} of a ${NOUN[kind].device}` };
  }
  return { do: 'events', events };
}

const afterMisread = (events: readonly GuideEvent[]): boolean => events.at(-1)?.choices[0] === 'MISREAD';
const items = (s: GuideState): number => s.events.filter(isItem).length;

/** the state's script, the preferred tokens */
export const preferredScript = (s: GuideState): string => scriptText(s.events.map((e) => e.choices[0]));

/** closes the burst being heard: one hex row group for it */
function closeBurst(o: GuideOptions, s: GuideState, out: GuideOutput[]): GuideState {
  if (!s.burst) return s;
  const bytes = Uint8Array.from(s.burst.bytes);
  const rows = chunkRows({ t: s.burst.t, bytes }, s.bursts, s.shownT, s.shownOffset, o.width);
  out.push(say(rows.map((r) => `  heard ${r}`).join('\n')));
  return {
    ...s,
    burst: null,
    bursts: s.bursts + 1,
    shownOffset: s.shownOffset + bytes.length,
    shownT: s.burst.t,
    inPhase: s.inPhase + 1,
    sinceEvent: s.sinceEvent + 1,
  };
}

function enter(o: GuideOptions, s: GuideState, phase: Phase, now: number, out: GuideOutput[]): GuideState {
  const n = NOUN[o.kind];
  const next = { ...s, phase, phaseAt: now, inPhase: 0, sinceEvent: 0 };
  if (phase === 'load')
    out.push(say(`Load the ${n.device} with the cards you are about to deal, then press Enter (type skip if it was loaded before this started).`));
  if (phase === 'deal') out.push(say(DEAL_HELP[o.kind]));
  if (phase === 'misread')
    out.push(
      say(
        'Cause a misread: deal one card face down (or cover the read window while it passes) so the shoe cannot read it. ' +
          'Then rescan it (the rescan slot or the hand scanner) and type the card, e.g. 7D. If the shoe cannot rescan, deal the card again and type it.',
      ),
    );
  return next;
}

/** starts a learner run on every variant of the events */
function learn(s: GuideState, now: number, out: GuideOutput[]): GuideState {
  const variants = scriptVariants(s.events);
  out.push(
    say(
      `Learning from ${s.bursts} frame(s) heard (${s.bytes} byte(s)) and ${s.events.length} event(s)${variants.length > 1 ? ` (${variants.length} readings of what the device may have reported)` : ''} ...`,
    ),
  );
  out.push({ type: 'learn', scripts: variants });
  return { ...s, phase: 'learning', phaseAt: now, rounds: s.rounds + 1 };
}

function finish(s: GuideState, exit: 0 | 1 | 3, reason: FinishReason, out: GuideOutput[]): GuideState {
  out.push({ type: 'finish', exit, reason, script: s.last?.script ?? preferredScript(s), outcome: s.last });
  return { ...s, phase: 'done' };
}

function done(o: GuideOptions, s: GuideState, now: number, out: GuideOutput[]): GuideState {
  const n = NOUN[o.kind];
  if (s.bytes === 0) {
    out.push(say(`Nothing was heard from the ${n.device}: no byte arrived since the start.`));
    return finish(s, 1, 'nothing-heard', out);
  }
  if (items(s) === 0) {
    out.push(say(`No ${n.item} typed yet: ${n.item === 'card' ? 'deal a few cards and type each one' : `type each ${n.item}`}, then done.`));
    return s;
  }
  return learn(s, now, out);
}

const isItem = (e: GuideEvent): boolean => /^(?:RESCAN:)?[A2-9TJQK][SHDC]$|^ROLL:|^BALL:|^SHUF:|^COUNT:/.test(e.choices[0]);

function typed(o: GuideOptions, s: GuideState, text: string, now: number, out: GuideOutput[]): GuideState {
  const inMisread = s.phase === 'misread';
  const t = parseTyped(o.kind, text, inMisread || afterMisread(s.events));
  if (t.do === 'bad') {
    out.push(say(`Not understood: ${t.why}.`));
    return s;
  }
  if (t.do === 'undo') {
    const gone = s.events.at(-1);
    if (!gone || (inMisread && !s.misreadSeen)) {
      out.push(say('Nothing to undo.'));
      return s;
    }
    out.push(say(`Took back ${gone.said}.`), { type: 'script', line: `# undo ${gone.said}` });
    return { ...s, events: s.events.slice(0, -1), misreadSeen: inMisread ? false : s.misreadSeen };
  }
  if (t.do === 'done') {
    if (inMisread) {
      out.push(say('Type the card once it has been rescanned, or finish to keep the profile without a misread message.'));
      return s;
    }
    return done(o, s, now, out);
  }
  if (t.do !== 'events') {
    out.push(say('Type done when finished.'));
    return s;
  }
  let add = t.events;
  if (add.length === 0) return s;
  const misreadTyped = add.some((e) => e.choices[0] === 'MISREAD');
  // in the misread step, a card typed straight away: the misread the shoe may have reported went before it
  if (inMisread && !s.misreadSeen && !misreadTyped) add = [{ choices: ['MISREAD', ''], said: 'misread' }, ...add];
  const heard = s.sinceEvent;
  const next: GuideState = { ...s, events: [...s.events, ...add], sinceEvent: 0 };
  for (const e of add) out.push({ type: 'script', line: scriptLine(e) });
  const n = NOUN[o.kind];
  const what = add.map((e) => e.said).join(' ');
  out.push(
    say(
      `${what} (${n.item}s so far: ${items(next)}; ${heard} frame(s) heard since the entry before)${heard === 0 ? `: nothing came from the ${n.device}, was it read? (undo takes it back)` : ''}`,
    ),
  );
  if (!inMisread) return next;
  if (add.some(isItem)) return learn({ ...next, misreadDone: true, misreadSeen: false }, now, out);
  out.push(say('Now rescan the card (or deal it again) and type it.'));
  return { ...next, misreadSeen: true };
}

/** ends with the answer of the last learner run */
function finishWithLast(s: GuideState, out: GuideOutput[]): GuideState {
  const exit = s.last?.result.exit ?? 1;
  return finish(s, exit, exit === 0 ? 'learned' : exit === 3 ? 'ambiguous' : 'failed', out);
}

function learned(o: GuideOptions, s0: GuideState, outcome: GuideOutcome, now: number, out: GuideOutput[]): GuideState {
  const s = { ...s0, last: outcome };
  const next = learnedNext(o, s, now, out);
  // nobody can answer a question any more: the answer stands
  return s.inputClosed && (next.phase === 'deal' || next.phase === 'misread') ? finishWithLast(next, out) : next;
}

function learnedNext(o: GuideOptions, s: GuideState, now: number, out: GuideOutput[]): GuideState {
  const outcome = s.last!;
  const r = outcome.result;
  const canAsk = s.rounds < o.maxRounds;
  if (r.exit === 0) {
    const misreadAdvice = r.warnings.find((w) => w.startsWith('include a misread'));
    out.push(say(`Learned and verified: ${r.notes.join('; ')}.`));
    if (misreadAdvice && o.kind === 'card-shoe' && !s.misreadDone && canAsk) {
      out.push(say(`The learner says: ${misreadAdvice}. To teach it one, do the next step; type finish to keep the profile without it.`));
      return enter(o, { ...s, misreadSeen: false }, 'misread', now, out);
    }
    return finish(s, 0, 'learned', out);
  }
  if (r.exit === 3) {
    const wantsMisread = r.tellApart.some((t) => t.startsWith('include a misread'));
    const wantsCards = r.tellApart.find((t) => t.startsWith('deal more cards'));
    for (const t of r.tellApart) out.push(say(`The learner says: ${t}.`));
    if (canAsk && wantsMisread && o.kind === 'card-shoe' && !s.misreadDone) return enter(o, { ...s, misreadSeen: false }, 'misread', now, out);
    if (canAsk && wantsCards) {
      out.push(say(`Keep dealing (another deck if you have one): the more ${NOUN[o.kind].item}s, the fewer profiles fit. Type done when finished.`));
      return { ...s, phase: 'deal', phaseAt: now, inPhase: 0 };
    }
    out.push(say(`Several profiles fit: ${r.reason}.`));
    for (const c of r.candidates) out.push(say(`  candidate: ${c.description}${c.problem ? ` (${c.problem})` : ''}`));
    return finish(s, 3, 'ambiguous', out);
  }
  out.push(say(`No profile fits: ${r.reason}.`));
  for (const c of r.closest) out.push(say(`  closest: ${c.description}${c.problem ? `: ${c.problem}` : ''}`));
  return finish(s, 1, r.code === 'capture-empty' ? 'nothing-heard' : 'failed', out);
}

/** one step of the guide */
export function guideStep(o: GuideOptions, state: GuideState, input: GuideInput): GuideStep {
  const out: GuideOutput[] = [];
  let s = state;
  if (s.phase === 'done') return { state: s, outputs: out };
  const n = NOUN[o.kind];
  switch (input.type) {
    case 'start': {
      out.push(
        say(`Teaching the gateway a ${n.device}. Follow the steps; every frame the ${n.device} sends shows as a hex row (t in ms since the start).`),
        say(`Leave the ${n.device} idle for ${seconds(o.idleMs)} s: do not touch it (the gateway listens for the frame it repeats while idle, its heartbeat).`),
      );
      s = { ...s, phase: 'idle', phaseAt: input.now };
      break;
    }
    case 'bytes': {
      // a device that never pauses still gets rows: a burst ends after MAX_BURST bytes
      if (s.burst && (input.t - s.burst.last > o.burstGapMs || s.burst.bytes.length >= MAX_BURST)) s = closeBurst(o, s, out);
      const bytes = [...input.bytes];
      s = s.burst
        ? { ...s, burst: { ...s.burst, last: input.t, bytes: [...s.burst.bytes, ...bytes] }, bytes: s.bytes + bytes.length }
        : { ...s, burst: { t: input.t, last: input.t, bytes }, bytes: s.bytes + bytes.length };
      break;
    }
    case 'tick': {
      if (s.burst && input.now - s.burst.last > o.burstGapMs) s = closeBurst(o, s, out);
      if (s.phase === 'idle' && input.now - s.phaseAt >= o.idleMs) {
        const heard = s.inPhase;
        out.push(
          say(
            heard > 0
              ? `Heard ${heard} frame(s) while idle.`
              : `Nothing heard while idle (some devices stay silent when idle; if this one should not, check the cable and --baud).`,
          ),
        );
        s = enter(o, { ...s, idleBursts: heard }, o.kind === 'card-shoe' ? 'load' : 'deal', input.now, out);
      }
      break;
    }
    case 'line': {
      s = closeBurst(o, s, out);
      if (s.phase === 'idle') out.push(say(`Wait: the ${n.device} stays idle for ${seconds(o.idleMs)} s first.`));
      else if (s.phase === 'learning') out.push(say('Wait: learning.'));
      else if (s.phase === 'load') {
        const w = input.text.trim().toLowerCase();
        const dealing = parseTyped(o.kind, input.text, false);
        if (w === 'skip') s = enter(o, s, 'deal', input.now, out);
        else if (w === '' || (dealing.do === 'events' && dealing.events.some(isItem))) {
          // a shoe may announce the load, or not: the learner tells which
          const e: GuideEvent = { choices: ['LOADED', ''], said: 'loaded' };
          out.push({ type: 'script', line: scriptLine(e) });
          s = enter(o, { ...s, events: [...s.events, e] }, 'deal', input.now, out);
          // cards typed straight away: the shoe was loaded and the deal has begun
          if (w !== '') s = typed(o, s, input.text, input.now, out);
        } else out.push(say('Press Enter once the shoe is loaded, or type skip.'));
      } else if (s.phase === 'misread' && input.text.trim().toLowerCase() === 'finish') s = finishWithLast(s, out);
      else s = typed(o, s, input.text, input.now, out);
      break;
    }
    case 'end-of-input': {
      s = { ...closeBurst(o, s, out), inputClosed: true };
      if (s.phase === 'deal') {
        const t = done(o, s, input.now, out);
        // nothing typed and the input is gone: nothing more can come
        s = t.phase === 'deal' ? finish(t, 1, 'input-closed', out) : t;
      } else if (s.phase === 'misread') s = finishWithLast(s, out);
      else if (s.phase !== 'learning') {
        out.push(say(`The input closed before the deal began.`));
        s = finish(s, 1, s.bytes === 0 ? 'nothing-heard' : 'input-closed', out);
      }
      break;
    }
    case 'learned':
      s = learned(o, s, input.outcome, input.now, out);
      break;
  }
  return { state: s, outputs: out };
}

/**
 * Runs `learn` on each script in turn and keeps the first that learns (exit 0); failing that, the
 * first ambiguous answer (exit 3); failing that, the answer for the preferred script.
 */
export function learnVariants(scripts: readonly string[], learn: (script: string) => LearnResult): GuideOutcome {
  let ambiguous: GuideOutcome | undefined;
  let first: GuideOutcome | undefined;
  for (const script of scripts) {
    const result = learn(script);
    if (result.exit === 0) return { script, result };
    if (result.exit === 3 && !ambiguous) ambiguous = { script, result };
    first ??= { script, result };
  }
  if (!first) throw new Error('learnVariants: no script');
  return ambiguous ?? first;
}
