/**
 * Serial reads on the event loop, for the real `serialport` bindings on Linux and macOS.
 *
 * bindings-cpp reads a port with `fs.read` in libuv's thread pool, and on EAGAIN waits for its
 * poller (epoll on the event loop) and reads again in the pool: every chunk that arrives costs
 * two round trips through the pool (a read that finds nothing, then the real one), each a thread
 * wake-up and a hand-over back to the event loop. The port's fd is non-blocking (bindings-cpp
 * opens it with O_NONBLOCK), so a read on it never blocks: here it is read with one `readSync`
 * on the event loop, and the same poller says when there is something to read. Everything else
 * (open, settings, writes, close, the poller) is the bindings' own.
 *
 * A read that filled less than it was offered emptied the port's input queue: the next read
 * waits for the poller first instead of trying, which would only find nothing (EAGAIN, thrown as
 * an exception by `readSync`) — one syscall and one exception saved per chunk. The poller is
 * level-triggered (libuv's uv_poll on epoll), so bytes that came in between still wake it.
 * docs/PERFORMANCE.md "Serial reads on the event loop" has the figures.
 */
import { readSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { SerialPort } from 'serialport';

/** the part of a bindings port object used here (bindings-interface's BindingPortInterface) */
interface BindingPort {
  readonly isOpen: boolean;
  read(buffer: Buffer, offset: number, length: number): Promise<{ buffer: Buffer; bytesRead: number }>;
}
/** the detected bindings (Linux, Darwin or Windows), by the two calls a stream makes of them */
interface LooseBinding {
  list(): Promise<unknown[]>;
  open(options: unknown): Promise<unknown>;
}

const require = createRequire(import.meta.url);
let platform: LooseBinding | null = null;

/**
 * The bindings of this platform, loaded at the first open or list (a gateway without a serial
 * device never loads them): on Linux and macOS only that platform's module; `serialport`'s index
 * would load its ten parsers and mock binding, and bindings-cpp's all three platforms (about 20 ms
 * of a cold start, docs/PERFORMANCE.md).
 */
function detected(): LooseBinding {
  if (platform) return platform;
  if (process.platform === 'linux') platform = require('@serialport/bindings-cpp/dist/linux.js').LinuxBinding as LooseBinding;
  else if (process.platform === 'darwin') platform = require('@serialport/bindings-cpp/dist/darwin.js').DarwinBinding as LooseBinding;
  else platform = (require('@serialport/bindings-cpp') as { autoDetect(): LooseBinding }).autoDetect();
  return platform;
}

interface Poller {
  once(event: 'readable', callback: (err: Error | null) => void): unknown;
}

/** what bindings-cpp's Linux and Darwin port objects have besides the interface */
interface UnixPort extends BindingPort {
  fd: number | null;
  poller?: Poller;
}

/**
 * set on a port whose last read came back short (its input queue was empty then). A flag on the
 * port, not a WeakSet of ports: a long-lived set that gains and loses an entry per read allocates
 * a new table in the old generation each time (docs/PERFORMANCE.md "Garbage collection").
 */
const DRAINED = Symbol('drained');
type ReadState = { [DRAINED]?: boolean };

const RETRY = new Set(['EAGAIN', 'EWOULDBLOCK', 'EINTR']);
const DISCONNECT = new Set(['EBADF', 'ENXIO', 'UNKNOWN']);

function canceled(): Error {
  return Object.assign(new Error('Port is not open'), { canceled: true });
}

function whenReadable(poller: Poller): Promise<void> {
  return new Promise((resolve, reject) => {
    poller.once('readable', (err) => (err ? reject(err) : resolve()));
  });
}

/** reads what is there, or waits for the poller and reads then; the bindings' read contract (exported for its test) */
export async function readOnLoop(port: UnixPort, buffer: Buffer, offset: number, length: number): Promise<{ buffer: Buffer; bytesRead: number }> {
  const state = port as UnixPort & ReadState;
  if (state[DRAINED]) {
    state[DRAINED] = false;
    if (port.fd === null || !port.isOpen) throw canceled();
    await whenReadable(port.poller!);
  }
  for (;;) {
    if (port.fd === null || !port.isOpen) throw canceled();
    try {
      const bytesRead = readSync(port.fd, buffer, offset, length, null);
      if (bytesRead > 0) {
        if (bytesRead < length) state[DRAINED] = true;
        return { buffer, bytesRead };
      }
      // 0 bytes (the other end went away for now): wait until the poller says more, as for EAGAIN
    } catch (e) {
      const err = e as NodeJS.ErrnoException & { disconnect?: boolean };
      if (!RETRY.has(err.code ?? '')) {
        if (DISCONNECT.has(err.code ?? '') || err.errno === -1) err.disconnect = true;
        throw err;
      }
    }
    await whenReadable(port.poller!);
  }
}

/** the bindings `SerialPort` detected for this platform, with reads on the event loop where it can */
const binding: LooseBinding = {
  list: () => detected().list(),
  async open(options: unknown) {
    const port = await detected().open(options);
    const unix = port as UnixPort;
    if (typeof unix.fd === 'number' && unix.poller && typeof unix.poller.once === 'function') {
      unix.read = (buffer: Buffer, offset: number, length: number) => readOnLoop(unix, buffer, offset, length);
    }
    return port;
  },
};
export const mainThreadReadBinding = binding as unknown as typeof SerialPort.binding;
