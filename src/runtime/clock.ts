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

/** a step above this (either way) is reported */
export const CLOCK_STEP_THRESHOLD_MS = 1_000;

/** compares each reading of a wall clock with the monotonic time passed since the last one */
class StepDetector {
  private lastWall: number;
  private lastMono: number;
  constructor(
    private readonly wall: () => number,
    private readonly mono: () => number,
    private readonly thresholdMs: number,
  ) {
    this.lastWall = wall();
    this.lastMono = mono();
  }

  /** reads the wall clock; `onStep` first when it stepped since the last reading */
  read(onStep: (s: ClockStep) => void): number {
    const wall = this.wall();
    const mono = this.mono();
    const expected = this.lastWall + (mono - this.lastMono);
    this.lastWall = wall;
    this.lastMono = mono;
    const stepMs = Math.round(wall - expected);
    if (stepMs > this.thresholdMs || stepMs < -this.thresholdMs) onStep({ stepMs, wallBefore: Math.round(expected), wallAfter: wall });
    return wall;
  }
}

const stepListeners = new Set<(s: ClockStep) => void>();
const dispatch = (s: ClockStep): void => {
  for (const l of stepListeners) l(s);
};
const processClock = new StepDetector(() => Date.now() + offsetMs, monotonicMs, CLOCK_STEP_THRESHOLD_MS);

/**
 * the wall clock the gateway stamps inputs with: Date.now() plus the test/ops offset. Every reading
 * is compared with the monotonic clock: a step is reported to the ClockWatches BEFORE the reading
 * is returned, so the `clock-step` alert is journaled before the input stamped with the stepped clock.
 */
export function wallClock(): number {
  return processClock.read(dispatch);
}

export interface ClockWatchOptions {
  /** a wall clock and a monotonic clock of its own (tests); default: wallClock()'s, shared by the process */
  wall?: () => number;
  mono?: () => number;
  /** how often the clock is read when nothing else reads it [1000] */
  intervalMs?: number;
  onStep(step: ClockStep): void;
}

/**
 * Watches the wall clock against the monotonic clock: every step of more than 1 s is reported,
 * at the first reading after it (any wallClock() of the process, or this watch's own every second).
 */
export class ClockWatch {
  private timer: NodeJS.Timeout | null = null;
  private count = 0;
  private readonly own: StepDetector | null;
  private readonly listener = (s: ClockStep): void => {
    this.count++;
    this.o.onStep(s);
  };

  constructor(private readonly o: ClockWatchOptions) {
    this.own = o.wall || o.mono ? new StepDetector(o.wall ?? wallClock, o.mono ?? monotonicMs, CLOCK_STEP_THRESHOLD_MS) : null;
    if (!this.own) stepListeners.add(this.listener);
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
    stepListeners.delete(this.listener);
  }

  /** reads the clock now (also every interval); the step seen, if any */
  check(): ClockStep | null {
    let seen: ClockStep | null = null;
    if (this.own) {
      this.own.read((s) => {
        seen = s;
        this.listener(s);
      });
    } else {
      const before = this.count;
      const grab = (s: ClockStep): void => {
        seen = s;
      };
      stepListeners.add(grab);
      wallClock();
      stepListeners.delete(grab);
      if (this.count === before) seen = null;
    }
    return seen;
  }
}
