/**
 * The device allow-list (src/adapters/security/device-allowlist.ts): the hardware is identified before each
 * open; an unlisted device is never opened, its state says why, and it is reported once per change.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryTransport } from '../../../drivers/transports/memory-transport.js';
import type { TransportStatus } from '../../../drivers/transports/transport.js';
import { validateConfig } from '../../../src/app/config/load-config.js';
import type { AllowedDeviceConfig, DeviceConfig } from '../../../src/core/vocabulary/config-schema.js';
import {
  decideDevice,
  entryMatches,
  guardTransport,
  type DeviceDenial,
  type DeviceIdentity,
  type DeviceProbe,
} from '../../../src/adapters/security/device-allowlist.js';
import { makeTempDirSync } from '../../../dev/rig/temp-dir.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(cond: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(5);
  }
}

function device(transport: Record<string, unknown>, kind = 'card-shoe'): DeviceConfig {
  return validateConfig({ mqtt: { url: 'mqtt://127.0.0.1:1' }, tables: [{ id: 't', game: 'baccarat', devices: [{ id: 'dev-1', kind, transport }] }] }).tables[0]
    .devices[0];
}

function allowList(entries: unknown[]): AllowedDeviceConfig[] {
  return validateConfig({
    mqtt: { url: 'mqtt://127.0.0.1:1' },
    security: { allowedDevices: entries },
    tables: [{ id: 't', game: 'baccarat', devices: [{ id: 'd', kind: 'card-shoe', transport: { type: 'simulator' } }] }],
  }).security.allowedDevices!;
}

const ftdi = (serialNumber: string): DeviceIdentity => ({
  type: 'serial',
  path: '/dev/ttyUSB0',
  realPath: '/dev/ttyUSB0',
  vendorId: 0x0403,
  productId: 0x6001,
  serialNumber,
});

describe('allow-list entries', () => {
  it('match when every field they set matches', () => {
    const [bySerial, byPathAndIds, hidEntry] = allowList([
      { type: 'serial', serialNumber: 'A10K3XYZ' },
      { type: 'serial', path: '/dev/ttyUSB0', vendorId: '0x0403', productId: 0x6001 },
      { type: 'hid', vendorId: 0x0c2e, productId: 0x0b61, serialNumber: 'S1' },
    ]);
    expect(entryMatches(bySerial, ftdi('A10K3XYZ'))).toBe(true);
    expect(entryMatches(bySerial, ftdi('EVIL'))).toBe(false);
    expect(entryMatches(byPathAndIds, ftdi('anything'))).toBe(true);
    expect(entryMatches(byPathAndIds, { ...ftdi('x'), productId: 0x6015 })).toBe(false);
    expect(entryMatches(byPathAndIds, { ...ftdi('x'), path: '/dev/ttyUSB1', realPath: '/dev/ttyUSB1' })).toBe(false);
    expect(entryMatches(hidEntry, { type: 'hid', vendorId: 0x0c2e, productId: 0x0b61, serialNumber: 'S1' })).toBe(true);
    expect(entryMatches(hidEntry, ftdi('S1'))).toBe(false);
  });

  it('follow symlinks such as /dev/serial/by-id/... on either side', () => {
    const dir = makeTempDirSync('teg-allow-');
    const real = join(dir, 'ttyUSB7');
    writeFileSync(real, '');
    mkdirSync(join(dir, 'by-id'));
    const link = join(dir, 'by-id', 'usb-FTDI_FT232R_A10K3XYZ-if00-port0');
    symlinkSync(real, link);
    const [e] = allowList([{ type: 'serial', path: link }]);
    expect(entryMatches(e, { type: 'serial', path: real, realPath: real })).toBe(true);
    const [e2] = allowList([{ type: 'serial', path: real }]);
    expect(entryMatches(e2, { type: 'serial', path: link, realPath: real })).toBe(true);
  });

  it('need a path or a serial number (config error otherwise)', () => {
    expect(() => allowList([{ type: 'serial', vendorId: 0x0403 }])).toThrow(/security\.allowedDevices\[0\]: a serial entry needs a path or a serialNumber/);
    expect(() => allowList([{ type: 'hid', vendorId: 1 }])).toThrow(/security\.allowedDevices\[0\]\.productId/);
  });
});

describe('decideDevice', () => {
  it('pins a HID device to the allowed unit, so an unlisted twin is never opened', async () => {
    const dev = device({ type: 'hid', vendorId: 0x0c2e, productId: 0x0b61 }, 'barcode-scanner');
    const twins: DeviceIdentity[] = [
      { type: 'hid', vendorId: 0x0c2e, productId: 0x0b61, serialNumber: 'ROGUE', path: '/dev/hidraw1' },
      { type: 'hid', vendorId: 0x0c2e, productId: 0x0b61, serialNumber: 'S1', path: '/dev/hidraw2' },
    ];
    const probe: DeviceProbe = { serial: async () => null, hid: async () => twins };
    const list = allowList([{ type: 'hid', vendorId: 0x0c2e, productId: 0x0b61, serialNumber: 'S1' }]);
    const d = await decideDevice(dev, list, probe);
    expect(d.kind).toBe('allowed');
    expect(d.kind === 'allowed' && d.device.transport).toMatchObject({ type: 'hid', serialNumber: 'S1' });
    const only = await decideDevice(dev, list, { ...probe, hid: async () => [twins[0]] });
    expect(only).toMatchObject({
      kind: 'denied',
      detail: 'not allowed: HID device /dev/hidraw1 (USB 0c2e:0b61, serial ROGUE) is not on security.allowedDevices; not opened',
    });
    expect(await decideDevice(dev, list, { ...probe, hid: async () => [] })).toMatchObject({ kind: 'absent' });
  });
});

describe('GuardedTransport', () => {
  const dev = device({ type: 'serial', path: '/dev/ttyUSB0' });
  const list = allowList([{ type: 'serial', serialNumber: 'GOOD1', note: 'shoe of table 3' }]);

  function setup() {
    let attached: DeviceIdentity | null = ftdi('EVIL9');
    const created: MemoryTransport[] = [];
    const denials: DeviceDenial[] = [];
    const statuses: TransportStatus[] = [];
    const t = guardTransport(dev, list, {
      create: () => {
        const m = new MemoryTransport({ name: 'inner' });
        created.push(m);
        return m;
      },
      onDenied: (d) => denials.push(d),
      probe: { serial: async () => attached, hid: async () => [] },
      recheckMs: 15,
    });
    t.status$.subscribe((s) => statuses.push(s));
    return {
      t,
      created,
      denials,
      statuses,
      plug: (id: DeviceIdentity | null) => {
        attached = id;
      },
    };
  }

  it('does not open an unlisted device: its state says why, reported once until it changes', async () => {
    const s = setup();
    const createdAtSetup = s.created.length; // the factory is tried once at start-up (config errors), never started
    s.t.start();
    await until(() => s.denials.length === 1);
    await sleep(80); // several rechecks
    expect(s.denials).toHaveLength(1);
    expect(s.denials[0]).toMatchObject({ deviceId: 'dev-1', identity: { serialNumber: 'EVIL9', vendorId: 0x0403 } });
    expect(s.created.length).toBe(createdAtSetup);
    expect(s.created.every((m) => !m.connected)).toBe(true);
    expect(s.statuses.at(-1)).toEqual({
      state: 'disconnected',
      detail: 'not allowed: /dev/ttyUSB0 (USB 0403:6001, serial EVIL9) is not on security.allowedDevices; not opened',
    });
    await s.t.stop();
  });

  it('opens the listed device, and checks again after it is unplugged before reopening', async () => {
    const s = setup();
    s.plug(null);
    const base = s.created.length;
    s.t.start();
    await until(() => s.statuses.some((x) => x.detail === '/dev/ttyUSB0 is not present'));
    s.plug(ftdi('GOOD1'));
    await until(() => s.statuses.at(-1)?.state === 'connected');
    expect(s.created.length).toBe(base + 1);
    const bytes: string[] = [];
    s.t.data$.subscribe((b) => bytes.push(b.toString()));
    s.created.at(-1)!.deliver('$SHOE,1,HB*00\r\n');
    expect(bytes).toEqual(['$SHOE,1,HB*00\r\n']);
    // swapped for an unlisted device while the gateway runs
    s.plug(ftdi('EVIL9'));
    s.created.at(-1)!.setConnected(false, 'device unplugged');
    await until(() => s.denials.length === 1);
    expect(s.statuses.map((x) => x.detail)).toContain('device unplugged');
    expect(s.statuses.at(-1)?.detail).toMatch(/^not allowed: /);
    expect(s.created.length).toBe(base + 1); // never reopened
    // the right one again: opened again; the next unlisted one is reported again
    s.plug(ftdi('GOOD1'));
    await until(() => s.statuses.at(-1)?.state === 'connected');
    expect(s.created.length).toBe(base + 2);
    s.plug(ftdi('EVIL9'));
    s.created.at(-1)!.setConnected(false);
    await until(() => s.denials.length === 2);
    await s.t.stop();
    expect(s.statuses.at(-1)).toEqual({ state: 'disconnected', detail: 'stopped' });
  });

  it('is not used without an allow-list, nor for simulators', () => {
    const inner = new MemoryTransport();
    expect(guardTransport(dev, undefined, { create: () => inner, onDenied: () => {} })).toBe(inner);
    const sim = device({ type: 'simulator' });
    expect(guardTransport(sim, list, { create: () => inner, onDenied: () => {} })).toBe(inner);
  });
});
