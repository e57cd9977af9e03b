import { BehaviorSubject, Subject, type Observable } from 'rxjs';
import type { Transport, TransportStatus } from './transport.js';

export interface MemoryTransportOptions {
  /** Shown in logs; defaults to "memory <name>". */
  name?: string;
  /** Whether start() connects immediately (default true). */
  connectOnStart?: boolean;
}

/**
 * In-process byte pipe used by the built-in simulators and unit tests.
 * - deliver(bytes): the "device" sends bytes -> data$ (only while connected and started)
 * - written$: what the gateway wrote through write() (only while connected)
 * - setConnected(false, detail): simulate an unplugged cable
 */
export class MemoryTransport implements Transport {
  readonly description: string;
  private readonly dataSubject = new Subject<Buffer>();
  private readonly writtenSubject = new Subject<Buffer>();
  private readonly statusSubject = new BehaviorSubject<TransportStatus>({
    state: 'disconnected',
    detail: 'not started',
  });
  readonly data$: Observable<Buffer> = this.dataSubject.asObservable();
  readonly written$: Observable<Buffer> = this.writtenSubject.asObservable();
  readonly status$: Observable<TransportStatus> = this.statusSubject.asObservable();

  private started = false;
  private stopped = false;
  /** Whether the simulated cable is plugged in. */
  private linkUp: boolean;
  private linkDetail: string | undefined;

  constructor(options: MemoryTransportOptions = {}) {
    this.description = `memory ${options.name ?? 'pipe'}`;
    this.linkUp = options.connectOnStart ?? true;
    this.linkDetail = this.linkUp ? undefined : 'unplugged';
  }

  get connected(): boolean {
    return this.statusSubject.value.state === 'connected';
  }

  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.publish();
  }

  write(bytes: Buffer | string): void {
    if (this.stopped || !this.connected) return;
    this.writtenSubject.next(toBuffer(bytes));
  }

  /** Push bytes to data$ as if the device had sent them. Dropped while disconnected. */
  deliver(bytes: Buffer | string): void {
    if (this.stopped || !this.connected) return;
    this.dataSubject.next(toBuffer(bytes));
  }

  /** Plug (true) or unplug (false) the simulated device. */
  setConnected(connected: boolean, detail?: string): void {
    if (this.stopped) return;
    this.linkUp = connected;
    this.linkDetail = detail ?? (connected ? undefined : 'unplugged');
    if (this.started) this.publish();
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.statusSubject.next({ state: 'disconnected', detail: 'stopped' });
    this.dataSubject.complete();
    this.writtenSubject.complete();
    this.statusSubject.complete();
  }

  private publish(): void {
    const next: TransportStatus = this.linkUp
      ? this.linkDetail !== undefined
        ? { state: 'connected', detail: this.linkDetail }
        : { state: 'connected' }
      : { state: 'disconnected', detail: this.linkDetail ?? 'unplugged' };
    const cur = this.statusSubject.value;
    if (cur.state === next.state && cur.detail === next.detail) return;
    this.statusSubject.next(next);
  }
}

function toBuffer(bytes: Buffer | string): Buffer {
  return typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : Buffer.from(bytes);
}
