/**
 * Records a device's raw bytes into a capture file (capture-file.ts) for `tablegw capture`: a
 * serial line through the real serialport bindings, or a USB HID device through node-hid (loaded
 * only for HID). Each chunk is written as it arrives, so a capture cut short by a crash or a
 * pulled cable keeps everything up to its last chunk.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { hex4, loadNodeHid, type HidHandle, type HidLoader } from '../../../drivers/transports/hid-loader.js';
import { gatewayVersion } from '../../runtime/paths.js';
import { chunkLine, headerLine, type CaptureHeader } from './capture-file.js';

export type CaptureSource = { kind: 'serial'; path: string } | { kind: 'hid'; vendorId: number; productId: number; serialNumber?: string };

export interface SerialSettings {
  baudRate: number;
  dataBits: 5 | 6 | 7 | 8;
  parity: 'none' | 'even' | 'odd' | 'mark' | 'space';
  stopBits: 1 | 1.5 | 2;
}

/** a capture that cannot start; `code` is stable */
export class CaptureError extends Error {
  constructor(
    readonly code: 'bad-source' | 'open-failed' | 'no-hid-backend' | 'hid-not-found' | 'out-unwritable',
    message: string,
  ) {
    super(message);
  }
}

const HEX_ID = /^(?:0x)?[0-9a-fA-F]{1,4}$/;

/** `/dev/ttyUSB0` or `hid:0c2e:0b61[:serial]` (ids in hex, `0x` optional) */
export function parseCaptureSource(text: string): CaptureSource {
  if (!text.startsWith('hid:')) {
    if (!text.trim()) throw new CaptureError('bad-source', 'give a serial port path or hid:VID:PID[:serial]');
    return { kind: 'serial', path: text };
  }
  const [, vid, pid, ...rest] = text.split(':');
  if (!vid || !pid || !HEX_ID.test(vid) || !HEX_ID.test(pid)) {
    throw new CaptureError('bad-source', `"${text}": a HID device is hid:VID:PID[:serial] with the ids in hex, e.g. hid:0c2e:0b61`);
  }
  const serialNumber = rest.join(':');
  return {
    kind: 'hid',
    vendorId: Number.parseInt(vid.replace(/^0x/, ''), 16),
    productId: Number.parseInt(pid.replace(/^0x/, ''), 16),
    ...(serialNumber ? { serialNumber } : {}),
  };
}

export function describeSource(s: CaptureSource): string {
  return s.kind === 'serial' ? s.path : `hid:${hex4(s.vendorId).slice(2)}:${hex4(s.productId).slice(2)}${s.serialNumber ? `:${s.serialNumber}` : ''}`;
}

export interface RecordOptions {
  source: CaptureSource;
  serial: SerialSettings;
  out: string;
  /** called after every chunk with the running totals */
  onProgress?: (bytes: number, chunks: number) => void;
  /** called with every chunk once it is in the file: its time (ms since the start, as written) and bytes */
  onChunk?: (t: number, bytes: Buffer) => void;
  /** the clock, ms (tests); default performance.now */
  now?: () => number;
  /** how node-hid is loaded (tests inject a fake); default the lazy loader of hid-loader.ts */
  hidLoader?: HidLoader;
}

export interface Recording {
  header: CaptureHeader;
  /** stops reading and closes the file; resolves with the totals */
  stop(): Promise<{ bytes: number; chunks: number }>;
  /** rejects/resolves when the device goes away (unplug) before stop() */
  readonly ended: Promise<string>;
}

interface OpenedSource {
  onData(cb: (b: Buffer) => void): void;
  ended: Promise<string>;
  close(): Promise<void>;
}

async function openSerial(path: string, s: SerialSettings): Promise<OpenedSource> {
  const { SerialPort } = await import('serialport');
  const port = new SerialPort({ path, baudRate: s.baudRate, dataBits: s.dataBits, parity: s.parity, stopBits: s.stopBits, autoOpen: false });
  await new Promise<void>((resolve, reject) =>
    port.open((e) => (e ? reject(new CaptureError('open-failed', `cannot open ${path}: ${e.message.replace(/^Error: /, '')}`)) : resolve())),
  );
  let closing = false;
  const ended = new Promise<string>((resolve) => {
    port.on('close', () => {
      if (!closing) resolve(`${path} closed (device unplugged?)`);
    });
    // an unplugged device may report a read error (EIO, ENXIO) rather than its close: the unplug too
    port.on('error', (e: Error & { disconnected?: boolean }) => {
      if (closing) return;
      resolve(e.disconnected || /\b(EIO|ENXIO|ENODEV|EBADF)\b/.test(e.message) ? `${path} closed (device unplugged?)` : `${path}: ${e.message}`);
    });
  });
  return {
    onData: (cb) => port.on('data', cb),
    ended,
    close: () =>
      new Promise<void>((resolve) => {
        closing = true;
        port.removeAllListeners('data');
        port.on('error', () => {});
        if (!port.isOpen) resolve();
        else {
          // a port whose device went away may never confirm its close: the capture ends all the same
          const timer = setTimeout(resolve, 2_000);
          port.close(() => {
            clearTimeout(timer);
            resolve();
          });
        }
      }),
  };
}

async function openHid(s: Extract<CaptureSource, { kind: 'hid' }>, loader: HidLoader): Promise<OpenedSource> {
  let hid: Awaited<ReturnType<HidLoader>>;
  try {
    hid = await loader();
  } catch (e) {
    throw new CaptureError('no-hid-backend', `HID cannot be used on this machine: ${(e as Error).message} (serial devices work without it)`);
  }
  const found = (await hid.devicesAsync(s.vendorId, s.productId)).find((d) => d.path && (!s.serialNumber || d.serialNumber === s.serialNumber));
  if (!found?.path) throw new CaptureError('hid-not-found', `no HID device ${describeSource(s)} attached (tablegw devices lists what is)`);
  let handle: HidHandle;
  try {
    handle = await hid.openPath(found.path);
  } catch (e) {
    throw new CaptureError('open-failed', `cannot open ${found.path}: ${(e as Error).message} (permissions: see the udev rule in docs/DEVICES.md)`);
  }
  let closing = false;
  const ended = new Promise<string>((resolve) =>
    handle.on('error', (e) => {
      if (!closing) resolve(`${found.path}: ${(e as Error).message ?? String(e)}`);
    }),
  );
  return {
    onData: (cb) => handle.on('data', cb),
    ended,
    close: async () => {
      closing = true;
      handle.removeAllListeners('data');
      await handle.close().catch(() => {});
    },
  };
}

/** opens the device and the file, writes the header, then every chunk as it arrives */
export async function startRecording(o: RecordOptions): Promise<Recording> {
  const now = o.now ?? (() => performance.now());
  const src = o.source.kind === 'serial' ? await openSerial(o.source.path, o.serial) : await openHid(o.source, o.hidLoader ?? loadNodeHid);
  let fd: number;
  try {
    // never over an earlier capture: it may be the only record of what a device sent
    fd = openSync(o.out, 'wx');
  } catch (e) {
    await src.close();
    const code = (e as NodeJS.ErrnoException).code;
    throw new CaptureError(
      'out-unwritable',
      code === 'EEXIST'
        ? `${o.out} already exists (a capture is never overwritten: give another --out)`
        : `cannot write ${o.out}: ${code ?? (e as Error).message}`,
    );
  }
  const header: CaptureHeader = {
    format: 'tablegw-capture',
    version: 1,
    transport: o.source.kind,
    port: describeSource(o.source),
    settings: o.source.kind === 'serial' ? { ...o.serial } : {},
    startedAt: new Date().toISOString(),
    tool: `tablegw ${gatewayVersion()}`,
  };
  writeSync(fd, headerLine(header));
  const t0 = now();
  let bytes = 0;
  let chunks = 0;
  let open = true;
  src.onData((b) => {
    if (!open) return;
    const t = Math.round((now() - t0) * 1000) / 1000;
    writeSync(fd, chunkLine(t, b));
    bytes += b.length;
    chunks++;
    o.onProgress?.(bytes, chunks);
    o.onChunk?.(t, b);
  });
  return {
    header,
    ended: src.ended,
    async stop() {
      if (open) {
        open = false;
        await src.close();
        closeSync(fd);
      }
      return { bytes, chunks };
    },
  };
}
