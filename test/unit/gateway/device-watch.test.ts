import { Subject } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deviceSchema } from '../../../src/core/vocabulary/config-schema.js';
import { watchDevices } from '../../../src/runtime/device-watch.js';
import { ActivitySummary } from '../../../src/runtime/summary.js';
import type { PublishedMessage } from '../../../src/runtime/table-runtime.js';
import type { Envelope, TableInput } from '../../../src/core/table/types.js';

const env = (type: string, body: Record<string, unknown>): Envelope => ({ v: 1, type, table: 't-1', game: 'baccarat', seq: 1, ts: 'x', ...body }) as Envelope;
const dev = (state: string, detail?: string): PublishedMessage => ({
  topic: 'devices/shoe-1',
  retain: true,
  payload: env('device', { deviceId: 'shoe-1', state, ...(detail ? { detail } : {}) }),
});

function logger() {
  const lines: Array<[string, string]> = [];
  const l = {
    debug: (m: string) => lines.push(['debug', m]),
    info: (m: string) => lines.push(['info', m]),
    warn: (m: string) => lines.push(['warn', m]),
    error: (m: string) => lines.push(['error', m]),
    child: () => l,
  };
  return { l, lines };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('watchDevices', () => {
  const shoe = deviceSchema.parse({ id: 'shoe-1', kind: 'card-shoe', transport: { type: 'serial', path: '/dev/ttyUSB9' } });

  it('logs every device state change once', () => {
    const published$ = new Subject<PublishedMessage>();
    const { l, lines } = logger();
    const w = watchDevices({ published$, apply: () => {} }, [{ ...shoe, missingAfterMs: 0 }], l);
    published$.next(dev('disconnected', 'cannot open /dev/ttyUSB9'));
    published$.next(dev('disconnected', 'cannot open /dev/ttyUSB9'));
    published$.next(dev('connected'));
    published$.next(dev('stale'));
    expect(lines).toEqual([
      ['warn', 'device shoe-1: disconnected (cannot open /dev/ttyUSB9)'],
      ['info', 'device shoe-1: disconnected -> connected'],
      ['warn', 'device shoe-1: connected -> stale'],
    ]);
    w.stop();
  });

  it('a device that has not opened yet is info, not WARN; a failed open or a loss after it is', () => {
    const published$ = new Subject<PublishedMessage>();
    const { l, lines } = logger();
    const hid = deviceSchema.parse({ id: 'dice-1', kind: 'dice-sensor', transport: { type: 'hid', vendorId: 1, productId: 2 } });
    const w = watchDevices(
      { published$, apply: () => {} },
      [
        { ...shoe, missingAfterMs: 0 },
        { ...hid, missingAfterMs: 0 },
      ],
      l,
    );
    // a healthy start, as after a restart whose journal said "connected"
    published$.next(dev('connected'));
    published$.next(dev('disconnected', 'opening'));
    published$.next(dev('connected'));
    published$.next({ topic: 'devices/dice-1', retain: true, payload: env('device', { deviceId: 'dice-1', state: 'disconnected', detail: 'searching' }) });
    published$.next(dev('disconnected', 'port closed'));
    published$.next(dev('disconnected', 'opening'));
    expect(lines).toEqual([
      ['info', 'device shoe-1: connected'],
      ['info', 'device shoe-1: connected -> disconnected (opening)'],
      ['info', 'device shoe-1: disconnected -> connected'],
      ['info', 'device dice-1: disconnected (searching)'],
      ['warn', 'device shoe-1: connected -> disconnected (port closed)'],
      ['info', 'device shoe-1: disconnected -> disconnected (opening)'],
    ]);
    expect(lines.filter(([level]) => level === 'warn')).toHaveLength(1);
    w.stop();
  });

  it('raises device-missing for a device that never connected, naming its port', () => {
    vi.useFakeTimers();
    const inputs: TableInput[] = [];
    const published$ = new Subject<PublishedMessage>();
    const w = watchDevices({ published$, apply: (i) => inputs.push(i) }, [shoe], logger().l, () => 42);
    expect(shoe.missingAfterMs).toBe(10_000);
    published$.next(dev('disconnected', 'no such port'));
    vi.advanceTimersByTime(10_000);
    expect(inputs).toHaveLength(1);
    expect(inputs[0]).toMatchObject({ type: 'gateway-alert', at: 42, kind: 'device-missing', data: { deviceId: 'shoe-1', afterMs: 10_000 } });
    expect((inputs[0] as { detail: string }).detail).toContain('/dev/ttyUSB9');
    w.stop();
  });

  it('raises nothing for a device that connected, or after stop()', () => {
    vi.useFakeTimers();
    const inputs: TableInput[] = [];
    const published$ = new Subject<PublishedMessage>();
    const w = watchDevices({ published$, apply: (i) => inputs.push(i) }, [shoe], logger().l);
    published$.next(dev('connected'));
    published$.next(dev('disconnected'));
    vi.advanceTimersByTime(20_000);
    expect(inputs).toEqual([]);
    const w2 = watchDevices({ published$: new Subject(), apply: (i) => inputs.push(i) }, [shoe], logger().l);
    w2.stop();
    vi.advanceTimersByTime(20_000);
    expect(inputs).toEqual([]);
    w.stop();
  });
});

describe('ActivitySummary', () => {
  it('counts rounds and faults per table, then starts over', () => {
    const s = new ActivitySummary(['a', 'b']);
    s.count('a', env('result', {}));
    s.count('a', env('result', {}));
    s.count('a', env('alert', { kind: 'misread', severity: 'info' }));
    s.count('b', env('alert', { kind: 'device-stale', severity: 'warning' }));
    s.count('b', env('alert', { kind: 'shoe-void', severity: 'critical' }));
    s.count('b', env('alert', { kind: 'device-stale', severity: 'warning' }));
    s.count('c', env('result', {}));
    expect(s.take(60_000)).toBe('summary, last 1 min: 2 rounds, 3 faults | a 2r | b 0r 3f (2 device-stale, 1 shoe-void)');
    expect(s.take(60_000)).toBe('summary, last 1 min: 0 rounds, 0 faults | a 0r | b 0r');
    expect(s.take(5_000)).toMatch(/^summary, last 5 s:/);
  });
});
