/**
 * A barcode scanner as a table's dealing reader (device-protocols.md §3, `role: dealer`), seen by
 * the virtual dealer as its "shoe": every card dealt is scanned, in order. A scanner says nothing
 * else — no LOADED, no cut card, no misread (a card it cannot read is simply scanned again), no
 * heartbeat — and takes no commands. The one thing the dealer must mind is the double-trigger
 * window: the same card right after itself is scanned only once `dedupeMs` has passed, or the
 * gateway would take it for a bounce of the trigger.
 */
import type { Card } from '../../src/core/vocabulary/card.js';
import type { VirtualShoeDevice } from '../virtual-table.js';
import type { VirtualBarcodeScanner } from './barcode-scanner-device.js';

export class ScannerDealingReader implements VirtualShoeDevice {
  private last: { card: Card; at: number } | null = null;
  readonly awaitingRescan = false;

  constructor(
    private readonly scanner: VirtualBarcodeScanner,
    private readonly dedupeMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  powerUp(): void {}
  heartbeat(): void {}
  loaded(): void {}
  cut(): void {}

  card(card: Card): boolean {
    this.scanner.scanCard(card);
    this.last = { card, at: this.now() };
    return true;
  }

  rescan(): boolean {
    return false;
  }

  onGatewayBytes(): void {}

  /** how long the dealer waits before scanning `card`: past the double-trigger window when it repeats the card just scanned */
  holdBefore(card: Card): number {
    if (!this.last || this.last.card !== card) return 0;
    return Math.max(0, this.last.at + this.dedupeMs + 50 - this.now());
  }
}
