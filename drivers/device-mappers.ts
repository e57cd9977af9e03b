/**
 * Per-kind adapters between the codecs and the table (docs/DEVICES.md):
 * - `RfidCardMapper`: RFID `TAG,<uid>` -> `CARD` through the deck registry, with de-duplication of
 *   repeated reads and the MISREAD -> rescan rule; unknown uids become `unknown-tag` alerts.
 * - `HidDiceDecoder`: 8-byte HID dice reports -> `DICE` frames.
 * - `BarcodeScannerDecoder`: HID boot-keyboard reports -> barcodes -> `CARD` rescan frames;
 *   `SerialBarcodeDecoder`: the same for a scanner in serial mode (one barcode per line).
 * - `ScannerRoleMapper`: a barcode scanner's cards as its `role` says: the rescan reader's are
 *   rescans; the dealing reader's are the next cards dealt, a double trigger (the same card again
 *   within `dedupeMs`) one card.
 * Everything here is synchronous; the only clocks are the injectable `now` of the two mappers.
 */
import type { DeviceFrame, FrameReject } from '../src/domain/frames.js';
import { decodeHidDiceReport } from './codecs/hid-dice.js';
import { createBarcodeMapper, HID_KEYBOARD_REPORT_BYTES, KeyboardWedgeDecoder, MAX_BARCODE_CHARS, type BarcodeMapping } from './codecs/hid-keyboard.js';
import { describeBytes, describeText, reject } from './codecs/reject.js';
import type { DeckRegistry } from './deck-registry.js';
import type { DriverEvent, FrameDecoder } from './device-driver.js';

export const DEFAULT_DEDUPE_MS = 1500;

export interface RfidCardMapperOptions {
  registry: DeckRegistry;
  /** repeats of one uid within this many ms of its previous read are one card (default 1500) */
  dedupeMs?: number;
  now?: () => number;
}

/**
 * Maps RFID shoe frames to what the card table understands:
 * - `TAG,<uid>` of a registered tag -> `{ type: 'CARD', card, rescan }`;
 * - the same uid again within `dedupeMs` of its previous read -> dropped. The window slides: a tag
 *   that keeps being reported while it sits on the antenna stays one card;
 * - an unregistered uid -> a `unknown-tag` DriverEvent alert, never a card;
 * - `STATE,LOADED` (a new shoe) forgets the recent reads.
 * Every other frame passes through unchanged. The card is always `rescan: false`: an RFID shoe
 * cannot tell a re-read from a new card, so the card table treats the next card of an RFID shoe
 * that has a misread pending as its rescan (card-table.ts `onCard`). Deciding that in the table,
 * not here, keeps it right when another reader (a hand scanner) answered the misread instead.
 */
export class RfidCardMapper {
  private readonly seen = new Map<string, number>();
  private readonly dedupeMs: number;
  private readonly now: () => number;

  constructor(private readonly opts: RfidCardMapperOptions) {
    this.dedupeMs = opts.dedupeMs ?? DEFAULT_DEDUPE_MS;
    this.now = opts.now ?? Date.now;
  }

  map(frame: DeviceFrame): DeviceFrame | DriverEvent | null {
    switch (frame.type) {
      case 'TAG': return this.onTag(frame.talker, frame.seq, frame.uid);
      case 'STATE':
        if (frame.state === 'LOADED') this.seen.clear();
        return frame;
      default:
        return frame;
    }
  }

  /** forget held state (port reopened) */
  reset(): void {
    this.seen.clear();
  }

  private onTag(talker: DeviceFrame['talker'], seq: number, uid: string): DeviceFrame | DriverEvent | null {
    const at = this.now();
    const last = this.seen.get(uid);
    this.seen.set(uid, at);
    if (this.seen.size > 256) this.prune(at);
    if (last !== undefined && at - last < this.dedupeMs) return null;
    const tag = this.opts.registry.get(uid);
    if (!tag) {
      return {
        kind: 'alert', alert: 'unknown-tag',
        detail: `tag ${uid} is in no registered deck: not a card`,
        data: { uid },
      };
    }
    return { talker, seq, type: 'CARD', card: tag.card, rescan: false, uid };
  }

  private prune(at: number): void {
    for (const [uid, t] of this.seen) if (at - t >= this.dedupeMs) this.seen.delete(uid);
  }
}

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

export type ScannerRole = 'dealer' | 'rescan';

export interface ScannerRoleMapperOptions {
  role: ScannerRole;
  /** dealer: the same card read again within this many ms of its previous read is one card (default 1500) */
  dedupeMs?: number;
  now?: () => number;
}

/**
 * A barcode scanner's role (device-protocols.md §3): whatever its decoder marks, a card read by
 * - the `rescan` reader (beside a shoe) is `rescan: true`: the answer to the shoe's misread (§2a);
 * - the `dealer` reader (the table's only card reader) is `rescan: false`: the next card dealt. A
 *   card it cannot read simply arrives when the dealer scans it again. The same card again within
 *   `dedupeMs` of the previous read is a double trigger and dropped; the window slides, so a label
 *   held under a scanner in continuous mode stays one card. Only the read just before counts: A, B,
 *   A is three cards however fast.
 * This runs in the driver, before the journal: the journal records the cards this mapper let
 * through, so a replay is the same byte for byte whatever the clock said (docs/DEVICES.md).
 */
export class ScannerRoleMapper {
  private last: { card: string; at: number } | null = null;
  private readonly dedupeMs: number;
  private readonly now: () => number;
  /** reads dropped as double triggers */
  doubleTriggers = 0;

  constructor(private readonly opts: ScannerRoleMapperOptions) {
    this.dedupeMs = opts.dedupeMs ?? DEFAULT_DEDUPE_MS;
    this.now = opts.now ?? Date.now;
  }

  map(frame: DeviceFrame): DeviceFrame | null {
    if (frame.type !== 'CARD') return frame;
    if (this.opts.role === 'rescan') return frame.rescan ? frame : { ...frame, rescan: true };
    const at = this.now();
    const last = this.last;
    this.last = { card: frame.card, at };
    if (last && last.card === frame.card && at - last.at < this.dedupeMs) {
      this.doubleTriggers++;
      return null;
    }
    return frame.rescan ? { ...frame, rescan: false } : frame;
  }
}
