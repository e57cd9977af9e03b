import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DeviceFrame } from '../../../src/core/vocabulary/frames.js';
import { encodeLine } from '../../../drivers/codecs/nmea-line.js';
import { DeckRegistryError, formatDeckRegistry, loadDeckRegistry, parseDeckRegistry } from '../../../drivers/deck-registry.js';
import { RfidCardMapper } from '../../../drivers/device-mappers.js';
import type { DriverEvent } from '../../../drivers/device-driver.js';
import { createDriver } from '../../../src/app/device-drivers.js';
import { MemoryTransport } from '../../../drivers/transports/memory-transport.js';
import { validateConfig } from '../../../src/app/config/load-config.js';

const REGISTRY = `uid,card,deck
E0040000000000A1,AS,1
e0040000000000a2,kd,1
# a comment, and a blank line

E0040000000000B1,AS,2
`;

const dir = mkdtempSync(join(tmpdir(), 'teg-rfid-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function tag(uid: string, seq = 0): DeviceFrame {
  return { talker: 'RFID', seq, type: 'TAG', uid };
}

describe('deck registry', () => {
  it('parses uid,card,deck with a header, comments, blank lines; uids and cards case-free', () => {
    const r = parseDeckRegistry(REGISTRY);
    expect(r.size).toBe(3);
    expect(r.get('E0040000000000A2')).toEqual({ card: 'KD', deck: '1' });
    expect(r.get('E0040000000000B1')).toEqual({ card: 'AS', deck: '2' });
    expect(parseDeckRegistry(formatDeckRegistry(r))).toEqual(r);
  });

  it.each([
    ['E0040000000000A1,AS\n', /line 1: expected "uid,card,deck", got 2 field/],
    ['XYZ,AS,1\n', /line 1: uid "XYZ" is not 8-24 hex digits/],
    ['E0040000000000A1,1S,1\n', /line 1: "1S" is not a card code/],
    ['E0040000000000A1,AS,\n', /line 1: the deck label is empty/],
    ['E0040000000000A1,AS,1\ne0040000000000a1,KD,1\n', /line 2: uid E0040000000000A1 is listed twice \(already AS of deck 1\)/],
    ['uid,card,deck\n', /no tags listed/],
  ])('rejects %j', (text, msg) => {
    expect(() => parseDeckRegistry(text, 'reg.csv')).toThrow(DeckRegistryError);
    expect(() => parseDeckRegistry(text, 'reg.csv')).toThrow(msg);
  });

  it('an unreadable file is a DeckRegistryError naming the file', () => {
    expect(() => loadDeckRegistry(join(dir, 'missing.csv'))).toThrow(/cannot read deck registry: ENOENT.*missing\.csv/);
  });
});

describe('RFID tag -> card mapping', () => {
  const registry = parseDeckRegistry(REGISTRY);

  it('a registered tag is a CARD (never marked rescan: the table decides), other frames pass through', () => {
    const m = new RfidCardMapper({ registry, now: () => 0 });
    expect(m.map(tag('E0040000000000A1', 4))).toEqual({ talker: 'RFID', seq: 4, type: 'CARD', card: 'AS', rescan: false, uid: 'E0040000000000A1' });
    const misread: DeviceFrame = { talker: 'RFID', seq: 5, type: 'MISREAD' };
    expect(m.map(misread)).toBe(misread);
    expect(m.map(tag('E0040000000000A2', 6))).toMatchObject({ type: 'CARD', card: 'KD', rescan: false });
  });

  it('repeats of one uid within dedupeMs are one card; after the window it is a card again', () => {
    let now = 1000;
    const m = new RfidCardMapper({ registry, now: () => now });
    expect(m.map(tag('E0040000000000A1'))).toMatchObject({ card: 'AS' });
    now += 200;
    expect(m.map(tag('E0040000000000A1'))).toBeNull();
    now += 1499; // 1499 ms after the previous read: still the same pass (the window slides)
    expect(m.map(tag('E0040000000000A1'))).toBeNull();
    now += 1500; // exactly dedupeMs after the last read: a new read
    expect(m.map(tag('E0040000000000A1'))).toMatchObject({ card: 'AS' });
    // another uid in between does not reset the window of the first
    now += 10;
    expect(m.map(tag('E0040000000000A2'))).toMatchObject({ card: 'KD' });
    expect(m.map(tag('E0040000000000A1'))).toBeNull();
  });

  it('dedupeMs is configurable (0 = every read is a card)', () => {
    const m = new RfidCardMapper({ registry, dedupeMs: 0, now: () => 5 });
    expect(m.map(tag('E0040000000000A1'))).toMatchObject({ card: 'AS' });
    expect(m.map(tag('E0040000000000A1'))).toMatchObject({ card: 'AS' });
  });

  it('the two copies of a card (two decks) are two cards even within the window', () => {
    const m = new RfidCardMapper({ registry, now: () => 0 });
    expect(m.map(tag('E0040000000000A1'))).toMatchObject({ card: 'AS' });
    expect(m.map(tag('E0040000000000B1'))).toMatchObject({ card: 'AS' });
  });

  it('an unknown uid is an unknown-tag alert, not a card (repeats of it: one alert)', () => {
    const m = new RfidCardMapper({ registry, now: () => 0 });
    const r = m.map(tag('DEADBEEF00')) as DriverEvent;
    expect(r).toEqual({ kind: 'alert', alert: 'unknown-tag', detail: expect.stringContaining('DEADBEEF00'), data: { uid: 'DEADBEEF00' } });
    expect(m.map(tag('DEADBEEF00'))).toBeNull();
  });

  it('STATE,LOADED forgets recent reads (a new shoe)', () => {
    const m = new RfidCardMapper({ registry, now: () => 0 });
    m.map(tag('E0040000000000A1'));
    m.map({ talker: 'RFID', seq: 1, type: 'STATE', state: 'LOADED' });
    expect(m.map(tag('E0040000000000A1'))).toMatchObject({ card: 'AS' });
  });
});

describe('rfid-shoe driver (wire bytes -> driver events)', () => {
  const file = join(dir, 'decks.csv');
  writeFileSync(file, REGISTRY);

  function setup(now: () => number) {
    const cfg = validateConfig({
      mqtt: { url: 'mqtt://127.0.0.1:1' },
      tables: [
        {
          id: 't1',
          game: 'baccarat',
          devices: [{ id: 'rfid-1', kind: 'rfid-shoe', deckRegistry: file, dedupeMs: 1000, transport: { type: 'serial', path: '/dev/null' } }],
        },
      ],
    });
    const transport = new MemoryTransport();
    const driver = createDriver(cfg.tables[0].devices[0], transport, { now });
    const events: DriverEvent[] = [];
    driver.events$.subscribe((e) => events.push(e));
    driver.start();
    return { transport, driver, events };
  }

  it('TAG lines become CARD frames; a repeat is dropped; an unknown tag alerts; the registry file is loaded', async () => {
    let t = 0;
    const { transport, driver, events } = setup(() => t);
    let seq = 0;
    const send = (type: string, ...f: string[]) => transport.deliver(encodeLine('RFID', seq++, type, f));
    send('TAG', 'E0040000000000A1');
    t += 300;
    send('TAG', 'e0040000000000a1'); // same tag, lower case on the wire
    send('MISREAD');
    send('TAG', 'FFFFFFFFFFFF');
    send('TAG', 'E0040000000000A2');
    t += 1000;
    send('TAG', 'E0040000000000A1');
    const frames = events.filter((e) => e.kind === 'frame').map((e) => (e as Extract<DriverEvent, { kind: 'frame' }>).frame);
    expect(frames.map((f) => (f.type === 'CARD' ? `CARD ${f.card}` : f.type))).toEqual(['CARD AS', 'MISREAD', 'CARD KD', 'CARD AS']);
    expect(events.filter((e) => e.kind === 'alert').map((e) => (e as Extract<DriverEvent, { kind: 'alert' }>).alert)).toEqual(['unknown-tag']);
    await driver.stop();
  });
});
