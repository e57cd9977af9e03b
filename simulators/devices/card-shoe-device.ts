/**
 * A virtual card shoe speaking the reference SHOE protocol (device-protocols.md) byte for byte, or
 * a device profile's format through its wire (wire.ts):
 * `VER` at power-up, `HB` when idle, `STATE`, `CARD`, `MISREAD` + `CARD,<card>,R` rescans, `CUT`,
 * `DROP`, with SEQ numbering and checksums — plus fault injection (misreads, garbage bytes, lost
 * frames) so the gateway's handling of each can be seen and tested.
 */
import type { Card } from '../../src/core/vocabulary/card.js';
import type { Rng } from '../rng.js';
import { RepeatRing } from './repeat-ring.js';
import { referenceWire, type FrameWire } from './wire.js';

export interface ShoeFaults {
  /** probability that a card is first reported as MISREAD (then rescanned) */
  misreadRate: number;
  /** probability that the dealer drops a card that was read (the shoe's DROP key follows it) */
  dropCardRate?: number;
  /** probability per frame of a burst of garbage bytes before it */
  garbageRate: number;
  /** probability per frame that it is lost on the line (SEQ gap) */
  dropFrameRate: number;
}

export const NO_FAULTS: ShoeFaults = { misreadRate: 0, garbageRate: 0, dropFrameRate: 0 };

export class VirtualCardShoe {
  private seq = 0;
  /** the card in the read window after a MISREAD, waiting for a rescan */
  private pendingRescan: Card | null = null;
  framesSent = 0;
  /** the last 64 frames, for the gateway's `REPEAT` */
  private readonly ring = new RepeatRing(64);
  /** frames re-sent on `REPEAT` */
  framesRepeated = 0;
  /** announce `REPEAT` in `VER` and answer it (a shoe without it: false) */
  repeat = true;

  constructor(
    private readonly write: (bytes: string | Buffer) => void,
    private readonly rng: Rng,
    private readonly faults: ShoeFaults = NO_FAULTS,
    readonly talker: 'SHOE' | 'RFID' = 'SHOE',
    readonly wire: FrameWire = referenceWire,
  ) {}

  /** sends one frame (with the configured line faults) */
  send(type: string, fields: (string | number)[] = []): void {
    const line = this.wire.encode(this.talker, this.seq, type, fields);
    if (line === null) return; // the shoe's format has no such message
    this.ring.add(this.seq, line);
    this.seq = (this.seq + 1) & 0xffff;
    if (this.faults.dropFrameRate > 0 && this.rng() < this.faults.dropFrameRate) return;
    if (this.faults.garbageRate > 0 && this.rng() < this.faults.garbageRate) this.write(this.wire.noise());
    this.framesSent++;
    this.write(line);
  }

  powerUp(model = 'VSHOE-1', firmware = '1.0.0'): void {
    this.send('VER', this.repeat ? [model, firmware, 'REPEAT+LOCK+RESCAN'] : [model, firmware]);
  }

  heartbeat(): void {
    this.send('HB');
  }

  loaded(): void {
    this.send('STATE', ['LOADED']);
  }

  cut(): void {
    this.send('CUT');
  }

  /**
   * A card leaves the shoe. Returns `true` when it was read at once, `false` when the shoe
   * reported MISREAD and the card waits for a rescan (`rescan()` or the gateway's RESCAN command).
   */
  card(card: Card): boolean {
    if (this.faults.misreadRate > 0 && this.rng() < this.faults.misreadRate) {
      this.pendingRescan = card;
      this.send('MISREAD');
      return false;
    }
    this.send('CARD', [card]);
    if (this.faults.dropCardRate && this.rng() < this.faults.dropCardRate) this.send('DROP');
    return true;
  }

  /** `card` is in the read window unread (after a restart while the gateway waits for its rescan) */
  holdForRescan(card: Card): void {
    this.pendingRescan = card;
  }

  /** the dealer's (or the gateway's) rescan of the card in the read window */
  rescan(): boolean {
    const c = this.pendingRescan;
    if (!c) return false;
    this.pendingRescan = null;
    this.send('CARD', [c, 'R']);
    return true;
  }

  get awaitingRescan(): boolean {
    return this.pendingRescan !== null;
  }

  /** bytes the gateway wrote to the shoe (commands such as `$GW,3,RESCAN*CS`, or the profile's downlinks) */
  onGatewayBytes(bytes: Buffer): void {
    for (const c of this.wire.commands(bytes)) {
      if (c.command === 'rescan') this.rescan();
      else if (c.command === 'repeat' && this.repeat) this.repeatFrom(c.from);
    }
  }

  /** `REPEAT,<seq>`: every kept frame from `seq` on again, with its original SEQ (no line faults) */
  repeatFrom(seq: number): void {
    for (const line of this.ring.from(seq)) {
      this.framesRepeated++;
      this.write(line);
    }
  }
}
