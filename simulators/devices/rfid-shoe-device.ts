/**
 * A virtual RFID card shoe speaking the reference RFID protocol (device-protocols.md): `TAG,<uid>`
 * for every card through a deck registry, `MISREAD` (a tag that could not be read), `CUT`,
 * `STATE`, `VER`, `HB` — with fault injection: unknown tags (a card from outside the registered
 * decks), repeated reads of one tag while it passes the antenna, misreads, line faults.
 *
 * It has the same interface as the optical VirtualCardShoe so the virtual table deals into either.
 * An RFID shoe cannot re-read on the gateway's `RESCAN`: it ignores it; the card is re-read when the
 * dealer passes it over the antenna again (`rescan()`), or scanned by a hand scanner (`takePending()`).
 */
import type { DeckRegistry, RegisteredTag } from '../../drivers/deck-registry.js';
import { oneDeck, type Card } from '../../src/core/vocabulary/card.js';
import { randomInt, seededRng, type Rng } from '../rng.js';
import { LineDevice, type LineFaults } from './line-device.js';
import { referenceWire, type FrameWire } from './wire.js';

export interface RfidShoeFaults extends LineFaults {
  misreadRate: number;
  /** probability per card of an unknown tag read before it */
  unknownTagRate: number;
  /** probability per card that its tag is reported 2-3 times (within the gateway's dedupe window) */
  repeatReadRate: number;
}

export const NO_RFID_FAULTS: RfidShoeFaults = { misreadRate: 0, garbageRate: 0, dropFrameRate: 0, unknownTagRate: 0, repeatReadRate: 0 };

function hex(rng: Rng, digits: number): string {
  let s = '';
  for (let i = 0; i < digits; i++) s += '0123456789ABCDEF'[randomInt(rng, 16)];
  return s;
}

/**
 * A registry for `decks` decks: one 16-hex-digit uid per card (prefix `E004`, like ISO 15693
 * tags), decks labelled `D01`, `D02`, ... Deterministic for a seed.
 */
export function generateDeckRegistry(decks: number, seed: string | number): Map<string, RegisteredTag> {
  const rng = seededRng(`${seed}:registry`);
  const out = new Map<string, RegisteredTag>();
  for (let d = 1; d <= decks; d++) {
    for (const card of oneDeck()) {
      let uid: string;
      do uid = `E004${hex(rng, 12)}`;
      while (out.has(uid));
      out.set(uid, { card, deck: `D${String(d).padStart(2, '0')}` });
    }
  }
  return out;
}

export class VirtualRfidShoe {
  private readonly line: LineDevice;
  private readonly uidsByCard = new Map<string, string[]>();
  private readonly nextCopy = new Map<string, number>();
  private pending: Card | null = null;

  constructor(
    write: (bytes: string | Buffer) => void,
    private readonly rng: Rng,
    private readonly faults: RfidShoeFaults,
    registry: DeckRegistry,
    wire: FrameWire = referenceWire,
  ) {
    this.line = new LineDevice('RFID', write, rng, faults, wire);
    this.line.repeat = true;
    for (const [uid, t] of registry) {
      const list = this.uidsByCard.get(t.card) ?? [];
      list.push(uid);
      this.uidsByCard.set(t.card, list);
    }
  }

  get framesSent(): number {
    return this.line.framesSent;
  }

  powerUp(model = 'VRFID-1', firmware = '1.0.0'): void {
    this.line.powerUp(model, firmware);
  }

  heartbeat(): void {
    this.line.heartbeat();
  }

  loaded(): void {
    this.line.send('STATE', ['LOADED']);
  }

  cut(): void {
    this.line.send('CUT');
  }

  /** `true` when the tag was read at once, `false` after a MISREAD (the card waits for a rescan) */
  card(card: Card): boolean {
    if (this.faults.unknownTagRate > 0 && this.rng() < this.faults.unknownTagRate) this.line.send('TAG', [`FF00${hex(this.rng, 12)}`]);
    if (this.faults.misreadRate > 0 && this.rng() < this.faults.misreadRate) {
      this.pending = card;
      this.line.send('MISREAD');
      return false;
    }
    this.sendTag(card);
    return true;
  }

  /** the dealer passes the misread card over the antenna again: the next TAG is the rescan */
  rescan(): boolean {
    const c = this.pending;
    if (!c) return false;
    this.pending = null;
    this.sendTag(c);
    return true;
  }

  /** the misread card, handed to another reader (a hand scanner) */
  takePending(): Card | null {
    const c = this.pending;
    this.pending = null;
    return c;
  }

  get awaitingRescan(): boolean {
    return this.pending !== null;
  }

  /** an RFID shoe cannot re-read on command: `RESCAN` (and LOCK/UNLOCK: no card gate) is ignored; it answers `REPEAT` */
  onGatewayBytes(bytes: Buffer): void {
    this.line.onGatewayBytes(bytes);
  }

  private sendTag(card: Card): void {
    const uid = this.uidFor(card);
    this.line.send('TAG', [uid]);
    if (this.faults.repeatReadRate > 0 && this.rng() < this.faults.repeatReadRate) {
      const repeats = 1 + randomInt(this.rng, 2);
      for (let i = 0; i < repeats; i++) this.line.send('TAG', [uid]);
    }
  }

  /** the copies of a card in the registry are used in turn */
  private uidFor(card: Card): string {
    const list = this.uidsByCard.get(card);
    if (!list || list.length === 0) return `FF00${hex(this.rng, 12)}`; // not registered: the gateway reports unknown-tag
    const n = this.nextCopy.get(card) ?? 0;
    this.nextCopy.set(card, n + 1);
    return list[n % list.length];
  }
}
