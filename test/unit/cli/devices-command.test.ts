import { describe, expect, it } from 'vitest';
import { formatDevices, listHidDevices, listSerialPorts, profilesForUsbId, type ProfileUsbIds } from '../../../src/app/cli/commands/devices.js';
import { COMMANDS } from '../../../src/app/cli/commands/index.js';

describe('tablegw devices', () => {
  it('prints a paste-ready snippet per serial port (by-id path preferred) and per HID device', () => {
    const text = formatDevices(
      {
        ok: true,
        items: [{ path: '/dev/ttyUSB0', manufacturer: 'FTDI', vendorId: '0403', productId: '6001', serialNumber: 'A9XYZ' }, { path: '/dev/ttyACM0' }],
      },
      {
        ok: true,
        items: [
          {
            vendorId: 0x0c2e,
            productId: 0x0b61,
            serialNumber: '18012B4F06',
            manufacturer: 'Honeywell',
            product: 'Scanner',
            path: '/dev/hidraw1',
            usagePage: 1,
            usage: 6,
          },
          {
            vendorId: 0x0c2e,
            productId: 0x0b61,
            serialNumber: '18012B4F06',
            manufacturer: 'Honeywell',
            product: 'Scanner',
            path: '/dev/hidraw1',
            usagePage: 1,
            usage: 6,
          },
          { vendorId: 0x1209, productId: 0xd1ce, path: '/dev/hidraw2', usagePage: 0xff00, usage: 1 },
        ],
      },
      new Map([['/dev/ttyUSB0', '/dev/serial/by-id/usb-FTDI_FT232R_A9XYZ-if00-port0']]),
    );
    expect(text).toContain(
      '  /dev/ttyUSB0  (FTDI, usb 0403:6001, serial A9XYZ)\n    transport: { type: serial, path: /dev/serial/by-id/usb-FTDI_FT232R_A9XYZ-if00-port0, baudRate: 9600 }',
    );
    expect(text).toContain('    transport: { type: serial, path: /dev/ttyACM0, baudRate: 9600 }');
    expect(text).toContain('    transport: { type: hid, vendorId: 0x0c2e, productId: 0x0b61, serialNumber: "18012B4F06" }');
    expect(text).toContain('kind: barcode-scanner');
    expect(text).toContain('    transport: { type: hid, vendorId: 0x1209, productId: 0xd1ce }');
    expect(text).toContain('kind: dice-sensor');
    expect(text.match(/type: hid, vendorId: 0x0c2e/g)).toHaveLength(1); // one line per device, not per interface
  });

  it('says clearly when nothing is found and when HID cannot load', () => {
    const text = formatDevices(
      { ok: true, items: [] },
      { ok: false, error: 'node-hid cannot load its native library: libusb-1.0.so.0: cannot open shared object file' },
    );
    expect(text).toMatch(/Serial ports\n {2}none found/);
    expect(text).toMatch(/HID cannot be used on this machine: node-hid cannot load its native library: libusb/);
    expect(formatDevices({ ok: false, error: 'spawn udevadm ENOENT' }, { ok: true, items: [] })).toMatch(
      /cannot list serial ports: spawn udevadm ENOENT[\s\S]*USB HID devices\n {2}none found/,
    );
  });

  const PROFILES: ProfileUsbIds[] = [
    { name: 'acme-shoe', talker: 'SHOE', usb: [{ vendorId: 0x1209, productId: 0x0007 }] },
    {
      name: 'acme-shoe-v2',
      talker: 'SHOE',
      usb: [
        { vendorId: 0x1209, productId: 0x0007 },
        { vendorId: 0x1209, productId: 0x0008 },
      ],
    },
    { name: 'acme-dice', talker: 'DICE', usb: [{ vendorId: 0x1209, productId: 0xd1ce }] },
    { name: 'acme-wedge', talker: 'SHOE', input: 'hid-keyboard', usb: [{ vendorId: 0x0c2e, productId: 0x0b61 }] },
  ];

  it('matches USB ids given as serialport hex text or node-hid numbers', () => {
    expect(profilesForUsbId('1209', '0007', PROFILES).map((p) => p.name)).toEqual(['acme-shoe', 'acme-shoe-v2']);
    expect(profilesForUsbId('1209', '0008', PROFILES).map((p) => p.name)).toEqual(['acme-shoe-v2']);
    expect(profilesForUsbId(0x1209, 0xd1ce, PROFILES).map((p) => p.name)).toEqual(['acme-dice']);
    expect(profilesForUsbId('0403', '6001', PROFILES)).toEqual([]);
    expect(profilesForUsbId(undefined, undefined, PROFILES)).toEqual([]);
    expect(profilesForUsbId('zz', '0007', PROFILES)).toEqual([]);
  });

  it("suggests the shipped profile whose usb: list has a serial device's id, with its kind, in the snippet", () => {
    const text = formatDevices(
      {
        ok: true,
        items: [
          { path: '/dev/ttyACM0', manufacturer: 'Acme', vendorId: '1209', productId: '0008' },
          { path: '/dev/ttyACM1', manufacturer: 'Acme', vendorId: '1209', productId: '0007' },
          { path: '/dev/ttyUSB0', manufacturer: 'FTDI', vendorId: '0403', productId: '6001', latencyTimerMs: 16 },
        ],
      },
      { ok: true, items: [{ vendorId: 0x1209, productId: 0xd1ce, path: '/dev/hidraw2', usagePage: 0xff00, usage: 1 }] },
      new Map(),
      PROFILES,
    );
    expect(text).toContain('    profile: acme-shoe-v2   # the shipped profile for usb 1209:0008; kind: card-shoe\n');
    expect(text).toContain('    profile: acme-shoe   # the shipped profile for usb 1209:0007; kind: card-shoe\n    (also listed by: acme-shoe-v2;');
    // an adapter no profile lists gets no profile line
    expect(text).toMatch(
      /\/dev\/ttyUSB0 {2}\(FTDI, usb 0403:6001\)\n {4}transport: \{ type: serial, path: \/dev\/ttyUSB0, baudRate: 9600 \}\n {4}low latency: [^\n]*\n\n/,
    );
    // the FTDI latency timer, with the fix when it holds bytes longer than 1 ms
    expect(text).toContain('FTDI latency_timer 16 ms (set it to 1 ms: the udev rule in docs/DEVICES.md, Serial latency)');
    expect(text).toContain(
      '  /dev/ttyACM0  (Acme, usb 1209:0008)\n    transport: { type: serial, path: /dev/ttyACM0, baudRate: 9600 }\n    profile: acme-shoe-v2',
    );
    expect(text).toContain('(shipped profile acme-dice lists this id, but reads a serial line');
    expect(text.match(/profile: /g)).toHaveLength(2);
  });

  it('suggests a HID profile for a HID device, and never a HID profile for a serial port', () => {
    const text = formatDevices(
      { ok: true, items: [{ path: '/dev/ttyACM3', manufacturer: 'Odd', vendorId: '0c2e', productId: '0b61' }] },
      {
        ok: true,
        items: [{ vendorId: 0x0c2e, productId: 0x0b61, manufacturer: 'Honeywell', product: 'Scanner', path: '/dev/hidraw1', usagePage: 1, usage: 6 }],
      },
      new Map(),
      PROFILES,
    );
    expect(text).toContain(
      '    transport: { type: hid, vendorId: 0x0c2e, productId: 0x0b61 }\n    profile: acme-wedge   # the shipped profile for usb 0c2e:0b61; kind: barcode-scanner',
    );
    expect(text.match(/profile: /g)).toHaveLength(1);
  });

  it('is registered, and listing on this machine never throws', async () => {
    const cmd = await COMMANDS.devices();
    expect(cmd.summary).toMatch(/serial ports and HID devices/);
    expect(cmd.help).toMatch(/Usage: tablegw devices/);
    const [s, h] = await Promise.all([listSerialPorts(), listHidDevices()]);
    expect(typeof s.ok).toBe('boolean');
    expect(typeof h.ok).toBe('boolean');
  });
});
