/**
 * The gateway's clocks (docs/DURABILITY.md "Retention and the clock").
 *
 * - `wallClock()`: the wall clock every input is stamped with (`at`, and so every message's `ts`).
 *   It is `Date.now()`, plus `TABLEGW_CLOCK_OFFSET_MS` when that is set: a TEST AND OPERATIONS
 *   FACILITY that runs the gateway as if the machine's clock were that many ms ahead (negative:
 *   behind), for rehearsing a wrong clock without changing the machine's (the chaos section
 *   `clock-ahead`; libfaketime does the same from outside where it is installed). Never set it on a
 *   floor gateway.
 * - `monotonicMs()`: the monotonic clock (never steps), for durations.
 * - `ClockWatch`: compares the two every second; a step of the wall clock of more than 1 s
 *   (an NTP step, `date -s`, a resumed VM) is reported, so that it can be journaled as a
 *   `clock-step` alert and the journal's prune can refuse to run across it.
 */

/** the environment variable of the test/ops clock offset (ms, an integer; may be negative) */
export const CLOCK_OFFSET_ENV = 'TABLEGW_CLOCK_OFFSET_MS';

/** the offset `TABLEGW_CLOCK_OFFSET_MS` asks for: 0 when unset; an error naming the variable when it is not an integer */
export function clockOffsetFrom(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[CLOCK_OFFSET_ENV];
  if (raw === undefined || raw.trim() === '') return 0;
  if (!/^[+-]?\d{1,15}$/.test(raw.trim())) throw new Error(`${CLOCK_OFFSET_ENV}: "${raw.slice(0, 40)}" is not a whole number of milliseconds`);
  return Number(raw.trim());
}

let offsetMs = 0;
try {
  offsetMs = clockOffsetFrom();
} catch {
  // reported at start by checkClockOffset(); the clock runs without an offset meanwhile
  offsetMs = 0;
}

/** the offset in force (0 unless TABLEGW_CLOCK_OFFSET_MS is set) */
export function clockOffsetMs(): number {
  return offsetMs;
}

/** throws when TABLEGW_CLOCK_OFFSET_MS is set but not an integer (the gateway refuses to start) */
export function checkClockOffset(env: NodeJS.ProcessEnv = process.env): number {
  return clockOffsetFrom(env);
}

/** the wall clock the gateway stamps inputs with: Date.now() plus the test/ops offset */
export function wallClock(): number {
  return offsetMs === 0 ? Date.now() : Date.now() + offsetMs;
}

/** the monotonic clock, ms */
export function monotonicMs(): number {
  return performance.now();
}

/** a step of the wall clock against the monotonic clock */
export interface ClockStep {
  /** how far the wall clock moved beyond the time that passed (negative: it went back) */
  stepMs: number;
  /** the wall clock as it would have been without the step, and as it is */
  wallBefore: number;
  wallAfter: number;
}

export interface ClockWatchOptions {
  wall?: () => number;
  mono?: () => number;
  /** how often the clocks are compared [1000] */
  intervalMs?: number;
  /** a difference above this is a step [1000] */
  thresholdMs?: number;
  onStep(step: ClockStep): void;
}

/** watches the wall clock against the monotonic clock */
export class ClockWatch {
  private timer: NodeJS.Timeout | null = null;
  private lastWall: number;
  private lastMono: number;
  private count = 0;
  private readonly wall: () => number;
  private readonly mono: () => number;

  constructor(private readonly o: ClockWatchOptions) {
    this.wall = o.wall ?? wallClock;
    this.mono = o.mono ?? monotonicMs;
    this.lastWall = this.wall();
    this.lastMono = this.mono();
  }

  /** steps seen so far (a prune compares this with the count at the last prune) */
  get steps(): number {
    return this.count;
  }

  start(): void {
    this.timer ??= setInterval(() => this.check(), this.o.intervalMs ?? 1_000);
    this.timer.unref?.();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** compares the clocks now (also called by the interval) */
  check(): ClockStep | null {
    const wall = this.wall();
    const mono = this.mono();
    const expected = this.lastWall + (mono - this.lastMono);
    const stepMs = Math.round(wall - expected);
    this.lastWall = wall;
    this.lastMono = mono;
    if (Math.abs(stepMs) <= (this.o.thresholdMs ?? 1_000)) return null;
    const step = { stepMs, wallBefore: Math.round(expected), wallAfter: wall };
    this.count++;
    this.o.onStep(step);
    return step;
  }
}
