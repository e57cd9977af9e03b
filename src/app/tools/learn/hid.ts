/**
 * The learner on a HID capture (device-protocols.md §2b, §3.1 "HID layouts"): each chunk of the
 * capture is one input report as the device sent it, so there is no framing to search; the report
 * layout is learned instead: the report length (the usual chunk length; others are rejects), the
 * check value (algorithm x offset x byte order x covered range, the one that verifies the most
 * reports), the report id (byte 0 when it never changes), the SEQ byte (the byte that counts up),
 * the heartbeat (the report that repeats while idle), the type byte (the byte that is the same
 * within each kind of event and differs between kinds) and the fields: the card (a byte or two,
 * its coding from a preset or an explicit table), the ball, the dice (bit fields, dice.ts). The
 * profile is written only when the gateway's own decoder reads the capture, as it arrived and
 * with its reports batched, to exactly the script's events (verify.ts). Pure.
 */
import { parse as parseYaml } from 'yaml';
import { checksum, checksumBytes, INTEGRITY_ALGORITHMS, type IntegrityAlgorithm } from '../../../../drivers/profiles/checksums.js';
import { cardDecoder, type CardCodeOptions } from '../../../../drivers/profiles/card-codes.js';
import { type BinaryField, type DeviceProfile, ProfileError, validateProfile } from '../../../../drivers/profiles/profile-schema.js';
import type { CaptureChunk } from '../capture-file.js';
import { solveCards } from './cards.js';
import { learnDiceFields } from './dice.js';
import { type LearnKind, TALKER } from './kinds.js';
import { classOf } from './messages.js';
import { toYaml } from './profile-output.js';
import type { ScriptEvent } from './script.js';
import { findSeq } from './seq.js';
import { verify } from './verify.js';

/** one candidate tried (profile-learn.ts CandidateSummary) */
interface CandidateSummary {
  description: string;
  matched: number;
  problem?: string;
}

/** what the learner answers (profile-learn.ts LearnResult, whose HID part this is) */
export type HidLearnResult =
  | { exit: 0; status: 'learned'; profile: DeviceProfile; yaml: string; notes: string[]; warnings: string[]; equivalent: number }
  | { exit: 3; status: 'ambiguous'; reason: string; tellApart: string[]; candidates: CandidateSummary[] }
  | { exit: 1; status: 'failed'; code: 'no-profile'; reason: string; closest: CandidateSummary[] };

/** the longest HID report a layout states (profile-schema.ts reportLayoutSchema) */
const MAX_REPORT = 64;

/** the usual chunk length of a capture, and how many chunks have it */
function reportLength(chunks: readonly CaptureChunk[]): { length: number; count: number } {
  const n = new Map<number, number>();
  for (const c of chunks) if (c.bytes.length >= 2 && c.bytes.length <= MAX_REPORT) n.set(c.bytes.length, (n.get(c.bytes.length) ?? 0) + 1);
  let best = { length: 0, count: 0 };
  for (const [length, count] of n) if (count > best.count) best = { length, count };
  return best;
}

/**
 * Whether a capture with no transport named looks like HID reports: most chunks of one length
 * of at most 64 bytes (a serial port delivers chunks of every length).
 */
export function looksLikeReports(chunks: readonly CaptureChunk[]): boolean {
  const r = reportLength(chunks);
  return chunks.length >= 3 && r.count >= chunks.length * 0.6;
}

export interface ReportCheck {
  algorithm: IntegrityAlgorithm;
  offset: number;
  order: 'be' | 'le';
  from: number;
  to: number;
}

const hex2 = (b: number): string => `0x${b.toString(16).padStart(2, '0')}`;
const describeCheck = (c: ReportCheck | undefined): string =>
  c ? `${c.algorithm} at offset ${c.offset}${checksumBytes(c.algorithm) > 1 ? ` (${c.order})` : ''} over bytes ${c.from}..${c.to - 1}` : 'no check value';

function checkOk(r: Buffer, c: ReportCheck): boolean {
  const w = checksumBytes(c.algorithm);
  let want = 0;
  for (let i = 0; i < w; i++) want = want * 256 + r[c.order === 'le' ? c.offset + w - 1 - i : c.offset + i];
  return checksum(c.algorithm, r, c.from, c.to) === want;
}

/**
 * The check values that verify the most reports: every algorithm of the catalogue at every offset
 * (both orders when wider than a byte), over the bytes before it (from byte 0 or byte 1, past a
 * report id) or after it. A check over bytes that never change, or whose value never changes, says
 * nothing and is not taken. Ties: at the end of the report first, then from byte 0, then the
 * catalogue's order.
 */
export function reportChecks(reports: readonly Buffer[], L: number): { best: ReportCheck[]; verified: number } {
  const varies = Array.from({ length: L }, (_, at) => new Set(reports.map((r) => r[at])).size > 1);
  let best: ReportCheck[] = [];
  let verified = 0;
  let bestRank = Number.POSITIVE_INFINITY;
  for (const algorithm of INTEGRITY_ALGORITHMS) {
    if (algorithm === 'none') continue;
    const w = checksumBytes(algorithm);
    for (let offset = 0; offset + w <= L; offset++) {
      if (!Array.from({ length: w }, (_, k) => varies[offset + k]).some(Boolean)) continue;
      const ranges: Array<[number, number]> = [];
      if (offset > 0) ranges.push([0, offset]);
      if (offset > 1) ranges.push([1, offset]);
      if (offset + w < L) ranges.push([offset + w, L]);
      for (const [from, to] of ranges) {
        if (!varies.slice(from, to).some(Boolean)) continue;
        for (const order of w > 1 ? (['le', 'be'] as const) : (['le'] as const)) {
          const c: ReportCheck = { algorithm, offset, order, from, to };
          let n = 0;
          for (const r of reports) if (checkOk(r, c)) n++;
          const rank = (offset + w === L ? 0 : 2) + (from === 0 ? 0 : 1);
          if (n > verified || (n === verified && n > 0 && rank < bestRank)) {
            verified = n;
            bestRank = rank;
            best = [c];
          } else if (n === verified && n > 0 && rank === bestRank && best[0].algorithm !== algorithm) best.push(c);
        }
      }
    }
  }
  return { best, verified };
}

type Fail = { problem: string };

interface Layout {
  data: Record<string, unknown>;
  notes: string[];
  warnings: string[];
  cardAlternatives: string[];
}

/** the layout of the verified reports aligned with the script's events */
function learnLayout(valid: Buffer[], events: readonly ScriptEvent[], L: number, check: ReportCheck | undefined, kind: LearnKind, name: string): Layout | Fail {
  const notes: string[] = [];
  const warnings: string[] = [];
  const checkBytes = new Set<number>(check ? Array.from({ length: checksumBytes(check.algorithm) }, (_, k) => check.offset + k) : []);
  // the report id: byte 0 when it never changes
  const id = !checkBytes.has(0) && valid.every((r) => r[0] === valid[0][0]) ? { offset: 0, value: valid[0][0] } : undefined;
  const seqFound = findSeq(
    valid.map((payload) => ({ payload })),
    false,
  );
  // a 16-bit SEQ: the layout reads its low byte (the driver counts it modulo 256)
  const seqAt = seqFound?.at === undefined ? undefined : seqFound.width === 2 && seqFound.order === 'be' ? seqFound.at + 1 : seqFound.at;
  const seq = seqAt !== undefined && !checkBytes.has(seqAt) && seqAt !== id?.offset ? seqAt : undefined;
  const skip = (at: number): boolean => checkBytes.has(at) || at === seq || at === id?.offset;
  const keyOf = (r: Buffer): string => {
    const b = Buffer.from(r);
    for (let at = 0; at < L; at++) if (at === seq || checkBytes.has(at)) b[at] = 0;
    return b.toString('hex');
  };
  const keys = valid.map(keyOf);
  const counts = new Map<string, number>();
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  const hb = [...counts.entries()].filter(([, n]) => n >= 2 && valid.length - n === events.length).sort((a, b) => b[1] - a[1])[0];
  if (!hb && valid.length !== events.length)
    return { problem: `${valid.length} reports verify, the script has ${events.length} events and no repeating report makes up the difference` };
  const hbKey = hb?.[0];
  const others = valid.filter((_, k) => keys[k] !== hbKey);
  const classes = new Map<
    string,
    { type: DeviceProfile['messages'][number]['type']; fields: Record<string, string | number | boolean>; members: Array<{ r: Buffer; e: ScriptEvent }> }
  >();
  others.forEach((r, k) => {
    const c = classOf(events[k]);
    const cl = classes.get(c.key) ?? { type: c.type, fields: c.fields, members: [] };
    cl.members.push({ r, e: events[k] });
    classes.set(c.key, cl);
  });
  const byType = new Map<string, string>();
  for (const [k, cl] of classes) {
    // a rescan is a card report with a type byte of its own, read as the rescan flag (below)
    if (k === 'rescan') continue;
    const was = byType.get(cl.type);
    if (was) return { problem: `${was} and ${k} are both ${cl.type} reports: a layout maps a type byte to one frame type` };
    byType.set(cl.type, k);
  }
  // the type byte: the same within each kind of report (the heartbeat too), different between kinds
  const groups = [...[...classes.values()].map((cl) => cl.members.map((m) => m.r)), ...(hbKey ? [valid.filter((_, k) => keys[k] === hbKey)] : [])];
  let typeAt: number | undefined;
  for (let at = 0; at < L && typeAt === undefined; at++) {
    if (skip(at)) continue;
    const vals = groups.map((g) => (g.every((r) => r[at] === g[0][at]) ? g[0][at] : -1));
    if (vals.every((v) => v >= 0) && new Set(vals).size === vals.length) typeAt = at;
  }
  if (typeAt === undefined) return { problem: 'no byte is the same within each kind of report and different between kinds (the type byte)' };
  const map: Record<string, string> = {};
  const fields: Record<string, number | BinaryField> = {};
  const messages: Array<Record<string, unknown>> = [];
  let cards: CardCodeOptions | undefined;
  let cardAlternatives: string[] = [];
  const counted: string[] = [];
  let cardField: BinaryField | undefined;
  for (const [k, cl] of classes) {
    map[String(cl.members[0].r[typeAt])] = cl.type;
    counted.push(`${k} (${cl.members.length})`);
    if (k === 'rescan') continue;
    const vary = (at: number): boolean => !skip(at) && at !== typeAt && new Set(cl.members.map((m) => m.r[at])).size > 1;
    if (cl.type === 'CARD') {
      const known = cl.members.map((m) => (m.e as { card: string }).card);
      const at = [...Array(L).keys()].filter(vary);
      if (at.length === 0 || at.length > 2 || (at.length === 2 && at[1] !== at[0] + 1))
        return { problem: `card: the bytes that change with the card (${at.join(', ') || 'none'}) are not one field of one or two bytes` };
      const tries: BinaryField[] =
        at.length === 1
          ? [{ at: at[0], width: 1, order: 'be', as: 'number' }]
          : (['be', 'le'] as const).map((order) => ({ at: at[0], width: 2 as const, order, as: 'number' as const }));
      let solved: ReturnType<typeof solveCards> | undefined;
      let field: BinaryField | undefined;
      for (const f of tries) {
        const codes = cl.members.map((m) => String(f.width === 1 ? m.r[f.at] : f.order === 'le' ? m.r.readUInt16LE(f.at) : m.r.readUInt16BE(f.at)));
        const s = solveCards(codes, known);
        if (s.cards || !solved) {
          solved = s;
          field = f;
        }
        if (s.cards) break;
      }
      if (!solved?.cards || !field) return { problem: solved?.problem ?? 'card: no card coding' };
      cards = solved.cards;
      cardAlternatives = solved.alternatives;
      fields.card = field.width === 1 ? field.at : field;
      cardField = field;
      notes.push(`card: ${field.width === 1 ? `the byte at offset ${field.at}` : `2 bytes ${field.order} at offset ${field.at}`}; ${solved.note}`);
    } else if (cl.type === 'BALL') {
      const balls = cl.members.map((m) => (m.e as { ball: number }).ball);
      const at = [...Array(L).keys()].find((a) => !skip(a) && a !== typeAt && cl.members.every((m, i) => m.r[a] === balls[i]));
      if (at === undefined) return { problem: "ball: no byte says the script's balls" };
      fields.ball = at;
      notes.push(`balls: the byte at offset ${at}, from ${balls.length} balls`);
    } else if (cl.type === 'ROLL') {
      const d = learnDiceFields(
        cl.members.map((m) => ({ payload: m.r, dice: (m.e as Extract<ScriptEvent, { type: 'ROLL' }>).dice })),
        (at) => skip(at) || at === typeAt,
      );
      if ('problem' in d) return d;
      for (const [f, v] of Object.entries(d.fields)) fields[f] = v.width === 1 && v.bits === undefined ? v.at : v;
      notes.push(d.note);
    } else {
      const changing = [...Array(L).keys()].filter(vary);
      if (changing.length > 0) return { problem: `${k}: its reports differ in byte${changing.length > 1 ? 's' : ''} ${changing.join(', ')}` };
    }
    // constants of a frame type (a shoe's state) ride on a message of that type
    if (Object.keys(cl.fields).length > 0) messages.push({ name: k, bytes: { length: 1 }, type: cl.type, fields: cl.fields });
  }
  const rescan = classes.get('rescan');
  if (rescan) {
    // the rescan flag is the type byte itself: the plain cards' value reads false, the rescans' true
    const plain = classes.get('card');
    if (!plain || !cardField || !cards) return { problem: 'rescan: a rescan report needs plain card reports beside it (deal the cards too)' };
    const f = cardField;
    const decode = cardDecoder(cards);
    const bad = rescan.members.find(
      (m) => decode(String(f.width === 1 ? m.r[f.at] : f.order === 'le' ? m.r.readUInt16LE(f.at) : m.r.readUInt16BE(f.at))) !== (m.e as { card: string }).card,
    );
    if (bad)
      return { problem: `rescan: the card byte of the rescan of ${(bad.e as { card: string }).card} does not read as that card with the plain cards' coding` };
    fields.rescan = typeAt;
    const plainValue = String(plain.members[0].r[typeAt]);
    const rescanValue = String(rescan.members[0].r[typeAt]);
    // (a report's fields are the layout's: the message's bytes only satisfy the message schema)
    messages.push({
      name: 'card',
      bytes: { length: 1, fields: { card: { at: 0 } } },
      type: 'CARD',
      map: { rescan: { [plainValue]: false, [rescanValue]: true } },
    });
    notes.push(`rescan: a card report with type ${hex2(Number(rescanValue))}, the card as in a plain card report (${rescan.members.length} rescans)`);
  }
  if (hbKey) {
    map[String(valid[keys.indexOf(hbKey)][typeAt])] = 'HB';
    notes.push(`heartbeat: the report that repeats (${hb[1]} times, SEQ aside)`);
  } else warnings.push('no heartbeat in the capture: leave the device idle for a few seconds while recording to learn it');
  if (seq !== undefined) notes.push(`SEQ: the byte at offset ${seq}, counting up over ${valid.length} reports`);
  notes.push(
    `type: the byte at offset ${typeAt} (${Object.entries(map)
      .map(([v, t]) => `${hex2(Number(v))} ${t}`)
      .join(', ')})`,
  );
  notes.push(`messages: ${counted.join(', ')}, from ${others.length} reports aligned with the script`);
  if (events.some((e) => e.type === 'CARD') && !events.some((e) => e.type === 'MISREAD'))
    warnings.push('include a misread: the deal had no MISREAD, so the layout has no type byte for a misread and would reject it');
  const report: Record<string, unknown> = { length: L };
  if (id) report.id = id;
  if (seq !== undefined) report.seq = { offset: seq };
  if (check)
    report.checksum = {
      algorithm: check.algorithm,
      offset: check.offset,
      ...(checksumBytes(check.algorithm) > 1 ? { order: check.order } : {}),
      from: check.from,
      to: check.to,
    };
  report.type = { offset: typeAt, map };
  report.fields = fields;
  const data: Record<string, unknown> = {
    name,
    talker: TALKER[kind],
    input: 'hid-report',
    ...(cards ? { cards } : {}),
    ...(seq !== undefined ? { seq: { wrap: 255 } } : {}),
    report,
    ...(messages.length > 0 ? { messages } : {}),
  };
  return { data, notes, warnings, cardAlternatives };
}

/** Learns a HID report layout (`input: hid-report`) from a capture of reports and the script's events. */
export function learnHidProfile(
  chunks: readonly CaptureChunk[],
  events: readonly ScriptEvent[],
  want: string[],
  kind: LearnKind,
  name: string,
): HidLearnResult {
  const { length: L } = reportLength(chunks);
  const failed = (reason: string, closest: CandidateSummary[]): HidLearnResult => ({ exit: 1, status: 'failed', code: 'no-profile', reason, closest });
  if (L === 0) return failed('no chunk of the capture is a HID report of 2..64 bytes (is it a capture of this device?)', []);
  const reports = chunks.filter((c) => c.bytes.length === L).map((c) => c.bytes);
  if (reports.length < events.length)
    return failed(
      `the capture holds ${reports.length} reports of ${L} bytes, fewer than the script's ${events.length} events: check that the capture is of this device`,
      [{ description: `HID reports of ${L} bytes`, matched: 0, problem: `${reports.length} reports for ${events.length} events` }],
    );
  const found = reportChecks(reports, L);
  const check = found.verified >= events.length && found.best.length > 0 ? found.best[0] : undefined;
  const valid = check ? reports.filter((r) => checkOk(r, check)) : reports;
  const description = `HID reports of ${L} bytes; ${describeCheck(check)}`;
  const layout = learnLayout(valid, events, L, check, kind, name);
  if ('problem' in layout) {
    if (/^(deal more cards|roll more dice)/.test(layout.problem))
      return {
        exit: 3,
        status: 'ambiguous',
        reason: `the deal does not say every field of the report (${description})`,
        tellApart: [layout.problem],
        candidates: [{ description, matched: 0, problem: layout.problem }],
      };
    return failed(
      'no report layout decodes the capture to exactly the script: check that the capture is of this device and the script lists what was dealt, in order',
      [{ description, matched: 0, problem: layout.problem }],
    );
  }
  const notes = [
    `report: ${L} bytes, from ${reports.length} reports (${chunks.length - reports.length} chunks of another length are rejects)`,
    check
      ? `checksum: ${describeCheck(check)}, verified on ${found.verified} of ${reports.length} reports (the others are rejects)`
      : `checksum: none (no check value verifies the ${events.length} reports the script needs)`,
    ...(layout.data.report && (layout.data.report as { id?: { value: number } }).id
      ? [`report id: ${hex2((layout.data.report as { id: { value: number } }).id.value)} at offset 0, in every report`]
      : []),
    ...layout.notes,
  ];
  const warnings = [...layout.warnings];
  if (!check) warnings.push('no check value: a report corrupted on the way that still reads is accepted');
  const header = [
    `Learned by tablegw profile learn from a HID capture of ${reports.length} reports of ${L} bytes (${chunks.length} chunks) and a script of ${events.length} events.`,
    `Verified: it decodes the capture, report by report as it arrived and batched, to exactly the script's events.`,
  ];
  const yaml = toYaml(layout.data, [...header, ...notes.map((n) => `- ${n}`)], {});
  let profile: DeviceProfile;
  try {
    profile = validateProfile(name, parseYaml(yaml));
  } catch (e) {
    if (!(e instanceof ProfileError)) throw e;
    return failed('the layout learned is not a valid profile', [{ description, matched: 0, problem: e.message.split('\n')[0] }]);
  }
  const v = verify(profile, chunks, want);
  if (!v.ok) return failed('the layout learned does not decode the capture to exactly the script', [{ description, matched: v.matched, problem: v.problem }]);
  const tellApart: string[] = [];
  if (layout.cardAlternatives.length > 0)
    tellApart.push(`deal more cards: the cards seen also fit ${layout.cardAlternatives.join(', ')}, which read other codes differently`);
  if (check && found.best.length > 1) tellApart.push(`deal more cards: ${found.best.map((c) => c.algorithm).join(' and ')} both verify every report seen`);
  if (tellApart.length > 0)
    return {
      exit: 3,
      status: 'ambiguous',
      reason: 'several report layouts decode this deal but would decode other reports differently',
      tellApart,
      candidates: [{ description, matched: want.length }],
    };
  return { exit: 0, status: 'learned', profile, yaml, notes, warnings, equivalent: 1 };
}
