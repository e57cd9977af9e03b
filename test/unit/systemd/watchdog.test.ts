import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/runtime/log.js';
import { startSystemdWatchdog } from '../../../src/adapters/systemd/watchdog.js';

describe('systemd watchdog', () => {
  it('does nothing outside systemd', () => {
    expect(startSystemdWatchdog(silentLogger, {})).toBeNull();
    expect(startSystemdWatchdog(silentLogger, { NOTIFY_SOCKET: '/run/systemd/notify' })).toBeNull();
    expect(startSystemdWatchdog(silentLogger, { NOTIFY_SOCKET: '/x', WATCHDOG_USEC: '30000000', WATCHDOG_PID: '1' })).toBeNull();
  });

  it('pings WATCHDOG=1 through systemd-notify every third of WatchdogSec', () => {
    const calls: string[][] = [];
    const run = ((cmd: string, args: string[]) => {
      calls.push([cmd, ...args]);
    }) as never;
    const w = startSystemdWatchdog(silentLogger, { NOTIFY_SOCKET: '/run/systemd/notify', WATCHDOG_USEC: '30000000', WATCHDOG_PID: String(process.pid) }, run)!;
    expect(w.intervalMs).toBe(10_000);
    expect(calls).toEqual([['systemd-notify', 'WATCHDOG=1']]);
    w.stop();
  });
});
