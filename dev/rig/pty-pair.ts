import { spawnSupervised, terminate, type SupervisedProcess } from './child-process.js';
import fs from 'node:fs';
import path from 'node:path';
import { SerialPort } from 'serialport';
import { commandPath } from './commands.js';
import { makeTempDir, removeTempDir } from './temp-dir.js';

export interface PtyPair {
  /** Link to the pty the simulated device uses (this helper keeps it open). */
  devicePath: string;
  /** Link to the pty the gateway opens (give this to SerialTransport). */
  gatewayPath: string;
  /** Write bytes from the device side; resolves once handed to the kernel (tcdrain). */
  write(bytes: string | Buffer): Promise<void>;
  /** Receive what the gateway wrote (survives reopen()). */
  onData(cb: (bytes: Buffer) => void): void;
  /** Everything received on the device side since creation (or the last clearReceived()). */
  received(): Buffer;
  clearReceived(): void;
  /** Resolves when `text` has been received on the device side. */
  waitForReceived(text: string | Buffer, timeoutMs?: number): Promise<void>;
  /** "Unplug": close the device end and kill socat (the gateway pty disappears, links are removed). */
  close(): Promise<void>;
  /** "Plug back in": start a new socat with the same link paths and reopen the device end. */
  reopen(): Promise<void>;
  /** close() and remove the temp dir. Idempotent. */
  dispose(): Promise<void>;
  /** socat's stderr (debug output) of the current/last instance. */
  log(): string;
}

type SocatInstance = SupervisedProcess;

/**
 * A pair of connected pseudo terminals made by socat, standing in for a serial cable:
 * the test plays the device on `devicePath`, the code under test opens `gatewayPath`.
 * socat ignores baud rate/parity, so any serial settings work.
 */
export async function createPtyPair(opts: { startTimeoutMs?: number } = {}): Promise<PtyPair> {
  const dir = await makeTempDir('teg-pty-');
  const devicePath = path.join(dir, 'device');
  const gatewayPath = path.join(dir, 'gateway');
  const timeoutMs = opts.startTimeoutMs ?? 10_000;
  const listeners: Array<(bytes: Buffer) => void> = [];
  let receivedBuf = Buffer.alloc(0);
  const receivedWaiters = new Set<() => void>();

  let socat: SocatInstance | undefined;
  let device: SerialPort | undefined;
  let disposed = false;

  const onDeviceData = (chunk: Buffer): void => {
    receivedBuf = Buffer.concat([receivedBuf, chunk]);
    for (const cb of listeners) cb(chunk);
    for (const w of [...receivedWaiters]) w();
  };

  const open = async (): Promise<void> => {
    socat = await startSocat(devicePath, gatewayPath, timeoutMs);
    try {
      device = await openDevice(devicePath, onDeviceData);
    } catch (err) {
      await terminate(socat);
      socat = undefined;
      throw err;
    }
  };

  const close = async (): Promise<void> => {
    const d = device;
    device = undefined;
    if (d) await closePort(d);
    const s = socat;
    socat = undefined;
    if (s) await terminate(s);
    // socat removes its links on SIGTERM; make sure, so a reopen never sees stale ones.
    for (const p of [devicePath, gatewayPath]) fs.rmSync(p, { force: true });
  };

  await open();

  return {
    devicePath,
    gatewayPath,
    async write(bytes) {
      const d = device;
      if (!d) throw new Error('pty pair is closed');
      await new Promise<void>((resolve, reject) => {
        d.write(typeof bytes === 'string' ? Buffer.from(bytes) : bytes, (err) => {
          if (err) reject(err);
        });
        d.drain((err) => (err ? reject(err) : resolve()));
      });
    },
    onData(cb) {
      listeners.push(cb);
    },
    received: () => receivedBuf,
    clearReceived() {
      receivedBuf = Buffer.alloc(0);
    },
    waitForReceived(text, waitMs = 10_000) {
      const needle = typeof text === 'string' ? Buffer.from(text) : text;
      return new Promise<void>((resolve, reject) => {
        const check = (): void => {
          if (receivedBuf.includes(needle)) {
            clearTimeout(timer);
            receivedWaiters.delete(check);
            resolve();
          }
        };
        const timer = setTimeout(() => {
          receivedWaiters.delete(check);
          reject(
            new Error(`device side did not receive ${JSON.stringify(needle.toString())} within ${waitMs} ms; got ${JSON.stringify(receivedBuf.toString())}`),
          );
        }, waitMs);
        receivedWaiters.add(check);
        check();
      });
    },
    close,
    async reopen() {
      if (disposed) throw new Error('pty pair disposed');
      await close();
      await open();
    },
    async dispose() {
      if (disposed) return;
      disposed = true;
      await close();
      await removeTempDir(dir);
    },
    log: () => socat?.output.text ?? '',
  };
}

async function startSocat(devicePath: string, gatewayPath: string, timeoutMs: number): Promise<SocatInstance> {
  const inst = spawnSupervised(commandPath('socat'), ['-d', '-d', `pty,raw,echo=0,link=${devicePath}`, `pty,raw,echo=0,link=${gatewayPath}`], {
    stdout: false,
    stderr: true,
  });
  const { output } = inst;
  const deadline = Date.now() + timeoutMs;
  // Ready = both links exist and socat has entered its transfer loop.
  for (;;) {
    if (inst.exitInfo() !== undefined) throw new Error(`socat ${inst.exitInfo()}; output:\n${output.text}`);
    if (output.text.includes('starting data transfer loop') && fs.existsSync(devicePath) && fs.existsSync(gatewayPath)) {
      return inst;
    }
    if (Date.now() > deadline) {
      await terminate(inst);
      throw new Error(`socat not ready within ${timeoutMs} ms; output:\n${output.text}`);
    }
    await sleep(10);
  }
}

function openDevice(devicePath: string, onData: (b: Buffer) => void): Promise<SerialPort> {
  return new Promise((resolve, reject) => {
    // The baud rate is irrelevant on a pty; serialport's open also puts the tty in raw mode.
    const port = new SerialPort({ path: devicePath, baudRate: 9600, autoOpen: false });
    // The device end sees EIO/EBADF when socat goes away: never let that be uncaught.
    port.on('error', () => {});
    port.on('data', onData);
    port.open((err) => (err ? reject(err) : resolve(port)));
  });
}

/** closes the device end; at most 2 s (a close the binding never confirms must not keep socat, and the unplug, waiting) */
function closePort(port: SerialPort): Promise<void> {
  return new Promise((resolve) => {
    if (!port.isOpen) {
      resolve();
      return;
    }
    const timer = setTimeout(resolve, 2_000);
    port.close(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
