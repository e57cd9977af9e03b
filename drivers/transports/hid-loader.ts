/**
 * Lazy access to node-hid (a native module that needs hidraw / libusb at run time). It is only
 * imported when a HID device is configured or listed, so a gateway without HID devices never
 * loads it, and a machine without the native libraries still runs every other device.
 */

/** The part of node-hid 3 the gateway uses (`HIDAsync`, `devicesAsync`, `setDriverType`). */
export interface HidDeviceInfo {
  vendorId: number;
  productId: number;
  path?: string;
  serialNumber?: string;
  manufacturer?: string;
  product?: string;
  release?: number;
  interface?: number;
  usagePage?: number;
  usage?: number;
}

export interface HidHandle {
  on(event: 'data', cb: (data: Buffer) => void): unknown;
  on(event: 'error', cb: (err: unknown) => void): unknown;
  removeAllListeners(event?: string): unknown;
  close(): Promise<void>;
  write?(values: number[] | Buffer): Promise<number>;
}

export interface HidModule {
  devicesAsync(vid?: number, pid?: number): Promise<HidDeviceInfo[]>;
  openPath(path: string): Promise<HidHandle>;
}

export type HidLoader = () => Promise<HidModule>;

let cached: Promise<HidModule> | null = null;

/**
 * Loads node-hid once (dynamic import), selecting the `hidraw` backend on Linux (it reads the
 * kernel's hidraw nodes: no libusb needed and no kernel driver detached). The native binding itself
 * is only loaded by node-hid on first use, so `devicesAsync` is called once here to surface a
 * missing library as a load error. Rejects with a readable message; retried on the next call.
 */
export function loadNodeHid(): Promise<HidModule> {
  cached ??= (async (): Promise<HidModule> => {
    let mod: typeof import('node-hid') & { default?: typeof import('node-hid') };
    try {
      mod = await import('node-hid');
    } catch (e) {
      throw new Error(`node-hid is not installed or cannot be imported: ${(e as Error).message}`);
    }
    const hid = mod.default ?? mod;
    if (process.platform === 'linux' && typeof hid.setDriverType === 'function') hid.setDriverType('hidraw');
    try {
      await hid.devicesAsync();
    } catch (e) {
      throw new Error(`node-hid cannot load its native library: ${(e as Error).message}`);
    }
    return {
      devicesAsync: (vid?: number, pid?: number) => (vid === undefined || pid === undefined ? hid.devicesAsync() : hid.devicesAsync(vid, pid)),
      openPath: (path: string) => hid.HIDAsync.open(path),
    };
  })();
  const p = cached;
  p.catch(() => {
    if (cached === p) cached = null;
  });
  return p;
}

/** `0x0c2e` */
export function hex4(n: number): string {
  return `0x${n.toString(16).padStart(4, '0')}`;
}
