/** An FTDI USB-serial adapter's latency timer, read from sysfs (device-protocols.md §3.3). */
import { readFileSync, realpathSync } from 'node:fs';
import { basename } from 'node:path';

/**
 * The `latency_timer` (ms) of the USB-serial adapter behind a tty, from sysfs; undefined when it
 * has none (only FTDI adapters do) or the path is not a tty under /dev.
 */
export function ftdiLatencyTimer(path: string, sys = '/sys'): number | undefined {
  let tty: string;
  try {
    tty = basename(realpathSync(path));
  } catch {
    tty = basename(path);
  }
  for (const f of [`${sys}/bus/usb-serial/devices/${tty}/latency_timer`, `${sys}/class/tty/${tty}/device/latency_timer`]) {
    try {
      const n = Number(readFileSync(f, 'utf8').trim());
      if (Number.isInteger(n) && n >= 0) return n;
    } catch {
      // no such file: not an FTDI adapter
    }
  }
  return undefined;
}
