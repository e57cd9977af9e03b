/** A virtual keno ball reader speaking the reference BALL protocol: `START`, `BALL,<n>`, `END`, `VER`, `HB`. */
import type { Rng } from '../../src/domain/rng.js';
import { LineDevice, type LineFaults } from './line-device.js';

export class VirtualBallReader {
  readonly line: LineDevice;

  constructor(write: (bytes: string | Buffer) => void, rng: Rng, faults: LineFaults) {
    this.line = new LineDevice('BALL', write, rng, faults);
  }

  powerUp(): void {
    this.line.powerUp('VBALL-1');
  }

  start(): void {
    this.line.send('START');
  }

  ball(n: number): void {
    this.line.send('BALL', [n]);
  }

  end(): void {
    this.line.send('END');
  }
}
