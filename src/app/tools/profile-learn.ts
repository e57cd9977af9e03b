/**
 * `tablegw profile learn` (device-protocols.md §3.2): from a capture of a known deal and the
 * technician's script, find the profiles of the frame grammar that decode the capture to exactly
 * the script's events in order (heartbeats: the frame that repeats while idle; everything else:
 * rejects), prefer the simplest, and verify the one written on the capture as it arrived and
 * re-chunked. Pure apart from the clock-free decoder: capture and script in, a result out.
 *
 * The search prunes early, from the bytes themselves:
 * 1. framings: end sequences that occur, the byte that follows an end (plus a trailer of 0..4
 *    bytes) as the start, DLE / escape stuffing where its marks occur, a length field after a
 *    frequent byte whose value points at the next frame, a fixed length between sync bytes (frames
 *    that end by their length are cut again once the check is known, resyncing inside a frame
 *    that fails it, as the decoder does: learn/binary-framing.ts);
 * 2. per framing, the integrity variants (algorithm x encoding x place x covered parts) that
 *    verify the most frames (none only when no algorithm verifies most of them);
 * 3. per framing and integrity, the SEQ field (the number that counts up), the heartbeat (the
 *    body that repeats) and the messages, by aligning the other frames with the script's events;
 *    the card codes from a preset or, failing every preset, an explicit table solved from the
 *    known cards (binary numbers built from suit and rank: from a rule, learn/card-rule.ts);
 * 4. each candidate profile decoded for real (profile-check.ts decodeCapture, rechunkCheck).
 */
import { parse as parseYaml } from 'yaml';
import { type DeviceProfile, ProfileError, validateProfile } from '../../../drivers/profiles/profile-schema.js';
import type { CaptureChunk } from './capture-file.js';
import { endsByLength, payloadCounted, splitResync, withCheckedLengths } from './learn/binary-framing.js';
import { describeFraming, framingCandidates, printable, split } from './learn/framing.js';
import { bestIntegrity, describeIntegrity, type Integrity, verifyFrame } from './learn/integrity.js';
import type { LearnKind } from './learn/kinds.js';
import { learnHidProfile, looksLikeReports } from './learn/hid.js';
import { learnMessages } from './learn/messages.js';
import { profileData, toYaml } from './learn/profile-output.js';
import type { Valid } from './learn/seq.js';
import { verify } from './learn/verify.js';
import { eventKey, parseScript, type ScriptEvent } from './learn/script.js';

export { LEARN_KINDS, type LearnKind } from './learn/kinds.js';

export interface LearnInput {
  /** the capture's chunks as they arrived (a `Capture`'s `chunks`) */
  capture: readonly CaptureChunk[];
  /** the script's text, or its events already parsed */
  script: string | readonly ScriptEvent[];
  kind?: LearnKind;
  /**
   * what the capture recorded (its header's `transport`): `hid` learns a HID report layout
   * (learn/hid.ts), `serial` a frame grammar; absent, a capture whose chunks look like reports of
   * one length is tried as HID first
   */
  transport?: 'serial' | 'hid';
  /** the profile's name (default `learned-<kind>`) */
  name?: string;
}

/** one candidate tried, for the reports of exit 1 and 3 */
export interface CandidateSummary {
  /** `start 0x02, end 0x03, trailer 1; xor8 binary-be after-end over payload+end` */
  description: string;
  /** how far it got: script events decoded in order before the first difference */
  matched: number;
  /** what failed (exit 1) or what it decodes differently (exit 3) */
  problem?: string;
}

export type LearnResult =
  | {
      exit: 0;
      status: 'learned';
      profile: DeviceProfile;
      /** the profile as YAML, with comments saying what was inferred from how many frames */
      yaml: string;
      /** what was inferred, one line each (also the YAML's comments) */
      notes: string[];
      /** advice that does not stop the profile (no misread in the deal, ...) */
      warnings: string[];
      /** candidates that decoded the capture identically (the simplest was written) */
      equivalent: number;
    }
  | { exit: 3; status: 'ambiguous'; reason: string; tellApart: string[]; candidates: CandidateSummary[] }
  | { exit: 1; status: 'failed'; code: 'capture-empty' | 'script-invalid' | 'no-profile'; reason: string; closest: CandidateSummary[] };

// ---------------------------------------------------------------- framing

interface Passing {
  profile: DeviceProfile;
  yaml: string;
  notes: string[];
  warnings: string[];
  cost: number;
  description: string;
  signature: string;
  cardAlternatives: string[];
  integrity: Integrity;
  integrityTies: Integrity[];
}

/** Learns a device profile from a capture of a known deal and its script (device-protocols.md §3.2). */
export function learnProfile(input: LearnInput): LearnResult {
  const kind = input.kind ?? 'card-shoe';
  const parsed = typeof input.script === 'string' ? parseScript(input.script) : { ok: true as const, events: [...input.script] };
  if (!parsed.ok) return { exit: 1, status: 'failed', code: 'script-invalid', reason: `the script: ${parsed.reason}`, closest: [] };
  const events = parsed.events;
  const want = events.map(eventKey);
  const chunks = input.capture;
  const stream = Buffer.concat(chunks.map((c) => c.bytes));
  if (stream.length === 0)
    return {
      exit: 1,
      status: 'failed',
      code: 'capture-empty',
      reason: 'the capture holds no bytes: record while dealing (tablegw capture), then learn',
      closest: [],
    };
  const name = input.name ?? `learned-${kind}`;
  if (input.transport === 'hid') return learnHidProfile(chunks, events, want, kind, name);
  if (input.transport === undefined && looksLikeReports(chunks)) {
    const hid = learnHidProfile(chunks, events, want, kind, name);
    if (hid.exit === 0) return hid;
    const serial = learnProfile({ ...input, script: events, transport: 'serial' });
    if (serial.exit === 0 || (serial.exit === 3 && hid.exit === 1)) return serial;
    return hid.exit === 3 || serial.exit !== 1 ? hid : { ...hid, closest: [...hid.closest, ...serial.closest].slice(0, 3) };
  }
  const tried: Array<CandidateSummary & { rank: number }> = [];
  const passing: Passing[] = [];
  for (const f of withCheckedLengths(framingCandidates(stream), stream)) {
    const frames = split(stream, f);
    if (frames.length < Math.min(3, events.length)) {
      tried.push({ description: describeFraming(f), matched: 0, problem: `only ${frames.length} frames`, rank: -f.cost });
      continue;
    }
    const { best, verified } = bestIntegrity(frames, f);
    const integ = best[0];
    const valid: Valid[] = [];
    // frames that end by their length: cut again as the decoder does, resyncing inside a frame that fails its check
    const cut = endsByLength(f) && integ.algorithm !== 'none' ? splitResync(stream, f, (fr) => verifyFrame(fr, integ) !== null) : frames;
    for (const fr of cut) {
      const p = verifyFrame(fr, integ);
      if (p) valid.push({ payload: p });
    }
    const desc = `${describeFraming(f)}; ${describeIntegrity(integ)}`;
    if (valid.length < events.length) {
      tried.push({
        description: desc,
        matched: 0,
        problem: `${valid.length} frames verify, fewer than the script's ${events.length} events`,
        rank: (integ.algorithm === 'none' ? 0 : 100) - f.cost,
      });
      continue;
    }
    // mostly text: a frame with bytes that are not text is noise (what a check value would have rejected)
    const isText = (v: Valid): boolean => v.payload.length > 0 && [...v.payload].every(printable);
    const textual = valid.filter(isText);
    const text = textual.length >= valid.length * 0.8;
    if (text && textual.length < valid.length) valid.splice(0, valid.length, ...textual);
    const learned = learnMessages(valid, events, text, frames.length);
    if (learned.problem) {
      tried.push({ description: desc, matched: 0, problem: learned.problem, rank: (integ.algorithm === 'none' ? 200 : 300) - f.cost });
      continue;
    }
    const maxFrame = Math.max(...frames.map((fr) => fr.start.length + fr.innerStuffed.length + fr.end.length + fr.trailer.length));
    const said = payloadCounted(f, integ);
    const data = profileData(name, kind, said, integ, learned, text, maxFrame);
    const header = [
      `Learned by tablegw profile learn from a capture of ${stream.length} bytes (${chunks.length} chunks) and a script of ${events.length} events.`,
      `Verified: it decodes the capture, as it arrived and re-chunked (1-byte chunks, random cuts, all at once), to exactly the script's events.`,
    ];
    const notes = [
      `framing: ${describeFraming(said)}, from ${frames.length} frames`,
      integ.algorithm === 'none'
        ? `integrity: none (no check value verifies most of the ${frames.length} frames)`
        : `integrity: ${describeIntegrity(integ)}, verified on ${verified} of ${frames.length} frames (the others are rejects)`,
      `encoding: ${text ? 'text' : 'binary'}`,
      ...learned.notes,
    ];
    const yaml = toYaml(data, header, {
      framing: notes[0],
      integrity: notes[1],
      cards: learned.notes.find((n) => n.startsWith('card codes')) ?? '',
      seq: learned.notes.find((n) => n.startsWith('SEQ')) ?? '',
      messages: learned.notes.filter((n) => n.startsWith('messages') || n.startsWith('heartbeat')).join('; '),
    });
    let profile: DeviceProfile;
    try {
      profile = validateProfile(name, parseYaml(yaml));
    } catch (e) {
      if (!(e instanceof ProfileError)) throw e;
      tried.push({ description: desc, matched: 0, problem: `the profile it makes is invalid: ${e.message.split('\n')[0]}`, rank: 400 - f.cost });
      continue;
    }
    const v = verify(profile, chunks, want, learned.heartbeats);
    if (!v.ok) {
      tried.push({ description: desc, matched: v.matched, problem: v.problem, rank: 1000 + v.matched - f.cost });
      continue;
    }
    passing.push({
      profile,
      yaml,
      notes,
      warnings: learned.warnings,
      cost: f.cost + integ.cost,
      description: desc,
      signature: v.signature,
      cardAlternatives: learned.cardAlternatives,
      integrity: integ,
      integrityTies: best.filter((b) => b.algorithm !== integ.algorithm),
    });
  }
  if (passing.length === 0) {
    const more = tried.find((t) => /^(deal more cards|roll more dice)/.test(t.problem ?? ''));
    if (more)
      return {
        exit: 3,
        status: 'ambiguous',
        reason: `the deal does not say every card's code (${more.description})`,
        tellApart: [more.problem!],
        candidates: [{ description: more.description, matched: more.matched, problem: more.problem }],
      };
    const closest = tried
      .sort((a, b) => b.rank - a.rank)
      .slice(0, 3)
      .map(({ rank: _, ...c }) => c);
    const what =
      closest.length === 0
        ? 'no framing fits these bytes (is it a capture of this device?)'
        : 'no profile of the grammar decodes the capture to exactly the script';
    return {
      exit: 1,
      status: 'failed',
      code: 'no-profile',
      reason: `${what}: check that the capture is of this device and the script lists what was dealt, in order`,
      closest,
    };
  }
  passing.sort((a, b) => a.cost - b.cost);
  const chosen = preferResync(passing);
  const tellApart: string[] = [];
  const differing = passing.filter((p) => p.signature !== chosen.signature);
  if (differing.length > 0)
    tellApart.push(`include a misread and some line noise: ${differing.length + 1} profiles decode the deal's events but treat the other frames differently`);
  if (chosen.cardAlternatives.length > 0)
    tellApart.push(`deal more cards: the cards seen also fit ${chosen.cardAlternatives.join(', ')}, which read other codes differently`);
  if (chosen.integrityTies.length > 0)
    tellApart.push(`deal more cards: ${[chosen.integrity, ...chosen.integrityTies].map((i) => i.algorithm).join(' and ')} both verify every frame seen`);
  if (tellApart.length > 0) {
    const candidates = [chosen, ...differing].slice(0, 4).map((p) => ({ description: p.description, matched: events.length }));
    return { exit: 3, status: 'ambiguous', reason: 'several profiles decode this deal but would decode other frames differently', tellApart, candidates };
  }
  const yaml = chosen.yaml.replace(/^(# Verified:.*)$/m, `$1\n${chosen.notes.map((n) => `# - ${n}`).join('\n')}`);
  return { exit: 0, status: 'learned', profile: chosen.profile, yaml, notes: chosen.notes, warnings: chosen.warnings, equivalent: passing.length };
}

/**
 * The simplest of the passing candidates, unless one that decodes the same frames resynchronises
 * on its start byte (text, or stuffed binary: the start byte never occurs in data) where the
 * simplest does not: then that one, since a frame cut short on the line costs only itself.
 */
function preferResync<T extends { profile: DeviceProfile; signature: string }>(sorted: T[]): T {
  const resyncs = (p: DeviceProfile): boolean => p.framing.start !== undefined && (p.encoding !== 'binary' || p.framing.stuffing !== undefined);
  const first = sorted[0];
  if (resyncs(first.profile)) return first;
  return sorted.find((p) => p.signature === first.signature && resyncs(p.profile)) ?? first;
}
