/**
 * The capture file format (src/app/tools/capture-file.ts), the device argument of `tablegw capture`,
 * and recording from a HID device through an injected node-hid (no USB here).
 */
import { EventEmitter } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { HidHandle, HidModule } from '../../../drivers/transports/hid-loader.js';
import { CaptureFileError, chunkLine, headerLine, parseCapture } from '../../../src/app/tools/capture-file.js';
import { CaptureError, parseCaptureSource, startRecording } from '../../../src/app/tools/capture-recorder.js';
import { cleanupTempDirs, makeTempDir } from '../../../dev/rig/temp-dir.js';

afterAll(cleanupTempDirs);

const HEADER = {
  format: 'tablegw-capture',
  version: 1,
  transport: 'serial',
  port: '/dev/ttyUSB0',
  settings: { baudRate: 9600 },
  startedAt: '2026-01-01T00:00:00.000Z',
  tool: 'tablegw 0.1.0',
} as const;
const SERIAL = { baudRate: 9600, dataBits: 8, parity: 'none', stopBits: 1 } as const;

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof CaptureFileError || e instanceof CaptureError) return `${e.code}: ${e.message}`;
    throw e;
  }
  return 'no error';
}

describe('capture files', () => {
  it('round-trips a header and chunks, bytes exact (binary too)', () => {
    const text = headerLine(HEADER) + chunkLine(0.5, Buffer.from('\x021,C,S_K*37\x03', 'latin1')) + chunkLine(12.25, Uint8Array.from([0, 0xff, 0xaa]));
    expect(text.split('\n')[1]).toBe('{"t":0.5,"hex":"02312c432c535f4b2a333703"}');
    const c = parseCapture(text);
    expect(c.header).toEqual(HEADER);
    expect(c.chunks).toEqual([
      { t: 0.5, bytes: Buffer.from('02312c432c535f4b2a333703', 'hex') },
      { t: 12.25, bytes: Buffer.from([0, 0xff, 0xaa]) },
    ]);
  });

  it('refuses what is not a capture with a stable code and the line', () => {
    expect(codeOf(() => parseCapture('', 'x.jsonl'))).toMatch(/^capture-bad-header: x.jsonl: empty/);
    expect(codeOf(() => parseCapture('{"format":"other"}\n', 'x.jsonl'))).toMatch(
      /^capture-bad-header: x.jsonl: line 1: not a tablegw-capture v1 header \(format: /,
    );
    expect(codeOf(() => parseCapture(`${headerLine(HEADER)}{"t":1,"hex":"abc"}\n`, 'x.jsonl'))).toBe(
      'capture-bad-line: x.jsonl: line 2: hex: must be an even number of hex digits',
    );
    expect(codeOf(() => parseCapture(`${headerLine(HEADER)}not json\n`, 'x.jsonl'))).toBe('capture-bad-line: x.jsonl: line 2: not a JSON line');
    expect(codeOf(() => parseCapture(`${headerLine(HEADER)}{"t":5,"hex":"00"}\n{"t":4,"hex":"00"}\n`, 'x.jsonl'))).toBe(
      "capture-time-backwards: x.jsonl: line 3: t 4 is before the previous chunk's 5",
    );
  });
});

describe('the device argument of tablegw capture', () => {
  it('reads a serial path or hid:VID:PID[:serial] in hex', () => {
    expect(parseCaptureSource('/dev/serial/by-id/usb-FTDI_X')).toEqual({ kind: 'serial', path: '/dev/serial/by-id/usb-FTDI_X' });
    expect(parseCaptureSource('hid:0c2e:0B61')).toEqual({ kind: 'hid', vendorId: 0x0c2e, productId: 0x0b61 });
    expect(parseCaptureSource('hid:0x1209:d1ce:SN:42')).toEqual({ kind: 'hid', vendorId: 0x1209, productId: 0xd1ce, serialNumber: 'SN:42' });
    expect(codeOf(() => parseCaptureSource('hid:12345:1'))).toMatch(/^bad-source: "hid:12345:1": a HID device is hid:VID:PID/);
    expect(codeOf(() => parseCaptureSource('hid:0c2e'))).toMatch(/^bad-source/);
  });
});

describe('recording a HID device (node-hid injected)', () => {
  class FakeHandle extends EventEmitter implements HidHandle {
    closed = false;
    async close(): Promise<void> {
      this.closed = true;
    }
  }

  it('writes each input report as one chunk, with times from the clock', async () => {
    const handle = new FakeHandle();
    const opened: string[] = [];
    const hid: HidModule = {
      devicesAsync: async (vid, pid) =>
        vid === 0x1209 && pid === 0xd1ce
          ? [
              { vendorId: vid, productId: pid, path: '/dev/hidraw7', serialNumber: 'B' },
              { vendorId: vid, productId: pid, path: '/dev/hidraw3', serialNumber: 'A' },
            ]
          : [],
      openPath: async (p) => {
        opened.push(p);
        return handle;
      },
    };
    let clock = 1000;
    const out = join(await makeTempDir('teg-capture-'), 'hid.jsonl');
    const rec = await startRecording({ source: parseCaptureSource('hid:1209:d1ce:A'), serial: SERIAL, out, hidLoader: async () => hid, now: () => clock });
    expect(opened).toEqual(['/dev/hidraw3']);
    clock = 1004.5;
    handle.emit('data', Buffer.from([1, 2, 3, 4, 5, 6, 7, 8]));
    clock = 1010;
    handle.emit('data', Buffer.from([9, 9, 9, 9, 9, 9, 9, 9]));
    expect(await rec.stop()).toEqual({ bytes: 16, chunks: 2 });
    expect(handle.closed).toBe(true);
    const c = parseCapture(readFileSync(out, 'utf8'));
    expect(c.header).toMatchObject({ transport: 'hid', port: 'hid:1209:d1ce:A', settings: {} });
    expect(c.chunks).toEqual([
      { t: 4.5, bytes: Buffer.from([1, 2, 3, 4, 5, 6, 7, 8]) },
      { t: 10, bytes: Buffer.alloc(8, 9) },
    ]);
  });

  it('says clearly when there is no HID backend, no such device, or the file exists', async () => {
    const out = join(await makeTempDir('teg-capture-'), 'none.jsonl');
    const noBackend = startRecording({
      source: parseCaptureSource('hid:0c2e:0b61'),
      serial: SERIAL,
      out,
      hidLoader: async () => {
        throw new Error('node-hid cannot load its native library: libusb-1.0.so.0: cannot open shared object file');
      },
    });
    await expect(noBackend).rejects.toMatchObject({
      code: 'no-hid-backend',
      message: expect.stringMatching(/^HID cannot be used on this machine: node-hid cannot load its native library: libusb/),
    });
    const taken = join(await makeTempDir('teg-capture-'), 'earlier.jsonl');
    writeFileSync(taken, 'an earlier capture\n');
    const handle = new FakeHandle();
    const overwrite = startRecording({
      source: parseCaptureSource('hid:0c2e:0b61'),
      serial: SERIAL,
      out: taken,
      hidLoader: async () => ({ devicesAsync: async () => [{ vendorId: 0x0c2e, productId: 0x0b61, path: '/dev/hidraw1' }], openPath: async () => handle }),
    });
    await expect(overwrite).rejects.toMatchObject({
      code: 'out-unwritable',
      message: `${taken} already exists (a capture is never overwritten: give another --out)`,
    });
    expect(readFileSync(taken, 'utf8')).toBe('an earlier capture\n');
    expect(handle.closed).toBe(true);
    const absent = startRecording({
      source: parseCaptureSource('hid:0c2e:0b61'),
      serial: SERIAL,
      out,
      hidLoader: async () => ({
        devicesAsync: async () => [],
        openPath: async () => {
          throw new Error('unreachable');
        },
      }),
    });
    await expect(absent).rejects.toMatchObject({ code: 'hid-not-found', message: 'no HID device hid:0c2e:0b61 attached (tablegw devices lists what is)' });
  });
});
