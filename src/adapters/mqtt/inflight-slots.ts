/**
 * mqtt.js's bookkeeping of QoS 1 publishes in flight, in shapes that do not churn the old
 * generation (dev/bench/notes/performance-history.md "Garbage collection"). Each table's client lives for hours, so
 * everything it holds is in the old generation; mqtt.js's defaults then allocate old-generation
 * garbage per message:
 *
 * - its message id provider counts up from a random start, so the ids in its `outgoing` object
 *   (an object keyed by id) are far apart and the object keeps them in a hash table, which
 *   `delete` at each PUBACK rebuilds now and then;
 * - its in-memory store keeps the packets in a Map, which `delete` at each PUBACK empties, and
 *   an emptied Map allocates a new table each time.
 *
 * Here a freed id is the next one handed out, so with at most `window` publishes in flight the
 * ids stay within 1..window and `outgoing` stays a small array; the store is an array indexed by id. The MQTT rules are unchanged: an id is free again once its
 * PUBACK came (MQTT 3.1.1 2.3.1, 5.0 2.2.1), and no two packets in flight share one.
 */
import { Readable } from 'node:stream';
import type { IClientOptions, IStore } from 'mqtt';

type IdProvider = NonNullable<IClientOptions['messageIdProvider']>;
/** mqtt-packet's packet, as mqtt.js's store interface names it */
type Packet = Parameters<IStore['put']>[0];
const MAX_ID = 65535;

/** message ids 1..65535, a freed one handed out next (the ids in flight stay few and small) */
export class RecyclingMessageIds implements IdProvider {
  private readonly inUse = new Uint8Array(MAX_ID + 1);
  /** freed ids, the last freed on top */
  private readonly free: number[] = [];
  /** the next id never handed out since the last clear */
  private fresh = 1;
  private last: number | null = null;

  allocate(): number | null {
    while (this.free.length > 0) {
      const id = this.free.pop()!;
      // an id taken meanwhile by register() stays with its packet
      if (!this.inUse[id]) return this.take(id);
    }
    while (this.fresh <= MAX_ID) {
      const id = this.fresh++;
      if (!this.inUse[id]) return this.take(id);
    }
    return null;
  }

  getLastAllocated(): number | null {
    return this.last;
  }

  /** an id already used by a packet being resent from the store: false if it is in use */
  register(id: number): boolean {
    if (id < 1 || id > MAX_ID || this.inUse[id]) return false;
    this.inUse[id] = 1;
    return true;
  }

  deallocate(id: number): void {
    if (id < 1 || id > MAX_ID || !this.inUse[id]) return;
    this.inUse[id] = 0;
    this.free.push(id);
  }

  clear(): void {
    this.inUse.fill(0);
    this.free.length = 0;
    this.fresh = 1;
    this.last = null;
  }

  private take(id: number): number {
    this.inUse[id] = 1;
    this.last = id;
    return id;
  }
}

/** mqtt.js's outgoing store as an array indexed by message id; replays in the order of `put` */
export class SlotStore implements IStore {
  private slots: Array<{ packet: Packet; order: number } | undefined> = [];
  private puts = 0;

  put(packet: Packet, cb: (err?: Error) => void): this {
    const id = (packet as { messageId?: number }).messageId;
    if (id !== undefined) this.slots[id] = { packet, order: this.puts++ };
    cb?.();
    return this;
  }

  createStream(): ReturnType<IStore['createStream']> {
    const stored = this.slots
      .filter((s) => s !== undefined)
      .sort((a, b) => a.order - b.order)
      .map((s) => s.packet);
    return Readable.from(stored) as unknown as ReturnType<IStore['createStream']>;
  }

  del(packet: Pick<Packet, 'messageId'>, cb: (error?: Error, packet?: Packet) => void): this {
    const id = packet.messageId;
    const slot = id === undefined ? undefined : this.slots[id];
    if (slot) {
      // a hole, not a delete: the array keeps its shape
      this.slots[id!] = undefined;
      cb(undefined, slot.packet);
    } else cb?.(new Error('missing packet'));
    return this;
  }

  get(packet: Pick<Packet, 'messageId'>, cb: (error?: Error, packet?: Packet) => void): this {
    const slot = packet.messageId === undefined ? undefined : this.slots[packet.messageId];
    if (slot) cb(undefined, slot.packet);
    else cb?.(new Error('missing packet'));
    return this;
  }

  close(cb: (err?: Error) => void): void {
    this.slots = [];
    cb?.();
  }
}
