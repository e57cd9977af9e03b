/**
 * A vendor shoe that does not speak the reference protocol, read through a device profile
 * (device-protocols.md §3): the shipped `stx-etx-shoe` profile (STX `<seq>,C,S_K` ETX with an LRC
 * after `*`) on a real pty with the real serialport bindings, the real gateway and a real
 * Mosquitto. The frames are written by this file's own encoder, not the profile engine. A full
 * baccarat shoe start and three rounds go through, with noise, a bad checksum (re-sent by the
 * shoe under the same SEQ) and a truncated frame on the line: every card placed, every bad frame
 * a counted reject, no card invented.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/app/config/load-config.js';
import { realIoOrSkip } from '../helpers/real-io.js';
import { startProfiledShoeTable, type ProfiledShoeTable } from '../helpers/profiled-shoe-table.js';

const io = realIoOrSkip(['socat', 'mosquitto']);

/** LRC: the two's complement of the byte sum of the body, two hex digits */
function lrcHex(s: string): string {
  let sum = 0;
  for (const ch of s) sum += ch.charCodeAt(0);
  return ((256 - (sum % 256)) % 256).toString(16).toUpperCase().padStart(2, '0');
}
const frame = (body: string): Buffer => Buffer.from(`\u0002${body}*${lrcHex(body)}\u0003`, 'latin1');
/** `AS` -> `S_A`, `TD` -> `D_10` */
const vendorCode = (card: string): string => `${card[1]}_${card[0] === 'T' ? '10' : card[0]}`;

describe.skipIf(!io.available)('a card shoe read through the stx-etx-shoe profile over a real serial line', () => {
  let t: ProfiledShoeTable;
  let seq = 0;
  const on = (suffix: string) => t.on(suffix);
  const send = async (...frames: Buffer[]) => t.pty.write(Buffer.concat(frames));
  const next = (body: string) => frame(`${seq++},${body}`);
  const cards = async (...cs: string[]) => {
    for (const c of cs) await send(next(`C,${vendorCode(c)}`));
  };

  beforeAll(async () => {
    t = await startProfiledShoeTable('prof-01', 'stx-etx-shoe');
  });

  afterAll(async () => {
    await t?.stop();
  });

  it('deals a shoe start and three rounds through line faults: every card placed, every bad frame rejected', async () => {
    await send(next('L'));
    await cards('2C', 'KH', 'QH'); // reveal 2 -> burn 2
    // noise, then a frame whose checksum is wrong: the shoe re-sends it under the same SEQ
    await send(Buffer.from([0x55, 0xff, 0x13]));
    const bad = frame(`${seq},C,${vendorCode('9H')}`);
    bad[bad.length - 2] = bad[bad.length - 2] === 0x30 ? 0x31 : 0x30;
    await send(bad);
    await cards('9H', 'KD', '9C', '2S'); // player 9-9 pair, 8 natural
    await send(Buffer.from('\u00027,C,H_', 'latin1')); // cut short: the next STX starts a new frame
    await cards('2H', '3D', '3C', 'KS', '8D'); // player 5 draws 8, banker 3 stands on 8
    await cards('6H', '4D', 'KC', 'AS', '3H'); // player 6 stands, banker 5 draws
    await t.rec.waitForCount(on('result'), 3);
    const [r1, r2, r3] = t.rec.messages.filter(on('result')).map((m) => m.payload);
    expect(r1).toMatchObject({
      status: 'complete',
      cards: { player: ['9H', '9C'], banker: ['KD', '2S'], burn: [] },
      outcome: { winner: 'player', natural: true, playerPair: true },
    });
    expect(r2).toMatchObject({ status: 'complete', cards: { player: ['2H', '3C', '8D'], banker: ['3D', 'KS'] }, outcome: { winner: 'tie' } });
    expect(r3).toMatchObject({ status: 'complete', cards: { player: ['6H', 'KC'], banker: ['4D', 'AS', '3H'] } });
    // the card events are exactly the cards written, in order
    const dealt = t.rec.messages.filter((m) => on('events')(m) && m.payload.kind === 'card').map((m) => m.payload.card);
    expect(dealt.filter((c: string | null) => c !== null)).toEqual(['2C', '9H', 'KD', '9C', '2S', '2H', '3D', '3C', 'KS', '8D', '6H', '4D', 'KC', 'AS', '3H']);
    // the bad frames are counted rejects, reported as bad-frame alerts with their reasons, and no gap
    const alerts = await t.rec.waitFor((m) => on('alerts')(m) && m.payload.kind === 'bad-frame');
    expect(alerts.payload).toMatchObject({ deviceId: 'shoe-1' });
    expect(t.rec.messages.filter((m) => on('alerts')(m) && m.payload.kind === 'frame-gap')).toEqual([]);
  });

  it('a profile that does not fit is refused before the gateway starts, naming the key', () => {
    const table = (profile: string, kind = 'card-shoe') => ({
      mqtt: { url: 'mqtt://127.0.0.1:1' },
      tables: [{ id: 'p', game: 'baccarat', devices: [{ id: 'd', kind, profile, transport: { type: 'serial', path: '/dev/null' } }] }],
    });
    expect(() => validateConfig(table('no-such-profile'))).toThrow(/tables\[0\]\.devices\[0\]\.profile: no shipped profile "no-such-profile"/);
    expect(() => validateConfig(table('modbus-dice'))).toThrow(/speaks DICE, a card-shoe needs SHOE/);
    expect(() => validateConfig(table('stx-etx-shoe'))).not.toThrow();
  });
});
