/**
 * A virtual table: a virtual dealer dealing shuffled shoes into a virtual card shoe, at a pace,
 * with heartbeats while idle and the rescan answered the way a real optical shoe answers the
 * gateway's `RESCAN` (or the dealer rescans by hand when the gateway does not ask).
 */
import { setImmediate as yieldToLoop, setTimeout as sleep } from 'node:timers/promises';
import type { Card } from '../src/core/vocabulary/card.js';
import { randomSeed, seededRng, type Rng } from './rng.js';
import type { AnyCardGame, Expectation } from '../src/core/games/game.js';
import { dealShoe } from './dealers/shoe-dealer.js';
import { VirtualCardShoe, type ShoeFaults, NO_FAULTS } from './devices/card-shoe-device.js';
import type { UnplugFault } from './virtual-runner.js';

export interface VirtualTableOptions {
  game: AnyCardGame;
  decks: number;
  burnPerRound: number;
  engine: boolean;
  cardIntervalMs: number;
  roundIntervalMs: number;
  cutCardFromEnd: number;
  seed?: string | number;
  faults?: ShoeFaults;
  /** how many shoes to deal (default: forever) */
  shoes?: number;
  gameOptions?: Readonly<Record<string, unknown>>;
  /** bytes the virtual shoe puts on the wire */
  write: (bytes: string | Buffer) => void;
  /** engine requests (open/close betting, decisions), resolved when the gateway answered */
  request?: (command: string, args?: Record<string, unknown>) => Promise<unknown>;
  decide?: (exp: Extract<Expectation, { kind: 'decision' }>, rng: Rng) => string;
  /** told about every card dealt and every round end (for demo output and tests) */
  onAction?: (a: { type: string; card?: Card; role?: string; roundNo?: number }) => void;
  /** another shoe device (e.g. a virtual RFID shoe) instead of the optical VirtualCardShoe */
  createShoe?: (write: (bytes: string | Buffer) => void) => VirtualShoeDevice;
  /** before each new shoe is loaded (e.g. a virtual shuffler's cycle); `true` = the load is announced already, no `STATE,LOADED` */
  onLoad?: () => Promise<boolean | undefined>;
  /** the dealer's manual rescan when the shoe did not re-read by itself (e.g. with a hand scanner); default: the shoe's own rescan */
  manualRescan?: () => boolean;
  /** the shoe's cable is pulled now and then between rounds (faults.unplugRate) */
  unplug?: UnplugFault;
}

/** What the virtual table deals into: the optical VirtualCardShoe, or e.g. a virtual RFID shoe. */
export interface VirtualShoeDevice {
  powerUp(): void;
  heartbeat(): void;
  loaded(): void;
  cut(): void;
  card(card: Card): boolean;
  rescan(): boolean;
  readonly awaitingRescan: boolean;
  onGatewayBytes(bytes: Buffer): void;
  /** ms to wait before dealing `card` (a dealing scanner's double-trigger window); absent: none */
  holdBefore?(card: Card): number;
}

export class VirtualTable {
  readonly shoe: VirtualShoeDevice;
  readonly seed: string | number;
  private readonly rng: Rng;
  private running = false;
  private readonly unplugRng: Rng;
  private hb: NodeJS.Timeout | null = null;
  private lastSend = 0;
  private done: Promise<void> | null = null;
  /** aborts the pauses in progress: stop() returns at once instead of after the current wait */
  private readonly halt = new AbortController();

  constructor(private readonly o: VirtualTableOptions) {
    this.seed = o.seed ?? randomSeed();
    this.rng = seededRng(this.seed);
    this.unplugRng = seededRng(`${this.seed}:unplug`);
    const write = (b: string | Buffer) => {
      this.lastSend = Date.now();
      o.write(b);
    };
    this.shoe = o.createShoe ? o.createShoe(write) : new VirtualCardShoe(write, seededRng(`${this.seed}:faults`), o.faults ?? NO_FAULTS);
  }

  /** bytes from the gateway to the shoe (RESCAN commands) */
  onGatewayBytes(bytes: Buffer): void {
    this.shoe.onGatewayBytes(bytes);
  }

  start(): Promise<void> {
    if (this.done) return this.done;
    this.running = true;
    this.shoe.powerUp();
    this.hb = setInterval(() => {
      if (Date.now() - this.lastSend >= 900) this.shoe.heartbeat();
    }, 250);
    this.hb.unref?.();
    this.done = this.run().finally(() => {
      if (this.hb) clearInterval(this.hb);
      this.hb = null;
      this.running = false;
    });
    return this.done;
  }

  async stop(): Promise<void> {
    this.running = false;
    this.halt.abort();
    await this.done?.catch(() => undefined);
  }

  private async pause(ms: number): Promise<void> {
    if (ms <= 0) await yieldToLoop();
    else await sleep(ms, undefined, { signal: this.halt.signal }).catch(() => undefined);
  }

  private async run(): Promise<void> {
    const o = this.o;
    for (let shoeNo = 0; this.running && (o.shoes === undefined || shoeNo < o.shoes); shoeNo++) {
      const actions = dealShoe(
        {
          game: o.game,
          decks: o.decks,
          burnPerRound: o.burnPerRound,
          engine: o.engine,
          cutCardFromEnd: o.cutCardFromEnd,
          decide: o.decide,
          gameOptions: o.gameOptions,
        },
        this.rng,
      );
      for (const a of actions) {
        if (!this.running) return;
        switch (a.type) {
          case 'load':
            if (!(await o.onLoad?.())) this.shoe.loaded();
            break;
          case 'cut':
            this.shoe.cut();
            await this.pause(o.cardIntervalMs);
            break;
          case 'card': {
            const hold = this.shoe.holdBefore?.(a.card) ?? 0;
            if (hold > 0) await sleep(hold, undefined, { signal: this.halt.signal }).catch(() => undefined);
            if (!this.running) return;
            if (!this.shoe.card(a.card)) await this.awaitRescan();
            o.onAction?.(a);
            await this.pause(o.cardIntervalMs);
            break;
          }
          case 'request':
            if (o.request) await o.request(a.command, a.args);
            break;
          case 'round-end':
            o.onAction?.(a);
            await this.maybeUnplug();
            await this.pause(o.roundIntervalMs);
            break;
          default:
            o.onAction?.(a);
        }
      }
      await this.pause(o.roundIntervalMs);
    }
  }

  /** between rounds, now and then: the cable is pulled for `unplug.ms`, then the shoe powers up again */
  private async maybeUnplug(): Promise<void> {
    const u = this.o.unplug;
    if (!u || u.rate <= 0 || this.unplugRng() >= u.rate) return;
    u.transport.setConnected(false, 'simulated unplug');
    await sleep(u.ms, undefined, { signal: this.halt.signal }).catch(() => undefined);
    u.transport.setConnected(true);
    if (this.running) this.shoe.powerUp();
  }

  /** waits for the gateway's RESCAN to be answered; rescans by hand after a while if not */
  private async awaitRescan(): Promise<void> {
    for (let i = 0; i < 40 && this.shoe.awaitingRescan && this.running; i++) await sleep(25, undefined, { signal: this.halt.signal }).catch(() => undefined);
    if (this.shoe.awaitingRescan && !this.o.manualRescan?.()) this.shoe.rescan();
  }
}
