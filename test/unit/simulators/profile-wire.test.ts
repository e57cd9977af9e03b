/**
 * The simulators' wire seam (simulators/devices/wire.ts): the same virtual devices write a
 * profile's format when they have one; commands come back through the profile's downlinks; the
 * line faults (noise, a damaged check, a frame cut short) are made in that format and are rejected
 * by the profile's decoder without losing the frame after them.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DeviceFrame, FrameReject } from '../../../src/core/vocabulary/frames.js';
import { compileProfile } from '../../../drivers/profiles/profile-decoder.js';
import { createProfileEncoder } from '../../../drivers/profiles/profile-encoder.js';
import { loadProfileFile } from '../../../drivers/profiles/profile-schema.js';
import { seededRng } from '../../../simulators/rng.js';
import { VirtualBarcodeScanner } from '../../../simulators/devices/barcode-scanner-device.js';
import { VirtualCardShoe } from '../../../simulators/devices/card-shoe-device.js';
import { LineDevice } from '../../../simulators/devices/line-device.js';
import { ScannerDealingReader } from '../../../simulators/devices/scanner-dealing-reader.js';
import { damagedFrame, profileWire, referenceWire } from '../../../simulators/devices/wire.js';

const profile = (n: string) => loadProfileFile(join(import.meta.dirname, '../../../drivers/profiles/shipped', `${n}.yaml`));
const summary = (out: (DeviceFrame | FrameReject)[]) =>
  out.map((f) => ('reason' in f ? f.reason : f.type === 'CARD' ? `${f.card}${f.rescan ? ' R' : ''}` : f.type));

describe('simulator wires', () => {
  it('a line device writes the profile format; what the format cannot say (VER, HB) is not sent', () => {
    const out: (string | Buffer)[] = [];
    const keno = new LineDevice('BALL', (b) => out.push(b), seededRng(1), { garbageRate: 0, dropFrameRate: 0 }, profileWire(profile('star-keno')));
    keno.powerUp('VBALL-1');
    keno.heartbeat();
    keno.send('START');
    keno.send('BALL', [17]);
    keno.send('END');
    expect(out.map((b) => b.toString())).toEqual(['*S;0\r', '*B;17\r', '*E;0\r']);
  });

  it('the card shoe in the stx-etx format answers RESCAN and REPEAT from the profile downlinks', () => {
    const p = profile('stx-etx-shoe');
    const out: Buffer[] = [];
    const shoe = new VirtualCardShoe(
      (b) => out.push(Buffer.from(b)),
      seededRng(1),
      { misreadRate: 1, garbageRate: 0, dropFrameRate: 0 },
      'SHOE',
      profileWire(p),
    );
    expect(shoe.card('TD')).toBe(false);
    const gateway = createProfileEncoder(p);
    shoe.onGatewayBytes(gateway.command('rescan')!);
    shoe.onGatewayBytes(gateway.command('repeat', { from: 0 })!);
    expect(summary(compileProfile(p).push(Buffer.concat(out)))).toEqual(['MISREAD', 'TD R', 'MISREAD', 'TD R']);
    expect(shoe.framesRepeated).toBe(2);
  });

  it('a serial scanner with a profile writes cards in its card code, bad labels as raw text', () => {
    const p = profile('serial-scanner');
    const out: (string | Buffer)[] = [];
    const scanner = new VirtualBarcodeScanner((b) => out.push(b), seededRng(1), { badBarcodeRate: 1 }, profileWire(p));
    scanner.scanCard('TH');
    expect(out.map((b) => b.toString())).toEqual(['NO-CARD-42\r\n', 'H10\r\n']);
    expect(summary(compileProfile(p).push(Buffer.concat(out.map((b) => Buffer.from(b)))))).toEqual(['unknown-type', 'TH']);
  });

  it('HID profiles: the wedge scanner types reports one per write, the dice sensor writes one report per roll; noise is a malformed report', () => {
    const wedge = profile('wedge-scanner');
    const writes: Buffer[] = [];
    const scanner = new VirtualBarcodeScanner((b) => writes.push(Buffer.from(b)), seededRng(1), { badBarcodeRate: 1 }, profileWire(wedge));
    scanner.scanCard('TH');
    expect(writes.every((w) => w.length === 8)).toBe(true);
    // "NO-CARD-42" + Enter, then "H10" + Enter: a press and a release per key
    expect(writes).toHaveLength((11 + 4) * 2);
    const dw = compileProfile(wedge);
    expect(summary(writes.flatMap((w) => dw.push(w)))).toEqual(['unknown-type', 'TH']);

    const dice = profile('hid-dice-sensor');
    const out: Buffer[] = [];
    const sensor = new LineDevice('DICE', (b) => out.push(Buffer.from(b)), seededRng(1), { garbageRate: 0, dropFrameRate: 0 }, profileWire(dice));
    sensor.powerUp('VDICE-1'); // VER: the sensor's reports have no type for it, not sent
    sensor.heartbeat();
    sensor.send('ROLL', [3, 4, 5, 2]);
    sensor.send('COCKED');
    expect(out.map((b) => b.length)).toEqual([8, 8]);
    const dd = compileProfile(dice);
    expect(out.flatMap((b) => dd.push(b))).toEqual([
      { talker: 'DICE', seq: 0, type: 'ROLL', dice: [3, 4, 5], bounces: 2 },
      { talker: 'DICE', seq: 1, type: 'COCKED' },
    ]);
    expect(summary(dd.push(Buffer.from(profileWire(dice).noise())))).toEqual(['malformed']);
  });

  it('noise, a damaged check and a truncated frame are rejected in each format; the next frame still decodes', () => {
    const sample = { DICE: ['ROLL', 1, 2, 3, 0], BALL: ['BALL', 9], SHUF: ['COUNT', 52], SHOE: ['CARD', 'AS'], RFID: ['TAG', 'E0040000000000A1'] } as const;
    for (const name of ['stx-etx-shoe', 'four-digit-shoe', 'modbus-dice', 'star-keno', 'ascii-shuffler', 'serial-scanner', 'crc-rfid-reader']) {
      const p = profile(name);
      const wire = profileWire(p);
      const [type, ...fields] = sample[p.talker];
      const frame = wire.encode(p.talker, 3, type, fields)!;
      expect(frame, name).not.toBeNull();
      const good = summary(compileProfile(p).push(Buffer.from(frame)));
      const bytes = (x: string | Buffer) => (typeof x === 'string' ? Buffer.from(x, 'latin1') : x);
      const checked = p.integrity.algorithm !== 'none';
      const out = summary(
        compileProfile(p).push(Buffer.concat([bytes(wire.noise()), bytes(frame), ...(checked ? [damagedFrame(frame, 'bad-check', p)] : []), bytes(frame)])),
      );
      // the noise is one reject (discarded before a start mark, or a frame of its own where there is none)
      expect(['noise', 'malformed', 'unknown-type'], `${name}: ${out[0]}`).toContain(out[0]);
      expect(out.slice(1), name).toEqual([...good, ...(checked ? ['bad-checksum'] : []), ...good]);
      if (p.framing.start && p.encoding === 'ascii') {
        // cut short: the next start mark begins a new frame, the half frame is one reject (a binary
        // fixed-length frame has no such resync: there the next frame is lost with it)
        const cut = summary(compileProfile(p).push(Buffer.concat([damagedFrame(frame, 'truncated', p), bytes(frame)])));
        expect(cut.slice(-1), name).toEqual(good);
        expect(cut.length, name).toBe(2);
      }
    }
    expect(damagedFrame(referenceWire.encode('SHOE', 0, 'CARD', ['AS'])!, 'bad-check').toString()).not.toBe(referenceWire.encode('SHOE', 0, 'CARD', ['AS']));
  });

  it('the dealing scanner: every card scanned at once, the same card twice in a row only after the double-trigger window', () => {
    let now = 10_000;
    const out: (string | Buffer)[] = [];
    const reader = new ScannerDealingReader(
      new VirtualBarcodeScanner((b) => out.push(b), seededRng(1), { badBarcodeRate: 0 }, profileWire(profile('serial-scanner'))),
      1500,
      () => now,
    );
    expect(reader.holdBefore('AS')).toBe(0);
    expect(reader.card('AS')).toBe(true);
    expect(reader.holdBefore('KD')).toBe(0);
    now += 400;
    expect(reader.holdBefore('AS')).toBe(1150);
    now += 1150;
    expect(reader.holdBefore('AS')).toBe(0);
    reader.loaded();
    reader.cut();
    expect(reader.rescan()).toBe(false);
    expect(out.map(String)).toEqual(['SA\r\n']);
  });
});
