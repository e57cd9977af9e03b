/**
 * A virtual sic bo dice sensor: the reference DICE serial protocol (`SHAKE`, `ROLL,d1,d2,d3,b`,
 * `COCKED`, `NOREAD`, `VER`, `HB`) or the vendor HID protocol (8-byte reports
 * `[0x01, seq, d1, d2, d3, bounces, status, checksum]`; HID has no SHAKE, VER or heartbeat).
 */
import { encodeHidDiceReport, HID_DICE_STATUS } from '../../drivers/codecs/hid-dice.js';
import type { Rng } from '../rng.js';
import { LineDevice, type LineFaults } from './line-device.js';
import { referenceWire, type FrameWire } from './wire.js';

export type DiceWire = 'line' | 'hid';

export class VirtualDiceSensor {
  readonly line: LineDevice;
  private hidSeq = 0;

  constructor(
    private readonly write: (bytes: string | Buffer) => void,
    rng: Rng,
    faults: LineFaults,
    readonly wire: DiceWire = 'line',
    lineWire: FrameWire = referenceWire,
  ) {
    this.line = new LineDevice('DICE', write, rng, faults, lineWire);
  }

  powerUp(): void {
    this.hidSeq = 0;
    if (this.wire === 'line') this.line.powerUp('VDICE-1');
  }

  heartbeat(): void {
    if (this.wire === 'line') this.line.heartbeat();
  }

  shake(): void {
    if (this.wire === 'line') this.line.send('SHAKE');
  }

  roll(dice: [number, number, number], bounces: number): void {
    if (this.wire === 'line') this.line.send('ROLL', [dice[0], dice[1], dice[2], bounces]);
    else this.report(HID_DICE_STATUS.OK, dice, bounces);
  }

  cocked(): void {
    if (this.wire === 'line') this.line.send('COCKED');
    else this.report(HID_DICE_STATUS.COCKED, [0, 0, 0], 0);
  }

  noread(): void {
    if (this.wire === 'line') this.line.send('NOREAD');
    else this.report(HID_DICE_STATUS.NOREAD, [0, 0, 0], 0);
  }

  private report(status: number, dice: readonly [number, number, number], bounces: number): void {
    const r = encodeHidDiceReport({ seq: this.hidSeq, dice, bounces, status });
    this.hidSeq = (this.hidSeq + 1) & 0xff;
    this.line.lastSendAt = Date.now();
    this.write(r);
  }
}
