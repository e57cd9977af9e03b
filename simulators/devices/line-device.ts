/**
 * What every virtual serial device shares: its wire format (the reference NMEA framing of
 * device-protocols.md §1, or a device profile's: wire.ts) with its own SEQ,
 * `VER` at power-up, `HB` at least once a second while idle, and line faults (garbage bytes before
 * a frame, frames lost on the line).
 */
import type { Talker } from '../../src/core/vocabulary/frames.js';
import type { Rng } from '../rng.js';
import { RepeatRing } from './repeat-ring.js';
import { referenceWire, type FrameWire } from './wire.js';

export interface LineFaults {
  /** probability per frame of a burst of garbage bytes before it */
  garbageRate: number;
  /** probability per frame that it is lost on the line (SEQ gap) */
  dropFrameRate: number;
}

export class LineDevice {
  private seq = 0;
  private hb: NodeJS.Timeout | null = null;
  lastSendAt = 0;
  framesSent = 0;
  /** the last 64 frames, for the gateway's `REPEAT` */
  private readonly ring = new RepeatRing(64);
  framesRepeated = 0;
  /** announce `REPEAT` in `VER` (set by devices whose gateway driver can send it) */
  repeat = false;

  constructor(
    readonly talker: Talker,
    private readonly write: (bytes: string | Buffer) => void,
    private readonly rng: Rng,
    private readonly faults: LineFaults = { garbageRate: 0, dropFrameRate: 0 },
    readonly wire: FrameWire = referenceWire,
  ) {}

  /** sends one frame (with the configured line faults); a frame the wire format cannot say is not sent */
  send(type: string, fields: (string | number)[] = []): void {
    const line = this.wire.encode(this.talker, this.seq, type, fields);
    if (line === null) return;
    this.ring.add(this.seq, line);
    this.seq = (this.seq + 1) & 0xffff;
    this.lastSendAt = Date.now();
    if (this.faults.dropFrameRate > 0 && this.rng() < this.faults.dropFrameRate) return;
    if (this.faults.garbageRate > 0 && this.rng() < this.faults.garbageRate) this.write(this.wire.noise());
    this.framesSent++;
    this.write(line);
  }

  /** power-up (also after a simulated unplug): SEQ restarts at 0, then `VER` */
  powerUp(model: string, firmware = '1.0.0'): void {
    this.seq = 0;
    this.ring.clear();
    this.send('VER', this.repeat ? [model, firmware, 'REPEAT'] : [model, firmware]);
  }

  /** bytes the gateway wrote: answers `REPEAT,<seq>` with the kept frames from `seq` on */
  onGatewayBytes(bytes: Buffer): void {
    if (!this.repeat) return;
    for (const c of this.wire.commands(bytes)) {
      if (c.command !== 'repeat') continue;
      for (const line of this.ring.from(c.from)) {
        this.framesRepeated++;
        this.write(line);
      }
    }
  }

  heartbeat(): void {
    this.send('HB');
  }

  /** sends `HB` whenever nothing was sent for 900 ms */
  startHeartbeat(): void {
    if (this.hb) return;
    this.hb = setInterval(() => {
      if (Date.now() - this.lastSendAt >= 900) this.heartbeat();
    }, 250);
    this.hb.unref?.();
  }

  stopHeartbeat(): void {
    if (this.hb) clearInterval(this.hb);
    this.hb = null;
  }
}
