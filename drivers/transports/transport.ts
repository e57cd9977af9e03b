import type { Observable } from 'rxjs';

export type TransportState = 'connected' | 'disconnected';

/**
 * A serial port's low-latency mode (device-protocols.md §3.3) and an FTDI adapter's latency timer:
 * reported per port in health, the status page and `tablegw devices`.
 */
export interface SerialLatency {
  /** low-latency mode is on */
  lowLatency: boolean;
  /** why it is off: turned off in the config, or the driver refused (a pty does) */
  reason?: string;
  /** an FTDI adapter's `latency_timer` in ms (sysfs), when the port has one */
  latencyTimerMs?: number;
}

export interface TransportStatus {
  state: TransportState;
  detail?: string;
}

/**
 * A byte-level link to one device (serial line, in-memory simulator, ...).
 * Implementations never throw from write() and reconnect by themselves after start().
 */
export interface Transport {
  /** Human readable, e.g. "serial /dev/ttyUSB0 @9600". */
  readonly description: string;
  /** Raw bytes as they arrive (hot: late subscribers miss earlier bytes). */
  readonly data$: Observable<Buffer>;
  /** Serial lines: low-latency mode of the open port (undefined before it opened, and for other transports). */
  readonly latency?: SerialLatency;
  /** Current status replayed to new subscribers, then changes. */
  readonly status$: Observable<TransportStatus>;
  /** Begin opening; the transport reconnects by itself afterwards. Idempotent. */
  start(): void;
  /** Best effort; dropped (not thrown) while disconnected. */
  write(bytes: Buffer | string): void;
  /** Close for good and complete the observables. Idempotent. */
  stop(): Promise<void>;
}
