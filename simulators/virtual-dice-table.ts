/**
 * A virtual sic bo table: rounds of shake and roll into a virtual dice sensor, with the faults of
 * games.md (cocked dice, no-read, rolls without enough bounces) at configured rates; with an
 * engine it opens and closes betting before each roll.
 */
import { randomInt } from './rng.js';
import type { Rng } from './rng.js';
import type { VirtualDiceSensor } from './devices/dice-sensor-device.js';
import { LoopRunner, type EngineRequest, type UnplugFault } from './virtual-runner.js';

export interface DiceFaults {
  cockedRate: number;
  noReadRate: number;
  noBounceRate: number;
}

export interface VirtualDiceTableOptions {
  sensor: VirtualDiceSensor;
  seed: string | number;
  rng: Rng;
  faults: DiceFaults;
  minBounces: number;
  /** ms between the steps of a roll */
  stepMs: number;
  /** ms between rounds */
  roundIntervalMs: number;
  /** stop after this many results (default: forever) */
  rounds?: number;
  request?: EngineRequest;
  unplug?: UnplugFault;
  onRoll?: (dice: [number, number, number], bounces: number) => void;
}

export class VirtualDiceTable extends LoopRunner {
  rolls = 0;

  constructor(private readonly o: VirtualDiceTableOptions) {
    super(o.seed, o.rng, o.unplug);
  }

  protected onPowerUp(): void {
    this.o.sensor.powerUp();
    this.o.sensor.line.startHeartbeat();
  }

  protected override onStopped(): void {
    this.o.sensor.line.stopHeartbeat();
  }

  private die(): number {
    return 1 + randomInt(this.rng, 6);
  }

  private dice(): [number, number, number] {
    return [this.die(), this.die(), this.die()];
  }

  protected async run(): Promise<void> {
    const o = this.o;
    const s = o.sensor;
    for (let n = 0; this.running && (o.rounds === undefined || n < o.rounds); n++) {
      await this.maybeUnplug();
      if (!this.running) return;
      if (o.request) {
        await this.ask(o.request, 'open-betting');
        await this.pause(o.stepMs);
        await this.ask(o.request, 'close-betting');
      }
      s.shake();
      await this.pause(o.stepMs);
      for (let attempt = 0; this.running; attempt++) {
        const x = this.rng();
        const f = o.faults;
        if (attempt < 5 && x < f.cockedRate) {
          s.cocked();
          await this.pause(o.stepMs);
          s.shake();
        } else if (attempt < 5 && x < f.cockedRate + f.noReadRate) {
          s.noread(); // re-read: the next frame is the roll
        } else if (attempt < 5 && x < f.cockedRate + f.noReadRate + f.noBounceRate && o.minBounces > 0) {
          s.roll(this.dice(), randomInt(this.rng, o.minBounces)); // fewer than minBounces: void
          await this.pause(o.stepMs);
          s.shake();
        } else {
          const dice = this.dice();
          const bounces = Math.min(99, o.minBounces + randomInt(this.rng, 6));
          s.roll(dice, bounces);
          this.rolls++;
          o.onRoll?.(dice, bounces);
          break;
        }
        await this.pause(o.stepMs);
      }
      await this.pause(o.roundIntervalMs);
    }
  }
}
