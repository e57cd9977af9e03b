import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ftdiLatencyTimer } from '../../../drivers/transports/serial-latency.js';
import { makeTempDir } from '../../../dev/rig/temp-dir.js';

describe('an FTDI adapter latency timer from sysfs', () => {
  it('reads the usb-serial latency_timer of the tty behind a stable link; none for other adapters', async () => {
    const root = await makeTempDir('teg-sys-');
    const sys = join(root, 'sys');
    mkdirSync(join(sys, 'bus/usb-serial/devices/ttyUSB3'), { recursive: true });
    writeFileSync(join(sys, 'bus/usb-serial/devices/ttyUSB3/latency_timer'), '16\n');
    mkdirSync(join(sys, 'class/tty/ttyUSB4/device'), { recursive: true });
    writeFileSync(join(sys, 'class/tty/ttyUSB4/device/latency_timer'), '1\n');
    const dev = join(root, 'dev');
    mkdirSync(dev);
    writeFileSync(join(dev, 'ttyUSB3'), '');
    symlinkSync(join(dev, 'ttyUSB3'), join(dev, 'tablegw-shoe-1'));
    expect(ftdiLatencyTimer(join(dev, 'tablegw-shoe-1'), sys)).toBe(16);
    expect(ftdiLatencyTimer('/dev/ttyUSB4', sys)).toBe(1);
    expect(ftdiLatencyTimer('/dev/ttyACM0', sys)).toBeUndefined();
  });
});
