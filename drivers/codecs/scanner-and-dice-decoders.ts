/**
 * Decoders of the devices that do not speak the reference line protocol, beside the line codecs:
 * - `HidDiceDecoder`: 8-byte HID dice reports (device-protocols.md §2b) -> `DICE` frames;
 * - `BarcodeScannerDecoder`: HID boot-keyboard reports (§2a) -> barcodes -> `CARD` frames;
 * - `SerialBarcodeDecoder`: the same for a scanner in serial mode (one barcode per line).
 * What a scanner's card means (rescan or the next card dealt) is the driver's `ScannerRoleMapper`.
 */
import type { DeviceFrame, FrameReject } from '../../src/core/vocabulary/frames.js';
import type { FrameDecoder } from '../device-driver.js';
import { decodeHidDiceReport } from './hid-dice.js';
import { createBarcodeMapper, HID_KEYBOARD_REPORT_BYTES, KeyboardWedgeDecoder, MAX_BARCODE_CHARS, type BarcodeMapping } from './hid-keyboard.js';
import { describeBytes, describeText, reject } from './reject.js';

/** Splits a chunk into fixed-size reports; a chunk that is not a whole number of reports is one reject. */
function splitReports(chunk: Uint8Array, size: number): Uint8Array[] | FrameReject {
  if (chunk.length === 0 || chunk.length % size !== 0) return reject('malformed', describeBytes(chunk));
  const out: Uint8Array[] = [];
  for (let i = 0; i < chunk.length; i += size) out.push(chunk.subarray(i, i + size));
  return out;
}

/** HID dice sensor (device-protocols.md §2b): each 8-byte report is one frame or one reject. */
export class HidDiceDecoder implements FrameDecoder {
  push(chunk: Buffer): Array<DeviceFrame | FrameReject> {
    const reports = splitReports(chunk, 8);
    if (!Array.isArray(reports)) return [reports];
    return reports.map((r) => decodeHidDiceReport(r));
  }
}

/**
 * Barcode scanner in keyboard-wedge mode (device-protocols.md §2a): reports -> barcodes (on Enter)
 * -> cards through the table's `barcode` mapping. The scanner is the table's rescan reader, so a
 * card is emitted as `{ type: 'CARD', card, rescan: true }` (talker `SHOE`, seq 0: HID keyboards
 * number nothing). A barcode that maps to no card is a `bad-field` reject (-> `bad-frame` alert).
 */
export class BarcodeScannerDecoder implements FrameDecoder {
  private readonly keyboard = new KeyboardWedgeDecoder();
  private readonly toCard: (barcode: string) => string | null;

  constructor(mapping: BarcodeMapping = {}) {
    this.toCard = createBarcodeMapper(mapping);
  }

  push(chunk: Buffer): Array<DeviceFrame | FrameReject> {
    const reports = splitReports(chunk, HID_KEYBOARD_REPORT_BYTES);
    if (!Array.isArray(reports)) return [reports];
    const out: Array<DeviceFrame | FrameReject> = [];
    for (const r of reports) {
      for (const item of this.keyboard.push(r)) {
        if (typeof item !== 'string') {
          out.push(item);
          continue;
        }
        const card = this.toCard(item);
        if (card === null) out.push(reject('bad-field', `barcode "${describeText(item)}" maps to no card`));
        else out.push({ talker: 'SHOE', seq: 0, type: 'CARD', card, rescan: true });
      }
    }
    return out;
  }

  reset(): void {
    this.keyboard.reset();
  }
}

/**
 * A barcode scanner in serial mode (RS-232 or USB-CDC "virtual COM port"): each barcode is a line
 * of printable ASCII ended by CR, LF or CR LF. Same mapping and rescan role as the HID scanner.
 */
export class SerialBarcodeDecoder implements FrameDecoder {
  private text = '';
  private overflow = false;
  private readonly toCard: (barcode: string) => string | null;

  constructor(mapping: BarcodeMapping = {}) {
    this.toCard = createBarcodeMapper(mapping);
  }

  push(chunk: Buffer): Array<DeviceFrame | FrameReject> {
    const out: Array<DeviceFrame | FrameReject> = [];
    for (const b of chunk) {
      if (b === 0x0d || b === 0x0a) {
        const line = this.text.trim();
        const dropped = this.overflow;
        this.text = '';
        this.overflow = false;
        if (line === '' || dropped) continue;
        const card = this.toCard(line);
        if (card === null) out.push(reject('bad-field', `barcode "${describeText(line)}" maps to no card`));
        else out.push({ talker: 'SHOE', seq: 0, type: 'CARD', card, rescan: true });
        continue;
      }
      if (this.overflow) continue;
      if (b < 0x20 || b > 0x7e) {
        out.push(reject('malformed', describeBytes(Uint8Array.of(b))));
        this.overflow = true; // drop the rest of this line
        this.text = '';
        continue;
      }
      if (this.text.length >= MAX_BARCODE_CHARS) {
        out.push(reject('too-long', describeText(this.text)));
        this.overflow = true;
        this.text = '';
        continue;
      }
      this.text += String.fromCharCode(b);
    }
    return out;
  }

  reset(): void {
    this.text = '';
    this.overflow = false;
  }
}
