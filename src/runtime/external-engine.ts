/**
 * A simulated table left to an external engine (`transport.engine: external` on its simulated
 * device, `betting: engine`): the virtual dealer does not send the betting requests itself; at
 * each point where it would, it waits until the table shows that the engine did — a new round
 * in `betting` for `open-betting`, betting closed for `close-betting`, the decision window gone
 * for `close-decisions` — by following the table's own `round` messages. So an engine developer
 * drives the demo's rounds with their own engine while the virtual shoe deals the cards.
 *
 * Player decisions are the engine's: the dealer's own are not sent (`decision` resolves at once);
 * the config allows this only for games whose decisions do not change the deal
 * (src/app/config/load-config.ts). Requests the dealer would send as the pit (`new-shoe`) are
 * not sent either: the engine or the pit sends them.
 */
import type { Observable, Subscription } from 'rxjs';
import type { SimulatedEngineRequest } from './simulators.js';

interface RoundView {
  phase?: unknown;
  roundId?: unknown;
  expect?: { kind?: unknown } | null;
}

/** a round opened and not yet over (`idle` is no round; `complete` and `void` are over) */
function inProgress(r: RoundView): boolean {
  return typeof r.roundId === 'string' && r.phase !== undefined && r.phase !== 'idle' && r.phase !== 'complete' && r.phase !== 'void';
}

export interface ExternalEngineFollower {
  request: SimulatedEngineRequest;
  /** the gateway stops: every wait ends (rejected) */
  close(): void;
}

/**
 * What a virtual dealer that resumed its shoe after a gateway restart tells the follower (never
 * sent to the table): the round the table restored with cards (balls, dice) already dealt into it
 * is the dealer's, dealt on without an `open-betting` of its own; the follower counts it as opened,
 * so the dealer's next `open-betting` waits for the engine's next round.
 */
export const RESUMED_ROUND = 'resumed-round';

/**
 * follows the `round` messages of one table (`published`: what the table publishes, in order);
 * `resumedRound`: the id of the table's round that has something dealt into it, else of its last
 * round (read for `RESUMED_ROUND`)
 */
export function followExternalEngine(
  published: Observable<{ topic: string; payload: { type?: unknown } & RoundView }>,
  resumedRound?: () => string | undefined,
): ExternalEngineFollower {
  let round: RoundView = {};
  /** the round the dealer last saw opened (a new open-betting waits for another) */
  let opened: unknown;
  let closed = false;
  /** the round showed its decision window (the dealer may ask before the table has shown it) */
  let windowSeen = false;
  const waiters = new Set<{ check: () => boolean; resolve: () => void; reject: (e: Error) => void }>();
  const sub: Subscription = published.subscribe((m) => {
    if (m.topic !== 'round') return;
    round = m.payload;
    if (round.expect?.kind === 'close-decisions') windowSeen = true;
    for (const w of [...waiters])
      if (w.check()) {
        waiters.delete(w);
        w.resolve();
      }
  });
  const until = (check: () => boolean): Promise<void> => {
    if (closed) return Promise.reject(new Error('the gateway is stopping'));
    if (check()) return Promise.resolve();
    return new Promise((resolve, reject) => waiters.add({ check, resolve, reject }));
  };
  const request: SimulatedEngineRequest = async (command) => {
    switch (command) {
      case 'open-betting':
        // a round the dealer has not dealt yet: opened by the engine (in betting, or already
        // closed if the engine was quick), or the round in progress the table restored after a
        // gateway restart (the dealer resumes it)
        await until(() => inProgress(round) && round.roundId !== opened);
        opened = round.roundId;
        return { status: 'ok', data: { roundId: round.roundId } };
      case 'close-betting':
        // (a table just restarted has shown no round yet: wait for it)
        await until(() => round.roundId !== undefined && (round.roundId !== opened || (round.phase !== 'betting' && round.phase !== 'idle')));
        return { status: 'ok' };
      case 'close-decisions':
        await until(
          () =>
            round.roundId !== undefined &&
            (round.roundId !== opened || round.phase === 'complete' || round.phase === 'void' || (windowSeen && round.expect?.kind !== 'close-decisions')),
        );
        windowSeen = false;
        return { status: 'ok' };
      case RESUMED_ROUND: {
        const id = resumedRound?.();
        if (id !== undefined) opened = id;
        return { status: 'ok' };
      }
      default:
        // decisions and pit requests are the external engine's (or the pit's)
        return { status: 'ok' };
    }
  };
  return {
    request,
    close() {
      closed = true;
      sub.unsubscribe();
      for (const w of waiters) w.reject(new Error('the gateway is stopping'));
      waiters.clear();
    },
  };
}
