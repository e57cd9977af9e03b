/**
 * Whether the system clock is synchronised (docs/OPERATIONS.md "Clock synchronisation"): read
 * from what the machine offers, first answer wins:
 *  - `timedatectl show -p NTPSynchronized --value` (systemd: `yes` / `no`, whichever NTP client);
 *  - `/run/systemd/timesync/synchronized` (systemd-timesyncd creates it once it has synchronised);
 *  - `chronyc tracking` (`Leap status : Normal` is synchronised, `Not synchronised` is not).
 * Where none of them answers the state is UNKNOWN (`synchronized: null`), never guessed.
 * The readers are injected, so the watch is tested without the machine's.
 *
 * `ClockSyncWatch` polls the state and raises `clock-unsynchronised` (once per episode) when the
 * clock has not been seen synchronised for 24 h (counted on the monotonic clock, from the last
 * time it was, or from the start when it never was); unknown never raises it.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';

export interface ClockSyncState {
  /** true / false; null: nothing on this machine says */
  synchronized: boolean | null;
  /** where it was read: timedatectl, timesyncd, chronyc, or none */
  source: string;
}

/** a reader: the state, or null when its source is not there or does not answer */
export type ClockSyncReader = () => Promise<ClockSyncState | null>;

function run(cmd: string, args: string[]): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(cmd, args, { timeout: 3_000, encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } }, (err, stdout) => resolve(err ? null : stdout));
  });
}

export const timedatectlReader: ClockSyncReader = async () => {
  const out = await run('timedatectl', ['show', '-p', 'NTPSynchronized', '--value']);
  const v = out?.trim();
  return v === 'yes' ? { synchronized: true, source: 'timedatectl' } : v === 'no' ? { synchronized: false, source: 'timedatectl' } : null;
};

/** timesyncd's flag file: its presence says synchronised; its absence says nothing unless timesyncd runs */
export function timesyncdReader(flag = '/run/systemd/timesync/synchronized', runDir = '/run/systemd/timesync'): ClockSyncReader {
  return async () => {
    if (existsSync(flag)) return { synchronized: true, source: 'timesyncd' };
    return existsSync(runDir) ? { synchronized: false, source: 'timesyncd' } : null;
  };
}

/** the state in `chronyc tracking`'s output, or null */
export function parseChronycTracking(text: string): boolean | null {
  const m = /^Leap status\s*:\s*(.+)$/m.exec(text);
  if (!m) return null;
  return m[1].trim() !== 'Not synchronised';
}

export const chronycReader: ClockSyncReader = async () => {
  const out = await run('chronyc', ['tracking']);
  const v = out === null ? null : parseChronycTracking(out);
  return v === null ? null : { synchronized: v, source: 'chronyc' };
};

export const SYSTEM_CLOCK_SYNC_READERS: readonly ClockSyncReader[] = [timedatectlReader, timesyncdReader(), chronycReader];

/** the first reader's answer; unknown when none answers (a reader that throws is skipped) */
export async function readClockSync(readers: readonly ClockSyncReader[] = SYSTEM_CLOCK_SYNC_READERS): Promise<ClockSyncState> {
  for (const r of readers) {
    try {
      const s = await r();
      if (s) return s;
    } catch {
      // the next one
    }
  }
  return { synchronized: null, source: 'none' };
}

/** `tablegw_clock_synchronized`: 1 synchronised, 0 not, -1 unknown */
export function clockSyncGauge(s: ClockSyncState): 1 | 0 | -1 {
  return s.synchronized === null ? -1 : s.synchronized ? 1 : 0;
}

export const UNSYNCHRONISED_ALERT_AFTER_MS = 24 * 3_600_000;

export interface ClockSyncWatchOptions {
  readers?: readonly ClockSyncReader[];
  /** the monotonic clock (ms) */
  now?: () => number;
  /** how often the state is read [300 s] */
  everyMs?: number;
  alertAfterMs?: number;
  /** not synchronised for `alertAfterMs`: once per episode */
  onUnsynchronised(s: { source: string; sinceMs: number; lastSynchronizedMs: number | null }): void;
}

export class ClockSyncWatch {
  state: ClockSyncState = { synchronized: null, source: 'none' };
  /** when (monotonic) it was last seen synchronised; null: never since the start */
  lastSynchronizedAt: number | null = null;
  private readonly startedAt: number;
  private alerted = false;
  private timer: NodeJS.Timeout | null = null;
  private readonly now: () => number;

  constructor(private readonly o: ClockSyncWatchOptions) {
    this.now = o.now ?? (() => performance.now());
    this.startedAt = this.now();
  }

  /** reads the state once and raises the alert when due */
  async check(): Promise<ClockSyncState> {
    const s = await readClockSync(this.o.readers);
    this.state = s;
    const now = this.now();
    if (s.synchronized === true) {
      this.lastSynchronizedAt = now;
      this.alerted = false;
    } else if (s.synchronized === false && !this.alerted) {
      const since = this.lastSynchronizedAt ?? this.startedAt;
      if (now - since >= (this.o.alertAfterMs ?? UNSYNCHRONISED_ALERT_AFTER_MS)) {
        this.alerted = true;
        this.o.onUnsynchronised({ source: s.source, sinceMs: now - since, lastSynchronizedMs: this.lastSynchronizedAt });
      }
    }
    return s;
  }

  start(): void {
    void this.check();
    this.timer = setInterval(() => void this.check(), this.o.everyMs ?? 300_000);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
