/**
 * A virtual barcode scanner in keyboard-wedge mode (HID boot keyboard, device-protocols.md §2a):
 * it "types" a barcode as 8-byte input reports `[modifiers, 0, key, 0, 0, 0, 0, 0]` — key down
 * (with Left Shift for upper-case letters and shifted symbols), then all keys up — and Enter.
 * With a profile's wire (wire.ts) it writes each barcode as that profile frames it instead: a card
 * in the profile's card code, a bad label as its raw text (a HID keyboard profile, such as
 * wedge-scanner: typed as reports, one per write).
 */
import { keyboardReports } from '../../drivers/codecs/hid-keyboard.js';
import type { Card } from '../../src/core/vocabulary/card.js';
import type { Rng } from '../rng.js';
import { type FrameWire, writeFrame } from './wire.js';

/** The reports a keyboard-wedge scanner sends for `text` + Enter. Throws on a character a US keyboard cannot type. */
export const barcodeReports = keyboardReports;

export interface ScannerFaults {
  /** probability per scan that a barcode mapping to no card is read first */
  badBarcodeRate: number;
}

export class VirtualBarcodeScanner {
  scans = 0;

  constructor(
    private readonly write: (bytes: string | Buffer) => void,
    private readonly rng: Rng,
    private readonly faults: ScannerFaults = { badBarcodeRate: 0 },
    /** a serial profile's wire; absent: HID keyboard reports */
    private readonly wire?: FrameWire,
  ) {}

  /** types `text` + Enter, one report per write (as a HID device delivers them); with a wire, one framed barcode */
  scan(text: string): void {
    this.scans++;
    if (this.wire) writeFrame(this.wire, this.write, this.wire.raw(text));
    else for (const r of barcodeReports(text)) this.write(r);
  }

  /** scans the barcode of a card (`AS`), after a bad label now and then */
  scanCard(card: Card): void {
    if (this.faults.badBarcodeRate > 0 && this.rng() < this.faults.badBarcodeRate) this.scan('NO-CARD-42');
    if (!this.wire) {
      this.scan(card);
      return;
    }
    const frame = this.wire.encode('SHOE', 0, 'CARD', [card]);
    if (frame === null) throw new Error(`profile ${this.wire.format} cannot say a card`);
    this.scans++;
    writeFrame(this.wire, this.write, frame);
  }
}
