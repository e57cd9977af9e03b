/**
 * systemd watchdog without native code: when systemd runs the gateway with `WatchdogSec=`
 * (deploy/tablegw.service), it sets NOTIFY_SOCKET and WATCHDOG_USEC; we then run
 * `systemd-notify WATCHDOG=1` every third of that period from a timer on the event loop. A
 * blocked or dead event loop stops the pings and systemd restarts the service.
 *
 * Node cannot send to a unix datagram socket by itself, so the ping comes from a short-lived
 * child process: the unit needs `NotifyAccess=all`. A ping systemd could not attribute to the
 * unit (the child already gone) is tolerated: three pings fall in every watchdog period.
 */
import { execFile } from 'node:child_process';
import type { Logger } from '../../runtime/log.js';

export interface Watchdog {
  intervalMs: number;
  stop(): void;
}

export function startSystemdWatchdog(log: Logger, env: NodeJS.ProcessEnv = process.env, run: typeof execFile = execFile): Watchdog | null {
  const usec = Number(env.WATCHDOG_USEC);
  if (!env.NOTIFY_SOCKET || !Number.isFinite(usec) || usec <= 0) return null;
  if (env.WATCHDOG_PID && Number(env.WATCHDOG_PID) !== process.pid) return null;
  const intervalMs = Math.max(500, Math.floor(usec / 1000 / 3));
  let warned = false;
  const ping = () => {
    run('systemd-notify', ['WATCHDOG=1'], { timeout: intervalMs }, (err) => {
      if (err && !warned) {
        warned = true;
        log.warn(`systemd watchdog ping failed (${err.message}); is systemd-notify installed and NotifyAccess=all set?`);
      }
    });
  };
  ping();
  const timer = setInterval(ping, intervalMs);
  timer.unref();
  log.info(`systemd watchdog: pinging every ${intervalMs} ms`);
  return { intervalMs, stop: () => clearInterval(timer) };
}
