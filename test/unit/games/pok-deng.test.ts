import { describe, expect, it } from 'vitest';
import { pokDeng as g, specialHandsPredicate } from '../../../src/core/games/pok-deng.js';
import { simulate } from '../../../src/app/simulate/simulate.js';
import { valueCounts } from './exact.js';
import { expectRate, hand, play } from './helpers.js';

const ORDER = ['p1', 'p2', 'p3', 'p4', 'p5', 'banker', 'p1', 'p2', 'p3', 'p4', 'p5', 'banker'];

describe('Pok Deng (seed 001)', () => {
  it('burn 1 face down, then P1..P5, B, P1..P5, B, all face down', () => {
    expect(g.defaults).toMatchObject({ decks: 8, burnPerRound: 1, burnFaceDown: true, maxCardsPerRound: 12 });
    const cards = '8S 3H KD 4C 4S 2D 7H 6H AD 4H 5H 9C';
    const withEngine = play(g, cards, { engine: true });
    expect(withEngine.placed.map((x) => x.position)).toEqual(ORDER);
    expect(withEngine.placed.every((x) => x.faceDown && x.revealAt === 'close-betting')).toBe(true);
    const noEngine = play(g, cards, { engine: false });
    expect(noEngine.placed.every((x) => x.faceDown && x.revealAt === 'result')).toBe(true);
    expect(g.cards(withEngine.state)).toEqual({
      p1: hand('8S 7H'),
      p2: hand('3H 6H'),
      p3: hand('KD AD'),
      p4: hand('4C 4H'),
      p5: hand('4S 5H'),
      banker: hand('2D 9C'),
    });
  });

  it('per hand and per player vs banker, worked from the sheet', () => {
    // p1 8+7 = 15 -> 5 (the sheet's example); p2 3+6 = 9 flush (pok); p3 K+A = 1 flush; p4 4+4 = 8 pair (pok);
    // p5 4+5 = 9 (pok); banker 2+9 = 11 -> 1
    const o = g.outcome(play(g, '8S 3H KD 4C 4S 2D 7H 6H AD 4H 5H 9C').state) as { positions: Record<string, unknown> };
    expect(o.positions).toEqual({
      p1: { points: 5, pok: false, pair: false, flush: false, deng: 1, outcome: 'win', multiplier: 1 },
      p2: { points: 9, pok: true, pair: false, flush: true, deng: 2, outcome: 'win', multiplier: 2 },
      p3: { points: 1, pok: false, pair: false, flush: true, deng: 2, outcome: 'tie', multiplier: 0 },
      p4: { points: 8, pok: true, pair: true, flush: false, deng: 2, outcome: 'win', multiplier: 2 },
      p5: { points: 9, pok: true, pair: false, flush: false, deng: 1, outcome: 'win', multiplier: 1 },
      banker: { points: 1, pok: false, pair: false, flush: false, deng: 1 },
    });
  });

  it('notes 3, 5 and 6: banker wins 2x with pair/flush; banker on 0 or 6 pays 1x except to a pok with pair/flush', () => {
    // banker 3S 3H = 6 with a pair
    //   p1 2C 2D = 4 pair: loses 2 (note 3); p2 5D 2D = 7 flush: wins but banker on 6 -> 1 (note 5)
    //   p3 4D 4S = 8 pair: pok with pair -> 2 (note 6); p4 AC 5C = 6 flush: tie 0; p5 KC 9H = 9: wins 1
    const o = g.outcome(play(g, '2C 5D 4D AC KC 3S 2D 2D 4S 5C 9H 3H').state) as { positions: Record<string, Record<string, unknown>> };
    expect(o.positions.banker).toEqual({ points: 6, pok: false, pair: true, flush: false, deng: 2 });
    expect(o.positions.p1).toMatchObject({ points: 4, outcome: 'lose', multiplier: 2 });
    expect(o.positions.p2).toMatchObject({ points: 7, flush: true, outcome: 'win', multiplier: 1 });
    expect(o.positions.p3).toMatchObject({ points: 8, pok: true, pair: true, outcome: 'win', multiplier: 2 });
    expect(o.positions.p4).toMatchObject({ points: 6, flush: true, outcome: 'tie', multiplier: 0 });
    expect(o.positions.p5).toMatchObject({ points: 9, pok: true, outcome: 'win', multiplier: 1 });
  });

  it('special hands: a config list (empty by default); a special hand counts between 7 and 8', () => {
    const cards = 'JS 2C 3C 4C 5C 6S QH 2D 3D 4D 5D 9H';
    // p1 J Q = 0 normally; banker 6 + 9 = 5
    const plain = g.outcome(play(g, cards).state) as { positions: Record<string, Record<string, unknown>> };
    expect(plain.positions.p1).toMatchObject({ points: 0, outcome: 'lose', multiplier: 1 });
    expect(plain.positions.p1.special).toBeUndefined();
    const special = g.outcome(play(g, cards, { options: { specialHands: ['J Q'] } }).state) as { positions: Record<string, Record<string, unknown>> };
    expect(special.positions.p1).toMatchObject({ points: 0, special: true, outcome: 'win', multiplier: 2 });
    expect(specialHandsPredicate(['KS-QS'])!(hand('QS KS'))).toBe(true);
    expect(specialHandsPredicate(['KS-QS'])!(hand('QS KH'))).toBe(false);
    expect(specialHandsPredicate(['9* 9*'])!(hand('9S 9H'))).toBe(true);
    expect(() => g.newRound({ engine: false, options: { specialHands: ['J'] } })).toThrow(/two card patterns/);
  });

  it('statistics: pok, pair, flush and p1-vs-banker outcomes match the exact 8-deck composition', () => {
    const c = valueCounts(8);
    const N = 416;
    // P(two cards are worth 8 or 9 together)
    let pok = 0;
    for (let a = 0; a < 10; a++) for (let b = 0; b < 10; b++) if ((a + b) % 10 >= 8) pok += (c[a] * (c[b] - (a === b ? 1 : 0))) / (N * (N - 1));
    // p1 vs banker on points: four cards, enumerated by value
    let win = 0;
    let tie = 0;
    const cc = [...c];
    let rem = N;
    const walk = (vals: number[], w: number) => {
      if (vals.length === 4) {
        const p = (vals[0] + vals[1]) % 10;
        const b = (vals[2] + vals[3]) % 10;
        if (p > b) win += w;
        else if (p === b) tie += w;
        return;
      }
      for (let v = 0; v < 10; v++) {
        if (!cc[v]) continue;
        const wv = (w * cc[v]) / rem;
        cc[v]--;
        rem--;
        walk([...vals, v], wv);
        cc[v]++;
        rem++;
      }
    };
    walk([], 1);
    const n = 100_000;
    const r = simulate({ game: 'pok-deng', rounds: n, seed: 'pd-stats-1' }).counts;
    const sum = (field: string, value: string) => ['p1', 'p2', 'p3', 'p4', 'p5'].reduce((a, p) => a + (r[`positions.${p}.${field}`][value] ?? 0), 0);
    expectRate('pok-deng pok (p1..p5)', sum('pok', 'true'), 5 * n, pok);
    expectRate('pok-deng banker pok', r['positions.banker.pok'].true, n, pok);
    expectRate('pok-deng pair (p1..p5)', sum('pair', 'true'), 5 * n, 31 / 415);
    expectRate('pok-deng flush (p1..p5)', sum('flush', 'true'), 5 * n, 103 / 415);
    expectRate('pok-deng p1 outcome=win', r['positions.p1.outcome'].win, n, win);
    expectRate('pok-deng p1 outcome=tie', r['positions.p1.outcome'].tie, n, tie);
    expectRate('pok-deng p3 outcome=tie', r['positions.p3.outcome'].tie, n, tie);
  });
});
