/**
 * What `tablegw profile check` and `tablegw profile list` do, as functions (the command only parses
 * arguments and prints). A profile is checked with the gateway's own schema (`loadProfileFile`),
 * then a capture is decoded chunk by chunk with the gateway's own decoder (`compileProfile`), so
 * what the check shows is what the gateway would do with those bytes.
 */
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import { parse } from 'yaml';
import type { DeviceFrame, FrameReject } from '../../core/vocabulary/frames.js';
import { compileProfile } from '../../../drivers/profiles/profile-decoder.js';
import { ProfileError, profileWarnings, readProfile, type DeviceProfile } from '../../../drivers/profiles/profile-schema.js';
import { profileFile, shippedProfiles } from '../config/device-profiles.js';
import type { CaptureChunk } from './capture-file.js';

export type ProfileCheck =
  | { ok: true; ref: string; file: string; profile: DeviceProfile; warnings: string[] }
  | { ok: false; ref: string; file: string; code: 'profile-missing' | 'profile-invalid'; errors: string[] };

/** a file as a person reads it: relative to the working directory when it is below it */
export function displayPath(file: string, cwd = process.cwd()): string {
  const r = relative(cwd, file);
  return r && !r.startsWith('..') && !isAbsolute(r) ? r : file;
}

/** validates a profile given as a shipped name or a path; every mistake with its key path */
export function checkProfile(ref: string): ProfileCheck {
  const file = displayPath(profileFile(ref));
  if (!existsSync(file)) {
    return {
      ok: false,
      ref,
      file,
      code: 'profile-missing',
      errors: [`no shipped profile "${ref}" (shipped: ${shippedProfiles().join(', ')}) and no file ${profileFile(ref)}`],
    };
  }
  let data: unknown;
  try {
    data = parse(readFileSync(file, 'utf8'));
  } catch (e) {
    return { ok: false, ref, file, code: 'profile-invalid', errors: [`${file}: not valid YAML: ${(e as Error).message.split('\n')[0]}`] };
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    const what = data === null || data === undefined ? 'empty' : Array.isArray(data) ? 'a list' : `a ${typeof data}`;
    return {
      ok: false,
      ref,
      file,
      code: 'profile-invalid',
      errors: [`${file}: is ${what}, not a profile: a profile is a YAML mapping with name:, talker:, framing: and messages: (docs/DEVICES.md)`],
    };
  }
  try {
    const r = readProfile(file, data);
    // what is legal but risky, and the v1 keys read in their v1.2 form (what to write instead)
    return { ok: true, ref, file, profile: r.profile, warnings: [...profileWarnings(r.profile), ...r.migrated.map((m) => `${m}; write it so`)] };
  } catch (e) {
    if (!(e instanceof ProfileError)) throw e;
    return { ok: false, ref, file, code: 'profile-invalid', errors: e.message.split('\n') };
  }
}

export type DecodedItem = { t: number; frame: DeviceFrame } | { t: number; reject: FrameReject };

export interface DecodeSummary {
  chunks: number;
  bytes: number;
  frames: number;
  rejects: number;
  framesByType: Record<string, number>;
  rejectsByReason: Record<string, number>;
}

export interface DecodeResult {
  items: DecodedItem[];
  summary: DecodeSummary;
}

const countInto = (m: Record<string, number>, k: string): void => {
  m[k] = (m[k] ?? 0) + 1;
};

/**
 * The capture through the profile's decoder, one chunk at a time as it arrived. Silence ends a
 * pending frame or noise run as it does on the line: a pause of the profile's `framing.idleMs`
 * between two chunks; at the end of the capture a pending noise run is reported (`endOfStream`).
 */
export function decodeCapture(profile: DeviceProfile, chunks: readonly CaptureChunk[]): DecodeResult {
  const decoder = compileProfile(profile);
  const idleMs = profile.framing.idleMs;
  const items: DecodedItem[] = [];
  const summary: DecodeSummary = { chunks: chunks.length, bytes: 0, frames: 0, rejects: 0, framesByType: {}, rejectsByReason: {} };
  const take = (t: number, decoded: Iterable<DeviceFrame | FrameReject>): void => {
    for (const out of decoded) {
      if ('reason' in out) {
        items.push({ t, reject: out });
        summary.rejects++;
        countInto(summary.rejectsByReason, out.reason);
      } else {
        items.push({ t, frame: out });
        summary.frames++;
        countInto(summary.framesByType, out.type);
      }
    }
  };
  let lastT: number | undefined;
  for (const c of chunks) {
    if (idleMs !== undefined && lastT !== undefined && c.t - lastT >= idleMs) take(lastT + idleMs, decoder.flushIdle());
    summary.bytes += c.bytes.length;
    take(c.t, decoder.push(c.bytes));
    lastT = c.t;
  }
  take(lastT ?? 0, decoder.endOfStream());
  return { items, summary };
}

export interface RechunkResult {
  /** the chunkings tried besides the capture as it arrived */
  variants: string[];
  /** true when every one gave the same frames and rejects */
  same: boolean;
  /** the first difference: which chunking, at which item, what each gave */
  difference?: string;
}

/** the capture's chunks cut again: every byte alone, or cut at pseudo-random points (a fixed seed: the check repeats) */
function recut(chunks: readonly CaptureChunk[], how: 'bytes' | 'random', seed = 0x9e3779b9): CaptureChunk[] {
  const out: CaptureChunk[] = [];
  let x = seed >>> 0;
  for (const c of chunks) {
    let at = 0;
    while (at < c.bytes.length) {
      x = (Math.imul(x ^ (x >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
      const n = how === 'bytes' ? 1 : 1 + (x % 7);
      out.push({ ...c, bytes: c.bytes.subarray(at, at + n) });
      at += n;
    }
  }
  return out;
}

/** bytes per HID input report of a HID profile (`input: hid-report` or `hid-keyboard`), undefined for a byte stream */
export function profileReportBytes(profile: DeviceProfile): number | undefined {
  return profile.input === 'hid-report' ? profile.report?.length : profile.input === 'hid-keyboard' ? 8 : undefined;
}

/**
 * A HID capture cut again the ways a HID transport delivers it: never inside a report (each read
 * is whole reports), but every report on its own, or the runs of whole reports batched in one read.
 * A chunk that is no whole number of reports stays as it came.
 */
export function reportChunkings(chunks: readonly CaptureChunk[], size: number): Array<[string, CaptureChunk[]]> {
  const whole = (c: CaptureChunk): boolean => c.bytes.length > 0 && c.bytes.length % size === 0;
  const single: CaptureChunk[] = chunks.flatMap((c) =>
    whole(c) ? Array.from({ length: c.bytes.length / size }, (_, k) => ({ ...c, bytes: c.bytes.subarray(k * size, (k + 1) * size) })) : [c],
  );
  const batched: CaptureChunk[] = [];
  for (const c of chunks) {
    const last = batched[batched.length - 1];
    if (last && whole(c) && whole(last)) batched[batched.length - 1] = { ...c, bytes: Buffer.concat([last.bytes, c.bytes]) };
    else batched.push(c);
  }
  return [
    ['one report per read', single],
    ['reports batched', batched],
  ];
}

/**
 * The capture decoded again under adversarial chunkings: byte by byte, cut at random points, and
 * (where no silence ends a frame) all at once. A profile whose grammar fixes where frames end
 * must give the same frames and rejects every time; silence between the original chunks is kept.
 */
export function rechunkCheck(profile: DeviceProfile, chunks: readonly CaptureChunk[], asArrived: DecodeResult): RechunkResult {
  const key = (i: DecodedItem): string => ('frame' in i ? `frame ${frameText(i.frame)}` : `reject ${i.reject.reason} ${i.reject.raw}`);
  const want = asArrived.items.map(key);
  const bySilence = compileProfile(profile).idleMs !== undefined;
  const reportBytes = profileReportBytes(profile);
  const variants: Array<[string, CaptureChunk[]]> =
    reportBytes !== undefined
      ? reportChunkings(chunks, reportBytes)
      : [
          ['1-byte chunks', recut(chunks, 'bytes')],
          ['random cuts', recut(chunks, 'random')],
        ];
  if (!bySilence && chunks.length > 0 && reportBytes === undefined)
    variants.push(['the whole capture at once', [{ ...chunks[chunks.length - 1], bytes: Buffer.concat(chunks.map((c) => c.bytes)) }]]);
  for (const [name, cut] of variants) {
    const got = decodeCapture(profile, cut).items.map(key);
    const n = Math.max(got.length, want.length);
    for (let i = 0; i < n; i++) {
      if (got[i] !== want[i]) {
        return {
          variants: variants.map((v) => v[0]),
          same: false,
          difference: `${name}: item ${i + 1} is "${got[i] ?? 'nothing'}" where the capture as it arrived gave "${want[i] ?? 'nothing'}"`,
        };
      }
    }
  }
  return { variants: variants.map((v) => v[0]), same: true };
}

/** `CARD seq=3 card=KS rescan=false`: a frame's fields after its type */
export function frameText(f: DeviceFrame): string {
  const rest = Object.entries(f)
    .filter(([k]) => k !== 'type' && k !== 'talker')
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : String(v)}`);
  return [f.type, ...rest].join(' ');
}

const byCount = (m: Record<string, number>): Array<[string, number]> => Object.entries(m).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));

/** the one-line verdict; says plainly when the profile does not fit the capture */
export function verdict(s: DecodeSummary): string {
  const counts = `${s.frames} frame${s.frames === 1 ? '' : 's'}, ${s.rejects} reject${s.rejects === 1 ? '' : 's'}`;
  if (s.bytes === 0) return `${counts}: the capture is empty (the device sent nothing while it ran)`;
  if (s.frames === 0 && s.rejects === 0) return `${counts}: the capture holds no complete frame (${s.bytes} bytes) — is the end delimiter or the length right?`;
  if (s.frames === 0) {
    const [reason, n] = byCount(s.rejectsByReason)[0];
    return `${counts}: this profile does not match what the device sends; most common: ${reason} (${n})`;
  }
  if (s.rejects === 0) return `${counts}: every frame decodes`;
  return `${counts}: rejects by reason: ${byCount(s.rejectsByReason)
    .map(([r, n]) => `${r} (${n})`)
    .join(', ')}`;
}

/** where to look in the profile when most frames fail for this reason */
export const REJECT_HINTS: Readonly<Record<string, string>> = {
  'bad-checksum':
    'the frames are cut right but fail the check: try another integrity.algorithm (xor8, sum8, lrc, crc16-modbus, ...), integrity.covers or integrity.place',
  malformed: 'the check value is not where the profile says: look at integrity.separator, integrity.encoding and integrity.place, and framing.start',
  noise: 'bytes arrive outside frames: look at framing.start (and the serial speed: --baud)',
  'too-long': 'no frame ends within framing.maxLength: look at framing.end or framing.length (and the serial speed)',
  'unknown-type': 'the frames are cut and checked but no message pattern matches their body: look at messages[].pattern',
  'bad-field': 'a pattern matches but a value does not read (a card code, a die, a ball): look at cards and the named groups',
};

/** the hint for a capture that decoded to nothing (null when frames decoded) */
export function hintFor(s: DecodeSummary): string | null {
  if (s.frames > 0 || s.rejects === 0) return null;
  return REJECT_HINTS[byCount(s.rejectsByReason)[0][0]] ?? null;
}

/** the human report: every frame and reject with its time, then the summary */
export function formatDecode(r: DecodeResult): string[] {
  const lines: string[] = [];
  const w = String(Math.max(0, ...r.items.map((i) => Math.round(i.t)))).length;
  for (const it of r.items) {
    const t = `${String(Math.round(it.t)).padStart(w)} ms`;
    lines.push('frame' in it ? `${t}  frame   ${frameText(it.frame)}` : `${t}  reject  ${it.reject.reason.padEnd(13)} ${it.reject.raw}`);
  }
  const s = r.summary;
  lines.push('');
  lines.push(`${s.chunks} chunk(s), ${s.bytes} byte(s)`);
  lines.push(
    `frames by type: ${
      byCount(s.framesByType)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ') || 'none'
    }`,
  );
  lines.push(
    `rejects by reason: ${
      byCount(s.rejectsByReason)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ') || 'none'
    }`,
  );
  lines.push(verdict(s));
  const hint = hintFor(s);
  if (hint) lines.push(`hint: ${hint}`);
  return lines;
}

export interface ProfileListEntry {
  name: string;
  talker?: string;
  /** what the profile reads: `bytes` (a serial line), `hid-keyboard` or `hid-report` (HID input reports) */
  input?: 'bytes' | 'hid-keyboard' | 'hid-report';
  description: string;
  usb: Array<{ vendorId: number; productId: number }>;
  /** set when the shipped file does not validate */
  error?: string;
}

/** the first sentence of a YAML file's leading `#` comment */
export function leadingComment(yamlText: string): string {
  const out: string[] = [];
  for (const line of yamlText.split('\n')) {
    const m = /^#\s?(.*)$/.exec(line);
    if (!m) break;
    if (/yaml-language-server:/.test(m[1])) continue;
    out.push(m[1].trim());
  }
  const text = out.join(' ').trim();
  const sentence = /^(.+?[.;])(\s|$)/.exec(text);
  return sentence ? sentence[1].replace(/[;.]$/, '') : text;
}

/** every shipped profile with its talker, USB ids and one-line description */
export function listShippedProfiles(): ProfileListEntry[] {
  return shippedProfiles().map((name) => {
    const file = profileFile(name);
    const description = leadingComment(readFileSync(file, 'utf8'));
    const c = checkProfile(name);
    if (!c.ok) return { name, description, usb: [], error: c.errors[0] };
    return { name, talker: c.profile.talker, input: c.profile.input, description, usb: c.profile.usb };
  });
}
