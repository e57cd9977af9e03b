/**
 * A USB HID device (barcode scanner in keyboard-wedge mode, HID dice sensor) on node-hid.
 *
 * - node-hid is imported lazily on start() (see hid-loader.ts); if it cannot load (e.g. the native
 *   library or libusb is missing) the transport stays `disconnected` with the reason as detail and
 *   keeps retrying every `pollMs`.
 * - The device is found by vendorId/productId (+ serialNumber when configured) and opened by its
 *   path; while it is absent the transport polls every `pollMs` (default 1 s).
 * - Each input report is one `data$` chunk (decoders expect whole 8-byte reports).
 * - Unplugging shows as a read error or as the device vanishing from the enumeration (checked every
 *   `pollMs` while connected): the transport reports `disconnected` and polls until it is back.
 */
import { BehaviorSubject, Subject, type Observable } from 'rxjs';
import { hex4, loadNodeHid, type HidHandle, type HidLoader, type HidModule } from './hid-loader.js';
import type { Transport, TransportStatus } from './transport.js';

export interface HidTransportOptions {
  vendorId: number;
  productId: number;
  serialNumber?: string;
  /** presence poll period, absent or present (default 1000 ms) */
  pollMs?: number;
  /** how node-hid is loaded (tests inject a fake) */
  loader?: HidLoader;
}

export class HidTransport implements Transport {
  readonly description: string;
  readonly data$: Observable<Buffer>;
  readonly status$: Observable<TransportStatus>;
  private readonly dataSubject = new Subject<Buffer>();
  private readonly statusSubject = new BehaviorSubject<TransportStatus>({ state: 'disconnected', detail: 'not started' });
  private readonly pollMs: number;
  private readonly loader: HidLoader;
  private started = false;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private handle: HidHandle | undefined;
  private openPath: string | undefined;
  private busy = false;

  constructor(private readonly opts: HidTransportOptions) {
    this.pollMs = Math.max(10, opts.pollMs ?? 1000);
    this.loader = opts.loader ?? loadNodeHid;
    this.description = `hid ${hex4(opts.vendorId)}:${hex4(opts.productId)}${opts.serialNumber ? ` serial ${opts.serialNumber}` : ''}`;
    this.data$ = this.dataSubject.asObservable();
    this.status$ = this.statusSubject.asObservable();
  }

  get isConnected(): boolean {
    return this.handle !== undefined;
  }

  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.setStatus({ state: 'disconnected', detail: 'searching' });
    void this.poll();
  }

  /** HID input devices here take no commands: writes are dropped. */
  write(_bytes: Buffer | string): void {}

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const h = this.handle;
    this.handle = undefined;
    if (h) await closeQuietly(h);
    this.statusSubject.next({ state: 'disconnected', detail: 'stopped' });
    this.dataSubject.complete();
    this.statusSubject.complete();
  }

  private schedule(): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.poll();
    }, this.pollMs);
  }

  private async poll(): Promise<void> {
    if (this.stopped || this.busy) return;
    this.busy = true;
    try {
      await this.pollOnce();
    } finally {
      this.busy = false;
      this.schedule();
    }
  }

  private async pollOnce(): Promise<void> {
    let hid: HidModule;
    try {
      hid = await this.loader();
    } catch (e) {
      this.dropHandle(`HID unavailable: ${(e as Error).message}`);
      return;
    }
    if (this.stopped) return;
    let path: string | undefined;
    try {
      const list = await hid.devicesAsync(this.opts.vendorId, this.opts.productId);
      const match = list.filter(
        (d) =>
          d.vendorId === this.opts.vendorId &&
          d.productId === this.opts.productId &&
          (this.opts.serialNumber === undefined || d.serialNumber === this.opts.serialNumber) &&
          d.path,
      );
      // still attached where we opened it?
      if (this.handle) {
        if (!match.some((d) => d.path === this.openPath)) this.dropHandle('device unplugged');
        return;
      }
      path = match[0]?.path;
    } catch (e) {
      this.dropHandle(`HID enumeration failed: ${(e as Error).message}`);
      return;
    }
    if (this.stopped) return;
    if (!path) {
      this.setStatus({ state: 'disconnected', detail: `no HID device ${this.description.slice(4)} attached` });
      return;
    }
    let handle: HidHandle;
    try {
      handle = await hid.openPath(path);
    } catch (e) {
      this.setStatus({ state: 'disconnected', detail: `cannot open ${path}: ${(e as Error).message}` });
      return;
    }
    if (this.stopped) {
      await closeQuietly(handle);
      return;
    }
    this.handle = handle;
    this.openPath = path;
    handle.on('data', (data: Buffer) => {
      if (this.handle === handle && !this.stopped) this.dataSubject.next(Buffer.from(data));
    });
    handle.on('error', (err: unknown) => {
      if (this.handle !== handle) return;
      this.dropHandle(`read failed: ${err instanceof Error ? err.message : String(err)}`);
      this.schedule();
    });
    this.setStatus({ state: 'connected', detail: path });
  }

  private dropHandle(detail: string): void {
    const h = this.handle;
    this.handle = undefined;
    this.openPath = undefined;
    if (h) void closeQuietly(h);
    this.setStatus({ state: 'disconnected', detail });
  }

  private setStatus(next: TransportStatus): void {
    if (this.stopped) return;
    const cur = this.statusSubject.value;
    if (cur.state === next.state && cur.detail === next.detail) return;
    this.statusSubject.next(next);
  }
}

async function closeQuietly(h: HidHandle): Promise<void> {
  try {
    h.removeAllListeners('data');
    h.on('error', () => {});
    await h.close();
  } catch {
    // already gone
  }
}
