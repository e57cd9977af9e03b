/**
 * A virtual keno draw machine: START, 20 distinct balls 1..80, END into a virtual ball reader,
 * with the faults of games.md (a repeated ball, a ball 81, END before the 20th ball) at configured
 * rates; with an engine it opens and closes betting before each draw.
 */
import { shuffleInPlace, type Rng } from './rng.js';
import { randomInt } from './rng.js';
import type { VirtualBallReader } from './devices/ball-reader-device.js';
import { LoopRunner, type EngineRequest, type UnplugFault } from './virtual-runner.js';
import type { SimulatedTableView } from '../src/runtime/simulators.js';
import { RESUMED_ROUND } from '../src/runtime/external-engine.js';

export interface KenoFaults {
  duplicateBallRate: number;
  outOfRangeBallRate: number;
  earlyEndRate: number;
}

export interface VirtualKenoTableOptions {
  reader: VirtualBallReader;
  seed: string | number;
  rng: Rng;
  faults: KenoFaults;
  /** ms between two balls */
  ballIntervalMs: number;
  /** ms between draws */
  roundIntervalMs: number;
  rounds?: number;
  request?: EngineRequest;
  unplug?: UnplugFault;
  onDraw?: (balls: number[]) => void;
  /**
   * the table when the machine starts: after a gateway restart in the middle of a draw (START
   * seen, fewer than 20 balls), the balls drawn stay drawn and the draw goes on to its 20th ball
   */
  view?: () => SimulatedTableView;
  /** `request` is a follower of an external engine: the draw resumed is told to it (`RESUMED_ROUND`) */
  claimResumed?: boolean;
}

export class VirtualKenoTable extends LoopRunner {
  draws = 0;

  constructor(private readonly o: VirtualKenoTableOptions) {
    super(o.seed, o.rng, o.unplug);
  }

  protected onPowerUp(): void {
    this.o.reader.powerUp();
    this.o.reader.line.startHeartbeat();
  }

  protected override onStopped(): void {
    this.o.reader.line.stopHeartbeat();
  }

  /** the balls the machine reports for one draw (with at most one fault) */
  drawBalls(): { balls: number[]; endAfter: number } {
    const pool = Array.from({ length: 80 }, (_, i) => i + 1);
    const balls = shuffleInPlace(pool, this.rng).slice(0, 20);
    const f = this.o.faults;
    const x = this.rng();
    let endAfter = 20;
    if (x < f.duplicateBallRate) {
      const at = 1 + randomInt(this.rng, 19);
      balls[at] = balls[randomInt(this.rng, at)];
    } else if (x < f.duplicateBallRate + f.outOfRangeBallRate) {
      balls[randomInt(this.rng, 20)] = 81;
    } else if (x < f.duplicateBallRate + f.outOfRangeBallRate + f.earlyEndRate) {
      endAfter = 5 + randomInt(this.rng, 15);
    }
    return { balls, endAfter };
  }

  /** the balls still to draw in the draw the table holds open (START seen, not 20 balls yet), or null */
  private drawInProgress(): number[] | null {
    const d = this.o.view?.().round;
    if (!d?.started || !Array.isArray(d.balls) || d.balls.length >= 20) return null;
    const drawn = new Set(d.balls as unknown[]);
    const pool = Array.from({ length: 80 }, (_, i) => i + 1).filter((b) => !drawn.has(b));
    return shuffleInPlace(pool, this.rng).slice(0, 20 - d.balls.length);
  }

  protected async run(): Promise<void> {
    const o = this.o;
    const r = o.reader;
    const rest = this.drawInProgress();
    if (rest) {
      if (o.claimResumed && o.request) await o.request(RESUMED_ROUND);
      await this.pause(o.ballIntervalMs);
      for (let i = 0; i < rest.length && this.running; i++) {
        r.ball(rest[i]);
        await this.pause(o.ballIntervalMs);
      }
      if (!this.running) return;
      r.end();
      this.draws++;
      await this.pause(o.roundIntervalMs);
    }
    for (let n = 0; this.running && (o.rounds === undefined || n < o.rounds); n++) {
      await this.maybeUnplug();
      if (!this.running) return;
      if (o.request) {
        await this.ask(o.request, 'open-betting');
        await this.pause(o.ballIntervalMs);
        await this.ask(o.request, 'close-betting');
      }
      const { balls, endAfter } = this.drawBalls();
      r.start();
      await this.pause(o.ballIntervalMs);
      for (let i = 0; i < endAfter && this.running; i++) {
        r.ball(balls[i]);
        await this.pause(o.ballIntervalMs);
      }
      // stopped mid-draw: the machine is switched off, it does not declare the draw ended (an END
      // here would be an early END, which voids the draw)
      if (!this.running) return;
      r.end();
      this.draws++;
      o.onDraw?.(balls.slice(0, endAfter));
      await this.pause(o.roundIntervalMs);
    }
  }
}
