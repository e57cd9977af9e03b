/** A virtual keno ball reader speaking the reference BALL protocol: `START`, `BALL,<n>`, `END`, `VER`, `HB`. */
import type { Rng } from '../rng.js';
import { LineDevice, type LineFaults } from './line-device.js';
import { referenceWire, type FrameWire } from './wire.js';

export class VirtualBallReader {
  readonly line: LineDevice;

  constructor(write: (bytes: string | Buffer) => void, rng: Rng, faults: LineFaults, wire: FrameWire = referenceWire) {
    this.line = new LineDevice('BALL', write, rng, faults, wire);
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
