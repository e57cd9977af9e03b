/**
 * An example game engine built on the engine client (`@table-edge/engine-client`, its public API
 * only): it drives the demo's `betting: engine` tables that are left to it and follows every table
 * of the gateway (docs/ENGINES.md).
 *
 * Per table it drives, rounds one after the other: `open-betting` with its own round id, a betting
 * window, `close-betting`, in Three Card Poker the player's decision and `close-decisions` when the
 * table shows the decision window, then the round's one `result`. Every request follows the retry
 * policy of docs/ENGINES.md through the client (QoS 1, a fresh transaction, the same transaction on
 * a retry: the answer is the one answer, fresh or `replayed`). A refused `open-betting`
 * (`wrong-phase`: the shoe is being changed, or the table is still busy) is final: the engine
 * decides again later with a new request and a new round id.
 *
 * It drives only games whose player decisions do not change the deal. Blackjack and Hold'em
 * tables it follows without driving: the demo leaves them to its virtual engine (an engine of
 * your own cannot drive them on a simulated table: the virtual dealer could not follow decisions
 * that change the deal).
 */
import { firstValueFrom, filter, race, map, type Subscription } from 'rxjs';
import type { AnyGameResultMessage, EngineClient, ResponseMessage, TableEntry } from '@table-edge/engine-client';

/** games whose player decisions change the deal: a simulated table of these cannot be left to this engine */
export const NOT_DRIVEN = new Set(['blackjack', 'holdem']);

export interface DemoEngineOptions {
  /** a connected client (EngineClient.connect) */
  client: EngineClient;
  /** the tables to drive (default: every `betting: engine` table of the gateway whose game it drives) */
  tables?: string[];
  /** rounds per table, then it stops driving that table (default: until stop()) */
  rounds?: number;
  /** ms betting stays open (default 1000) */
  bettingMs?: number;
  /** one attempt's timeout and the retries of every request (docs/ENGINES.md "Retry policy") */
  request?: { timeoutMs?: number; attempts?: number; backoffMs?: number; maxBackoffMs?: number };
  /** told about every request and its one answer, and every result */
  onRequest?: (r: AskedRequest) => void;
  onResult?: (table: string, r: AnyGameResultMessage) => void;
}

/** what the engine asked and what it was told */
export interface AskedRequest {
  table: string;
  command: string;
  /** the request's arguments (its round id for `open-betting`) */
  args: object;
  transaction: string;
  answer: ResponseMessage;
}

export class DemoEngine {
  /** every request the engine sent, with its one answer */
  readonly asked: AskedRequest[] = [];
  /** the round ids the table accepted (`open-betting` ok), per table */
  readonly opened = new Map<string, string[]>();
  /** every round id the engine asked to open, accepted or not, per table (never asked twice) */
  readonly roundIds = new Map<string, string[]>();
  /** every result per table (each round's one result, corrections aside) */
  readonly results = new Map<string, AnyGameResultMessage[]>();
  private running = false;
  private readonly subs: Subscription[] = [];
  private loops: Promise<void>[] = [];
  private readonly failures: unknown[] = [];
  private readonly shoeState = new Map<string, string>();
  /** each table's latest `round`: its id and what the table expects next */
  private readonly lastRound = new Map<string, { roundId?: string; expect?: string }>();
  private readonly tag: string;

  constructor(private readonly o: DemoEngineOptions) {
    // round ids unique across the engine's runs: its client's run id names them
    this.tag = o.client.runId.replace(/[^A-Za-z0-9]/g, '').slice(0, 8);
  }

  /** the tables this engine drives among `tables` (the gateway's): `betting: engine`, a game it drives */
  static drivable(tables: TableEntry[]): string[] {
    return tables.filter((t) => t.betting === 'engine' && !NOT_DRIVEN.has(t.game)).map((t) => t.id);
  }

  /** follows every table of the gateway and drives its own; resolves once the loops are running */
  start(tables: TableEntry[]): void {
    const c = this.o.client;
    this.running = true;
    const driven = this.o.tables ?? DemoEngine.drivable(tables);
    for (const t of tables) {
      this.results.set(t.id, []);
      this.subs.push(
        c.results$(t.id).subscribe((r) => {
          this.results.get(t.id)!.push(r);
          this.o.onResult?.(t.id, r);
        }),
        c.of(t.id, 'shoe').subscribe((s) => this.shoeState.set(t.id, s.state)),
        c.of(t.id, 'round').subscribe((r) => this.lastRound.set(t.id, { roundId: r.roundId, expect: windowOf(r) })),
      );
    }
    this.loops = driven.map((id) => {
      const game = tables.find((t) => t.id === id)?.game ?? '';
      this.opened.set(id, []);
      this.roundIds.set(id, []);
      return this.drive(id, game).catch((e: unknown) => {
        this.failures.push(e);
      });
    });
  }

  /** stops opening rounds; resolves when every round in progress has its result */
  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
    for (const s of this.subs) s.unsubscribe();
    if (this.failures.length) throw this.failures[0];
  }

  /** the first failure of a table's loop, if any */
  get failure(): unknown {
    return this.failures[0];
  }

  /** rounds whose result came, per table (the least of the driven tables) */
  roundsDone(): number {
    const counts = [...this.opened.keys()].map((t) => this.results.get(t)!.length);
    return counts.length ? Math.min(...counts) : 0;
  }

  private async ask(table: string, command: 'open-betting' | 'close-betting' | 'decision' | 'close-decisions', args: object): Promise<ResponseMessage> {
    const c = this.o.client;
    const transaction = c.newTransaction();
    const answer = await c.request(table, command, args as never, {
      transaction,
      timeoutMs: this.o.request?.timeoutMs ?? 5_000,
      attempts: this.o.request?.attempts ?? 20,
      backoffMs: this.o.request?.backoffMs ?? 1_000,
      maxBackoffMs: this.o.request?.maxBackoffMs ?? 30_000,
    });
    const r = { table, command, args, transaction, answer };
    this.asked.push(r);
    this.o.onRequest?.(r);
    return answer;
  }

  private pause(ms: number): Promise<void> {
    return new Promise((r) => setTimeout(r, ms));
  }

  private async drive(table: string, game: string): Promise<void> {
    const c = this.o.client;
    let next = 0;
    for (let n = 1; this.running && (this.o.rounds === undefined || n <= this.o.rounds); n++) {
      // open: refused while the shoe is changed, the table is busy or a single deck has no room
      // for a round; a refusal changes nothing, and the engine decides again later with a new
      // request (and, to keep its own log simple, a new round id).
      let open: ResponseMessage | null = null;
      let roundId = '';
      let result: Promise<AnyGameResultMessage> | null = null;
      while (this.running && open?.status !== 'ok') {
        const shoe = this.shoeState.get(table);
        if (shoe !== undefined && shoe !== 'dealing' && shoe !== 'last-round') {
          await this.pause(100);
          continue;
        }
        roundId = `${this.tag}-${++next}`;
        const id = roundId;
        // the table's result for this round (subscribed before the round can end)
        result = firstValueFrom(c.results$(table).pipe(filter((r) => r.roundId === id)));
        this.roundIds.get(table)!.push(roundId);
        open = await this.ask(table, 'open-betting', { roundId });
        if (open.status !== 'ok') {
          void result.catch(() => {});
          if (open.code !== 'wrong-phase') throw new Error(`${table}: open-betting refused: ${open.code} ${open.error ?? ''}`);
          await this.pause(200);
        }
      }
      if (open?.status !== 'ok' || !result) return;
      this.opened.get(table)!.push(roundId);
      await this.pause(this.o.bettingMs ?? 1_000);
      const closed = await this.ask(table, 'close-betting', {});
      // refused `wrong-phase`: the table voided the round while betting was open (its result says so)
      if (closed.status === 'ok' && game === 'three-card-poker') await this.decisions(table, roundId, result);
      await result;
    }
  }

  /** Three Card Poker: when the table shows the decision window, the player plays and the window closes */
  private async decisions(table: string, roundId: string, result: Promise<AnyGameResultMessage>): Promise<void> {
    const c = this.o.client;
    for (;;) {
      const inWindow = (r: { roundId?: string; expect?: string } | undefined) => r?.roundId === roundId && r.expect === 'close-decisions';
      const window = c.of(table, 'round').pipe(
        filter((r) => inWindow({ roundId: r.roundId, expect: windowOf(r) })),
        map(() => 'window' as const),
      );
      // the window may have opened with the close-betting answer already
      const next = inWindow(this.lastRound.get(table))
        ? 'window'
        : await firstValueFrom(
            race(
              window,
              result.then(() => 'over' as const),
            ),
          );
      if (next === 'over') return;
      await this.ask(table, 'decision', { seat: 'player', action: 'play' });
      const closed = await this.ask(table, 'close-decisions', {});
      if (closed.status === 'ok') return;
      // the window was not open after all: wait for it again
      this.lastRound.delete(table);
    }
  }
}

/** what a `round` message says the table expects next (`close-decisions`: the decision window is open) */
function windowOf(r: object): string | undefined {
  const e = (r as { expect?: { kind?: unknown } | null }).expect;
  return typeof e?.kind === 'string' ? e.kind : undefined;
}
