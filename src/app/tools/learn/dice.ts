/**
 * Dice fields of the learner: where a dice reader's binary frame (or HID report) carries the three
 * dice of each roll, searched as byte offset x bit position x width (a whole byte, three bits of a
 * byte, or three bits across two bytes read as a 16-bit word in either order), so dice packed in
 * bit fields are found as well as dice in bytes of their own. The bits beside the dice that change
 * from roll to roll are the bounce count (the script does not list bounces). Pure.
 */
import type { BinaryField, DeviceProfile } from '../../../../drivers/profiles/profile-schema.js';
import type { ScriptEvent } from './script.js';
import { masked, type SeqField } from './seq.js';

export interface DiceMember {
  payload: Buffer;
  dice: readonly [number, number, number];
}

export interface DiceFields {
  /** d1, d2, d3 and (when bits beside the dice change) bounces */
  fields: Record<string, BinaryField>;
  /** the bytes that hold a field's bits (the others may be matched as constants) */
  used: Set<number>;
  note: string;
}

/** a candidate place: the (byte, bit) pairs from the least significant up, and how a profile says it */
interface Place {
  bits: Array<[number, number]>;
  field: BinaryField;
}

const key = (p: Place): string => p.bits.map(([b, i]) => `${b}.${i}`).join(',');
const read = (p: Place, b: Buffer): number => p.bits.reduce((v, [at, bit], k) => v | (((b[at] >> bit) & 1) << k), 0);

/** the bits of a 16-bit word at `at` in `order`, bit k of the word as (byte, bit) */
function wordBit(at: number, order: 'le' | 'be', k: number): [number, number] {
  const low = order === 'le' ? at : at + 1;
  const high = order === 'le' ? at + 1 : at;
  return k < 8 ? [low, k] : [high, k - 8];
}

/** every place of `width` bits: within one byte, or across two bytes as a word in either order */
function places(len: number, width: number, skip: (at: number) => boolean): Place[] {
  const out: Place[] = [];
  for (let at = 0; at < len; at++) {
    if (skip(at)) continue;
    for (let lo = 0; lo + width <= 8; lo++)
      out.push({
        bits: Array.from({ length: width }, (_, k) => [at, lo + k] as [number, number]),
        field: { at, width: 1, order: 'be', as: 'number', ...(width === 8 ? {} : { bits: [lo, lo + width - 1] as [number, number] }) },
      });
    if (at + 1 >= len || skip(at + 1)) continue;
    for (const order of ['le', 'be'] as const)
      for (let lo = 9 - width; lo < 8; lo++)
        out.push({
          bits: Array.from({ length: width }, (_, k) => wordBit(at, order, lo + k)),
          field: { at, width: 2, order, as: 'number', bits: [lo, lo + width - 1] },
        });
  }
  return out;
}

const bitText = (f: BinaryField): string => {
  const where = f.width === 2 ? `of the ${f.order === 'le' ? 'little' : 'big'}-endian word at offset ${f.at}` : `of the byte at offset ${f.at}`;
  return f.bits ? `bits ${f.bits[0]}-${f.bits[1]} ${where}` : `the byte at offset ${f.at}`;
};

/** the same bits as a field of the word at `at` in `order`, when they lie in it */
function asWord(p: Place, at: number, order: 'le' | 'be'): BinaryField | undefined {
  const ks = p.bits.map(([b, i]) => {
    for (let k = 0; k < 16; k++) {
      const [wb, wi] = wordBit(at, order, k);
      if (wb === b && wi === i) return k;
    }
    return -1;
  });
  if (ks.some((k) => k < 0) || ks.some((k, n) => n > 0 && k !== ks[n - 1] + 1)) return undefined;
  return { at, width: 2, order, as: 'number', bits: [ks[0], ks[ks.length - 1]] };
}

/**
 * Where the dice are in the rolls' frames, with `skip` the bytes that are not theirs (the SEQ).
 * A problem names what is missing: `roll more dice` when the rolls seen fit more than one place.
 */
export function learnDiceFields(members: readonly DiceMember[], skip: (at: number) => boolean): DiceFields | { problem: string } {
  const len = members[0].payload.length;
  if (members.some((m) => m.payload.length !== len)) return { problem: 'roll: frames of different lengths' };
  for (let j = 0; j < 3; j++) {
    const seen = new Set(members.map((m) => m.dice[j]));
    if (seen.size < 2)
      return { problem: `roll more dice: die ${j + 1} showed only ${[...seen].join('')} in the ${members.length} rolls, which cannot say where it is` };
  }
  const three = places(len, 3, skip);
  const whole = places(len, 8, skip).filter((p) => p.field.width === 1);
  const chosen: Place[] = [];
  for (let j = 0; j < 3; j++) {
    const fits = (p: Place): boolean => members.every((m) => read(p, m.payload) === m.dice[j]);
    const byte = whole.filter(fits);
    if (byte.length === 1) {
      chosen.push(byte[0]);
      continue;
    }
    const fit = byte.length > 1 ? byte : three.filter(fits);
    const distinct = [...new Map(fit.map((p) => [key(p), p])).values()];
    if (distinct.length === 0) return { problem: `roll: no byte or bit field says die ${j + 1} of the script's rolls` };
    if (distinct.length > 1)
      return {
        problem: `roll more dice: die ${j + 1} of the ${members.length} rolls fits ${distinct
          .slice(0, 3)
          .map((p) => bitText(p.field))
          .join(' and ')}`,
      };
    chosen.push(distinct[0]);
  }
  const taken = new Set(chosen.flatMap((p) => p.bits.map(([b, i]) => `${b}.${i}`)));
  if (taken.size !== chosen.reduce((n, p) => n + p.bits.length, 0)) return { problem: 'roll more dice: two dice fit the same bits' };
  // the bits that change beside the dice: the bounce count
  const vary: Array<[number, number]> = [];
  for (let at = 0; at < len; at++) {
    if (skip(at)) continue;
    for (let i = 0; i < 8; i++) if (!taken.has(`${at}.${i}`) && new Set(members.map((m) => (m.payload[at] >> i) & 1)).size > 1) vary.push([at, i]);
  }
  const fields: Record<string, BinaryField> = {};
  // a word one die straddles: the dice in its two bytes are written as bits of it too
  const word = chosen.find((p) => p.field.width === 2)?.field;
  chosen.forEach((p, j) => {
    const inWord = word && p.field.bits !== undefined ? asWord(p, word.at, word.order) : undefined;
    fields[`d${j + 1}`] = inWord ?? p.field;
  });
  let bouncesNote = 'no bounce count (no other bit changes)';
  if (vary.length > 0) {
    const bytes = [...new Set(vary.map(([b]) => b))];
    const diceBytes = new Set(chosen.flatMap((p) => p.bits.map(([b]) => b)));
    let f: BinaryField | undefined;
    if (bytes.length === 1 && !diceBytes.has(bytes[0])) f = { at: bytes[0], width: 1, order: 'be', as: 'number' };
    else {
      // the lowest to the highest changing bit, as bits of one byte or of a word, clear of the dice
      const lo = Math.min(...bytes);
      const tries: Array<{ at: number; order: 'le' | 'be' }> = [
        ...(word ? [{ at: word.at, order: word.order }] : []),
        { at: lo, order: 'le' },
        { at: lo, order: 'be' },
        { at: lo - 1, order: 'le' },
        { at: lo - 1, order: 'be' },
      ];
      for (const t of tries) {
        if (t.at < 0 || t.at + 1 >= len) continue;
        const ks = vary.map(([b, i]) => {
          for (let k = 0; k < 16; k++) {
            const [wb, wi] = wordBit(t.at, t.order, k);
            if (wb === b && wi === i) return k;
          }
          return -1;
        });
        if (ks.some((k) => k < 0)) continue;
        const [a, z] = [Math.min(...ks), Math.max(...ks)];
        let clear = true;
        for (let k = a; k <= z; k++) if (taken.has(wordBit(t.at, t.order, k).join('.'))) clear = false;
        if (!clear) continue;
        const single = !word && bytes.length === 1 && a >= 0 && z < 16 && wordBit(t.at, t.order, a)[0] === wordBit(t.at, t.order, z)[0];
        if (single) {
          const [b, ia] = wordBit(t.at, t.order, a);
          f = { at: b, width: 1, order: 'be', as: 'number', bits: [ia, wordBit(t.at, t.order, z)[1]] };
        } else f = { at: t.at, width: 2, order: t.order, as: 'number', bits: [a, z] };
        break;
      }
    }
    if (!f) return { problem: `roll: bits change beside the dice in bytes ${bytes.join(', ')}, in no one field (a bounce count would be one)` };
    fields.bounces = f;
    bouncesNote = `bounces ${bitText(f)} (the other bits that change; the script does not list bounces: check one roll's count)`;
  }
  const used = new Set<number>();
  for (const p of chosen) for (const [b] of p.bits) used.add(b);
  for (const [b] of vary) used.add(b);
  const where = (f: BinaryField): string =>
    f.width === 2 ? `the ${f.order === 'le' ? 'little' : 'big'}-endian word at offset ${f.at}` : `the byte at offset ${f.at}`;
  const all = Object.values(fields);
  if (all.every((f) => f.bits && where(f) === where(all[0]))) {
    const list = Object.entries(fields).map(([k, f]) => `${k} bits ${f.bits![0]}-${f.bits![1]}`);
    const more = fields.bounces ? " (bounces: the other bits that change; the script does not list bounces: check one roll's count)" : '';
    return { fields, used, note: `dice: ${list.join(', ')} of ${where(all[0])}${more}, from ${members.length} rolls` };
  }
  const diceText = chosen.map((_, j) => `d${j + 1} ${bitText(fields[`d${j + 1}`])}`).join(', ');
  return { fields, used, note: `dice: ${diceText}; ${bouncesNote}; from ${members.length} rolls` };
}

/** the roll frames of the script's events (messages.ts EventClass) */
export interface RollClass {
  key: string;
  fields: Record<string, string | number | boolean>;
  members: ReadonlyArray<{ payload: Buffer; event: ScriptEvent }>;
}

/** the roll message of a binary frame: the dice fields, the SEQ, and the bytes that stay the same as matches */
export function diceMessage(cl: RollClass, seq: SeqField | undefined): { message: DeviceProfile['messages'][number]; note: string } | { problem: string } {
  const isSeq = (at: number): boolean => seq?.at !== undefined && at >= seq.at && at < seq.at + (seq.width ?? 1);
  const members = cl.members.map((m) => ({ payload: m.payload, dice: (m.event as Extract<ScriptEvent, { type: 'ROLL' }>).dice }));
  const r = learnDiceFields(members, isSeq);
  if ('problem' in r) return r;
  const b = members[0].payload;
  const match = [...b]
    .map((value, at) => ({ at, value, mask: 0xff }))
    .filter((x) => !isSeq(x.at) && !r.used.has(x.at) && members.every((m) => m.payload[x.at] === x.value));
  const seqField: Record<string, BinaryField> =
    seq?.at !== undefined ? { seq: { at: seq.at, width: seq.width ?? 1, order: seq.order ?? 'be', as: 'number' } } : {};
  return {
    message: {
      name: cl.key,
      bytes: { length: b.length, match, fields: { ...seqField, ...r.fields } },
      type: 'ROLL',
      fields: cl.fields,
      map: {},
      ranges: {},
      ...(seq ? { seq: 'seq' } : {}),
    },
    note: r.note,
  };
}

const escapeText = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The roll message of a text frame: the digit runs of the body (SEQ aside) that are the script's
 * dice, one digit each, the run that changes beside them the bounces, the rest literal.
 */
export function textDiceMessage(cl: RollClass, seq: SeqField | undefined): { message: DeviceProfile['messages'][number]; note: string } | { problem: string } {
  const texts = cl.members.map((m) => masked(m.payload, seq, true));
  const split = texts.map((t) => t.split(/(\d+)/));
  const shape = (parts: string[]): string => parts.map((p, k) => (k % 2 ? '#' : p)).join('');
  if (new Set(split.map(shape)).size !== 1)
    return {
      problem: `roll: the frames differ beyond their numbers (${texts
        .slice(0, 2)
        .map((t) => JSON.stringify(t))
        .join(' / ')})`,
    };
  const runs = (split[0].length - 1) / 2;
  const dice = cl.members.map((m) => (m.event as Extract<ScriptEvent, { type: 'ROLL' }>).dice);
  for (let j = 0; j < 3; j++) {
    const seen = new Set(dice.map((d) => d[j]));
    if (seen.size < 2)
      return { problem: `roll more dice: die ${j + 1} showed only ${[...seen].join('')} in the ${dice.length} rolls, which cannot say where it is` };
  }
  const run = (m: number, r: number): string => split[m][2 * r + 1];
  const role: string[] = [];
  for (let j = 0; j < 3; j++) {
    const fit = [...Array(runs).keys()].filter((r) => split.every((_, m) => run(m, r) === String(dice[m][j])));
    if (fit.length === 0) return { problem: `roll: no number of the frames says die ${j + 1} of the script's rolls` };
    if (fit.length > 1)
      return { problem: `roll more dice: die ${j + 1} of the ${dice.length} rolls fits the ${fit.map((r) => `#${r + 1}`).join(' and ')} numbers of the frame` };
    if (role[fit[0]]) return { problem: 'roll more dice: two dice fit the same number' };
    role[fit[0]] = `d${j + 1}`;
  }
  const changing = [...Array(runs).keys()].filter((r) => !role[r] && new Set(split.map((_, m) => run(m, r))).size > 1);
  if (changing.length > 1) return { problem: `roll: ${changing.length} numbers beside the dice change (a bounce count would be one)` };
  if (changing.length === 1) role[changing[0]] = 'bounces';
  const seqRe = seq?.digits ? `(?<seq>\\d{${seq.digits}})` : '(?<seq>\\d{1,5})';
  const lit = (t: string, re: boolean): string =>
    t
      .split('\u0000')
      .map((x) => (re ? escapeText(x) : x))
      .join(re ? seqRe : '{seq}');
  const build = (re: boolean): string =>
    split[0]
      .map((p, k) => {
        if (k % 2 === 0) return lit(p, re);
        const r = (k - 1) / 2;
        const name = role[r];
        if (!name) return p;
        if (!re) return `{${name}}`;
        return name === 'bounces' ? '(?<bounces>\\d{1,2})' : `(?<${name}>[1-6])`;
      })
      .join('');
  const names = ['d1', 'd2', 'd3'].map((d) => `#${role.indexOf(d) + 1}`);
  return {
    message: {
      name: cl.key,
      pattern: build(true),
      type: 'ROLL',
      fields: cl.fields,
      map: {},
      ranges: {},
      ...(seq ? { seq: 'seq' } : {}),
      emit: build(false),
    },
    note: `dice: the ${names.join(', ')} numbers of the body (SEQ aside)${role.includes('bounces') ? `, bounces the #${role.indexOf('bounces') + 1} (the number that changes beside them; the script does not list bounces: check one roll's count)` : ''}, from ${dice.length} rolls`,
  };
}
