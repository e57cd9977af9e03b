/**
 * Watches one table's devices from the outside (the machine stays pure): every device state
 * change is logged (at info while a device is connecting, at WARN when it fails or is lost), and a device that has not connected `missingAfterMs` after the start raises
 * a `device-missing` alert (docs/FAULTS.md) — a serial port that does not exist, a USB cable in
 * the wrong PC — which would otherwise stay silent in the terminal.
 */
import type { Subscription } from 'rxjs';
import type { DeviceConfig } from '../core/vocabulary/config-schema.js';
import type { Logger } from './log.js';
import type { TableInput } from '../core/table/types.js';
import type { PublishedMessage } from './table-runtime.js';
import { wallClock } from './clock.js';

export interface DeviceWatchTarget {
  readonly published$: import('rxjs').Observable<PublishedMessage>;
  apply(input: TableInput): void;
}

export interface DeviceWatch {
  /** device ids that have not connected yet */
  readonly neverConnected: ReadonlySet<string>;
  stop(): void;
}

/** the details of a transport's first state, before it has tried to open (drivers/transports/) */
const OPENING: ReadonlySet<string> = new Set(['opening', 'searching']);

function where(d: DeviceConfig): string {
  const t = d.transport;
  if (t.type === 'serial') return ` on ${t.path}`;
  if (t.type === 'hid') return ` (HID ${t.vendorId.toString(16).padStart(4, '0')}:${t.productId.toString(16).padStart(4, '0')})`;
  return '';
}

export function watchDevices(target: DeviceWatchTarget, devices: readonly DeviceConfig[], log: Logger, clock: () => number = wallClock): DeviceWatch {
  const last = new Map<string, string>();
  const never = new Set(devices.map((d) => d.id));
  const timers: NodeJS.Timeout[] = [];
  const sub: Subscription = target.published$.subscribe((m) => {
    if (m.payload.type !== 'device') return;
    const id = String(m.payload.deviceId);
    const state = String(m.payload.state);
    const detail = m.payload.detail ? ` (${String(m.payload.detail)})` : '';
    const key = state + detail;
    const before = last.get(id);
    if (before === key) return;
    last.set(id, key);
    if (state === 'connected') never.delete(id);
    const text = `device ${id}: ${before ? `${before.split(' (')[0]} -> ` : ''}${state}${detail}`;
    // a transport that is only beginning to open (serial `opening`, HID `searching`: every device
    // at every start) is no fault: info; a failed open or a lost device is a WARN
    const opening = state === 'disconnected' && OPENING.has(String(m.payload.detail ?? ''));
    if (state === 'connected' || opening) log.info(text, { deviceId: id });
    else log.warn(text, { deviceId: id });
  });
  for (const d of devices) {
    if (!d.missingAfterMs) continue;
    const t = setTimeout(() => {
      if (!never.has(d.id)) return;
      const s = Math.round(d.missingAfterMs / 100) / 10;
      target.apply({
        type: 'gateway-alert',
        at: clock(),
        kind: 'device-missing',
        detail: `device ${d.id} (${d.kind}${where(d)}) has not connected ${s} s after the start: is it plugged in and is the path right? (\`tablegw devices\` lists the ports)`,
        data: { deviceId: d.id, afterMs: d.missingAfterMs },
      });
    }, d.missingAfterMs);
    t.unref();
    timers.push(t);
  }
  return {
    neverConnected: never,
    stop() {
      for (const t of timers) clearTimeout(t);
      sub.unsubscribe();
    },
  };
}
