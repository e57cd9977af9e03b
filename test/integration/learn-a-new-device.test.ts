import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createPtyPair } from '../../dev/rig/pty-pair.js';
import { cleanupTempDirs, makeTempDir } from '../../dev/rig/temp-dir.js';
import { shuffledDeck } from '../../simulators/devices/deal-capture.js';
import { startProfiledShoeTable } from '../helpers/profiled-shoe-table.js';
import { realIoOrSkip } from '../helpers/real-io.js';
import { killStartedCommands, startTablegw, tablegw } from '../helpers/tablegw-cli.js';

afterAll(cleanupTempDirs);
const io = realIoOrSkip(['socat', 'mosquitto']);

// ------------------------------------------------------------------ the vendor's wire, written here

function crc16CcittFalse(b: Buffer): number {
  let crc = 0xffff;
  for (const x of b) {
    crc ^= x << 8;
    for (let k = 0; k < 8; k++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}
const SUITS = 'SHCD';
const RANKS = 'A23456789TJQK';
const vendorCode = (card: string): string => String(SUITS.indexOf(card[1]) * 13 + RANKS.indexOf(card[0]) + 1).padStart(2, '0');
function vendorFrame(seq: number, body: string): Buffer {
  const inner = Buffer.from(`Z${String(seq % 1000).padStart(3, '0')}:${body}`, 'latin1');
  const crc = crc16CcittFalse(inner).toString(16).toUpperCase().padStart(4, '0');
  return Buffer.concat([Buffer.from('<', 'latin1'), inner, Buffer.from(`*${crc}>\r\n`, 'latin1')]);
}
function bodyOf(step: string): string {
  if (step === 'LOADED') return 'SL';
  if (step === 'MISREAD') return 'DXX';
  if (step === 'CUT') return 'CUT';
  if (step === 'HB') return 'HB';
  if (step.startsWith('RESCAN:')) return `R${vendorCode(step.slice(7))}`;
  return `D${vendorCode(step)}`;
}
/** line noise: a stray start, a frame cut short, a frame with a damaged CRC, bytes that are no frame */
function noise(k: number, seq: number): Buffer {
  switch (k % 4) {
    case 0:
      return Buffer.from([0x3c, 0x5a, 0x31, 0xff, 0x0d]);
    case 1:
      return vendorFrame(seq + 500, 'D07').subarray(0, 9);
    case 2: {
      const f = Buffer.from(vendorFrame(seq + 700, 'D33'));
      f[f.length - 5] = f[f.length - 5] === 0x30 ? 0x31 : 0x30;
      return f;
    }
    default:
      return Buffer.from([0x00, 0xfe, 0x3e, 0x0d, 0x0a]);
  }
}

// ------------------------------------------------------------------ baccarat, worked out here

const value = (card: string): number => {
  const r = RANKS.indexOf(card[0]) + 1;
  return r >= 10 ? 0 : r;
};
const total = (cards: string[]): number => cards.reduce((n, c) => n + value(c), 0) % 10;
interface Round {
  player: string[];
  banker: string[];
}
/** one round from the top of `cards`: the tableau of games.md "Baccarat" */
function dealRound(cards: string[]): Round {
  const [p1, b1, p2, b2] = cards;
  const player = [p1, p2];
  const banker = [b1, b2];
  let k = 4;
  if (total(player) >= 8 || total(banker) >= 8) return { player, banker };
  let third: number | undefined;
  if (total(player) <= 5) {
    player.push(cards[k++]);
    third = value(player[2]);
  }
  const b = total(banker);
  const draws =
    third === undefined
      ? b <= 5
      : b <= 2 || (b === 3 && third !== 8) || (b === 4 && third >= 2 && third <= 7) || (b === 5 && third >= 4 && third <= 7) || (b === 6 && third >= 6);
  if (draws) banker.push(cards[k]);
  return { player, banker };
}
/** a new shoe: the reveal card, its value in burns (T-K count 10), then rounds until `minCards` are dealt */
function shoePlan(shoe: string[], minCards: number): { reveal: string; burn: string[]; rounds: Round[]; used: number } {
  const reveal = shoe[0];
  const burns = Math.min(10, RANKS.indexOf(reveal[0]) + 1);
  const burn = shoe.slice(1, 1 + burns);
  let at = 1 + burns;
  const rounds: Round[] = [];
  while (at < minCards) {
    const r = dealRound(shoe.slice(at));
    rounds.push(r);
    at += r.player.length + r.banker.length;
  }
  return { reveal, burn, rounds, used: at };
}
/** a round's cards in the order the dealer draws them */
const drawOrder = (r: Round): string[] => [r.player[0], r.banker[0], r.player[1], r.banker[1], ...r.player.slice(2), ...r.banker.slice(2)];

// ------------------------------------------------------------------ the test

afterEach(killStartedCommands);

async function until(what: string, ok: () => boolean, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe.skipIf(!io.available)('a device the project has never seen: record one known deal, learn its profile, deal a full shoe through it', () => {
  it('every card of an eight-deck shoe dealt over a noisy serial line lands where the tableau puts it', async () => {
    const dir = await makeTempDir('teg-new-device-');

    // 1. the installer records one known deal (two decks, heartbeats while idle, a misread and its rescan) with tablegw capture
    const deck = shuffledDeck(71, 2);
    const known = [
      'HB',
      'HB',
      'HB',
      'LOADED',
      ...deck.slice(0, 9),
      'MISREAD',
      `RESCAN:${deck[9]}`,
      ...deck.slice(10, 60),
      'HB',
      'HB',
      ...deck.slice(60),
      'CUT',
      'HB',
    ];
    const line = await createPtyPair();
    const capFile = join(dir, 'vendor-z.capture.jsonl');
    const capture = startTablegw(['capture', line.gatewayPath, '--out', capFile]);
    await until('the recording to start', () => capture.out().includes('recording '));
    let seq = 985;
    let sent = 0;
    for (const [i, step] of known.entries()) {
      const f = vendorFrame(seq++, bodyOf(step));
      await line.write(i % 7 === 3 ? Buffer.concat([noise(i, seq), f]) : f);
      sent += f.length + (i % 7 === 3 ? noise(i, seq - 1).length : 0);
    }
    await until('every byte recorded', () => capture.out().includes(`${sent} byte(s)`));
    capture.child.kill('SIGINT');
    expect(await capture.exited).toBe(0);
    await line.dispose();
    const script = join(dir, 'deal.txt');
    writeFileSync(script, `# two decks from the top, as dealt\n${known.filter((s) => s !== 'HB').join(' ')}\n`);

    // 2. tablegw profile learn, then profile check
    const learned = join(dir, 'vendor-z.yaml');
    const learn = await tablegw(['profile', 'learn', capFile, '--deal', script, '--out', learned]);
    expect(learn.stderr).toContain('verified on the capture as it arrived and re-chunked');
    expect(learn.code).toBe(0);
    expect(readFileSync(learned, 'utf8')).toMatch(/^# - integrity: crc16-ccitt-false hex before-end after "\*"/m);
    expect((await tablegw(['profile', 'check', learned, capFile])).code).toBe(0);

    // 3. a full eight-deck shoe through the learned profile, over a real serial line with line noise
    const shoe = shuffledDeck(72, 8);
    const plan = shoePlan(shoe, 380);
    const misreadAt = 40;
    const steps: string[] = ['HB', 'LOADED', plan.reveal, ...plan.burn];
    const dealt = plan.rounds.flatMap(drawOrder);
    dealt.forEach((c, k) => {
      if (k === misreadAt) steps.push('MISREAD', `RESCAN:${c}`);
      else steps.push(c);
      if (k % 50 === 49) steps.push('HB');
    });
    steps.push('CUT');
    const t = await startProfiledShoeTable('vz-01', learned);
    try {
      seq = 800;
      const wire: Buffer[] = [];
      steps.forEach((s, i) => {
        if (i % 9 === 5) wire.push(noise(i, seq));
        wire.push(vendorFrame(seq++, bodyOf(s)));
      });
      // several frames (and their noise) per write: no pause for a timer to separate them
      for (let i = 0; i < wire.length; i += 5) await t.pty.write(Buffer.concat(wire.slice(i, i + 5)));
      await t.rec.waitForCount(t.on('result'), plan.rounds.length, 60_000);
      const results = t.rec.messages.filter(t.on('result')).map((m) => m.payload as { status: string; cards: { player: string[]; banker: string[] } });
      expect(results).toHaveLength(plan.rounds.length);
      results.forEach((r, k) => {
        expect({ round: k + 1, status: r.status, player: r.cards.player, banker: r.cards.banker }).toEqual({
          round: k + 1,
          status: 'complete',
          player: plan.rounds[k].player,
          banker: plan.rounds[k].banker,
        });
      });
      // the line noise was rejected as bad frames; no frame was lost, through the SEQ's wrap at 999
      expect(seq).toBeGreaterThan(1000);
      await t.rec.waitFor((m) => t.on('alerts')(m) && (m.payload as { kind: string }).kind === 'bad-frame');
      expect(t.rec.messages.filter((m) => t.on('alerts')(m) && (m.payload as { kind: string }).kind === 'frame-gap')).toEqual([]);
    } finally {
      await t.stop();
    }
  }, 180_000);
});
