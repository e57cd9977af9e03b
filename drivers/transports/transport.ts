import type { Observable } from 'rxjs';

export type TransportState = 'connected' | 'disconnected';

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
  /** Current status replayed to new subscribers, then changes. */
  readonly status$: Observable<TransportStatus>;
  /** Begin opening; the transport reconnects by itself afterwards. Idempotent. */
  start(): void;
  /** Best effort; dropped (not thrown) while disconnected. */
  write(bytes: Buffer | string): void;
  /** Close for good and complete the observables. Idempotent. */
  stop(): Promise<void>;
}
