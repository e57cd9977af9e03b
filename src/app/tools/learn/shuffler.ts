/**
 * The shuffler's part of the learner: its script tokens (`SHUF:<state>`, `COUNT:<n>`) and the
 * message that carries the number of cards counted, learned from the frames aligned with the
 * script's `COUNT` events (text: the digits between the frames' common parts; binary: the byte or
 * 16-bit word that holds the count).
 */
import { SHUFFLER_STATES } from '../../../../drivers/codecs/shuffler-codec.js';
import type { BinaryField, DeviceProfile } from '../../../../drivers/profiles/profile-schema.js';
import type { ShufflerState } from '../../../core/vocabulary/frames.js';
import type { SeqField } from './seq.js';

export type ShufflerEvent = { type: 'SHUF_STATE'; state: ShufflerState } | { type: 'COUNT'; count: number };

/** the largest count a shuffler reports (device-protocols.md §1, SHUF) */
export const MAX_COUNT = 999;

/**
 * `SHUF:READY` -> a shuffler state, `COUNT:52` -> the cards counted; null when the token is
 * neither; a reason when it is one of them, badly written.
 */
export function shufflerToken(tok: string): ShufflerEvent | { bad: string } | null {
  if (tok.startsWith('SHUF:')) {
    const state = tok.slice(5);
    if (!(SHUFFLER_STATES as readonly string[]).includes(state))
      return { bad: `SHUF: needs a shuffler state, one of ${SHUFFLER_STATES.join(', ')} (SHUF:READY)` };
    return { type: 'SHUF_STATE', state: state as ShufflerState };
  }
  if (tok.startsWith('COUNT:')) {
    const t = tok.slice(6);
    const n = Number(t);
    if (!/^\d{1,3}$/.test(t) || n > MAX_COUNT) return { bad: `COUNT: needs the number of cards counted, 0..${MAX_COUNT} (COUNT:52)` };
    return { type: 'COUNT', count: n };
  }
  return null;
}

type Message = DeviceProfile['messages'][number];

export interface CountLearned {
  message?: Message;
  note?: string;
  problem?: string;
}

/**
 * The count message from its frames (SEQ masked: `masked` of seq.ts) and the counts the script
 * gives. `pattern(template, middle)` builds the text pattern the way the other messages are built.
 */
export function learnCount(
  name: string,
  ms: string[],
  payloads: Buffer[],
  counts: number[],
  text: boolean,
  seq: SeqField | undefined,
  pattern: (template: string, middle: string) => string,
): CountLearned {
  const seqName = seq ? { seq: 'seq' } : {};
  if (text) {
    let pre = 0;
    while (ms.every((m) => pre < m.length && m[pre] === ms[0][pre])) pre++;
    let suf = 0;
    while (ms.every((m) => m.length - suf - 1 >= pre && m[m.length - 1 - suf] === ms[0][ms[0].length - 1 - suf])) suf++;
    // digits the frames share belong to the count (416 and 406 share their 4 and 6)
    while (pre > 0 && /\d/.test(ms[0][pre - 1])) pre--;
    while (suf > 0 && /\d/.test(ms[0][ms[0].length - suf])) suf--;
    const codes = ms.map((m) => m.slice(pre, m.length - suf));
    const k = codes.findIndex((c, i) => !/^\d{1,3}$/.test(c) || Number(c) !== counts[i]);
    if (k >= 0) return { problem: `${name}: frame ${k + 1} says ${JSON.stringify(codes[k])} where the script says COUNT:${counts[k]}` };
    const head = ms[0].slice(0, pre);
    const tail = ms[0].slice(ms[0].length - suf);
    if (ms.some((m) => m.slice(0, pre) !== head || m.slice(m.length - suf) !== tail)) return { problem: `${name}: the frames differ beyond the count` };
    const template = `${head}\u0001${tail}`;
    return {
      message: {
        name,
        pattern: pattern(template, '(?<count>\\d{1,3})'),
        type: 'COUNT',
        fields: {},
        map: {},
        ranges: {},
        ...seqName,
        emit: template.replace('\u0000', '{seq}').replace('\u0001', '{count}'),
      } as Message,
      note: `count: decimal, from ${counts.length} counts`,
    };
  }
  const len = payloads[0].length;
  if (payloads.some((p) => p.length !== len)) return { problem: `${name}: frames of different lengths` };
  const isSeq = (at: number): boolean => seq?.at !== undefined && at >= seq.at && at < seq.at + (seq.width ?? 1);
  const read = (p: Buffer, at: number, width: 1 | 2, order: 'be' | 'le'): number =>
    width === 1 ? p[at] : order === 'be' ? p.readUInt16BE(at) : p.readUInt16LE(at);
  let field: BinaryField | undefined;
  for (const [width, order] of [
    [1, 'be'],
    [2, 'be'],
    [2, 'le'],
  ] as const) {
    for (let at = 0; at + width <= len && !field; at++) {
      if (isSeq(at) || (width === 2 && isSeq(at + 1))) continue;
      if (payloads.every((p, i) => read(p, at, width, order) === counts[i])) field = { at, width, order, as: 'number' } as BinaryField;
    }
    if (field) break;
  }
  if (!field) return { problem: `${name}: no byte or 16-bit word says the script's counts` };
  const f = field;
  const inField = (at: number): boolean => at >= f.at && at < f.at + (f.width ?? 1);
  const match = [...payloads[0]]
    .map((value, at) => ({ at, value, mask: 0xff }))
    .filter((x) => !isSeq(x.at) && !inField(x.at) && payloads.every((p) => p[x.at] === x.value));
  const seqField: Record<string, BinaryField> =
    seq?.at !== undefined ? { seq: { at: seq.at, width: seq.width ?? 1, order: seq.order ?? 'be', as: 'number' } as BinaryField } : {};
  return {
    message: { name, bytes: { length: len, match, fields: { ...seqField, count: f } }, type: 'COUNT', fields: {}, map: {}, ranges: {}, ...seqName } as Message,
    note: `count: ${f.width === 2 ? `a 16-bit ${f.order} word` : 'the byte'} at offset ${f.at}, from ${counts.length} counts`,
  };
}

/** advice when a shuffler's deal left out states or the count: the learned profile rejects what it never saw */
export function shufflerWarnings(events: readonly { type: string; state?: string }[]): string[] {
  const shuf = events.filter((e) => e.type === 'SHUF_STATE' || e.type === 'COUNT');
  if (shuf.length === 0) return [];
  const seen = new Set(shuf.map((e) => (e.type === 'COUNT' ? 'COUNT' : e.state)));
  const missing = [...SHUFFLER_STATES.map((s) => `SHUF:${s}`), 'COUNT:<n>'].filter((t) => !seen.has(t === 'COUNT:<n>' ? 'COUNT' : t.slice(5)));
  return missing.length === 0
    ? []
    : [
        `the deal showed no ${missing.join(', ')}: the profile has no message for them and would reject them (make the shuffler show them while recording, and list them)`,
      ];
}
