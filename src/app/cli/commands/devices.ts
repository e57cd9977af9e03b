/**
 * `tablegw devices` (`npm run devices`): lists the serial ports and USB HID devices this machine
 * sees, each with the config snippet to paste under a table's `devices:` (docs/DEVICES.md).
 */
import { readdirSync, readlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { hex4, loadNodeHid, type HidDeviceInfo } from '../../../../drivers/transports/hid-loader.js';
import { ftdiLatencyTimer } from '../../../../drivers/transports/serial-latency.js';
import { listShippedProfiles } from '../../tools/profile-check.js';
import type { CliCommand } from './command.js';

export interface SerialPortInfo {
  path: string;
  manufacturer?: string;
  serialNumber?: string;
  vendorId?: string;
  productId?: string;
  pnpId?: string;
  /** an FTDI adapter's latency_timer in ms (sysfs): how long it holds received bytes */
  latencyTimerMs?: number;
}

export type Listing<T> = { ok: true; items: T[]; note?: string } | { ok: false; error: string };

/** what `devices` needs of a profile to suggest it: its name, talker and the USB ids it lists */
export interface ProfileUsbIds {
  name: string;
  talker?: string;
  /** `bytes` (default): a serial-line profile; `hid-keyboard` / `hid-report`: a HID profile */
  input?: string;
  usb: ReadonlyArray<{ vendorId: number; productId: number }>;
}

/** the device kind a profile's talker feeds */
const KIND_OF_TALKER: Record<string, string> = { SHOE: 'card-shoe', RFID: 'rfid-shoe', SHUF: 'shuffler', DICE: 'dice-sensor', BALL: 'ball-reader' };

/** the shipped profiles whose `usb:` list has this vendor/product id (numbers, or hex text as serialport gives them) */
export function profilesForUsbId(
  vendorId: number | string | undefined,
  productId: number | string | undefined,
  profiles: readonly ProfileUsbIds[],
): ProfileUsbIds[] {
  const num = (v: number | string | undefined): number =>
    typeof v === 'number' ? v : v && /^(?:0x)?[0-9a-fA-F]{1,4}$/.test(v) ? Number.parseInt(v.replace(/^0x/i, ''), 16) : Number.NaN;
  const vid = num(vendorId);
  const pid = num(productId);
  if (Number.isNaN(vid) || Number.isNaN(pid)) return [];
  return profiles.filter((p) => p.usb.some((u) => u.vendorId === vid && u.productId === pid));
}

/** whether a profile reads HID input reports (so it fits a HID transport, not a serial one) */
const isHidProfile = (p: ProfileUsbIds): boolean => p.input === 'hid-keyboard' || p.input === 'hid-report';

/** the `profile:` line (and `kind:` hint) for a serial device whose USB id a shipped profile lists */
function profileLines(matches: readonly ProfileUsbIds[], usbId: string): string[] {
  if (matches.length === 0) return [];
  const [first, ...others] = matches;
  const kind = first.input === 'hid-keyboard' ? 'barcode-scanner' : first.talker ? KIND_OF_TALKER[first.talker] : undefined;
  const lines = [
    `    profile: ${first.name}${kind ? `   # the shipped profile for usb ${usbId}; kind: ${kind}` : `   # the shipped profile for usb ${usbId}`}`,
  ];
  if (others.length) lines.push(`    (also listed by: ${others.map((o) => o.name).join(', ')}; tablegw profile check <name> <capture> tells which fits)`);
  return lines;
}

const HELP = `Usage: tablegw devices [--json]

Lists serial ports (USB-serial adapters, USB-CDC devices) and USB HID devices (barcode scanners,
HID dice sensors), each with the exact config snippet to paste under a table's devices: list.
When a device's USB vendor/product id is in a shipped profile's usb: list, the snippet names that
profile (profile: <name>); tablegw profile list shows the shipped profiles.
  --json   machine-readable output

A card shoe, RFID shoe, shuffler, dice sensor or ball reader on a serial line:
  transport: { type: serial, path: /dev/serial/by-id/..., baudRate: 9600 }
A barcode scanner (keyboard wedge) or a HID dice sensor:
  transport: { type: hid, vendorId: 0x0c2e, productId: 0x0b61, serialNumber: "..." }
See docs/DEVICES.md for permissions (udev rules) and wiring.`;

/** the stable /dev/serial/by-id link of a port, if there is one */
function byIdLinks(): Map<string, string> {
  const out = new Map<string, string>();
  const dir = '/dev/serial/by-id';
  try {
    for (const name of readdirSync(dir)) {
      const link = join(dir, name);
      try {
        out.set(resolve(dir, readlinkSync(link)), link);
      } catch {
        // not a link
      }
    }
  } catch {
    // no by-id directory (no USB serial devices, or not Linux)
  }
  return out;
}

/** serial ports from serialport (udevadm on Linux); falls back to the /dev names when that fails */
function withLatencyTimer(p: SerialPortInfo): SerialPortInfo {
  const t = ftdiLatencyTimer(p.path);
  return t === undefined ? p : { ...p, latencyTimerMs: t };
}

export async function listSerialPorts(): Promise<Listing<SerialPortInfo>> {
  try {
    const { SerialPort } = await import('serialport');
    const ports = await SerialPort.list();
    return { ok: true, items: ports.map((p) => withLatencyTimer({ ...p })) };
  } catch (e) {
    const reason = (e as Error).message;
    if (process.platform !== 'linux') return { ok: false, error: reason };
    try {
      const names = readdirSync('/dev')
        .filter((n) => /^tty(USB|ACM|AMA|XRUSB)\d+$/.test(n))
        .sort();
      return {
        ok: true,
        items: names.map((n) => withLatencyTimer({ path: `/dev/${n}` })),
        note: `serialport could not list ports (${reason}); showing /dev/ttyUSB*, ttyACM*, ttyAMA* instead`,
      };
    } catch {
      return { ok: false, error: reason };
    }
  }
}

export async function listHidDevices(): Promise<Listing<HidDeviceInfo>> {
  try {
    const hid = await loadNodeHid();
    return { ok: true, items: await hid.devicesAsync() };
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
}

function yamlString(s: string): string {
  return /^[A-Za-z0-9_./-]+$/.test(s) ? s : JSON.stringify(s);
}

/** what a HID device probably is, from its usage page */
function hidGuess(d: HidDeviceInfo): string {
  if (d.usagePage === 0x01 && d.usage === 0x06) return 'keyboard: a barcode scanner in keyboard-wedge mode -> kind: barcode-scanner';
  if (d.usagePage !== undefined && d.usagePage >= 0xff00) return 'vendor-defined: e.g. a HID dice sensor -> kind: dice-sensor';
  if (d.usagePage === 0x01 && d.usage === 0x02) return 'mouse';
  return '';
}

/** The human listing (pure: the listings come in). */
export function formatDevices(
  serial: Listing<SerialPortInfo>,
  hid: Listing<HidDeviceInfo>,
  byId: ReadonlyMap<string, string> = new Map(),
  profiles: readonly ProfileUsbIds[] = [],
): string {
  const lines: string[] = [];
  lines.push('Serial ports');
  if (!serial.ok) lines.push(`  cannot list serial ports: ${serial.error}`);
  else {
    if (serial.note) lines.push(`  (${serial.note})`);
    if (serial.items.length === 0) lines.push('  none found (a USB-serial adapter shows up as /dev/ttyUSB* or /dev/ttyACM* once plugged in)');
    for (const p of serial.items) {
      const stable = byId.get(p.path);
      const what = [p.manufacturer, p.vendorId && p.productId ? `usb ${p.vendorId}:${p.productId}` : '', p.serialNumber ? `serial ${p.serialNumber}` : '']
        .filter(Boolean)
        .join(', ');
      lines.push(`  ${p.path}${what ? `  (${what})` : ''}`);
      lines.push(`    transport: { type: serial, path: ${yamlString(stable ?? p.path)}, baudRate: 9600 }`);
      lines.push(
        ...profileLines(
          profilesForUsbId(p.vendorId, p.productId, profiles).filter((m) => !isHidProfile(m)),
          `${p.vendorId}:${p.productId}`,
        ),
      );
      if (stable) lines.push(`    (${stable} stays the same when the adapter is re-plugged; ${p.path} may not)`);
      // device-protocols.md §3.3: the gateway asks for low-latency mode when it opens the port; an FTDI adapter also holds bytes up to its latency timer
      const timer =
        p.latencyTimerMs === undefined
          ? ''
          : `; FTDI latency_timer ${p.latencyTimerMs} ms${p.latencyTimerMs > 1 ? ' (set it to 1 ms: the udev rule in docs/DEVICES.md, Serial latency)' : ''}`;
      lines.push(
        `    low latency: turned on when the gateway opens the port (the status page and health say whether the driver took it; lowLatency: false turns it off)${timer}`,
      );
    }
  }
  lines.push('');
  lines.push('USB HID devices');
  if (!hid.ok) {
    lines.push(`  HID cannot be used on this machine: ${hid.error}`);
    lines.push('  (node-hid needs its native library: on Debian/Ubuntu `apt-get install libusb-1.0-0 libudev1`; serial devices work without it)');
  } else {
    // one entry per physical device (a device lists once per interface)
    const seen = new Set<string>();
    const devs = hid.items.filter((d) => {
      const key = `${d.vendorId}:${d.productId}:${d.serialNumber ?? ''}:${d.usagePage ?? ''}:${d.usage ?? ''}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    if (devs.length === 0) lines.push('  none found (or no permission to read /dev/hidraw*: see the udev rule in docs/DEVICES.md)');
    for (const d of devs) {
      const name = [d.manufacturer, d.product].filter(Boolean).join(' ') || 'unnamed device';
      const guess = hidGuess(d);
      lines.push(`  ${hex4(d.vendorId)}:${hex4(d.productId)}  ${name}${d.path ? `  at ${d.path}` : ''}${guess ? `\n    ${guess}` : ''}`);
      const sn = d.serialNumber ? `, serialNumber: ${JSON.stringify(d.serialNumber)}` : '';
      lines.push(`    transport: { type: hid, vendorId: ${hex4(d.vendorId)}, productId: ${hex4(d.productId)}${sn} }`);
      const matches = profilesForUsbId(d.vendorId, d.productId, profiles);
      const hidProfiles = matches.filter(isHidProfile);
      lines.push(...profileLines(hidProfiles, `${hex4(d.vendorId).slice(2)}:${hex4(d.productId).slice(2)}`));
      const serialOnly = matches.filter((m) => !isHidProfile(m));
      if (hidProfiles.length === 0 && serialOnly.length)
        lines.push(
          `    (shipped profile ${serialOnly.map((m) => m.name).join(', ')} lists this id, but reads a serial line: use the device's USB-serial / CDC mode)`,
        );
    }
  }
  return lines.join('\n');
}

export const command: CliCommand = {
  summary: 'list serial ports and HID devices with the config snippet for each',
  help: HELP,
  async run(argv: string[]): Promise<number> {
    const { values } = parseArgs({ args: argv, options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    const [serial, hid] = await Promise.all([listSerialPorts(), listHidDevices()]);
    const profiles = listShippedProfiles().filter((p) => p.usb.length > 0);
    if (values.json) {
      const withProfiles = <T extends { vendorId?: number | string; productId?: number | string }>(l: Listing<T>) =>
        l.ok ? { ...l, items: l.items.map((d) => ({ ...d, profiles: profilesForUsbId(d.vendorId, d.productId, profiles).map((p) => p.name) })) } : l;
      console.log(JSON.stringify({ serial: withProfiles(serial), hid: withProfiles(hid) }, null, 2));
    } else console.log(formatDevices(serial, hid, byIdLinks(), profiles));
    return 0;
  },
};

export const { summary, help, run } = command;
