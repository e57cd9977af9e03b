/**
 * Per-kind adapters between the codecs and the table (docs/DEVICES.md); the HID and barcode
 * decoders are codecs (drivers/codecs/scanner-and-dice-decoders.ts):
 * - `RfidCardMapper`: RFID `TAG,<uid>` -> `CARD` through the deck registry, with de-duplication of
 *   repeated reads and the MISREAD -> rescan rule; unknown uids become `unknown-tag` alerts.
 * - `ScannerRoleMapper`: a barcode scanner's cards as its `role` says: the rescan reader's are
 *   rescans; the dealing reader's are the next cards dealt, a double trigger (the same card again
 *   within `dedupeMs`) one card.
 * Everything here is synchronous; the only clocks are the injectable `now` of the two mappers.
 */
import type { DeviceFrame } from '../src/core/vocabulary/frames.js';
import type { DeckRegistry } from './deck-registry.js';
import type { DriverEvent } from './device-driver.js';

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
      case 'TAG':
        return this.onTag(frame.talker, frame.seq, frame.uid);
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
        kind: 'alert',
        alert: 'unknown-tag',
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
