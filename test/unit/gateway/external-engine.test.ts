/**
 * The virtual dealer's side of an external engine (src/runtime/external-engine.ts): each of its
 * betting requests waits until the table's own `round` messages show that the engine did it.
 */
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { followExternalEngine, RESUMED_ROUND } from '../../../src/runtime/external-engine.js';

type Msg = { topic: string; payload: Record<string, unknown> };
const round = (phase: string, roundId?: string, expect: unknown = null): Msg => ({
  topic: 'round',
  payload: { type: 'round', phase, ...(roundId ? { roundId } : {}), expect },
});
const settled = async (p: Promise<unknown>) =>
  Promise.race([
    p.then(
      () => 'resolved',
      () => 'rejected',
    ),
    new Promise((r) => setTimeout(() => r('pending'), 20)),
  ]);

describe('following an external engine', () => {
  it('open-betting waits for a new round in betting, close-betting for betting closed, close-decisions for the window to close', async () => {
    const published = new Subject<Msg>();
    const f = followExternalEngine(published);
    const open = f.request('open-betting');
    published.next(round('idle'));
    expect(await settled(open)).toBe('pending');
    published.next(round('betting', 'R1'));
    expect(await open).toEqual({ status: 'ok', data: { roundId: 'R1' } });

    const close = f.request('close-betting');
    published.next(round('betting', 'R1'));
    expect(await settled(close)).toBe('pending');
    published.next(round('dealing', 'R1', { kind: 'card', position: 'player', faceDown: true }));
    expect(await settled(close)).toBe('resolved');

    // the dealer may ask before the table has shown the window: it waits for the window to open and close
    const window = f.request('close-decisions');
    expect(await settled(window)).toBe('pending');
    published.next(round('dealing', 'R1', { kind: 'close-decisions' }));
    expect(await settled(window)).toBe('pending');
    published.next(round('dealing', 'R1', { kind: 'card', position: 'dealer', faceDown: false }));
    expect(await settled(window)).toBe('resolved');
    // the dealer's own decisions are not sent: the engine's are what counts
    expect(await settled(f.request('decision', { seat: 'player', action: 'play' }))).toBe('resolved');

    // the same round in betting again is not a new round
    published.next(round('complete', 'R1'));
    const next = f.request('open-betting');
    published.next(round('betting', 'R1'));
    expect(await settled(next)).toBe('pending');
    f.close();
    expect(await settled(next)).toBe('rejected');
    await expect(f.request('open-betting')).rejects.toThrow(/stopping/);
  });

  it('after a gateway restart the round the table restored is the one the resumed dealer deals; an engine quicker than the dealer is followed too', async () => {
    // the dealer restarted in the middle of R1 (betting already closed): its open-betting is R1, not a new round
    const published = new Subject<Msg>();
    const f = followExternalEngine(published);
    published.next(round('dealing', 'R1', { kind: 'card', position: 'player', faceDown: false }));
    expect(await f.request('open-betting')).toEqual({ status: 'ok', data: { roundId: 'R1' } });
    expect(await settled(f.request('close-betting'))).toBe('resolved');
    // a round that is over is not opened again
    published.next(round('complete', 'R1'));
    const next = f.request('open-betting');
    expect(await settled(next)).toBe('pending');
    // the engine opened and closed R2 before the dealer looked: R2 is the round to deal
    published.next(round('dealing', 'R2', { kind: 'card', position: 'player', faceDown: false }));
    expect(await next).toEqual({ status: 'ok', data: { roundId: 'R2' } });
    // a void round restored is over: the dealer waits for the engine's next round
    published.next(round('void', 'R2'));
    const after = f.request('open-betting');
    published.next(round('idle'));
    expect(await settled(after)).toBe('pending');
    f.close();
  });

  it('a dealer that resumed a round dealt into before the restart claims it: its next open-betting waits for the engine, its close-betting for a round shown', async () => {
    const published = new Subject<Msg>();
    let restored: string | undefined = 'R7';
    const f = followExternalEngine(published, () => restored);
    // nothing shown yet after the restart: close-betting waits for the table's round
    expect(await f.request(RESUMED_ROUND)).toEqual({ status: 'ok' });
    const close = f.request('close-betting');
    expect(await settled(close)).toBe('pending');
    published.next(round('betting', 'R7'));
    expect(await settled(close)).toBe('pending');
    published.next(round('dealing', 'R7', { kind: 'card', position: 'player', faceDown: false }));
    expect(await settled(close)).toBe('resolved');
    // R7 still shows in progress (its last card not yet taken): the next open-betting is not R7
    const next = f.request('open-betting');
    expect(await settled(next)).toBe('pending');
    published.next(round('complete', 'R7'));
    published.next(round('betting', 'R8'));
    expect(await next).toEqual({ status: 'ok', data: { roundId: 'R8' } });
    // no round dealt into: nothing claimed
    restored = undefined;
    const g = followExternalEngine(published, () => restored);
    await g.request(RESUMED_ROUND);
    published.next(round('betting', 'R8'));
    expect(await g.request('open-betting')).toEqual({ status: 'ok', data: { roundId: 'R8' } });
    f.close();
    g.close();
  });
});
