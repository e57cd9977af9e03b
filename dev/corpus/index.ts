/**
 * The device corpus (issue 32 point 6): wire formats modelled on real device families, each with
 * an encoder written independently of the profile engine (encoders.ts), a hand-written profile
 * (profiles/<name>.yaml), a known deal, and a capture of that deal with line faults in the
 * `tablegw-capture` v1 format (src/app/tools/capture-file.ts). `CORPUS` is what tests iterate:
 * the tests of test/corpus/, the over-a-pty test, the bench (dev/bench/profiles-bench.ts) and `profile learn`.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chunkLine, headerLine } from '../../src/app/tools/capture-file.js';
import type { DeviceKind } from '../../src/core/vocabulary/device-kinds.js';
import type { DeviceFrame, FrameReject } from '../../src/core/vocabulary/frames.js';
import * as E from './encoders.js';
import type { CorpusEncoder, CorpusEvent } from './encoders.js';

export type { CorpusEncoder, CorpusEvent } from './encoders.js';

/** a line fault, made on the frame of the next event (a damaged copy of it goes first), or noise on its own */
export type LineFault = { fault: 'noise' } | { fault: 'truncated' } | { fault: 'bad-check' };
export type DealStep = CorpusEvent | LineFault;

export interface CorpusEntry {
  /** the format's name (also its profile file's name) */
  name: string;
  /** the device kind of the config (`card-shoe`, `dice-sensor`, ...) */
  kind: DeviceKind;
  /** the family of real devices the format is modelled on */
  modelledOn: string;
  encoder: CorpusEncoder;
  /** the hand-written profile */
  profilePath: string;
  /** whether the format carries a SEQ (then the decoded frames' SEQ is checked too) */
  hasSeq: boolean;
  /** what each line fault decodes to: the reject reasons, in order */
  rejects: Record<LineFault['fault'], string[]>;
  /** the known deal, with the line faults where they happen */
  deal: DealStep[];
}

/** the SEQ after which the format's device starts again at 0 (0: the format has no SEQ) */
export function seqWrap(encoder: CorpusEncoder): number {
  for (let s = 0; s < 65536; s++) if (encoder.next(s) === 0) return s;
  return 65535;
}

const PROFILES = join(dirname(fileURLToPath(import.meta.url)), 'profiles');
const isFault = (s: DealStep): s is LineFault => 'fault' in s;

/** 3 baccarat rounds after a shoe is loaded (the deal of test/integration/bcc-shoe-over-serial.test.ts) */
export const BACCARAT_CARDS = ['2C', 'KH', 'QH', '9H', 'KD', '9C', '2S', '2H', '3D', '3C', 'KS', '8D', '6H', '4D', 'KC', 'AS', '3H'];
const card = (c: string): CorpusEvent => ({ k: 'card', card: c });
const noise: LineFault = { fault: 'noise' };
const truncated: LineFault = { fault: 'truncated' };
const badCheck: LineFault = { fault: 'bad-check' };

/**
 * A shoe's deal: loaded, the 17 cards with a heartbeat and every line fault among them, and (with
 * `misread`) a misread: a card the shoe could not read, dealt again after it (the pty tests leave
 * it out: a misread holds a baccarat round for the dealer).
 */
export function shoeDeal(misread = true): DealStep[] {
  const d: DealStep[] = [{ k: 'loaded' }, noise, { k: 'hb' }];
  BACCARAT_CARDS.forEach((c, i) => {
    if (i === 2) d.push(truncated);
    if (i === 4) d.push(badCheck);
    if (i === 6) d.push(noise);
    if (i === 9 && misread) d.push({ k: 'misread' });
    if (i === 10) d.push(noise, { k: 'hb' });
    if (i === 12) d.push(badCheck);
    if (i === 14) d.push(truncated);
    d.push(card(c));
  });
  d.push({ k: 'hb' });
  return d;
}

/** the 35 cards of a deck that `BACCARAT_CARDS` leaves out, in a fixed scrambled order */
export const REST_OF_DECK: string[] = (() => {
  const rest = [...'SHDC'].flatMap((s) => [...'A23456789TJQK'].map((r) => r + s)).filter((c) => !BACCARAT_CARDS.includes(c));
  return rest.map((_, k) => rest[(k * 11) % rest.length]);
})();

/**
 * A shoe's deal of a whole deck: `shoeDeal` (its rounds and line faults), then the rest of the
 * deck with a heartbeat and more line faults among them; every card's code is on the wire once
 * (what an explicit code table is learned from).
 */
export function fullDeckDeal(misread = true): DealStep[] {
  const d = shoeDeal(misread);
  REST_OF_DECK.forEach((c, i) => {
    if (i === 5) d.push(noise);
    if (i === 12) d.push(badCheck);
    if (i === 20) d.push({ k: 'hb' }, truncated);
    d.push(card(c));
  });
  d.push({ k: 'hb' });
  return d;
}

const DICE_DEAL: DealStep[] = [
  { k: 'hb' },
  noise,
  { k: 'roll', dice: [1, 4, 6], bounces: 3 },
  { k: 'noread' },
  truncated,
  { k: 'roll', dice: [3, 3, 5], bounces: 0 },
  badCheck,
  { k: 'roll', dice: [6, 6, 6], bounces: 31 },
  noise,
  { k: 'hb' },
  { k: 'roll', dice: [2, 5, 1], bounces: 7 },
  truncated,
  { k: 'roll', dice: [5, 5, 2], bounces: 12 },
  { k: 'hb' },
];
export const KENO_BALLS = [17, 3, 80, 42, 1, 66, 29, 58, 7, 71, 35, 12, 49, 64, 23, 76, 5, 38, 52, 16];
const KENO_DEAL: DealStep[] = [
  { k: 'hb' },
  noise,
  { k: 'start' },
  ...KENO_BALLS.flatMap((n, i): DealStep[] => [
    ...(i === 3 ? [truncated] : i === 8 ? [badCheck] : i === 12 ? [noise] : i === 16 ? [badCheck] : []),
    { k: 'ball', n },
  ]),
  { k: 'end' },
  { k: 'hb' },
];
const SHUFFLER_DEAL: DealStep[] = [
  { k: 'shuf', state: 'IDLE' },
  { k: 'hb' },
  noise,
  { k: 'shuf', state: 'SHUFFLING' },
  truncated,
  { k: 'count', n: 416 },
  { k: 'shuf', state: 'READY' },
  badCheck,
  { k: 'hb' },
  { k: 'shuf', state: 'JAM' },
  noise,
  { k: 'shuf', state: 'IDLE' },
  { k: 'count', n: 52 },
];

const entry = (
  name: string,
  kind: DeviceKind,
  modelledOn: string,
  encoder: CorpusEncoder,
  deal: DealStep[],
  rejects: CorpusEntry['rejects'],
  hasSeq = true,
): CorpusEntry => ({
  name,
  kind,
  modelledOn,
  encoder,
  profilePath: join(PROFILES, `${name}.yaml`),
  hasSeq,
  rejects,
  deal,
});
const usual = { noise: ['noise'], truncated: ['malformed'], 'bad-check': ['bad-checksum'] };
/** noise with an end byte in it: the runs before and after it are rejects of their own */
const noiseTwice = { ...usual, noise: ['noise', 'noise'] };
/** a frame whose length says where it ends: cut short, it takes bytes of the next and fails its check (the next is found again) */
const lengthCut = { ...usual, truncated: ['bad-checksum'] };
/** no start mark (or a HID report of the wrong size): noise is a malformed frame of its own */
const unmarked = { ...usual, noise: ['malformed'] };

export const CORPUS: CorpusEntry[] = [
  entry(
    'ascii-crlf-shoe',
    'card-shoe',
    'RS-232 shoes printing one ASCII line per card, CR LF, with an NMEA-style XOR check',
    E.asciiCrlfShoe,
    shoeDeal(),
    unmarked,
  ),
  entry('stx-etx-lrc-shoe', 'card-shoe', 'STX/ETX serial shoes with a block check character (LRC) after ETX', E.stxEtxLrcShoe, shoeDeal(), noiseTwice),
  entry(
    'dle-crc16-shoe',
    'card-shoe',
    'DLE-framed binary links (DLE STX .. DLE ETX, DLE doubled) with a CRC-16 after DLE ETX',
    E.dleCrc16Shoe,
    shoeDeal(),
    usual,
  ),
  entry('length-le-shoe', 'card-shoe', 'length-prefixed binary vendor protocols with a little-endian CRC-16', E.lengthLeShoe, shoeDeal(), lengthCut),
  entry('sync-keno', 'ball-reader', 'keno and bingo ball readers sending fixed-length binary frames behind a sync word', E.syncKeno, KENO_DEAL, lengthCut),
  entry('modbus-rtu-shoe', 'card-shoe', 'Modbus RTU slaves reporting input registers (function 0x04, CRC-16/MODBUS)', E.modbusRtuShoe, shoeDeal(), lengthCut),
  entry(
    'hex-trailer-shuffler',
    'shuffler',
    'shufflers sending ASCII status with a CRC-16 as hex digits after the terminator',
    E.hexTrailerShuffler,
    SHUFFLER_DEAL,
    noiseTwice,
    false,
  ),
  entry('decimal-sum-shoe', 'card-shoe', 'shoes sending suit_rank codes with a decimal checksum', E.decimalSumShoe, shoeDeal(), usual),
  entry('index52-shoe', 'card-shoe', 'shoes numbering the deck 1..52, with a CRC-8 in hex', E.index52Shoe, shoeDeal(), usual),
  // an explicit code table is learned from a whole deck: its deal shows every card's code
  entry('table-char-shoe', 'card-shoe', 'compact shoes sending a vendor character per card (an explicit code table)', E.tableCharShoe, fullDeckDeal(), usual),
  entry('hid-card-reader', 'card-shoe', 'USB HID card readers reporting one card per vendor input report', E.hidCardReader, shoeDeal(), unmarked),
  entry('bitfield-dice', 'dice-sensor', 'sic bo dice readers packing the dice in bit fields, HDLC-style escaped frames', E.bitfieldDice, DICE_DEAL, noiseTwice),
];

/** one event or reject as a line of text: what the tests compare */
export function describeItem(i: DeviceFrame | FrameReject, withSeq: boolean): string {
  if ('reason' in i) return `reject ${i.reason}`;
  const seq = withSeq ? ` #${i.seq}` : '';
  switch (i.type) {
    case 'CARD':
      return `CARD ${i.card}${i.rescan ? ' R' : ''}${seq}`;
    case 'ROLL':
      return `ROLL ${i.dice.join(',')}/${i.bounces}${seq}`;
    case 'BALL':
      return `BALL ${i.ball}${seq}`;
    case 'COUNT':
      return `COUNT ${i.count}${seq}`;
    case 'STATE':
    case 'SHUF_STATE':
      return `${i.type} ${i.state}${seq}`;
    default:
      return `${i.type}${seq}`;
  }
}

function describeEvent(e: CorpusEvent): string {
  switch (e.k) {
    case 'card':
      return `CARD ${e.card}`;
    case 'misread':
      return 'MISREAD';
    case 'hb':
      return 'HB';
    case 'loaded':
      return 'STATE LOADED';
    case 'roll':
      return `ROLL ${e.dice.join(',')}/${e.bounces}`;
    case 'noread':
      return 'NOREAD';
    case 'ball':
      return `BALL ${e.n}`;
    case 'start':
      return 'START';
    case 'end':
      return 'END';
    case 'shuf':
      return `SHUF_STATE ${e.state}`;
    case 'count':
      return `COUNT ${e.n}`;
  }
}

export interface BuiltDeal {
  /** the bytes on the line, one element per write of the device (a HID device: one report each) */
  writes: Buffer[];
  /** what a correct decoder reads, in order: events and rejects (describeItem's text) */
  expected: string[];
  /** the technician's script of the deal (device-protocols.md §3.2): no heartbeats, no faults */
  script: string;
}

/** the deal's bytes and what they decode to, SEQ from `seq0` */
export function buildDeal(e: CorpusEntry, deal: DealStep[] = e.deal, seq0 = 1): BuiltDeal {
  const writes: Buffer[] = [];
  const expected: string[] = [];
  const script: string[] = [];
  let seq = seq0;
  let pending: LineFault['fault'] | undefined;
  for (const step of deal) {
    if (isFault(step)) {
      if (step.fault === 'noise') {
        writes.push(e.encoder.noise());
        expected.push(...e.rejects.noise.map((r) => `reject ${r}`));
      } else pending = step.fault;
      continue;
    }
    const f = e.encoder.frame(step, seq);
    if (!f) throw new Error(`${e.name}: the format has no frame for ${JSON.stringify(step)}`);
    if (pending) {
      writes.push(pending === 'bad-check' ? e.encoder.badCheck(f) : e.encoder.truncated(f));
      expected.push(...e.rejects[pending].map((r) => `reject ${r}`));
      pending = undefined;
    }
    writes.push(f);
    expected.push(`${describeEvent(step)}${e.hasSeq ? ` #${seq}` : ''}`);
    const token = scriptToken(step);
    if (token) script.push(token);
    seq = e.encoder.next(seq);
  }
  return { writes, expected, script: `${script.join('\n')}\n` };
}

function scriptToken(e: CorpusEvent): string | null {
  switch (e.k) {
    case 'card':
      return e.card;
    case 'misread':
      return 'MISREAD';
    case 'loaded':
      return 'LOADED';
    case 'roll':
      return `ROLL:${e.dice.join(',')}`;
    case 'noread':
      return 'NOREAD';
    case 'ball':
      return `BALL:${e.n}`;
    case 'start':
      return 'START';
    case 'end':
      return 'END';
    case 'shuf':
      return `SHUF:${e.state}`;
    case 'count':
      return `COUNT:${e.n}`;
    case 'hb':
      return null;
  }
}

/**
 * The capture of the deal as `tablegw capture` writes it: a header, then the line's chunks (a
 * few writes per chunk, as a serial read delivers them; a HID device one report per chunk).
 */
export function buildCapture(e: CorpusEntry, deal: DealStep[] = e.deal): { text: string; expected: string[]; script: string } {
  const d = buildDeal(e, deal);
  const hid = e.encoder.reportBytes !== undefined;
  const header = headerLine({
    format: 'tablegw-capture',
    version: 1,
    transport: hid ? 'hid' : 'serial',
    port: hid ? 'hid:16c0:05df' : '/dev/ttyUSB0',
    settings: hid ? {} : { baudRate: 9600, dataBits: 8, parity: 'none', stopBits: 1 },
    startedAt: '2026-12-07T00:00:00.000Z',
    tool: 'tablegw corpus',
  });
  const lines: string[] = [];
  let t = 0;
  for (let i = 0; i < d.writes.length; i += hid ? 1 : 3) {
    lines.push(chunkLine(t, Buffer.concat(d.writes.slice(i, i + (hid ? 1 : 3)))));
    t += 40;
  }
  return { text: header + lines.join(''), expected: d.expected, script: d.script };
}
