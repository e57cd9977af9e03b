/**
 * Profile decoding throughput (frames/s on one core) for every shipped profile, next to the
 * built-in reference decoder on the same frames: LineCodec for the serial profiles (the same
 * cards, balls or dice written as reference lines), drivers/codecs/hid-dice.ts for HID dice
 * reports, the keyboard-wedge decoder + barcode mapping for the wedge scanner.
 * Targets: ASCII profiles above 1M frames/s; every profile within 2x of its reference decoder.
 * The device corpus (dev/corpus/) too: each format's hand-written profile on its independent
 * encoder's frames, next to a hand-written decoder for that format (dev/corpus/hand-decoders.ts);
 * target: every corpus format above 1M frames/s and within 2x of its hand-written decoder.
 * Each figure is the best of five slices of `seconds / 5`, over the slice's CPU time (the bench
 * machines are shared: the wall time would count the moments other work held the core).
 */
import { readdirSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeHidDiceReport, encodeHidDiceReport } from '../../drivers/codecs/hid-dice.js';
import { barcodeToCard, KeyboardWedgeDecoder } from '../../drivers/codecs/hid-keyboard.js';
import { LineCodec } from '../../drivers/codecs/line-codec.js';
import { encodeLine } from '../../drivers/codecs/nmea-line.js';
import { checksum, type ChecksumKind } from '../../drivers/profiles/checksums.js';
import { compileProfile } from '../../drivers/profiles/profile-decoder.js';
import { loadProfileFile } from '../../drivers/profiles/profile-schema.js';
import { replaceBlock } from './lib/doc-block.js';
import { CORPUS, type CorpusEvent, seqWrap } from '../corpus/index.js';
import { HAND_DECODERS } from '../corpus/hand-decoders.js';

const SHIPPED = join(fileURLToPath(new URL('.', import.meta.url)), '../../drivers/profiles/shipped');
export const ASCII_TARGET = 1_000_000;
export const RATIO_TARGET = 2;

function xorHex(s: string, sep: string): string {
  let x = 0;
  for (const c of s) x ^= c.charCodeAt(0);
  return `${s}${sep}${x.toString(16).toUpperCase().padStart(2, '0')}`;
}
function lrc(s: string): string {
  let v = 0;
  for (const c of s) v = (v + c.charCodeAt(0)) & 0xff;
  return ((0x100 - v) & 0xff).toString(16).toUpperCase().padStart(2, '0');
}
function modbus(b: number[]): number[] {
  let c = 0xffff;
  for (const x of b) {
    c ^= x;
    for (let i = 0; i < 8; i++) c = c & 1 ? (c >>> 1) ^ 0xa001 : c >>> 1;
  }
  return [...b, c & 0xff, c >> 8];
}
/** `body`, the separator and the body's check in upper-case hex (the bench's input only: the profile tests check the checksums) */
function withCheck(kind: ChecksumKind, body: string, sep: string, digits: number): string {
  const b = Buffer.from(body, 'latin1');
  return `${body}${sep}${checksum(kind, b, 0, b.length).toString(16).toUpperCase().padStart(digits, '0')}`;
}
/** boot-keyboard reports typing `text` + Enter (Left Shift for letters, key up between keys) */
function typeReports(text: string): Buffer {
  const reports: number[][] = [];
  for (const ch of text) {
    const upper = ch >= 'A' && ch <= 'Z';
    const usage = upper ? 0x04 + ch.charCodeAt(0) - 65 : ch === '0' ? 0x27 : 0x1e + ch.charCodeAt(0) - 49;
    reports.push([upper ? 0x02 : 0, 0, usage, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0]);
  }
  reports.push([0, 0, 0x28, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0]);
  return Buffer.from(reports.flat());
}

type Push = (b: Buffer) => unknown[];
interface Case {
  /** the profile's bytes for n frames */
  profile: (i: number) => Buffer;
  /** the reference decoder and its bytes for the same frames */
  reference: { name: string; make: () => Push; bytes: (i: number) => Buffer };
  /** reports, not a byte stream: pushed one report at a time */
  perReport?: number;
}

const line = (talker: string, type: string, fields: (string | number)[]) => (i: number) => Buffer.from(encodeLine(talker, i % 65536, type, fields));
const codec = (t: 'SHOE' | 'RFID' | 'SHUF' | 'DICE' | 'BALL') => () => {
  const c = new LineCodec(t);
  return (b: Buffer) => c.push(b);
};
const lineCase = (t: 'SHOE' | 'RFID' | 'SHUF' | 'DICE' | 'BALL', type: string, fields: (string | number)[]): Case['reference'] => ({
  name: `LineCodec ${t}`,
  make: codec(t),
  bytes: line(t, type, fields),
});

const CASES: Record<string, Case> = {
  'reference-shoe': { profile: line('SHOE', 'CARD', ['AS']), reference: lineCase('SHOE', 'CARD', ['AS']) },
  'reference-rfid-shoe': { profile: line('RFID', 'TAG', ['E0040150AB12CD34']), reference: lineCase('RFID', 'TAG', ['E0040150AB12CD34']) },
  'reference-shuffler': { profile: line('SHUF', 'COUNT', [416]), reference: lineCase('SHUF', 'COUNT', [416]) },
  'reference-dice-sensor': { profile: line('DICE', 'ROLL', [3, 5, 6, 12]), reference: lineCase('DICE', 'ROLL', [3, 5, 6, 12]) },
  'reference-ball-reader': { profile: line('BALL', 'BALL', [17]), reference: lineCase('BALL', 'BALL', [17]) },
  'stx-etx-shoe': {
    profile: (i) => {
      const b = `${i % 65536},C,S_K`;
      return Buffer.from(`\u0002${b}*${lrc(b)}\u0003`, 'latin1');
    },
    reference: lineCase('SHOE', 'CARD', ['KS']),
  },
  'stx-etx-bcc-shoe': {
    profile: (i) => {
      const b = Buffer.from(`${i % 65536},C,KS\u0003`, 'latin1');
      let x = 0;
      for (const c of b) x ^= c;
      return Buffer.concat([Buffer.of(2), b, Buffer.of(x)]);
    },
    reference: lineCase('SHOE', 'CARD', ['KS']),
  },
  'four-digit-shoe': { profile: () => Buffer.from(`${xorHex('C1010', ',')}\r`), reference: lineCase('SHOE', 'CARD', ['AS']) },
  'modbus-dice': { profile: () => Buffer.from([0xaa, ...modbus([1, 6, 5, 4])]), reference: lineCase('DICE', 'ROLL', [6, 5, 4, 0]) },
  'ascii-shuffler': {
    profile: () => Buffer.from(`#${withCheck('sum8', 'CNT,416', '|', 2)}\r\n`),
    reference: lineCase('SHUF', 'COUNT', [416]),
  },
  'crc-rfid-reader': {
    profile: () => Buffer.from(`>${withCheck('crc16-ccitt', 'T=E0040150AB12CD34', '#', 4)}\r\n`),
    reference: lineCase('RFID', 'TAG', ['E0040150AB12CD34']),
  },
  'star-keno': { profile: (i) => Buffer.from(`*B;${(i % 80) + 1}\r`), reference: lineCase('BALL', 'BALL', [17]) },
  'serial-scanner': { profile: () => Buffer.from('H10\r\n'), reference: lineCase('SHOE', 'CARD', ['TH']) },
  'hid-dice-sensor': {
    profile: (i) => encodeHidDiceReport({ seq: i, dice: [3, 5, 6], bounces: 12 }),
    reference: {
      name: 'hid-dice.ts',
      make: () => (b) => [decodeHidDiceReport(b)],
      bytes: (i) => encodeHidDiceReport({ seq: i, dice: [3, 5, 6], bounces: 12 }),
    },
    perReport: 8,
  },
  'wedge-scanner': {
    profile: () => typeReports('H10'),
    reference: {
      name: 'hid-keyboard.ts + barcode map',
      make: () => {
        const k = new KeyboardWedgeDecoder();
        const table = { H10: 'TH' };
        return (b) => k.push(b).map((x) => (typeof x === 'string' ? (barcodeToCard(x, { table }) ?? 'unmapped') : x));
      },
      bytes: () => typeReports('H10'),
    },
    perReport: 8,
  },
};

/**
 * frames/s of two decoders on their chunks, each the best of five slices of `seconds / 5` (a
 * slice's frames over the CPU time it took, or its wall time if that is less), the
 * slices taken in turn (a, b, a, b, ...): the machine is shared, the best slice is closest to one
 * free core, and taking them in turn gives both decoders the machine's same moments (one after
 * the other, a busy second could fall on one of them only: a ratio of 1.4 read as 2.4 once)
 */
function rates(a: Push, aChunk: Buffer, b: Push, bChunk: Buffer, n: number, perReport: number | undefined, seconds: number): [number, number] {
  const feeder = (push: Push, chunk: Buffer) => (): number => {
    if (!perReport) return push(chunk).length;
    let k = 0;
    for (let at = 0; at < chunk.length; at += perReport) k += push(chunk.subarray(at, at + perReport)).length;
    return k;
  };
  const feeds = [feeder(a, aChunk), feeder(b, bChunk)];
  for (const feed of feeds) {
    const first = feed();
    if (first !== n) throw new Error(`profiles bench: ${first} items out of ${n} frames`);
  }
  const best = [0, 0];
  for (let k = 0; k < 5; k++) {
    for (let d = 0; d < 2; d++) {
      let frames = 0;
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      while (performance.now() - t0 < (seconds * 1000) / 5) frames += feeds[d]();
      const wall = (performance.now() - t0) / 1000;
      const c = process.cpuUsage(c0);
      // the time the decoder really ran: on a shared machine the process's CPU time (the wall
      // time counts the moments other work held the core), never more than the wall time
      const ran = Math.min(wall, (c.user + c.system) / 1e6);
      best[d] = Math.max(best[d], frames / ran);
    }
  }
  return [Math.round(best[0]), Math.round(best[1])];
}

export interface ProfileBenchRow {
  profile: string;
  framesPerSecond: number;
  reference: string;
  referenceFramesPerSecond: number;
  /** reference / profile: 1 = as fast, 2 = half as fast */
  ratio: number;
  ascii: boolean;
  /** a format of the device corpus (dev/corpus/): held to > ASCII_TARGET frames/s whatever its encoding */
  corpus?: boolean;
  met: boolean;
}

/** what the phase measured: a row per shipped profile with a sample, and the shipped profiles without one */
export interface ProfilesBenchResult {
  framesPerChunk: number;
  secondsPerDecoder: number;
  rows: ProfileBenchRow[];
  unsampled: string[];
}

/** the shipped profiles (drivers/profiles/shipped/*.yaml), by name */
export function shippedProfileNames(): string[] {
  return readdirSync(SHIPPED)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => f.slice(0, -5))
    .sort();
}

/** the shipped profiles the bench has a sample for */
export function sampledProfileNames(): string[] {
  return Object.keys(CASES).sort();
}

/**
 * The phase's two targets, as dev/bench/run.ts states them: every ASCII profile above
 * ASCII_TARGET frames/s (the slowest named), every profile within RATIO_TARGET of its reference
 * (the worst named). A shipped profile without a sample fails both: it was not timed.
 */
export function profileTargets(r: ProfilesBenchResult): Array<{ what: string; target: string; value: string; met: boolean; note?: string }> {
  const missing = r.unsampled.length ? `not timed (no bench sample): ${r.unsampled.join(', ')}` : undefined;
  const fmt = (x: number) => x.toLocaleString('en-US');
  const ascii = r.rows.filter((x) => x.ascii && !x.corpus);
  const corpus = r.rows.filter((x) => x.corpus);
  const slowestCorpus = corpus.reduce<ProfileBenchRow | null>((a, x) => (!a || x.framesPerSecond < a.framesPerSecond ? x : a), null);
  const corpusFast = corpus.filter((x) => x.framesPerSecond > ASCII_TARGET).length;
  const slowest = ascii.reduce<ProfileBenchRow | null>((a, x) => (!a || x.framesPerSecond < a.framesPerSecond ? x : a), null);
  const shipped = r.rows.filter((x) => !x.corpus);
  const worst = shipped.reduce<ProfileBenchRow | null>((a, x) => (!a || x.ratio > a.ratio ? x : a), null);
  const fastEnough = ascii.filter((x) => x.framesPerSecond > ASCII_TARGET).length;
  const within = shipped.filter((x) => x.ratio <= RATIO_TARGET).length;
  const worstCorpus = corpus.reduce<ProfileBenchRow | null>((a, x) => (!a || x.ratio > a.ratio ? x : a), null);
  const corpusWithin = corpus.filter((x) => x.ratio <= RATIO_TARGET);
  const corpusTarget = slowestCorpus
    ? [
        {
          what: 'device corpus formats through their hand-written profiles (frames/s on one core)',
          target: `> ${fmt(ASCII_TARGET)} each`,
          value: `${corpusFast} of ${corpus.length} above; slowest ${slowestCorpus.profile} ${fmt(slowestCorpus.framesPerSecond)} (x${(slowestCorpus.framesPerSecond / ASCII_TARGET).toFixed(2)} of the target)`,
          met: corpusFast === corpus.length,
        },
        {
          what: 'device corpus formats vs their hand-written decoders on the same frames (ratio = hand-written / profile)',
          target: `<= ${RATIO_TARGET}x each`,
          value: `${corpusWithin.length} of ${corpus.length} within (${corpusWithin.map((x) => x.profile.replace(/^corpus:/, '')).join(', ') || 'none'}); worst ${worstCorpus!.profile} x${worstCorpus!.ratio.toFixed(2)} (${fmt(worstCorpus!.framesPerSecond)} vs ${fmt(worstCorpus!.referenceFramesPerSecond)} frames/s)`,
          met: corpusWithin.length === corpus.length,
        },
      ]
    : [];
  return [
    {
      what: 'device profile decoding, ASCII byte-stream profiles (frames/s on one core)',
      target: `> ${fmt(ASCII_TARGET)} each`,
      value: slowest
        ? `${fastEnough} of ${ascii.length} above; slowest ${slowest.profile} ${fmt(slowest.framesPerSecond)} (x${(slowest.framesPerSecond / ASCII_TARGET).toFixed(2)} of the target)`
        : 'no ASCII profile timed',
      met: !!slowest && fastEnough === ascii.length && !missing,
      ...(missing ? { note: missing } : {}),
    },
    {
      what: 'device profile decoding vs the built-in reference decoder on the same frames (ratio = reference / profile)',
      target: `<= ${RATIO_TARGET}x each`,
      value: worst
        ? `${within} of ${shipped.length} within; worst ${worst.profile} x${worst.ratio.toFixed(2)} (${fmt(worst.framesPerSecond)} vs ${worst.reference} ${fmt(worst.referenceFramesPerSecond)} frames/s)`
        : 'no profile timed',
      met: !!worst && within === shipped.length && !missing,
      ...(missing ? { note: missing } : {}),
    },
    ...corpusTarget,
  ];
}

/**
 * The per-profile figures of the same run, between `<!-- profiles:begin -->` and
 * `<!-- profiles:end -->` in the "Device profiles" section (left as it is without the markers).
 */
export function withProfilesTable(text: string, p: ProfilesBenchResult, commit: string): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const lines = [
    `The figures of the run in "Latest figures" (commit \`${commit}\`; \`results.json\` -> \`profiles\`), ${n(p.framesPerChunk)} frames per chunk, best of five slices of ${p.secondsPerDecoder / 5} s per decoder:`,
    '',
    '| profile | frames/s | reference decoder | its frames/s | ratio | met |',
    '|---|---|---|---|---|---|',
    ...p.rows.map(
      (r) =>
        `| ${r.profile}${r.ascii ? '' : ' (not ASCII bytes)'} | ${n(r.framesPerSecond)} | ${r.reference} | ${n(r.referenceFramesPerSecond)} | ${r.ratio.toFixed(2)} | ${r.met ? 'yes' : '**no**'} |`,
    ),
    ...p.unsampled.map((name) => `| ${name} | not timed: no bench sample | | | | **no** |`),
  ];
  return replaceBlock(text, '<!-- profiles:begin -->', '<!-- profiles:end -->', lines) ?? text;
}

export function runProfilesBench(log: (s: string) => void, seconds = 1): ProfilesBenchResult {
  const n = 1000;
  const rows: ProfileBenchRow[] = [];
  const unsampled: string[] = [];
  log(`  targets: ASCII profiles > ${ASCII_TARGET.toLocaleString('en-US')} frames/s; every profile within ${RATIO_TARGET}x of its reference decoder`);
  for (const name of shippedProfileNames()) {
    const c = CASES[name];
    if (!c) {
      log(`  ${name.padEnd(22)} (no bench sample)`);
      unsampled.push(name);
      continue;
    }
    const profile = loadProfileFile(join(SHIPPED, `${name}.yaml`));
    const make = (k: number, f: (i: number) => Buffer) => Buffer.concat(Array.from({ length: k }, (_, i) => f(i)));
    const dec = compileProfile(profile);
    const probe = dec.push(c.perReport ? c.profile(0).subarray(0, c.perReport) : c.profile(0));
    if (!c.perReport && (probe.length !== 1 || 'reason' in probe[0]))
      throw new Error(`profiles bench: ${name} did not decode its sample: ${JSON.stringify(probe)}`);
    const [mine, theirs] = rates((b) => dec.push(b), make(n, c.profile), c.reference.make(), make(n, c.reference.bytes), n, c.perReport, seconds);
    const ascii = profile.encoding === 'ascii' && profile.input === 'bytes';
    const ratio = Math.round((theirs / mine) * 100) / 100;
    const met = ratio <= RATIO_TARGET && (!ascii || mine > ASCII_TARGET);
    rows.push({ profile: name, framesPerSecond: mine, reference: c.reference.name, referenceFramesPerSecond: theirs, ratio, ascii, met });
    log(
      `  ${name.padEnd(22)} ${mine.toLocaleString('en-US').padStart(11)} frames/s   ${c.reference.name.padEnd(30)} ${theirs.toLocaleString('en-US').padStart(11)} frames/s   ratio ${ratio.toFixed(2)}   ${met ? 'met' : 'MISSED'}`,
    );
  }
  rows.push(...runCorpusBench(log, seconds, n));
  return { framesPerChunk: n, secondsPerDecoder: seconds, rows, unsampled };
}

/**
 * The device corpus: each format's hand-written profile (compileProfile(..).push) on its
 * independent encoder's frames, one card (roll, ball, count) frame per SEQ, next to the format's
 * hand-written streaming decoder (dev/corpus/hand-decoders.ts) on the same chunks. A row misses
 * when the profile reads <= ASCII_TARGET frames/s or is more than RATIO_TARGET times slower.
 */
export function runCorpusBench(log: (s: string) => void, seconds = 1, n = 1000): ProfileBenchRow[] {
  const rows: ProfileBenchRow[] = [];
  log(
    `  corpus targets: each format > ${ASCII_TARGET.toLocaleString('en-US')} frames/s and within ${RATIO_TARGET}x of its hand-written decoder; load average ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' / ')} on ${os.cpus().length} cores`,
  );
  const SAMPLE: Record<string, CorpusEvent> = {
    'card-shoe': { k: 'card', card: 'TH' },
    'ball-reader': { k: 'ball', n: 42 },
    'dice-sensor': { k: 'roll', dice: [3, 5, 6], bounces: 12 },
    shuffler: { k: 'count', n: 416 },
  };
  for (const e of CORPUS) {
    const wrap = seqWrap(e.encoder);
    const frame = (i: number) => e.encoder.frame(SAMPLE[e.kind], i % (wrap + 1))!;
    const chunk = Buffer.concat(Array.from({ length: n }, (_, i) => frame(i)));
    const dec = compileProfile(loadProfileFile(e.profilePath));
    const hand = HAND_DECODERS[e.name]();
    const [mine, theirs] = rates(
      (b) => dec.push(b),
      chunk,
      (b) => hand.push(b),
      chunk,
      n,
      e.encoder.reportBytes,
      seconds,
    );
    const ratio = Math.round((theirs / mine) * 100) / 100;
    const slow = mine <= ASCII_TARGET;
    const far = ratio > RATIO_TARGET;
    const met = !slow && !far;
    const name = `corpus:${e.name}`;
    rows.push({
      profile: name,
      framesPerSecond: mine,
      reference: 'hand-written decoder',
      referenceFramesPerSecond: theirs,
      ratio,
      ascii: false,
      corpus: true,
      met,
    });
    const missed = [slow ? `<= ${ASCII_TARGET / 1e6}M frames/s` : '', far ? `> ${RATIO_TARGET}x` : ''].filter(Boolean).join(', ');
    log(
      `  ${name.padEnd(30)} ${mine.toLocaleString('en-US').padStart(11)} frames/s   ${'hand-written decoder'.padEnd(22)} ${theirs.toLocaleString('en-US').padStart(11)} frames/s   ratio ${ratio.toFixed(2)}   ${met ? 'met' : `MISSED (${missed})`}`,
    );
  }
  return rows;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  // `--corpus`: the device corpus only
  const seconds = Number(process.env.BENCH_SECONDS ?? 1);
  if (process.argv.includes('--corpus')) runCorpusBench((s) => console.log(s), seconds);
  else runProfilesBench((s) => console.log(s), seconds);
}
