/**
 * The issue's shoe, for real: `STX body ETX BCC` (one binary XOR byte after ETX, covering the body
 * and ETX) read through the shipped `stx-etx-bcc-shoe` profile on a real pty with the real
 * serialport bindings, gateway and Mosquitto. The frames are written by this file's own encoder.
 * Line noise is written in the same write as the frames next to it (no pause for a timer to
 * separate them): stray STX and ETX bytes, a frame with a bad BCC, a frame cut short, and frames
 * whose BCC is itself the STX or the ETX byte. Every card is placed; no card is invented.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realIoOrSkip } from '../helpers/real-io.js';
import { startProfiledShoeTable, type ProfiledShoeTable } from '../helpers/profiled-shoe-table.js';

const io = realIoOrSkip(['socat', 'mosquitto']);

/** STX body ETX BCC, BCC = XOR of body and ETX */
function frame(body: string): Buffer {
  const b = Buffer.from(`${body}\u0003`, 'latin1');
  let x = 0;
  for (const c of b) x ^= c;
  return Buffer.concat([Buffer.of(0x02), b, Buffer.of(x)]);
}
const bcc = (f: Buffer): number => f[f.length - 1];
/** `TD` -> `10D` */
const code = (card: string): string => (card[0] === 'T' ? '10' : card[0]) + card[1];

/** the deal: a shoe start and three baccarat rounds */
const SCRIPT: string[] = [
  'L',
  'C,2C',
  'C,KH',
  'C,QH',
  'C,9H',
  'C,KD',
  'C,9C',
  'C,2S',
  'C,2H',
  'C,3D',
  'C,3C',
  'C,KS',
  'C,8D',
  'C,6H',
  'C,4D',
  'C,KC',
  'C,AS',
  'C,3H',
];
const bodies = (s0: number) => SCRIPT.map((b, i) => `${s0 + i},${b.startsWith('C,') ? `C,${code(b.slice(2))}` : b}`);
/** a first SEQ whose frames include one with the STX byte and one with the ETX byte as their BCC */
const S0 = (() => {
  for (let s = 0; s < 60_000; s++) {
    const bccs = bodies(s).map((b) => bcc(frame(b)));
    if (bccs.includes(0x02) && bccs.includes(0x03)) return s;
  }
  throw new Error('no SEQ start gives both');
})();

describe.skipIf(!io.available)('the STX body ETX BCC shoe over a real serial line with line noise', () => {
  let t: ProfiledShoeTable;
  const on = (suffix: string) => t.on(suffix);

  beforeAll(async () => {
    t = await startProfiledShoeTable('bcc-01', 'stx-etx-bcc-shoe');
  });

  afterAll(async () => {
    await t?.stop();
  });

  it('places every card: noise next to frames is its own reject, never taking a frame with it', async () => {
    const frames = bodies(S0).map(frame);
    const noise = [
      Buffer.from([0x02, 0x41, 0x03, 0x02]), // a stray STX, text, ETX, STX right before a frame
      Buffer.from([0x03, 0x55, 0xff]),
      Buffer.from('\u0002' + `${S0 + 99},C,`, 'latin1'), // a frame cut short
    ];
    const badBcc = Buffer.from(frames[5]);
    badBcc[badBcc.length - 1] ^= 0x40;
    // frames and faults interleaved, several frames per write, no pause between a fault and its frame
    const wire: Buffer[] = [];
    frames.forEach((f, i) => {
      if (i === 5) wire.push(badBcc); // the shoe's frame damaged on the line ...
      if (i % 3 === 1) wire.push(noise[i % noise.length]);
      wire.push(f);
    });
    for (let i = 0; i < wire.length; i += 4) await t.pty.write(Buffer.concat(wire.slice(i, i + 4)));
    await t.rec.waitForCount(on('result'), 3);
    const [r1, r2, r3] = t.rec.messages.filter(on('result')).map((m) => m.payload);
    expect(r1).toMatchObject({
      status: 'complete',
      cards: { player: ['9H', '9C'], banker: ['KD', '2S'], burn: [] },
      outcome: { winner: 'player', natural: true, playerPair: true },
    });
    expect(r2).toMatchObject({ status: 'complete', cards: { player: ['2H', '3C', '8D'], banker: ['3D', 'KS'] }, outcome: { winner: 'tie' } });
    expect(r3).toMatchObject({ status: 'complete', cards: { player: ['6H', 'KC'], banker: ['4D', 'AS', '3H'] } });
    const dealt = t.rec.messages.filter((m) => on('events')(m) && m.payload.kind === 'card').map((m) => m.payload.card);
    expect(dealt.filter((c: string | null) => c !== null)).toEqual(['2C', '9H', 'KD', '9C', '2S', '2H', '3D', '3C', 'KS', '8D', '6H', '4D', 'KC', 'AS', '3H']);
    // the faults are counted rejects (a bad-frame alert), and no frame was lost (no gap)
    await t.rec.waitFor((m) => on('alerts')(m) && m.payload.kind === 'bad-frame');
    expect(t.rec.messages.filter((m) => on('alerts')(m) && m.payload.kind === 'frame-gap')).toEqual([]);
  });
});
