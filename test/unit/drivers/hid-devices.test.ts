import { describe, expect, it } from 'vitest';
import type { DeviceFrame } from '../../../src/core/vocabulary/frames.js';
import { encodeHidDiceReport } from '../../../drivers/codecs/hid-dice.js';
import { BarcodeScannerDecoder, HidDiceDecoder, SerialBarcodeDecoder } from '../../../drivers/codecs/scanner-and-dice-decoders.js';
import type { DriverEvent } from '../../../drivers/device-driver.js';
import { createDriver } from '../../../src/app/device-drivers.js';
import { MemoryTransport } from '../../../drivers/transports/memory-transport.js';
import { validateConfig } from '../../../src/app/config/load-config.js';
import { barcodeReports } from '../../../simulators/devices/barcode-scanner-device.js';

const r = (...bytes: number[]) => Buffer.from([...bytes, ...new Array(8 - bytes.length).fill(0)]);
const UP = r(0);
const ENTER = r(0, 0, 0x28);

function cardsOf(items: ReturnType<BarcodeScannerDecoder['push']>): string[] {
  return items.map((i) => ('reason' in i ? `reject:${i.reason}` : i.type === 'CARD' ? `${i.card}${i.rescan ? ',R' : ''}` : i.type));
}

function feed(d: { push(b: Buffer): ReturnType<BarcodeScannerDecoder['push']> }, reports: Buffer[]): string[] {
  return reports.flatMap((x) => cardsOf(d.push(x)));
}

describe('barcode scanner (HID boot keyboard reports -> rescan cards)', () => {
  it('"AS" typed with Left Shift, key up between keys, Enter -> AS as a rescan', () => {
    const d = new BarcodeScannerDecoder();
    expect(feed(d, [r(0x02, 0, 0x04), UP, r(0x02, 0, 0x16), UP, ENTER, UP])).toEqual(['AS,R']);
  });

  it('Right Shift, lower-case letters (upper-cased before matching), digits', () => {
    const d = new BarcodeScannerDecoder();
    // "7h": 7 = 0x24 unshifted, h = 0x0B without shift -> "7h" -> 7H
    expect(feed(d, [r(0, 0, 0x24), UP, r(0, 0, 0x0b), UP, ENTER, UP])).toEqual(['7H,R']);
    // "Td" with Right Shift on T
    expect(feed(d, [r(0x20, 0, 0x17), UP, r(0, 0, 0x07), UP, ENTER, UP])).toEqual(['TD,R']);
  });

  it('held keys: a key still down in the next report is one keypress; rollover (two keys down) types both once', () => {
    const d = new BarcodeScannerDecoder();
    expect(
      feed(d, [
        r(0, 0, 0x24), // 7 down
        r(0, 0, 0x24), // 7 still held (repeat report)
        r(0x02, 0, 0x24, 0x0b), // 7 still held, Shift+H down: rollover
        r(0x02, 0, 0x0b), // 7 released, H held
        UP,
        ENTER,
        ENTER, // Enter held: not a second (empty) barcode
        UP,
      ]),
    ).toEqual(['7H,R']);
  });

  it('shift pressed alone first, then the letter; an ErrorRollOver report is ignored', () => {
    const d = new BarcodeScannerDecoder();
    expect(feed(d, [r(0x02), r(0x02, 0, 0x14), r(0x02, 0, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01), r(0x02), r(0x02, 0, 0x07), UP, ENTER, UP])).toEqual(['QD,R']);
  });

  it('a barcode that maps to no card is a bad-field reject; a report of the wrong size is malformed', () => {
    const d = new BarcodeScannerDecoder();
    expect(feed(d, barcodeReports('4006381333931'))).toEqual(['reject:bad-field']);
    expect(cardsOf(d.push(Buffer.from([0, 0, 4])))).toEqual(['reject:malformed']);
    // several whole reports in one chunk are fine
    expect(cardsOf(d.push(Buffer.concat(barcodeReports('KC'))))).toEqual(['KC,R']);
  });

  it('the simulator types every card code the decoder reads back', () => {
    const d = new BarcodeScannerDecoder();
    for (const card of ['AS', '2H', 'TD', 'JC', 'QS', 'KH', '9D']) expect(feed(d, barcodeReports(card))).toEqual([`${card},R`]);
  });

  it('custom regex with a named group and a lookup table', () => {
    const re = new BarcodeScannerDecoder({ pattern: '^CARD-(?<card>[A2-9TJQK][SHDC])-\\d+$' });
    expect(feed(re, barcodeReports('card-qh-0042'))).toEqual(['QH,R']);
    expect(feed(re, barcodeReports('QH'))).toEqual(['reject:bad-field']);
    const table = new BarcodeScannerDecoder({ table: { '1001': 'AS', '1002': 'kd' } });
    expect(feed(table, barcodeReports('1002'))).toEqual(['KD,R']);
    expect(feed(table, barcodeReports('AS'))).toEqual(['reject:bad-field']); // a table alone: no default pattern
  });

  it('serial-mode scanner: one barcode per CR/LF line', () => {
    const d = new SerialBarcodeDecoder();
    expect(cardsOf(d.push(Buffer.from('AS\r\n7h\rXX\n\n')))).toEqual(['AS,R', '7H,R', 'reject:bad-field']);
    expect(cardsOf(d.push(Buffer.from('K')))).toEqual([]);
    expect(cardsOf(d.push(Buffer.from('C\r\n')))).toEqual(['KC,R']);
    expect(cardsOf(d.push(Buffer.from('A\x00S\r\nQS\n')))).toEqual(['reject:malformed', 'QS,R']);
  });
});

describe('barcode-scanner driver', () => {
  it('emits CARD rescan frames, a bad-frame alert for an unmapped barcode, and has no stale timer', async () => {
    const cfg = validateConfig({
      mqtt: { url: 'mqtt://127.0.0.1:1' },
      tables: [
        {
          id: 't1',
          game: 'baccarat',
          devices: [
            { id: 'shoe-1', kind: 'card-shoe', transport: { type: 'serial', path: '/dev/null' } },
            { id: 'scan-1', kind: 'barcode-scanner', staleAfterMs: 10, transport: { type: 'hid', vendorId: '0x0c2e', productId: 0x0b61 } },
          ],
        },
      ],
    });
    const transport = new MemoryTransport();
    const driver = createDriver(cfg.tables[0].devices[1], transport);
    const events: DriverEvent[] = [];
    driver.events$.subscribe((e) => events.push(e));
    driver.start();
    for (const rep of barcodeReports('9S')) transport.deliver(rep);
    for (const rep of barcodeReports('HELLO')) transport.deliver(rep);
    await new Promise((res) => setTimeout(res, 50));
    expect(events.map((e) => e.kind)).toEqual(['status', 'frame', 'alert']);
    expect((events[1] as Extract<DriverEvent, { kind: 'frame' }>).frame).toMatchObject({ type: 'CARD', card: '9S', rescan: true });
    expect(events[2]).toMatchObject({ kind: 'alert', alert: 'bad-frame', data: { count: 1, reasons: { 'bad-field': 1 } } });
    await driver.stop();
  });
});

describe('HID dice sensor', () => {
  it('decodes ROLL, COCKED, NOREAD reports; a bad checksum is rejected', () => {
    const d = new HidDiceDecoder();
    const out = d.push(
      Buffer.concat([
        encodeHidDiceReport({ seq: 7, dice: [6, 6, 1], bounces: 3 }),
        encodeHidDiceReport({ seq: 8, status: 1 }),
        encodeHidDiceReport({ seq: 9, status: 2 }),
        encodeHidDiceReport({ seq: 10, dice: [1, 2, 3], bounces: 0, checksum: 0 }),
      ]),
    );
    expect(out).toEqual([
      { talker: 'DICE', seq: 7, type: 'ROLL', dice: [6, 6, 1], bounces: 3 },
      { talker: 'DICE', seq: 8, type: 'COCKED' },
      { talker: 'DICE', seq: 9, type: 'NOREAD' },
      { reason: 'bad-checksum', raw: expect.any(String) },
    ]);
    // exact reference bytes: [0x01, seq, d1, d2, d3, bounces, status, sum]
    expect(d.push(Buffer.from([0x01, 0x05, 0x02, 0x03, 0x04, 0x07, 0x00, 0x16]))).toEqual([
      { talker: 'DICE', seq: 5, type: 'ROLL', dice: [2, 3, 4], bounces: 7 },
    ]);
    expect(d.push(Buffer.from([0x01, 0x05, 0x02]))).toEqual([{ reason: 'malformed', raw: expect.any(String) }]);
  });

  it('driver over HID: 8-bit seq wraps 255 -> 0 without a gap; a lost report is a frame-gap; no stale timer', async () => {
    const cfg = validateConfig({
      mqtt: { url: 'mqtt://127.0.0.1:1' },
      tables: [
        {
          id: 'sb',
          game: 'sic-bo',
          devices: [{ id: 'dice-1', kind: 'dice-sensor', staleAfterMs: 10, transport: { type: 'hid', vendorId: 0x1234, productId: 0x5678 } }],
        },
      ],
    });
    const transport = new MemoryTransport();
    const driver = createDriver(cfg.tables[0].devices[0], transport);
    const events: DriverEvent[] = [];
    driver.events$.subscribe((e) => events.push(e));
    driver.start();
    transport.deliver(encodeHidDiceReport({ seq: 254, dice: [1, 1, 1], bounces: 2 }));
    transport.deliver(encodeHidDiceReport({ seq: 255, status: 1 }));
    transport.deliver(encodeHidDiceReport({ seq: 0, dice: [2, 2, 2], bounces: 2 }));
    transport.deliver(encodeHidDiceReport({ seq: 2, dice: [3, 3, 3], bounces: 2 }));
    await new Promise((res) => setTimeout(res, 50));
    const kinds = events.map((e) => (e.kind === 'frame' ? (e.frame as DeviceFrame).type : e.kind === 'alert' ? e.alert : e.kind));
    expect(kinds).toEqual(['status', 'ROLL', 'COCKED', 'ROLL', 'frame-gap', 'ROLL']);
    await driver.stop();
  });

  it('driver over serial speaks the DICE line protocol', () => {
    const cfg = validateConfig({
      mqtt: { url: 'mqtt://127.0.0.1:1' },
      tables: [{ id: 'sb', game: 'sic-bo', devices: [{ id: 'dice-1', kind: 'dice-sensor', transport: { type: 'serial', path: '/dev/null' } }] }],
    });
    const transport = new MemoryTransport();
    const driver = createDriver(cfg.tables[0].devices[0], transport);
    const frames: DeviceFrame[] = [];
    driver.events$.subscribe((e) => e.kind === 'frame' && frames.push(e.frame));
    driver.start();
    transport.deliver('$DICE,0,ROLL,1,2,3,4*5D\r\n'.replace('*5D', `*${cs('DICE,0,ROLL,1,2,3,4')}`));
    expect(frames).toEqual([{ talker: 'DICE', seq: 0, type: 'ROLL', dice: [1, 2, 3], bounces: 4 }]);
    void driver.stop();
  });
});

function cs(body: string): string {
  let x = 0;
  for (const c of Buffer.from(body)) x ^= c;
  return x.toString(16).toUpperCase().padStart(2, '0');
}
