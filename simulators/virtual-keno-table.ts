/**
 * A virtual keno draw machine: START, 20 distinct balls 1..80, END into a virtual ball reader,
 * with the faults of games.md (a repeated ball, a ball 81, END before the 20th ball) at configured
 * rates; with an engine it opens and closes betting before each draw.
 */
import { shuffleInPlace, type Rng } from './rng.js';
import { randomInt } from './rng.js';
import type { VirtualBallReader } from './devices/ball-reader-device.js';
import { LoopRunner, type EngineRequest, type UnplugFault } from './virtual-runner.js';

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

  protected async run(): Promise<void> {
    const o = this.o;
    const r = o.reader;
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
