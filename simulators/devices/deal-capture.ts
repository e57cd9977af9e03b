/**
 * A known deal as a device in a profile's format writes it, with line faults, cut into chunks the
 * way a serial port delivers them: what `tablegw capture` records while a technician deals, for
 * `tablegw profile learn` tests, benchmarks and corpora. Frames come from the profile encoder
 * (profile-encoder.ts via wire.ts); heartbeats fill the idle gaps; faults are line noise between
 * frames and frames with a damaged check value (both rejects). Deterministic for a seed.
 */
import type { DeviceProfile } from '../../drivers/profiles/profile-schema.js';
import { damagedFrame, profileWire } from './wire.js';

/** one event of a deal, in the script's words: a card (`AS`), `RESCAN:AS`, `MISREAD`, `CUT`, `LOADED`, `DROP`; `BALL:<n>`, `START`, `END`; `SHUF:<state>`, `COUNT:<n>` */
export type DealStep = string;

export interface DealCaptureOptions {
  /** heartbeats in the idle gap before each `idleEvery`-th event (default 3 heartbeats every 8 events) */
  heartbeats?: number;
  idleEvery?: number;
  /** noise bursts between frames (default 3) */
  noise?: number;
  /** frames sent with a damaged check value before being sent again right (default 2; 0 for a profile without integrity) */
  badChecks?: number;
  seed?: number;
}

export interface DealCapture {
  chunks: Array<{ t: number; bytes: Buffer }>;
  /** the script a technician would write for this deal */
  script: string;
}

function typeOf(step: DealStep): { type: string; fields: string[] } {
  if (step === 'MISREAD' || step === 'CUT' || step === 'DROP') return { type: step, fields: [] };
  if (step === 'LOADED') return { type: 'STATE', fields: ['LOADED'] };
  if (step === 'START' || step === 'END') return { type: step, fields: [] };
  if (step.startsWith('BALL:')) return { type: 'BALL', fields: [step.slice(5)] };
  // a shuffler's state is the reference protocol's STATE of talker SHUF
  if (step.startsWith('SHUF:')) return { type: 'STATE', fields: [step.slice(5)] };
  if (step.startsWith('COUNT:')) return { type: 'COUNT', fields: [step.slice(6)] };
  if (step.startsWith('RESCAN:')) return { type: 'CARD', fields: [step.slice(7), 'R'] };
  return { type: 'CARD', fields: [step] };
}

/** a shuffled deck of 52 (or `decks` x 52) in the gateway's notation, for a seed */
export function shuffledDeck(seed: number, decks = 1): string[] {
  const cards: string[] = [];
  for (let d = 0; d < decks; d++) for (const r of 'A23456789TJQK') for (const s of 'SHDC') cards.push(r + s);
  let x = seed >>> 0 || 1;
  for (let i = cards.length - 1; i > 0; i--) {
    x = (Math.imul(x ^ (x >>> 13), 0x5bd1e995) + 0x9e3779b9) >>> 0;
    const j = x % (i + 1);
    [cards[i], cards[j]] = [cards[j], cards[i]];
  }
  return cards;
}

export function dealCapture(profile: DeviceProfile, steps: readonly DealStep[], o: DealCaptureOptions = {}): DealCapture {
  const wire = profileWire(profile);
  const hbs = o.heartbeats ?? 3;
  const every = o.idleEvery ?? 8;
  const hasCheck = profile.integrity.algorithm !== 'none';
  let noise = o.noise ?? 3;
  let bad = hasCheck ? (o.badChecks ?? 2) : 0;
  let x = (o.seed ?? 7) >>> 0 || 1;
  const rnd = (n: number): number => {
    x = (Math.imul(x ^ (x >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return x % n;
  };
  const out: Buffer[] = [];
  const times: number[] = [];
  let t = 0;
  let seq = 1;
  const send = (b: Buffer, gap: number): void => {
    t += gap;
    out.push(b);
    times.push(t);
  };
  const frame = (type: string, fields: string[]): Buffer => {
    const b = wire.encode(profile.talker, seq, type, fields);
    if (!b) throw new Error(`profile ${profile.name} cannot write ${type} ${fields.join(',')}`);
    seq = (seq + 1) % (profile.seq.wrap + 1);
    return Buffer.isBuffer(b) ? b : Buffer.from(b, 'latin1');
  };
  const canBeat = wire.encode(profile.talker, 0, 'HB', []) !== null;
  const spread = Math.max(1, Math.floor(steps.length / 4));
  steps.forEach((step, k) => {
    if (k % every === 0 && canBeat) for (let h = 0; h < hbs; h++) send(frame('HB', []), 1000);
    if (noise > 0 && k % spread === spread - 1) {
      noise--;
      send(Buffer.from(wire.noise()), 30);
    }
    const { type, fields } = typeOf(step);
    if (bad > 0 && k % spread === 1) {
      bad--;
      const s0 = seq;
      send(damagedFrame(frame(type, fields), 'bad-check', profile), 200);
      seq = s0;
    }
    send(frame(type, fields), 400);
  });
  if (canBeat) for (let h = 0; h < hbs; h++) send(frame('HB', []), 1000);
  // cut into the chunks a port delivers: a frame in one to three pieces, a few milliseconds apart
  const chunks: Array<{ t: number; bytes: Buffer }> = [];
  out.forEach((b, k) => {
    let at = 0;
    let tt = times[k];
    while (at < b.length) {
      const n = rnd(3) === 0 ? b.length - at : 1 + rnd(Math.max(1, b.length - at));
      chunks.push({ t: tt, bytes: b.subarray(at, at + n) });
      at += n;
      tt += 2;
    }
  });
  return { chunks, script: steps.join(' ') };
}
