/**
 * Drivers of profiled devices (src/app/device-drivers.ts): commands through the profile's downlink
 * templates (none = not sent), an RFID shoe whose TAGs go through the deck registry, a barcode
 * scanner in either role, with the dealing reader's double-trigger rule on an injected clock.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { DriverEvent } from '../../../drivers/device-driver.js';
import { ScannerRoleMapper } from '../../../drivers/device-mappers.js';
import { createDriver } from '../../../src/app/device-drivers.js';
import { createProfileEncoder } from '../../../drivers/profiles/profile-encoder.js';
import { loadProfileFile } from '../../../drivers/profiles/profile-schema.js';
import { MemoryTransport } from '../../../drivers/transports/memory-transport.js';
import { validateConfig } from '../../../src/app/config/load-config.js';
import type { DeviceConfig } from '../../../src/core/vocabulary/config-schema.js';

const dir = mkdtempSync(join(tmpdir(), 'teg-profdrv-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** a vendor RFID reader written for this test: `T:<uid>` CR LF, `M` for a tag it could not read */
const RFID_PROFILE = join(dir, 'rfid-reader.yaml');
writeFileSync(
  RFID_PROFILE,
  `name: test-rfid-reader
talker: RFID
framing: { end: "\\r\\n", maxLength: 40 }
messages:
  - { name: tag, pattern: "T:(?<uid>[0-9A-F]{8,24})", type: TAG, emit: "T:{uid}" }
  - { name: misread, pattern: "M", type: MISREAD, emit: "M" }
`,
);
/** a scanner that ends a barcode by silence only (no line end): framing.idleMs */
const QUIET_PROFILE = join(dir, 'quiet-scanner.yaml');
writeFileSync(
  QUIET_PROFILE,
  `name: quiet-scanner
talker: SHOE
framing: { idleMs: 40, maxLength: 8 }
cards: { preset: suit-rank }
messages:
  - { name: card, pattern: "(?<card>[SHDC](?:10|[2-9AJQK]))", type: CARD }
`,
);
const REGISTRY = join(dir, 'registry.csv');
writeFileSync(REGISTRY, 'uid,card,deck\nE0040000000000A1,AS,1\nE0040000000000A2,KD,1\n');

/** the device config as the loader resolves it (profile -> file, role default) */
function device(table: Record<string, unknown>[], index = 0): DeviceConfig {
  return validateConfig({ mqtt: { url: 'mqtt://127.0.0.1:1' }, tables: [{ id: 't', game: 'baccarat', devices: table }] }).tables[0].devices[index];
}

function started(dev: DeviceConfig, now?: () => number) {
  const transport = new MemoryTransport({ name: dev.id });
  const driver = createDriver(dev, transport, { now });
  const events: DriverEvent[] = [];
  const written: Buffer[] = [];
  driver.events$.subscribe((e) => events.push(e));
  transport.written$.subscribe((b) => written.push(b));
  driver.start();
  const frames = () => events.flatMap((e) => (e.kind === 'frame' ? [e.frame] : []));
  return { driver, transport, events, written, frames };
}

const serial = (path: string) => ({ type: 'serial', path });

describe('profiled drivers', () => {
  it('framing.idleMs: the driver ends a frame after that much silence, the timer restarting on every chunk', async () => {
    vi.useFakeTimers();
    try {
      const d = started(device([{ id: 'scan-1', kind: 'barcode-scanner', profile: QUIET_PROFILE, transport: serial('/dev/null') }]));
      const cards = () => d.frames().flatMap((f) => (f.type === 'CARD' ? [f.card] : []));
      d.transport.deliver('H1');
      vi.advanceTimersByTime(30);
      d.transport.deliver('0'); // within 40 ms: the same barcode
      vi.advanceTimersByTime(39);
      expect(cards()).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(cards()).toEqual(['TH']);
      d.transport.deliver('SA');
      vi.advanceTimersByTime(40);
      d.transport.deliver('X9');
      vi.advanceTimersByTime(40);
      vi.advanceTimersByTime(1000); // one flush per silence: nothing more
      expect(cards()).toEqual(['TH', 'AS']);
      // "X9" ended by the silence too: no card, one reject
      expect(d.events.flatMap((e) => (e.kind === 'alert' && e.alert === 'bad-frame' ? [e.data] : []))).toEqual([
        { count: 1, reasons: { 'unknown-type': 1 }, sample: expect.any(String) },
      ]);
      await d.driver.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('commands go through the downlink templates; a command without one is not sent and send() says so', async () => {
    const stx = started(device([{ id: 'shoe-1', kind: 'card-shoe', profile: 'stx-etx-shoe', transport: serial('/dev/null') }]));
    expect(stx.driver.send('RESCAN')).toBe(true);
    expect(stx.driver.send('LOCK')).toBe(true);
    expect(stx.driver.send('REPEAT,17')).toBe(true);
    expect(stx.written.map((b) => b.toString('latin1').replace(/\*[0-9A-F]{2}/, '*..'))).toEqual([
      '\u00020,RS*..\u0003',
      '\u00021,LK*..\u0003',
      '\u00022,RP,17*..\u0003',
    ]);
    const four = started(device([{ id: 'shoe-1', kind: 'card-shoe', profile: 'four-digit-shoe', transport: serial('/dev/null') }]));
    expect(four.driver.send('RESCAN')).toBe(false);
    expect(four.driver.send('LOCK')).toBe(false);
    expect(four.written).toEqual([]);
    await stx.driver.stop();
    await four.driver.stop();
  });

  it('an rfid-shoe with a profile: TAGs become cards through the deck registry, repeats within dedupeMs are one, unknown tags alert', async () => {
    let now = 1000;
    const dev = device([{ id: 'rfid-1', kind: 'rfid-shoe', profile: RFID_PROFILE, deckRegistry: REGISTRY, dedupeMs: 500, transport: serial('/dev/null') }]);
    const d = started(dev, () => now);
    const enc = createProfileEncoder(loadProfileFile(dev.profile!));
    d.transport.deliver(enc.encode({ type: 'TAG', uid: 'E0040000000000A1' }));
    now += 100;
    d.transport.deliver(enc.encode({ type: 'TAG', uid: 'E0040000000000A1' })); // still on the antenna
    now += 700;
    d.transport.deliver(enc.encode({ type: 'TAG', uid: 'E0040000000000A2' }));
    d.transport.deliver(enc.encode({ type: 'TAG', uid: 'E0040000000000FF' }));
    d.transport.deliver(enc.encode({ type: 'MISREAD' }));
    expect(d.frames().map((f) => (f.type === 'CARD' ? `${f.card}${f.rescan ? ' R' : ''} ${f.uid}` : f.type))).toEqual([
      'AS E0040000000000A1',
      'KD E0040000000000A2',
      'MISREAD',
    ]);
    expect(d.events.filter((e) => e.kind === 'alert').map((e) => e.kind === 'alert' && e.alert)).toEqual(['unknown-tag']);
    await d.driver.stop();
  });

  it('a serial scanner with a profile as the dealing reader: cards in order, not rescans; a double trigger is one card; no SEQ, no stale timer', async () => {
    let now = 0;
    const dev = device([{ id: 'scan-1', kind: 'barcode-scanner', profile: 'serial-scanner', transport: serial('/dev/null') }]);
    expect(dev.role).toBe('dealer');
    const d = started(dev, () => now);
    d.transport.deliver('H10\r\n');
    now += 200;
    d.transport.deliver('H10\r\n'); // the trigger bounced
    now += 1000;
    d.transport.deliver('SA\r\nH10\r\n'); // the same card again after another card: a card
    now += 1000;
    d.transport.deliver('SA\r\n'); // 1000 ms after its own last read, but the read just before was H10
    now += 1600;
    d.transport.deliver('SA\r\n'); // a new card after the window
    d.transport.deliver('XX\r\n');
    expect(d.frames().map((f) => (f.type === 'CARD' ? `${f.card}${f.rescan ? ' R' : ''}` : f.type))).toEqual(['TH', 'AS', 'TH', 'AS', 'AS']);
    expect(d.driver.rejectedTotal).toBe(1);
    expect(d.events.some((e) => e.kind === 'alert' && e.alert === 'frame-gap')).toBe(false);
    expect(d.driver.send('RESCAN')).toBe(false);
    await d.driver.stop();
  });

  it('beside a shoe the same scanner is the rescan reader: every card it reads is a rescan, repeats too', async () => {
    const dev = device(
      [
        { id: 'shoe-1', kind: 'card-shoe', transport: serial('/dev/null') },
        { id: 'scan-1', kind: 'barcode-scanner', profile: 'serial-scanner', transport: serial('/dev/null') },
      ],
      1,
    );
    expect(dev.role).toBe('rescan');
    const d = started(dev, () => 0);
    d.transport.deliver('H10\r\nH10\r\n');
    expect(d.frames()).toEqual([
      { talker: 'SHOE', seq: 0, type: 'CARD', card: 'TH', rescan: true },
      { talker: 'SHOE', seq: 0, type: 'CARD', card: 'TH', rescan: true },
    ]);
    await d.driver.stop();
  });

  it('a scanner without a profile follows its role too (reference barcodes, serial mode)', async () => {
    let now = 0;
    const d = started(device([{ id: 'scan-1', kind: 'barcode-scanner', transport: serial('/dev/null') }]), () => now);
    d.transport.deliver('9s\r\n9S\r\n');
    now += 2000;
    d.transport.deliver('9S\r\n');
    expect(d.frames().map((f) => f.type === 'CARD' && `${f.card}${f.rescan ? ' R' : ''}`)).toEqual(['9S', '9S']);
    await d.driver.stop();
  });

  it('a profiled VER announces the commands the profile has templates for (REPEAT, LOCK, RESCAN); none without templates', async () => {
    const dev = device([{ id: 'shoe-1', kind: 'card-shoe', profile: 'stx-etx-shoe', transport: serial('/dev/null') }]);
    const d = started(dev);
    d.transport.deliver(createProfileEncoder(loadProfileFile(dev.profile!)).encode({ type: 'VER', model: 'RS232-SHOE', firmware: '2.1', seq: 0 }));
    expect(d.frames()).toEqual([{ talker: 'SHOE', seq: 0, type: 'VER', model: 'RS232-SHOE', firmware: '2.1', capabilities: ['REPEAT', 'LOCK', 'RESCAN'] }]);
    await d.driver.stop();
  });

  it('a stx-etx shoe keeps the SEQ rules: a lost frame is a gap', async () => {
    const dev = device([{ id: 'shoe-1', kind: 'card-shoe', profile: 'stx-etx-shoe', transport: serial('/dev/null') }]);
    const d = started(dev);
    const enc = createProfileEncoder(loadProfileFile(dev.profile!));
    d.transport.deliver(enc.encode({ type: 'CARD', card: 'AS', rescan: false, seq: 1 }));
    d.transport.deliver(enc.encode({ type: 'CARD', card: 'KD', rescan: false, seq: 4 }));
    expect(d.events.filter((e) => e.kind === 'alert').map((e) => e.kind === 'alert' && e.data?.missing)).toEqual([2]);
    await d.driver.stop();
  });

  it('the role mapper alone: a rescan role marks, a dealer role de-duplicates only the read just before', () => {
    let now = 0;
    const m = new ScannerRoleMapper({ role: 'dealer', dedupeMs: 100, now: () => now });
    const c = (card: string) => m.map({ talker: 'SHOE', seq: 0, type: 'CARD', card, rescan: true });
    expect(c('AS')).toMatchObject({ card: 'AS', rescan: false });
    now = 50;
    expect(c('AS')).toBeNull();
    now = 140; // 90 ms after the bounced read: the window slides
    expect(c('AS')).toBeNull();
    now = 300;
    expect(c('AS')).toMatchObject({ card: 'AS' });
    expect(m.doubleTriggers).toBe(2);
    expect(m.map({ talker: 'SHOE', seq: 0, type: 'HB' })).toEqual({ talker: 'SHOE', seq: 0, type: 'HB' });
    const r = new ScannerRoleMapper({ role: 'rescan' });
    expect(r.map({ talker: 'SHOE', seq: 0, type: 'CARD', card: 'AS', rescan: false })).toMatchObject({ rescan: true });
  });
});
