/**
 * A virtual automatic shuffler speaking the reference SHUF protocol: `STATE,<...>` and `COUNT,<n>`,
 * `VER`, `HB`, with fault injection per shuffle cycle: a JAM (cleared, then shuffling resumes),
 * the door opened and closed again, a COUNT one card short, plus line faults.
 */
import type { Rng } from '../rng.js';
import { LineDevice, type LineFaults } from './line-device.js';
import { referenceWire, type FrameWire } from './wire.js';

export interface ShufflerFaults extends LineFaults {
  jamRate: number;
  doorOpenRate: number;
  countMismatchRate: number;
}

export const NO_SHUFFLER_FAULTS: ShufflerFaults = { garbageRate: 0, dropFrameRate: 0, jamRate: 0, doorOpenRate: 0, countMismatchRate: 0 };

export class VirtualShuffler {
  readonly line: LineDevice;

  constructor(
    write: (bytes: string | Buffer) => void,
    private readonly rng: Rng,
    private readonly faults: ShufflerFaults,
    /** cards in a full deck set (52 x decks) */
    readonly deckSize: number,
    wire: FrameWire = referenceWire,
  ) {
    this.line = new LineDevice('SHUF', write, rng, faults, wire);
  }

  powerUp(model = 'VSHUF-1', firmware = '1.0.0'): void {
    this.line.powerUp(model, firmware);
    this.state('IDLE');
  }

  state(s: 'IDLE' | 'SHUFFLING' | 'READY' | 'JAM' | 'DOOR_OPEN' | 'ERROR'): void {
    this.line.send('STATE', [s]);
  }

  count(n: number): void {
    this.line.send('COUNT', [n]);
  }

  /**
   * One shuffle: SHUFFLING, [DOOR_OPEN, SHUFFLING], [JAM, SHUFFLING], COUNT, READY.
   * `pause` paces the steps. Returns what happened (for logs and tests).
   */
  async cycle(pause: (ms: number) => Promise<void>, stepMs: number): Promise<{ jam: boolean; doorOpen: boolean; count: number }> {
    const f = this.faults;
    this.state('SHUFFLING');
    await pause(stepMs);
    const doorOpen = f.doorOpenRate > 0 && this.rng() < f.doorOpenRate;
    if (doorOpen) {
      this.state('DOOR_OPEN');
      await pause(stepMs * 2);
      this.state('SHUFFLING');
      await pause(stepMs);
    }
    const jam = f.jamRate > 0 && this.rng() < f.jamRate;
    if (jam) {
      this.state('JAM');
      await pause(stepMs * 2);
      this.state('SHUFFLING');
      await pause(stepMs);
    }
    const count = f.countMismatchRate > 0 && this.rng() < f.countMismatchRate ? this.deckSize - 1 : this.deckSize;
    this.count(count);
    await pause(stepMs);
    this.state('READY');
    return { jam, doorOpen, count };
  }
}
