/** Messages of the learner: the frames aligned with the script's events, one message per event class plus the heartbeat. */
import { cardDecoder, type CardCodeOptions } from '../../../../drivers/profiles/card-codes.js';
import { cardSpellings } from '../../../../drivers/profiles/profile-encoder.js';
import type { BinaryField, DeviceProfile } from '../../../../drivers/profiles/profile-schema.js';
import type { ScriptEvent } from './script.js';
import { solveCardRule } from './card-rule.js';
import { CARD_PRESETS, solveCards } from './cards.js';
import { diceMessage, textDiceMessage } from './dice.js';
import { findSeq, masked, type SeqField, type Valid } from './seq.js';
import { pickHeartbeat } from './heartbeat.js';
import { learnCount, shufflerWarnings } from './shuffler.js';

export const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export type Message = DeviceProfile['messages'][number];

export interface Learned {
  messages: Message[];
  cards: CardCodeOptions | undefined;
  seq: SeqField | undefined;
  heartbeats: number;
  notes: string[];
  warnings: string[];
  /** card codings that fit the cards seen but read other codes differently */
  cardAlternatives: string[];
  /** a reason this framing cannot be it */
  problem?: string;
}

export interface EventClass {
  key: string;
  type: DeviceProfile['messages'][number]['type'];
  fields: Record<string, string | number | boolean>;
  variable: 'card' | 'ball' | 'dice' | 'count' | undefined;
  members: Array<{ payload: Buffer; event: ScriptEvent }>;
}

export function classOf(e: ScriptEvent): Omit<EventClass, 'members'> {
  switch (e.type) {
    case 'CARD':
      return e.rescan
        ? { key: 'rescan', type: 'CARD', fields: { rescan: true }, variable: 'card' }
        : { key: 'card', type: 'CARD', fields: {}, variable: 'card' };
    case 'STATE':
      return { key: 'loaded', type: 'STATE', fields: { state: 'LOADED' }, variable: undefined };
    case 'BALL':
      return { key: 'ball', type: 'BALL', fields: {}, variable: 'ball' };
    case 'ROLL':
      return { key: 'roll', type: 'ROLL', fields: {}, variable: 'dice' };
    case 'SHUF_STATE':
      return { key: e.state.toLowerCase().replace('_', '-'), type: 'SHUF_STATE', fields: { state: e.state }, variable: undefined };
    case 'COUNT':
      return { key: 'count', type: 'COUNT', fields: {}, variable: 'count' };
    default:
      return { key: e.type.toLowerCase(), type: e.type, fields: {}, variable: undefined };
  }
}

export function commonPrefix(xs: string[]): number {
  let n = 0;
  while (xs.every((x) => n < x.length && x[n] === xs[0][n])) n++;
  return n;
}
export function commonSuffix(xs: string[], limit: number[]): number {
  let n = 0;
  while (xs.every((x, k) => x.length - n - 1 >= limit[k] && x[x.length - 1 - n] === xs[0][xs[0].length - 1 - n])) n++;
  return n;
}

/** a character class for the codes seen (`[0-9A-Z]{2,3}`) */
export function codeClass(codes: string[]): string {
  const chars = new Set(codes.join(''));
  const parts: string[] = [];
  if ([...chars].some((c) => /\d/.test(c))) parts.push('0-9');
  if ([...chars].some((c) => /[A-Z]/.test(c))) parts.push('A-Z');
  if ([...chars].some((c) => /[a-z]/.test(c))) parts.push('a-z');
  for (const c of chars) if (!/[0-9A-Za-z]/.test(c)) parts.push(escapeRe(c) === c && c !== '-' && c !== ']' && c !== '^' ? c : `\\${c}`);
  const lens = codes.map((c) => c.length);
  const lo = Math.min(...lens);
  const hi = Math.max(...lens);
  return `[${parts.join('')}]${lo === hi ? `{${lo}}` : `{${lo},${hi}}`}`;
}

export function textPattern(template: string, seq: SeqField | undefined, middle?: string): string {
  const seqRe = seq?.digits ? `(?<seq>\\d{${seq.digits}})` : '(?<seq>\\d{1,5})';
  const [a, b] = middle === undefined ? [template, undefined] : template.split('\u0001');
  const lit = (x: string): string => x.split('\u0000').map(escapeRe).join(seqRe);
  return b === undefined ? lit(a) : `${lit(a)}${middle}${lit(b)}`;
}

export function learnMessages(valid: Valid[], events: readonly ScriptEvent[], text: boolean, frames: number): Learned {
  const fail = (problem: string): Learned => ({
    messages: [],
    cards: undefined,
    seq: undefined,
    heartbeats: 0,
    notes: [],
    warnings: [],
    cardAlternatives: [],
    problem,
  });
  const seq = findSeq(valid, text);
  const keys = valid.map((v) => masked(v.payload, seq, text));
  // the heartbeat: a body (SEQ aside) that repeats, such that the rest are as many as the script's events
  const counts = new Map<string, number>();
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  const hbCands = [...counts.entries()].filter(([, n]) => n >= 2 && valid.length - n === events.length).sort((x, y) => y[1] - x[1]);
  let hbKey: string | undefined;
  if (hbCands.length > 0)
    hbKey = pickHeartbeat(
      hbCands.map((c) => c[0]),
      keys,
      events,
      (e) => (classOf(e).variable ? undefined : classOf(e).key),
    );
  else if (valid.length !== events.length)
    return fail(`${valid.length} frames verify, the script has ${events.length} events and no repeating frame makes up the difference`);
  const others = valid.filter((_, k) => keys[k] !== hbKey);
  const classes = new Map<string, EventClass>();
  others.forEach((v, k) => {
    const c = classOf(events[k]);
    const cl = classes.get(c.key) ?? { ...c, members: [] };
    cl.members.push({ payload: v.payload, event: events[k] });
    classes.set(c.key, cl);
  });
  const notes: string[] = [];
  const warnings: string[] = [];
  const messages: Message[] = [];
  let cards: CardCodeOptions | undefined;
  let cardAlternatives: string[] = [];
  const seqName = seq ? { seq: 'seq' } : {};
  const seqField: Record<string, BinaryField> =
    seq?.at !== undefined ? { seq: { at: seq.at, width: seq.width ?? 1, order: seq.order ?? 'be', as: 'number' } } : {};
  // the plain card class first: the card coding comes from it
  const order = [...classes.values()].sort((a, b) => (a.key === 'card' ? -1 : b.key === 'card' ? 1 : 0));
  let cardClass: string | undefined;
  let cardSlot: { prefix: number; suffix: number } | { at: number; width: number } | undefined;
  for (const cl of order) {
    const ms = cl.members.map((m) => masked(m.payload, seq, text));
    if (!cl.variable) {
      if (new Set(ms).size !== 1)
        return fail(
          `the frames of ${cl.key} (${ms.length}) differ: ${[...new Set(ms)]
            .slice(0, 2)
            .map((x) => JSON.stringify(x))
            .join(' / ')}`,
        );
      if (hbKey !== undefined && ms[0] === hbKey) return fail(`${cl.key} looks like the heartbeat`);
      if (text)
        messages.push({
          name: cl.key,
          pattern: textPattern(ms[0], seq),
          type: cl.type,
          fields: cl.fields,
          map: {},
          ranges: {},
          ...seqName,
          emit: ms[0].replace('\u0000', '{seq}'),
        });
      else {
        const b = cl.members[0].payload;
        const match = [...b]
          .map((value, at) => ({ at, value, mask: 0xff }))
          .filter((x) => !(seq?.at !== undefined && x.at >= seq.at && x.at < seq.at + (seq.width ?? 1)));
        messages.push({
          name: cl.key,
          bytes: { length: b.length, match, fields: { ...seqField } },
          type: cl.type,
          fields: cl.fields,
          map: {},
          ranges: {},
          ...seqName,
        });
      }
      continue;
    }
    if (cl.variable === 'ball') {
      const balls = cl.members.map((m) => (m.event as { ball: number }).ball);
      if (text) {
        let pre = commonPrefix(ms);
        let suf = commonSuffix(
          ms,
          ms.map(() => pre),
        );
        while (pre > 0 && /\d/.test(ms[0][pre - 1])) pre--;
        while (suf > 0 && /\d/.test(ms[0][ms[0].length - suf])) suf--;
        const codes = ms.map((m) => m.slice(pre, m.length - suf));
        const k = codes.findIndex((c, i) => !/^\d+$/.test(c) || Number(c) !== balls[i]);
        if (k >= 0) return fail(`${cl.key}: frame ${k + 1} says ${JSON.stringify(codes[k])} where the script says ball ${balls[k]}`);
        const lens = codes.map((c) => c.length);
        const template = `${ms[0].slice(0, pre)}\u0001${ms[0].slice(ms[0].length - suf)}`;
        if (ms.some((m) => m.slice(0, pre) !== ms[0].slice(0, pre) || m.slice(m.length - suf) !== ms[0].slice(ms[0].length - suf)))
          return fail(`${cl.key}: the frames differ beyond the ball`);
        messages.push({
          name: cl.key,
          pattern: textPattern(template, seq, `(?<ball>\\d{${Math.min(...lens)},${Math.max(2, ...lens)}})`),
          type: 'BALL',
          fields: cl.fields,
          map: {},
          ranges: {},
          ...seqName,
          emit: template.replace('\u0000', '{seq}').replace('\u0001', '{ball}'),
        });
        notes.push(`balls: decimal, from ${codes.length} balls`);
      } else {
        const len = cl.members[0].payload.length;
        if (cl.members.some((m) => m.payload.length !== len)) return fail(`${cl.key}: frames of different lengths`);
        const isSeq = (at: number): boolean => seq?.at !== undefined && at >= seq.at && at < seq.at + (seq.width ?? 1);
        const at = [...Array(len).keys()].find((a) => !isSeq(a) && cl.members.every((m, i) => m.payload[a] === balls[i]));
        if (at === undefined) return fail(`${cl.key}: no byte says the script's balls`);
        const b = cl.members[0].payload;
        const match = [...b]
          .map((value, a) => ({ at: a, value, mask: 0xff }))
          .filter((x) => !isSeq(x.at) && x.at !== at && cl.members.every((m) => m.payload[x.at] === x.value));
        messages.push({
          name: cl.key,
          bytes: { length: len, match, fields: { ...seqField, ball: { at, width: 1, order: 'be', as: 'number' } } },
          type: 'BALL',
          fields: cl.fields,
          map: {},
          ranges: {},
          ...seqName,
        });
        notes.push(`balls: the byte at offset ${at}, from ${balls.length} balls`);
      }
      continue;
    }
    if (cl.variable === 'dice') {
      const d = text ? textDiceMessage(cl, seq) : diceMessage(cl, seq);
      if ('problem' in d) return fail(d.problem);
      messages.push(d.message);
      notes.push(d.note);
      continue;
    }
    if (cl.variable === 'count') {
      const counts = cl.members.map((m) => (m.event as { count: number }).count);
      const r = learnCount(
        cl.key,
        ms,
        cl.members.map((m) => m.payload),
        counts,
        text,
        seq,
        (t, mid) => textPattern(t, seq, mid),
      );
      if (!r.message) return fail(r.problem ?? `${cl.key}: no count field`);
      messages.push(r.message);
      notes.push(r.note!);
      continue;
    }
    if (cl.variable !== 'card') return fail(`${cl.key}: learning ${cl.variable} fields is not supported yet`);
    const known = cl.members.map((m) => (m.event as { card: string }).card);
    if (text) {
      let pre: number;
      let suf: number;
      if (ms.length >= 4 || cardSlot === undefined || !cards) {
        pre = commonPrefix(ms);
        suf = commonSuffix(
          ms,
          ms.map(() => pre),
        );
      } else {
        // few frames (a rescan): the card's spelling under the coding learned from the plain cards
        const spelled = ms.map((m, k) => {
          // the spelling the plain cards use (`07`, not the `7` inside it), else the longest
          const fits = cardClass === undefined ? null : new RegExp(`^${cardClass}$`);
          const sp = cardSpellings(known[k], cards!)
            .filter((x) => m.includes(x))
            .sort((a, b) => Number(fits?.test(b) ?? 0) - Number(fits?.test(a) ?? 0) || b.length - a.length)[0];
          return sp === undefined ? undefined : { pre: m.indexOf(sp), suf: m.length - m.indexOf(sp) - sp.length };
        });
        if (spelled.some((x) => x === undefined)) return fail(`${cl.key}: the card's code is not in its frame`);
        pre = spelled[0]!.pre;
        suf = spelled[0]!.suf;
        if (spelled.some((x) => x!.pre !== pre || x!.suf !== suf)) return fail(`${cl.key}: the card's code moves within the frame`);
      }
      // a common part may belong to the codes (four-digit codes all end in 0): give back up to 3 characters on each side where a preset then reads them
      if (cl.key === 'card' || !cards) {
        let found = false;
        for (let give = 1; give <= 6 && !found; give++) {
          for (let dp = 0; dp <= Math.min(3, give, pre) && !found; dp++) {
            const ds = give - dp;
            if (ds > 3 || ds > suf) continue;
            const cs = ms.map((m) => m.slice(pre - dp, m.length - suf + ds));
            if (
              CARD_PRESETS.some((o) => cs.every((c, k) => cardDecoder(o)(c) === known[k])) &&
              !CARD_PRESETS.some((o) => ms.every((m, k) => cardDecoder(o)(m.slice(pre, m.length - suf)) === known[k]))
            ) {
              pre -= dp;
              suf -= ds;
              found = true;
            }
          }
        }
      }
      const codes = ms.map((m) => m.slice(pre, m.length - suf));
      if (codes.some((c) => c.length === 0)) return fail(`${cl.key}: no card code between the common parts of the frames`);
      if (cl.key === 'card' || !cards) {
        const solved = solveCards(codes, known);
        if (!solved.cards) return fail(solved.problem ?? 'no card coding');
        cards = solved.cards;
        cardAlternatives = solved.alternatives;
        notes.push(solved.note);
      } else {
        const d = cardDecoder(cards);
        if (codes.some((c, k) => d(c) !== known[k]))
          return fail(`${cl.key}: the codes ${codes.join(' ')} do not read as ${known.join(' ')} with the plain cards' coding`);
      }
      cardSlot = { prefix: pre, suffix: suf };
      const template = `${ms[0].slice(0, pre)}\u0001${ms[0].slice(ms[0].length - suf)}`;
      if (ms.some((m) => m.slice(0, pre) !== ms[0].slice(0, pre) || m.slice(m.length - suf) !== ms[0].slice(ms[0].length - suf)))
        return fail(`${cl.key}: the frames differ beyond the card`);
      const klass = cards.preset === 'table' ? codeClass(Object.keys(cards.table ?? {})) : cl.key !== 'card' && cardClass ? cardClass : presetClass(cards);
      if (cl.key === 'card') cardClass = klass;
      messages.push({
        name: cl.key,
        pattern: textPattern(template, seq, `(?<card>${klass})`),
        type: 'CARD',
        fields: cl.fields,
        map: {},
        ranges: {},
        ...seqName,
        emit: template.replace('\u0000', '{seq}').replace('\u0001', '{card}'),
      });
    } else {
      const lens = new Set(cl.members.map((m) => m.payload.length));
      if (lens.size !== 1) return fail(`${cl.key}: frames of ${[...lens].join(' and ')} bytes`);
      const len = [...lens][0];
      const isSeq = (at: number): boolean => seq?.at !== undefined && at >= seq.at && at < seq.at + (seq.width ?? 1);
      let lo: number;
      let hi: number;
      if (cl.members.length >= 4 || !cardSlot || !('at' in cardSlot)) {
        const vary: number[] = [];
        for (let at = 0; at < len; at++) if (!isSeq(at) && new Set(cl.members.map((m) => m.payload[at])).size > 1) vary.push(at);
        if (vary.length === 0) return fail(`${cl.key}: no byte changes with the card`);
        lo = vary[0];
        hi = vary[vary.length - 1];
        if (hi - lo >= 4) return fail(`${cl.key}: the bytes that change with the card (${vary.join(', ')}) span more than 4 bytes`);
      } else {
        lo = cardSlot.at;
        hi = cardSlot.at + cardSlot.width - 1;
        if (hi >= len) return fail(`${cl.key}: shorter than the plain card frames`);
      }
      const width = (hi - lo + 1) as 1 | 2 | 3 | 4;
      const value = (p: Buffer): number => {
        let v = 0;
        for (let k = lo; k <= hi; k++) v = v * 256 + p[k];
        return v;
      };
      const codes = cl.members.map((m) => String(value(m.payload)));
      if (cl.key === 'card' || !cards) {
        // the other card frames of the same length (a rescan) carry codes at the same place: they count for a table too
        const more = [...classes.values()].filter((c) => c !== cl && c.variable === 'card').flatMap((c) => c.members.filter((m) => m.payload.length === len));
        const allCodes = [...codes, ...more.map((m) => String(value(m.payload)))];
        const allKnown = [...known, ...more.map((m) => (m.event as { card: string }).card)];
        const solved = solveCards(allCodes, allKnown);
        // numbers no preset reads, too few for a table: a rule built from suit and rank gives the 52
        const rule = !solved.cards && solved.problem?.startsWith('deal more cards') ? solveCardRule(allCodes, allKnown, 256 ** width - 1) : undefined;
        if (rule) {
          cards = rule.cards;
          notes.push(rule.note);
          if (rule.unseenRanks.length > 0)
            warnings.push(`the codes of ranks not dealt (${rule.unseenRanks.join(' ')}) follow the card rule: deal them once to confirm`);
        } else {
          if (!solved.cards) return fail(solved.problem ?? 'no card coding');
          cards = solved.cards;
          cardAlternatives = solved.alternatives;
          notes.push(solved.note);
        }
      } else {
        const d = cardDecoder(cards);
        if (codes.some((c, k) => d(c) !== known[k])) return fail(`${cl.key}: the card bytes do not read as the script's cards with the plain cards' coding`);
      }
      cardSlot = { at: lo, width };
      const b = cl.members[0].payload;
      const match = [...b].map((v, at) => ({ at, value: v, mask: 0xff })).filter((x) => !isSeq(x.at) && (x.at < lo || x.at > hi));
      for (const m of cl.members) if (match.some((x) => m.payload[x.at] !== x.value)) return fail(`${cl.key}: the frames differ beyond the card`);
      messages.push({
        name: cl.key,
        bytes: { length: len, match, fields: { ...seqField, card: { at: lo, width, order: 'be', as: 'number' } } },
        type: 'CARD',
        fields: cl.fields,
        map: {},
        ranges: {},
        ...seqName,
      });
    }
  }
  let heartbeats = 0;
  if (hbKey !== undefined) {
    const hb = valid.find((_, k) => keys[k] === hbKey)!;
    heartbeats = counts.get(hbKey)!;
    if (text)
      messages.push({
        name: 'heartbeat',
        pattern: textPattern(hbKey, seq),
        type: 'HB',
        fields: {},
        map: {},
        ranges: {},
        ...seqName,
        emit: hbKey.replace('\u0000', '{seq}'),
      });
    else {
      const match = [...hb.payload]
        .map((value, at) => ({ at, value, mask: 0xff }))
        .filter((x) => !(seq?.at !== undefined && x.at >= seq.at && x.at < seq.at + (seq.width ?? 1)));
      messages.push({
        name: 'heartbeat',
        bytes: { length: hb.payload.length, match, fields: { ...seqField } },
        type: 'HB',
        fields: {},
        map: {},
        ranges: {},
        ...seqName,
      });
    }
    notes.push(`heartbeat: the frame that repeats (${heartbeats} times, SEQ aside)`);
  } else warnings.push('no heartbeat in the capture: leave the device idle for a few seconds while recording to learn it');
  if (seq)
    notes.push(
      seq.run !== undefined
        ? `SEQ: the ${ordinal(seq.run)} number of the body, counting up over ${valid.length} frames`
        : `SEQ: ${seq.width} byte${seq.width === 2 ? `s ${seq.order}` : ''} at offset ${seq.at}, counting up over ${valid.length} frames`,
    );
  notes.push(
    `messages: ${messages.map((m) => `${m.name} (${m.name === 'heartbeat' ? heartbeats : (classes.get(m.name)?.members.length ?? 0)})`).join(', ')}, from ${others.length} frames aligned with the script; ${frames - valid.length} other frames are rejects`,
  );
  if (events.some((e) => e.type === 'CARD') && !events.some((e) => e.type === 'MISREAD'))
    warnings.push('include a misread: the deal had no MISREAD, so the profile has no message for a misread (or its rescan) and would reject them');
  warnings.push(...shufflerWarnings(events));
  return { messages: constantsFirst(messages, classes), cards, seq, heartbeats, notes, warnings, cardAlternatives };
}

/** every card of the deck as the preset spells it, not only the cards dealt: a ten or an ace not in the deal still matches */
export function presetClass(cards: CardCodeOptions): string {
  return codeClass([...'SHDC'].flatMap((s) => [...'A23456789TJQK'].flatMap((r) => cardSpellings(r + s, cards))));
}

/** the messages with a fixed body before those with a field: a card pattern never takes a heartbeat's (or any constant message's) frame */
export function constantsFirst(messages: Message[], classes: Map<string, EventClass>): Message[] {
  const varies = (m: Message): boolean => classes.get(m.name)?.variable !== undefined;
  return [...messages.filter((m) => !varies(m)), ...messages.filter(varies)];
}

export const ordinal = (n: number): string => ['first', 'second', 'third'][n] ?? `#${n + 1}`;
