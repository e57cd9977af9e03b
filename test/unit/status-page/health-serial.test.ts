/** Health and the status feed report each serial port's low-latency mode (device-protocols.md §3.3) from its driver. */
import { NEVER, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { HealthReporter } from '../../../src/adapters/http/health.js';
import type { TableView } from '../../../src/adapters/http/table-view.js';

describe('low-latency mode per serial port in health', () => {
  it("copies the driver's latency state into the device entry; a non-serial device has none", () => {
    const serial = { lowLatency: true, latencyTimerMs: 1 };
    const view = {
      id: 'bac-01',
      game: 'baccarat',
      runtime: {
        published$: new Subject(),
        snapshot: { devices: {} },
        drivers: [
          { deviceId: 'shoe-1', framesTotal: 5, rejectedTotal: 1, duplicates: 0, latency: serial },
          { deviceId: 'scanner', framesTotal: 2, rejectedTotal: 0, duplicates: 0 },
        ],
        apply: () => {},
      },
      link: { connected: true, connected$: NEVER },
    } as unknown as TableView;
    const r = new HealthReporter(view, { intervalMs: 0, clock: () => 0 }).report();
    expect(r.devices['shoe-1']).toEqual({ frames: 5, rejected: 1, duplicates: 0, serial });
    expect(r.devices.scanner).toEqual({ frames: 2, rejected: 0, duplicates: 0 });
  });
});
