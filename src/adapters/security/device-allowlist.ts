/**
 * The device allow-list (`security.allowedDevices`, docs/SECURITY.md): when it is configured, the
 * gateway opens a serial or HID device only if the hardware actually attached matches an entry —
 * by path, USB serial number, vendor and product id. A device that matches none is not opened: its
 * state is reported (`disconnected`, detail `not allowed: ...`) and a `device-not-allowed` alert
 * goes through the table machine. Simulator transports are exempt (no hardware).
 *
 * The check is a wrapper around the transport the driver factory creates (`guardTransport`): it
 * identifies the hardware before every open — at start and again after each disconnect, so a device
 * swapped while the gateway runs is checked too — and only then creates and starts the real transport.
 */
import { realpathSync } from 'node:fs';
import { BehaviorSubject, Subject, type Observable, type Subscription } from 'rxjs';
import type { AllowedDeviceConfig, DeviceConfig } from '../../core/vocabulary/config-schema.js';
import type { SerialLatency, Transport, TransportStatus } from '../../../drivers/transports/transport.js';

/** what the operating system says about the hardware behind a configured device */
export interface DeviceIdentity {
  type: 'serial' | 'hid';
  /** serial: the configured path; hid: the hidraw path */
  path?: string;
  /** serial: the tty the path resolves to (symlinks such as /dev/serial/by-id/... followed) */
  realPath?: string;
  serialNumber?: string;
  vendorId?: number;
  productId?: number;
  /** why USB details are missing (e.g. udev cannot be asked): then only path entries can match */
  unavailable?: string;
}

/** how the hardware is identified (tests inject their own) */
export interface DeviceProbe {
  /** the identity of the tty at `path`; null when nothing is there */
  serial(path: string): Promise<DeviceIdentity | null>;
  /** every attached HID device with these ids */
  hid(vendorId: number, productId: number): Promise<DeviceIdentity[]>;
}

export type AllowDecision =
  | { kind: 'allowed'; device: DeviceConfig; identity: DeviceIdentity }
  | { kind: 'denied'; detail: string; identity: DeviceIdentity }
  | { kind: 'absent'; detail: string };

export interface DeviceDenial {
  deviceId: string;
  detail: string;
  identity: DeviceIdentity;
}

const hex4 = (n: number | undefined): string => (n === undefined ? '????' : n.toString(16).padStart(4, '0'));
const realpath = (p: string): string | undefined => {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
};

/** `/dev/ttyUSB0 (USB 0403:6001, serial A10K3XYZ)` */
export function describeIdentity(id: DeviceIdentity): string {
  const usb = id.vendorId !== undefined || id.productId !== undefined ? `USB ${hex4(id.vendorId)}:${hex4(id.productId)}` : '';
  const serial = id.serialNumber ? `serial ${id.serialNumber}` : id.unavailable ? `USB details unavailable: ${id.unavailable}` : 'no serial number';
  const where =
    id.type === 'serial'
      ? `${id.path ?? '?'}${id.realPath && id.realPath !== id.path ? ` -> ${id.realPath}` : ''}`
      : `HID device${id.path ? ` ${id.path}` : ''}`;
  return `${where} (${[usb, serial].filter(Boolean).join(', ')})`;
}

/** whether `id` matches `entry`: every field the entry sets must match */
export function entryMatches(entry: AllowedDeviceConfig, id: DeviceIdentity): boolean {
  if (entry.type !== id.type) return false;
  if (entry.vendorId !== undefined && entry.vendorId !== id.vendorId) return false;
  if (entry.productId !== undefined && entry.productId !== id.productId) return false;
  if (entry.serialNumber !== undefined && entry.serialNumber !== id.serialNumber) return false;
  if (entry.type === 'serial' && entry.path !== undefined) {
    const samePath = entry.path === id.path || (id.realPath !== undefined && (entry.path === id.realPath || realpath(entry.path) === id.realPath));
    if (!samePath) return false;
  }
  return true;
}

/** decides whether the device `dev` configures may be opened now */
export async function decideDevice(dev: DeviceConfig, allowed: readonly AllowedDeviceConfig[], probe: DeviceProbe): Promise<AllowDecision> {
  const t = dev.transport;
  if (t.type === 'simulator') return { kind: 'allowed', device: dev, identity: { type: 'serial', path: 'simulator' } };
  if (t.type === 'serial') {
    const id = await probe.serial(t.path);
    if (!id) return { kind: 'absent', detail: `${t.path} is not present` };
    if (allowed.some((e) => entryMatches(e, id))) return { kind: 'allowed', device: dev, identity: id };
    return { kind: 'denied', identity: id, detail: `not allowed: ${describeIdentity(id)} is not on security.allowedDevices; not opened` };
  }
  const candidates = (await probe.hid(t.vendorId, t.productId)).filter(
    (d) => d.vendorId === t.vendorId && d.productId === t.productId && (t.serialNumber === undefined || d.serialNumber === t.serialNumber),
  );
  if (candidates.length === 0)
    return { kind: 'absent', detail: `no HID device ${hex4(t.vendorId)}:${hex4(t.productId)}${t.serialNumber ? ` serial ${t.serialNumber}` : ''} attached` };
  const ok = candidates.find((d) => allowed.some((e) => entryMatches(e, d)));
  if (!ok) {
    const id = candidates[0];
    return { kind: 'denied', identity: id, detail: `not allowed: ${describeIdentity(id)} is not on security.allowedDevices; not opened` };
  }
  // pin the allowed unit by its serial number, so that an unlisted twin is never the one opened
  const device = t.serialNumber === undefined && ok.serialNumber ? { ...dev, transport: { ...t, serialNumber: ok.serialNumber } } : dev;
  return { kind: 'allowed', device, identity: ok };
}

/** identities from `serialport` (udev on Linux) and node-hid, loaded only when needed */
export const systemProbe: DeviceProbe = {
  async serial(path) {
    const real = realpath(path);
    if (!real) return null;
    const id: DeviceIdentity = { type: 'serial', path, realPath: real };
    let ports: Awaited<ReturnType<typeof import('serialport').SerialPort.list>>;
    try {
      const { SerialPort } = await import('serialport');
      ports = await SerialPort.list();
    } catch (e) {
      // fail closed: without USB details only entries by path can match
      id.unavailable = (e as Error).message;
      return id;
    }
    const p = ports.find((x) => x.path === path || x.path === real || realpath(x.path) === real);
    if (p?.serialNumber) id.serialNumber = p.serialNumber;
    if (p?.vendorId) id.vendorId = parseInt(p.vendorId, 16);
    if (p?.productId) id.productId = parseInt(p.productId, 16);
    return id;
  },
  async hid(vendorId, productId) {
    const { loadNodeHid } = await import('../../../drivers/transports/hid-loader.js');
    const hid = await loadNodeHid();
    return (await hid.devicesAsync(vendorId, productId)).map((d) => ({
      type: 'hid' as const,
      vendorId: d.vendorId,
      productId: d.productId,
      ...(d.path ? { path: d.path } : {}),
      ...(d.serialNumber ? { serialNumber: d.serialNumber } : {}),
    }));
  },
};

export interface GuardOptions {
  allowed: readonly AllowedDeviceConfig[];
  /** creates the real transport once the device is allowed (the driver factory's createTransport) */
  create: (dev: DeviceConfig) => Transport;
  /** a device was refused (called again only when the refusal's detail changes) */
  onDenied: (d: DeviceDenial) => void;
  probe?: DeviceProbe;
  /** how often an absent or refused device is looked at again (default 2000 ms) */
  recheckMs?: number;
}

/** initial details of a transport that has not failed yet */
const STARTING = new Set(['not started', 'opening', 'searching']);

/**
 * A Transport that checks the hardware against the allow-list before each open and only then
 * creates and starts the real one; when that one loses its device it is stopped and the check
 * runs again before anything is reopened.
 */
export class GuardedTransport implements Transport {
  readonly description: string;
  readonly data$: Observable<Buffer>;
  readonly status$: Observable<TransportStatus>;
  private readonly dataSubject = new Subject<Buffer>();
  private readonly statusSubject = new BehaviorSubject<TransportStatus>({ state: 'disconnected', detail: 'not started' });
  private readonly probe: DeviceProbe;
  private readonly recheckMs: number;
  private inner: Transport | null = null;

  get latency(): SerialLatency | undefined {
    return this.inner?.latency;
  }
  private innerSubs: Subscription[] = [];
  private timer: NodeJS.Timeout | undefined;
  private started = false;
  private stopped = false;
  private lastDenial: string | null = null;
  private retryMs: number;

  constructor(
    private readonly dev: DeviceConfig,
    private readonly o: GuardOptions,
  ) {
    this.probe = o.probe ?? systemProbe;
    this.recheckMs = Math.max(10, o.recheckMs ?? 2000);
    this.retryMs = Math.min(200, this.recheckMs);
    const t = dev.transport;
    this.description = `${t.type === 'serial' ? `serial ${t.path}` : t.type === 'hid' ? `hid ${hex4(t.vendorId)}:${hex4(t.productId)}` : 'simulator'} (allow-listed)`;
    this.data$ = this.dataSubject.asObservable();
    this.status$ = this.statusSubject.asObservable();
  }

  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.setStatus({ state: 'disconnected', detail: 'opening' });
    void this.check();
  }

  write(bytes: Buffer | string): void {
    this.inner?.write(bytes);
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.dropInner();
    this.statusSubject.next({ state: 'disconnected', detail: 'stopped' });
    this.dataSubject.complete();
    this.statusSubject.complete();
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.check();
    }, ms);
  }

  private async check(): Promise<void> {
    if (this.stopped || this.inner) return;
    let d: AllowDecision;
    try {
      d = await decideDevice(this.dev, this.o.allowed, this.probe);
    } catch (e) {
      d = { kind: 'absent', detail: `cannot identify the device: ${(e as Error).message}` };
    }
    if (this.stopped || this.inner) return;
    if (d.kind === 'allowed') {
      this.lastDenial = null;
      this.open(d.device);
      return;
    }
    this.setStatus({ state: 'disconnected', detail: d.detail });
    if (d.kind === 'denied') {
      if (d.detail !== this.lastDenial) {
        this.lastDenial = d.detail;
        this.o.onDenied({ deviceId: this.dev.id, detail: d.detail, identity: d.identity });
      }
    } else {
      this.lastDenial = null; // the same unlisted device plugged in again is reported again
    }
    this.schedule(this.recheckMs);
  }

  private open(dev: DeviceConfig): void {
    let t: Transport;
    try {
      t = this.o.create(dev);
    } catch (e) {
      this.setStatus({ state: 'disconnected', detail: (e as Error).message });
      this.schedule(this.recheckMs);
      return;
    }
    this.inner = t;
    this.innerSubs.push(
      t.data$.subscribe((b) => {
        if (this.inner === t) this.dataSubject.next(b);
      }),
    );
    this.innerSubs.push(
      t.status$.subscribe((s) => {
        if (this.inner !== t || this.stopped) return;
        if (s.state === 'connected') {
          this.retryMs = Math.min(200, this.recheckMs);
          this.setStatus(s);
          return;
        }
        if (s.detail !== undefined && STARTING.has(s.detail)) return;
        // lost (or could not open) the device: check again before anything is reopened
        this.setStatus(s);
        void this.dropInner();
        const delay = this.retryMs;
        this.retryMs = Math.min(this.retryMs * 2, this.recheckMs);
        this.schedule(delay);
      }),
    );
    t.start();
  }

  private async dropInner(): Promise<void> {
    const t = this.inner;
    this.inner = null;
    for (const s of this.innerSubs) s.unsubscribe();
    this.innerSubs = [];
    if (t) await t.stop().catch(() => {});
  }

  private setStatus(next: TransportStatus): void {
    if (this.stopped) return;
    const cur = this.statusSubject.value;
    if (cur.state === next.state && cur.detail === next.detail) return;
    this.statusSubject.next(next);
  }
}

/**
 * The transport for `dev`: the real one when there is no allow-list or the device is a simulator,
 * else a GuardedTransport around it.
 */
export function guardTransport(dev: DeviceConfig, allowed: readonly AllowedDeviceConfig[] | undefined, o: Omit<GuardOptions, 'allowed'>): Transport {
  if (!allowed || dev.transport.type === 'simulator') return o.create(dev);
  // created once now so that a device the factory cannot build fails at start-up, as without the list
  void o.create(dev).stop();
  return new GuardedTransport(dev, { ...o, allowed });
}
