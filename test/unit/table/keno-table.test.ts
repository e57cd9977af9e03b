import { describe, expect, it } from 'vitest';
import { kenoOutcome } from '../../../src/core/games/evaluators/keno.js';
import { DeviceTableHarness } from '../../helpers/table-harness.js';

// the seed example of games.md's digest: sum 693, small, gold
const SEED_DRAW = [1, 4, 5, 10, 11, 13, 20, 27, 30, 32, 33, 36, 40, 47, 54, 59, 61, 64, 67, 79];

const keno = (o: { betting?: 'engine' | 'none'; persisted?: Record<string, number> } = {}) =>
  new DeviceTableHarness({ id: 'keno-01', game: 'keno', devices: [{ id: 'balls-1', kind: 'ball-reader' }], ...o });
const start = (t: DeviceTableHarness) => t.frame('balls-1', 'BALL', { type: 'START' });
const end = (t: DeviceTableHarness) => t.frame('balls-1', 'BALL', { type: 'END' });
const balls = (t: DeviceTableHarness, ...ns: number[]) => {
  for (const n of ns) t.frame('balls-1', 'BALL', { type: 'BALL', ball: n });
};

describe('keno table, betting none', () => {
  it('START, 20 distinct balls, END -> result with balls in draw order and the keno outcome', () => {
    const t = keno();
    expect(t.lastRound()).toMatchObject({ phase: 'idle', expect: { kind: 'start' } });
    start(t);
    expect(t.lastRound()).toMatchObject({ phase: 'dealing', roundId: 'keno-01-r000001', started: true, expect: { kind: 'ball', index: 1 } });
    const order = [...SEED_DRAW].reverse();
    balls(t, ...order);
    expect(t.lastRound()).toMatchObject({ balls: order, expect: { kind: 'end' } });
    expect(t.results()).toHaveLength(0);
    end(t);
    const r = t.lastResult()!;
    expect(r).toMatchObject({ type: 'result', game: 'keno', roundId: 'keno-01-r000001', status: 'complete', balls: order });
    expect(r.outcome).toEqual(kenoOutcome(order));
    expect(r.outcome).toMatchObject({ sum: 693, bigSmall: 'small', sumOddEven: 'odd', oddEvenCount: 'odd', upDown: 'up', element: 'gold' });
    expect(r).not.toHaveProperty('cards');
    const ev = t.events('ball');
    expect(ev.map((e) => e.action)).toEqual(['start', ...order.map(() => 'ball'), 'end']);
    expect(ev[1]).toMatchObject({ ball: 79, index: 1, roundId: 'keno-01-r000001' });
    expect(t.lastRound()).toMatchObject({ phase: 'complete', balls: order });
  });

  it('a repeated ball -> ball-invalid, the draw is void; its remaining balls are ignored quietly; the next START is a new round', () => {
    const t = keno();
    start(t);
    balls(t, 1, 2, 3, 2);
    expect(t.alerts('ball-invalid')).toHaveLength(1);
    expect(t.alerts('ball-invalid')[0]).toMatchObject({ severity: 'warning', ball: 2, detail: expect.stringContaining('drawn twice') });
    expect(t.lastResult()).toMatchObject({ status: 'void', reason: 'ball-invalid', balls: [1, 2, 3], outcome: null, roundId: 'keno-01-r000001' });
    balls(t, 4, 5, 6);
    end(t);
    expect(t.alerts()).toHaveLength(1);
    expect(
      t
        .events('ball')
        .slice(-4)
        .every((e) => e.ignored === true),
    ).toBe(true);
    start(t);
    balls(t, ...SEED_DRAW);
    end(t);
    expect(t.lastResult()).toMatchObject({ status: 'complete', roundId: 'keno-01-r000002' });
  });

  it('BALL,81 (and BALL,0) is an invalid ball: void', () => {
    const t = keno();
    start(t);
    balls(t, 5, 81);
    expect(t.lastResult()).toMatchObject({ status: 'void', reason: 'ball-invalid', detail: 'ball 81 is outside 1..80' });
    const z = keno();
    start(z);
    balls(z, 0);
    expect(z.lastResult()).toMatchObject({ status: 'void', reason: 'ball-invalid' });
  });

  it('END before the 20th ball -> ball-invalid, void', () => {
    const t = keno();
    start(t);
    balls(t, ...SEED_DRAW.slice(0, 19));
    end(t);
    expect(t.lastResult()).toMatchObject({ status: 'void', reason: 'ball-invalid', detail: 'END after 19 of 20 balls', balls: SEED_DRAW.slice(0, 19) });
  });

  it('a 21st ball before END -> void', () => {
    const t = keno();
    start(t);
    balls(t, ...SEED_DRAW, 80);
    expect(t.lastResult()).toMatchObject({ status: 'void', reason: 'ball-invalid' });
  });

  it('START in the middle of a draw voids it and begins the next round', () => {
    const t = keno();
    start(t);
    balls(t, 1, 2);
    start(t);
    expect(t.lastResult()).toMatchObject({ status: 'void', reason: 'ball-invalid', roundId: 'keno-01-r000001' });
    balls(t, ...SEED_DRAW);
    end(t);
    expect(t.lastResult()).toMatchObject({ status: 'complete', roundId: 'keno-01-r000002' });
  });

  it('a BALL with no draw in progress is a ball-invalid alert and ignored; END alone is ignored', () => {
    const t = keno();
    balls(t, 7);
    end(t);
    expect(t.alerts('ball-invalid')).toHaveLength(1);
    expect(t.results()).toHaveLength(0);
    expect(t.lastRound()).toMatchObject({ phase: 'idle' });
  });

  it('void-round mid-draw: void result, the rest of that draw ignored', () => {
    const t = keno();
    start(t);
    balls(t, 10, 20);
    expect(t.request('void-round', { reason: 'ball stuck' })).toMatchObject({ status: 'ok', data: { roundId: 'keno-01-r000001' } });
    expect(t.lastResult()).toMatchObject({ status: 'void', reason: 'round-void', detail: 'ball stuck', balls: [10, 20] });
    balls(t, 30);
    end(t);
    expect(t.alerts().map((a) => a.kind)).toEqual(['round-void']);
  });

  it('round ids continue across restarts', () => {
    const t = keno();
    start(t);
    balls(t, ...SEED_DRAW);
    end(t);
    const again = keno({ persisted: t.counters() });
    start(again);
    expect(again.lastRound()!.roundId).toBe('keno-01-r000002');
  });
});

describe('keno table with an engine', () => {
  it('open-betting, close-betting, then the draw -> result', () => {
    const t = keno({ betting: 'engine' });
    t.request('open-betting');
    expect(t.lastRound()).toMatchObject({ phase: 'betting', expect: { kind: 'start' } });
    start(t); // the machine may start while betting is still open
    t.request('close-betting');
    balls(t, ...SEED_DRAW);
    end(t);
    expect(t.lastResult()).toMatchObject({ status: 'complete', roundId: 'keno-01-r000001', outcome: { sum: 693 } });
  });

  it('a ball drawn while betting is open voids the round', () => {
    const t = keno({ betting: 'engine' });
    t.request('open-betting');
    start(t);
    balls(t, 33);
    expect(t.alerts('round-void')).toHaveLength(1);
    expect(t.lastResult()).toMatchObject({ status: 'void', reason: 'round-void' });
    balls(t, 34);
    end(t);
    expect(t.alerts()).toHaveLength(1);
  });

  it('a draw with no round open: no-round-open, its balls ignored', () => {
    const t = keno({ betting: 'engine' });
    start(t);
    balls(t, ...SEED_DRAW);
    end(t);
    expect(t.alerts().map((a) => a.kind)).toEqual(['no-round-open']);
    expect(t.results()).toHaveLength(0);
  });
});

describe('keno messages match the MQTT API schemas', () => {
  it('every message of complete, void and ignored draws, with and without an engine', () => {
    for (const betting of ['none', 'engine'] as const) {
      const t = keno({ betting });
      if (betting === 'engine') {
        t.request('open-betting');
        start(t);
        balls(t, 5);
        t.request('open-betting');
        t.request('close-betting');
      }
      start(t);
      balls(t, ...SEED_DRAW);
      end(t);
      start(t);
      balls(t, 1, 1, 2);
      end(t);
      start(t);
      balls(t, 81);
      end(t);
      start(t);
      balls(t, ...SEED_DRAW, 80);
      end(t);
      start(t);
      balls(t, 3);
      start(t);
      end(t);
      balls(t, 9);
      end(t);
      t.request('status');
      t.request('void-round', { reason: 'x' });
      expect(t.invalidMessages()).toEqual([]);
    }
  });
});
