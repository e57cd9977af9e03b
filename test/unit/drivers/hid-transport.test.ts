import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import type { HidDeviceInfo, HidHandle, HidModule } from '../../../drivers/transports/hid-loader.js';
import { HidTransport } from '../../../drivers/transports/hid-transport.js';
import type { TransportStatus } from '../../../drivers/transports/transport.js';

/** a fake node-hid: devices can be plugged and unplugged, handles emit reports */
class FakeHid implements HidModule {
  attached: HidDeviceInfo[] = [];
  handles: Array<EventEmitter & HidHandle & { closed: boolean; path: string }> = [];
  listCalls = 0;
  failOpen: string | null = null;

  async devicesAsync(vid?: number, pid?: number): Promise<HidDeviceInfo[]> {
    this.listCalls++;
    return this.attached.filter((d) => vid === undefined || (d.vendorId === vid && d.productId === pid));
  }

  async openPath(path: string): Promise<HidHandle> {
    if (this.failOpen) throw new Error(this.failOpen);
    const h = Object.assign(new EventEmitter(), {
      closed: false,
      path,
      close: async () => {
        h.closed = true;
      },
    });
    this.handles.push(h);
    return h;
  }

  plug(serialNumber = 'SN1', path = '/dev/hidraw3'): void {
    this.attached.push({ vendorId: 0x0c2e, productId: 0x0b61, path, serialNumber });
  }

  unplug(): void {
    this.attached = [];
  }
}

const waitFor = async (cond: () => boolean, ms = 2000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met');
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('HidTransport', () => {
  let t: HidTransport | undefined;
  afterEach(async () => {
    await t?.stop();
    t = undefined;
  });

  it('node-hid that cannot load: disconnected with the reason, nothing thrown, retried', async () => {
    let attempts = 0;
    t = new HidTransport({
      vendorId: 1,
      productId: 2,
      pollMs: 20,
      loader: async () => {
        attempts++;
        throw new Error('node-hid cannot load its native library: libusb-1.0.so.0: cannot open shared object file');
      },
    });
    const statuses: TransportStatus[] = [];
    t.status$.subscribe((s) => statuses.push(s));
    t.start();
    await waitFor(() => attempts >= 3);
    expect(statuses.map((s) => s.state)).not.toContain('connected');
    expect(statuses.at(-1)!.detail).toMatch(/^HID unavailable: node-hid cannot load its native library: libusb/);
    // the same reason is reported once, not at every retry
    expect(statuses.filter((s) => s.detail?.startsWith('HID unavailable')).length).toBe(1);
  });

  it('polls while absent, attaches when plugged, delivers each report as one chunk, reattaches after unplug/replug', async () => {
    const hid = new FakeHid();
    t = new HidTransport({ vendorId: 0x0c2e, productId: 0x0b61, serialNumber: 'SN1', pollMs: 20, loader: async () => hid });
    const statuses: TransportStatus[] = [];
    const chunks: Buffer[] = [];
    t.status$.subscribe((s) => statuses.push(s));
    t.data$.subscribe((b) => chunks.push(b));
    t.start();
    await waitFor(() => hid.listCalls >= 3);
    expect(t.isConnected).toBe(false);
    expect(statuses.at(-1)).toEqual({ state: 'disconnected', detail: 'no HID device 0x0c2e:0x0b61 serial SN1 attached' });

    hid.plug('OTHER', '/dev/hidraw9'); // same vid:pid, another serial number: not ours
    hid.plug('SN1', '/dev/hidraw3');
    await waitFor(() => t!.isConnected);
    expect(statuses.at(-1)).toEqual({ state: 'connected', detail: '/dev/hidraw3' });
    hid.handles[0].emit('data', Buffer.from([2, 0, 4, 0, 0, 0, 0, 0]));
    hid.handles[0].emit('data', Buffer.from([0, 0, 0, 0, 0, 0, 0, 0]));
    expect(chunks.map((c) => c.length)).toEqual([8, 8]);
    expect(chunks[0][2]).toBe(4);

    // unplugged: the read fails
    hid.unplug();
    hid.handles[0].emit('error', new Error('could not read from HID device'));
    await waitFor(() => !t!.isConnected);
    expect(statuses.at(-1)).toEqual({ state: 'disconnected', detail: 'read failed: could not read from HID device' });
    expect(hid.handles[0].closed).toBe(true);

    // plugged back in: found by the poll, reopened
    hid.plug('SN1', '/dev/hidraw4');
    await waitFor(() => t!.isConnected);
    expect(statuses.at(-1)).toEqual({ state: 'connected', detail: '/dev/hidraw4' });
    expect(hid.handles).toHaveLength(2);
  });

  it('an unplug that gives no read error is noticed by the presence poll', async () => {
    const hid = new FakeHid();
    hid.plug();
    t = new HidTransport({ vendorId: 0x0c2e, productId: 0x0b61, pollMs: 20, loader: async () => hid });
    t.start();
    await waitFor(() => t!.isConnected);
    hid.unplug();
    await waitFor(() => !t!.isConnected);
    hid.plug();
    await waitFor(() => t!.isConnected);
  });

  it('a device that cannot be opened (permissions) reports why and keeps polling', async () => {
    const hid = new FakeHid();
    hid.plug();
    hid.failOpen = 'cannot open device with path /dev/hidraw3';
    t = new HidTransport({ vendorId: 0x0c2e, productId: 0x0b61, pollMs: 20, loader: async () => hid });
    const statuses: TransportStatus[] = [];
    t.status$.subscribe((s) => statuses.push(s));
    t.start();
    await waitFor(() => statuses.some((s) => s.detail?.startsWith('cannot open')));
    hid.failOpen = null;
    await waitFor(() => t!.isConnected);
  });

  it('stop() closes the device and completes; writes are dropped', async () => {
    const hid = new FakeHid();
    hid.plug();
    t = new HidTransport({ vendorId: 0x0c2e, productId: 0x0b61, pollMs: 20, loader: async () => hid });
    t.start();
    await waitFor(() => t!.isConnected);
    expect(() => t!.write('x')).not.toThrow();
    await t.stop();
    expect(hid.handles[0].closed).toBe(true);
    const calls = hid.listCalls;
    await new Promise((r) => setTimeout(r, 60));
    expect(hid.listCalls).toBe(calls);
  });

  it('with the real node-hid on this machine it never throws: connected or disconnected with a reason', async () => {
    t = new HidTransport({ vendorId: 0xfffe, productId: 0xfffd, pollMs: 50 });
    const statuses: TransportStatus[] = [];
    t.status$.subscribe((s) => statuses.push(s));
    t.start();
    await waitFor(() => statuses.some((s) => s.detail !== 'not started' && s.detail !== 'searching'), 5000);
    const last = statuses.at(-1)!;
    expect(last.state).toBe('disconnected');
    expect(last.detail).toMatch(/HID unavailable|no HID device 0xfffe:0xfffd attached/);
  });
});
