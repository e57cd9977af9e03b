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
import type { ShoeCheckpointStore } from './shoe-checkpoint.js';
import type { SimulatedTableView } from '../src/runtime/simulators.js';
import { RESUMED_ROUND } from '../src/runtime/external-engine.js';

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
  /**
   * the shoe survives a gateway restart: `store` keeps which of the dealer's shoes is in the table
   * (written at each load), `view` is the table's state when the dealer starts; the dealer then
   * deals on from the table's next card instead of loading a new shoe
   */
  resume?: {
    store: ShoeCheckpointStore;
    view: () => SimulatedTableView;
    onResume?: (detail: string) => void;
    /** the requests go to a follower of an external engine: tell it the round the dealer deals on (`RESUMED_ROUND`) */
    claim?: boolean;
  };
}

/** where a restarted dealer starts: its shoe `shoeNo`, after the cards the table already counted (`skip`) */
interface ResumePoint {
  shoeNo: number;
  skip: { cards: number; cut: boolean; reveal: string | null; rescan: boolean } | null;
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
  /** the card is in the read window unread, as after a MISREAD (a restart while the table waits for its rescan); absent: the next card read is the rescan */
  holdForRescan?(card: Card): void;
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

  /**
   * After a gateway restart: the shoe the table holds is the dealer's shoe `shoeNo` of the
   * checkpoint unless its LOADED never reached the table (the table still names the shoe before
   * it: load it again) or the shoe is over (closed or void) or not one the table saw loaded (a
   * fresh journal): the next shoe. Otherwise the dealer
   * deals on after the `cardsDealt` cards (and the cut card) the table counted.
   */
  private resumePoint(): ResumePoint | null {
    const r = this.o.resume;
    const cp = r?.store.load();
    if (!r || !cp || cp.seed !== String(this.seed)) return null;
    const sh = r.view().shoe;
    const id = typeof sh?.shoeId === 'string' ? sh.shoeId : null;
    if (id === cp.shoeBefore) return { shoeNo: cp.shoeNo, skip: null };
    if (!sh || sh.loaded === false || sh.state === 'closed' || sh.state === 'void' || typeof sh.cardsDealt !== 'number')
      return { shoeNo: cp.shoeNo + 1, skip: null };
    return {
      shoeNo: cp.shoeNo,
      skip: {
        cards: sh.cardsDealt,
        cut: sh.cutCardSeen === true,
        reveal: typeof sh.revealCard === 'string' ? sh.revealCard : null,
        rescan: sh.rescanPending === true,
      },
    };
  }

  private async run(): Promise<void> {
    const o = this.o;
    const from = this.resumePoint();
    if (from?.skip) o.resume?.onResume?.(`dealing on from card ${from.skip.cards + 1} of shoe ${from.shoeNo + 1} (seed ${this.seed})`);
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
      // the shoes dealt before a restart: shuffled again (the dealer's random stream), not dealt
      if (from && shoeNo < from.shoeNo) {
        for (const _ of actions);
        continue;
      }
      let skip = from && shoeNo === from.shoeNo && from.skip ? { ...from.skip, first: true } : null;
      /** the table waits for the rescan of the next card: it is in the read window, unread */
      let rescanNext = false;
      for (const a of actions) {
        if (!this.running) return;
        if (skip) {
          // the cards the table counted before the restart are out of the shoe already
          if (a.type === 'load') continue;
          if (a.type === 'card' && skip.cards > 0) {
            if (skip.first && skip.reveal !== null && a.role === 'reveal' && a.card !== skip.reveal) {
              // not this dealer's shoe (e.g. the pit's new-shoe): a new shoe is loaded instead
              o.resume?.onResume?.(`the table's shoe (reveal ${skip.reveal}) is not shoe ${shoeNo + 1} of seed ${this.seed}: loading a new shoe`);
              for (const _ of actions);
              break;
            }
            skip.first = false;
            skip.cards--;
            continue;
          }
          if (a.type === 'cut' && skip.cut) {
            skip.cut = false;
            continue;
          }
          if (skip.cards > 0) continue;
          rescanNext = skip.rescan;
          skip = null;
          if (o.resume?.claim && o.request) await o.request(RESUMED_ROUND);
        }
        switch (a.type) {
          case 'load':
            o.resume?.store.save({ seed: String(this.seed), shoeNo, shoeBefore: (o.resume.view().shoe?.shoeId as string | undefined) ?? null });
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
            if (rescanNext && this.shoe.holdForRescan) {
              rescanNext = false;
              this.shoe.holdForRescan(a.card);
              await this.awaitRescan();
            } else if (!this.shoe.card(a.card)) await this.awaitRescan();
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
