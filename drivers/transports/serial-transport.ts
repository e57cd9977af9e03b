import { SerialPortStream } from '@serialport/stream';
import { BehaviorSubject, Subject, type Observable } from 'rxjs';
import type { SerialLatency, Transport, TransportStatus } from './transport.js';
import { mainThreadReadBinding } from './main-thread-read.js';
import { ftdiLatencyTimer } from './serial-latency.js';
import { NO_PROBE, type Probe } from '../../src/core/vocabulary/probe.js';

export interface SerialTransportOptions {
  /** Device path, e.g. /dev/ttyUSB0 or a socat pty link. */
  path: string;
  /** Default 9600. */
  baudRate?: number;
  /** Default 8. */
  dataBits?: 5 | 6 | 7 | 8;
  /** Default 'none'. */
  parity?: 'none' | 'even' | 'odd' | 'mark' | 'space';
  /** Default 1. */
  stopBits?: 1 | 1.5 | 2;
  /** RTS/CTS hardware flow control (default off). */
  rtscts?: boolean;
  /** First reconnect delay after a failure (default 200 ms). */
  minBackoffMs?: number;
  /** Reconnect delay cap (default 5000 ms). */
  maxBackoffMs?: number;
  /** Exclusive lock on the tty (TIOCEXCL), serialport's default true. */
  lock?: boolean;
  /** write() drops data while more than this many bytes are still queued (default 1 MiB). */
  maxQueuedBytes?: number;
  /** Open the port in low-latency mode (Linux ASYNC_LOW_LATENCY) where the driver allows it (default true). */
  lowLatency?: boolean;
  /** marks each chunk read (a measuring tool's; none by default) */
  probe?: Probe;
}

/**
 * A serial line on the real `serialport` bindings (reads on the event loop: main-thread-read.ts).
 *
 * A fresh SerialPort object is created for each open attempt: the SerialPortStream
 * is a Duplex and gets ended/destroyed by read EOF or write errors, so it cannot be
 * reused safely across a disconnect. Any failure (open error, runtime error, close,
 * e.g. the USB device or pty disappearing) schedules a reopen with exponential
 * backoff; the backoff resets after a successful open.
 */
export class SerialTransport implements Transport {
  readonly description: string;
  readonly data$: Observable<Buffer>;
  readonly status$: Observable<TransportStatus>;

  private readonly options: Required<Omit<SerialTransportOptions, 'probe'>>;
  private readonly probe: Probe;
  private readonly dataSubject = new Subject<Buffer>();
  private readonly statusSubject = new BehaviorSubject<TransportStatus>({
    state: 'disconnected',
    detail: 'not started',
  });

  private port: SerialPortStream | undefined;
  private connected = false;
  private started = false;
  private stopped = false;
  private backoffMs: number;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private attempts = 0;
  private latencyState: SerialLatency | undefined;

  constructor(options: SerialTransportOptions) {
    const minBackoffMs = Math.max(1, options.minBackoffMs ?? 200);
    this.options = {
      path: options.path,
      baudRate: options.baudRate ?? 9600,
      dataBits: options.dataBits ?? 8,
      parity: options.parity ?? 'none',
      stopBits: options.stopBits ?? 1,
      rtscts: options.rtscts ?? false,
      minBackoffMs,
      maxBackoffMs: Math.max(minBackoffMs, options.maxBackoffMs ?? 5000),
      lock: options.lock ?? true,
      maxQueuedBytes: options.maxQueuedBytes ?? 1024 * 1024,
      lowLatency: options.lowLatency ?? true,
    };
    this.probe = options.probe ?? NO_PROBE;
    this.backoffMs = this.options.minBackoffMs;
    this.description = `serial ${this.options.path} @${this.options.baudRate}`;
    this.data$ = this.dataSubject.asObservable();
    this.status$ = this.statusSubject.asObservable();
  }

  /** True while the port is open. */
  get isConnected(): boolean {
    return this.connected;
  }

  /** Low-latency mode of the open port (undefined until the port has opened once). */
  get latency(): SerialLatency | undefined {
    return this.latencyState;
  }

  /** Number of open attempts so far (for diagnostics/tests). */
  get openAttempts(): number {
    return this.attempts;
  }

  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.setStatus({ state: 'disconnected', detail: 'opening' });
    this.openPort();
  }

  write(bytes: Buffer | string): void {
    const port = this.port;
    if (this.stopped || !this.connected || !port) return;
    // A device that stopped reading (e.g. hardware flow control) must not grow memory forever.
    if (port.writableLength > this.options.maxQueuedBytes) return;
    try {
      // Errors also surface on the 'error'/'close' events, which trigger the reconnect.
      port.write(typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes, () => {});
    } catch (err) {
      this.fail(port, err);
    }
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    const port = this.port;
    this.port = undefined;
    this.connected = false;
    if (port) await closeQuietly(port);
    this.statusSubject.next({ state: 'disconnected', detail: 'stopped' });
    this.dataSubject.complete();
    this.statusSubject.complete();
  }

  private openPort(): void {
    if (this.stopped) return;
    this.attempts++;
    let port: SerialPortStream;
    try {
      port = new SerialPortStream({
        binding: mainThreadReadBinding,
        path: this.options.path,
        baudRate: this.options.baudRate,
        dataBits: this.options.dataBits,
        parity: this.options.parity,
        stopBits: this.options.stopBits,
        rtscts: this.options.rtscts,
        lock: this.options.lock,
        autoOpen: false,
      });
    } catch (err) {
      // Invalid options: keep retrying (slowly) rather than crash; the detail says why.
      this.port = undefined;
      this.scheduleReconnect(describeError(err));
      return;
    }
    this.port = port;

    port.on('data', (chunk: Buffer) => {
      if (this.probe.on) this.probe.chunkRead();
      if (this.port === port && !this.stopped) this.dataSubject.next(chunk);
    });
    port.on('error', (err: Error) => this.fail(port, err));
    port.on('close', (err?: Error | null) => this.fail(port, err ?? new Error('port closed')));

    port.open((err) => {
      if (err) {
        this.fail(port, err);
        return;
      }
      if (this.stopped || this.port !== port) {
        void closeQuietly(port);
        return;
      }
      // low-latency mode before the port counts as connected, so the state is known by then
      this.setLowLatency(port, () => {
        if (this.stopped || this.port !== port) return;
        this.connected = true;
        this.backoffMs = this.options.minBackoffMs;
        this.setStatus({ state: 'connected' });
      });
    });
  }

  /**
   * Asks the driver for low-latency mode (serialport's Linux binding `set({ lowLatency })`); a
   * driver that refuses (a pty, some adapters) leaves it off with the reason. Never fails the port.
   */
  private setLowLatency(port: SerialPortStream, done: () => void): void {
    const latencyTimerMs = ftdiLatencyTimer(this.options.path);
    const timer = latencyTimerMs === undefined ? {} : { latencyTimerMs };
    if (!this.options.lowLatency) {
      this.latencyState = { lowLatency: false, reason: 'turned off (lowLatency: false)', ...timer };
      done();
      return;
    }
    try {
      (port.set as (o: { lowLatency: boolean }, cb: (err: Error | null) => void) => void)({ lowLatency: true }, (err) => {
        this.latencyState = err ? { lowLatency: false, reason: `the driver refused: ${describeError(err)}`, ...timer } : { lowLatency: true, ...timer };
        done();
      });
    } catch (err) {
      this.latencyState = { lowLatency: false, reason: `the driver refused: ${describeError(err)}`, ...timer };
      done();
    }
  }

  /** Handle any failure of `port`; stale ports (already replaced) are ignored. */
  private fail(port: SerialPortStream, err: unknown): void {
    if (this.port !== port || this.stopped) return;
    this.port = undefined;
    this.connected = false;
    void closeQuietly(port);
    this.scheduleReconnect(describeError(err));
  }

  private scheduleReconnect(detail: string): void {
    if (this.stopped) return;
    const delay = this.backoffMs;
    this.backoffMs = Math.min(this.backoffMs * 2, this.options.maxBackoffMs);
    this.setStatus({ state: 'disconnected', detail });
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      this.openPort();
    }, delay);
  }

  private setStatus(next: TransportStatus): void {
    if (this.stopped) return;
    const cur = this.statusSubject.value;
    if (cur.state === next.state && cur.detail === next.detail) return;
    this.statusSubject.next(next);
  }
}

/** The error's message; bindings-cpp messages carry a redundant "Error: " prefix, dropped here. */
function describeError(err: unknown): string {
  const text = err instanceof Error ? err.message || err.name : String(err);
  return text.replace(/^Error: /, '');
}

/** Close a port if it is open, swallowing every error; never rejects. */
function closeQuietly(port: SerialPortStream): Promise<void> {
  port.removeAllListeners('data');
  // Keep an error listener attached forever so late errors never become uncaught.
  port.on('error', () => {});
  return new Promise((resolve) => {
    if (!port.isOpen) {
      resolve();
      return;
    }
    try {
      port.close(() => resolve());
    } catch {
      resolve();
    }
  });
}
