import { describe, expect, it } from 'vitest';
import { threePictures as g } from '../../../src/core/games/three-pictures.js';
import { evaluateThreePictures } from '../../../src/core/games/evaluators/three-pictures.js';
import { simulate } from '../../../src/app/simulate/simulate.js';
import { deckSubsets } from './exact.js';
import { expectRate, hand, isError, play } from './helpers.js';

type Pos = Record<string, Record<string, unknown>>;
const ORDER = ['p1', 'p2', 'p3', 'banker', 'p1', 'p2', 'p3', 'banker', 'p1', 'p2', 'p3', 'banker'];

/** the twelve cards in dealing order for the given hands */
const deal = (p1: string, p2: string, p3: string, b: string) => {
  const hs = [hand(p1), hand(p2), hand(p3), hand(b)];
  return [0, 1, 2].flatMap((i) => hs.map((h) => h[i]));
};

describe('3 Pictures (seeds 000, 003)', () => {
  it('burn 4, one deck, three cards each clockwise from P1, banker last', () => {
    expect(g.defaults).toMatchObject({ decks: 1, burnPerRound: 4, singleDeck: true, maxCardsPerRound: 12 });
    const r = play(g, deal('JS 3H 6D', 'KS QH JD', '2C 3C 4C', 'QS TH 9D'));
    expect(r.placed.map((x) => x.position)).toEqual(ORDER);
    expect(r.placed.every((x) => !x.faceDown)).toBe(true);
    expect(g.cards(r.state)).toEqual({ p1: hand('JS 3H 6D'), p2: hand('KS QH JD'), p3: hand('2C 3C 4C'), banker: hand('QS TH 9D') });
  });

  it("the sheet's tie: J♠ 3♥ 6♦ vs Q♠ 10♥ 9♦ are both Single Knight 9", () => {
    const o = g.outcome(play(g, deal('JS 3H 6D', 'KS QH JD', '2C 3C 4C', 'QS TH 9D')).state) as { positions: Pos };
    expect(o.positions.p1).toEqual({
      rank: 3,
      rankName: 'single-knight-9',
      points: 9,
      pictures: 1,
      outcome: 'tie',
      winWith6: false,
      threeKnights: false,
      pairPlus: null,
    });
    expect(o.positions.banker).toEqual({ rank: 3, rankName: 'single-knight-9', points: 9, pictures: 1, pairPlus: null });
    // three pictures beat everything (K-Q-J is also a straight for Pair Plus); 2-3-4 suited is a plain 9
    // with a straight flush for Pair Plus
    expect(o.positions.p2).toMatchObject({
      rank: 1,
      rankName: 'three-knights',
      points: 0,
      pictures: 3,
      outcome: 'win',
      threeKnights: true,
      pairPlus: 'straight',
    });
    expect(o.positions.p3).toMatchObject({
      rank: 4,
      rankName: 'plain-9',
      points: 9,
      pictures: 0,
      outcome: 'lose',
      threeKnights: false,
      pairPlus: 'straight-flush',
    });
  });

  it('the ranking list: double knights beat single knights beat plain of the same points; 10 is no picture', () => {
    const rank = (s: string) => evaluateThreePictures(hand(s));
    expect(rank('JS QH 9D')).toMatchObject({ rank: 2, rankName: 'double-knights-9' });
    expect(rank('KS QH 8D')).toMatchObject({ rank: 5, rankName: 'double-knights-8' });
    expect(rank('KS 4H 4D')).toMatchObject({ rank: 6, rankName: 'single-knight-8' });
    expect(rank('AS 2H 4D')).toMatchObject({ rank: 10, rankName: 'plain-7' });
    expect(rank('JS QH TD')).toMatchObject({ rank: 29, rankName: 'double-knights-0', pictures: 2 }); // "2 pictures + 10"
    expect(rank('TS TH TD')).toMatchObject({ rank: 31, rankName: 'plain-0', pictures: 0, pairPlus: 'three-of-a-kind' });
    expect(rank('QS 7H 9D')).toMatchObject({ rank: 12, rankName: 'single-knight-6', points: 6 }); // 7+9 = 16 -> 6
  });

  it('winWith6: whichever side won this comparison with rank 11-13 (half pay)', () => {
    // p1 K Q 6 = double knights 6 (rank 11) beats banker plain 5; p2 2 2 2 = plain 6 loses to banker? no: plain 6 (13) beats plain 5 (16)
    // p3 A 2 2 = plain 5 ties the banker; banker 3 A A = plain 5
    const o = g.outcome(play(g, deal('KS QH 6D', '2C 2D 2H', 'AH 2S 2D', '3C AD AC')).state) as { positions: Pos };
    expect(o.positions.p1).toMatchObject({ rank: 11, outcome: 'win', winWith6: true });
    expect(o.positions.p2).toMatchObject({ rank: 13, outcome: 'win', winWith6: true, pairPlus: 'three-of-a-kind' });
    expect(o.positions.p3).toMatchObject({ rank: 16, outcome: 'tie', winWith6: false, pairPlus: 'pair' });
    // the banker winning with a 6 against a lower player: winWith6 too (the banker-win half pay)
    const b = g.outcome(play(g, deal('AS 2S 2H', '9C 9D 9H', 'TC JC QC', 'KS 3H 3D')).state) as { positions: Pos };
    expect(b.positions.banker).toMatchObject({ rank: 12, rankName: 'single-knight-6' });
    expect(b.positions.p1).toMatchObject({ rank: 16, outcome: 'lose', winWith6: true });
    expect(b.positions.p2).toMatchObject({ rank: 10, outcome: 'win', winWith6: false });
  });

  it('Pair Plus categories of the sheet (8♥7♥6♥, 10♠10♥10♣, 8♦7♣6♥, 10♥4♥2♥, A♣A♥8♦)', () => {
    expect(evaluateThreePictures(hand('8H 7H 6H')).pairPlus).toBe('straight-flush');
    expect(evaluateThreePictures(hand('TS TH TC')).pairPlus).toBe('three-of-a-kind');
    expect(evaluateThreePictures(hand('8D 7C 6H')).pairPlus).toBe('straight');
    expect(evaluateThreePictures(hand('TH 4H 2H')).pairPlus).toBe('flush');
    expect(evaluateThreePictures(hand('AC AH 8D')).pairPlus).toBe('pair');
    expect(evaluateThreePictures(hand('QC TH 6D')).pairPlus).toBeNull();
  });

  it('correction reverse-order (dealt P3, P2, P1, B): the results of P1 and P3 are swapped', () => {
    const cards = deal('JS 3H 6D', 'KS QH JD', '2C 3C 4C', 'QS TH 9D');
    const done = play(g, cards).state;
    const fixed = g.correct!(done, 'reverse-order', {});
    if (isError(fixed)) throw new Error(fixed.error);
    expect(g.cards(fixed)).toEqual({ p1: hand('2C 3C 4C'), p2: hand('KS QH JD'), p3: hand('JS 3H 6D'), banker: hand('QS TH 9D') });
    const before = g.outcome(done) as { positions: Pos };
    const after = g.outcome(fixed) as { positions: Pos };
    expect(after.positions.p1).toEqual(before.positions.p3);
    expect(after.positions.p3).toEqual(before.positions.p1);
    expect(after.positions.p2).toEqual(before.positions.p2);
    expect(after.positions.banker).toEqual(before.positions.banker);
    // a repeated request does not undo it; an unknown kind and an empty round are refused
    expect(isError(g.correct!(fixed, 'reverse-order', {}))).toBe(true);
    expect(isError(g.correct!(done, 'swap-banker', {}))).toBe(true);
    expect(isError(g.correct!(g.newRound({ engine: false }), 'reverse-order', {}))).toBe(true);
  });

  it('a correction mid-deal: later cards are announced at the corrected positions', () => {
    const cards = deal('JS 3H 6D', 'KS QH JD', '2C 3C 4C', 'QS TH 9D');
    let s = g.newRound({ engine: false });
    for (const c of cards.slice(0, 4)) s = g.place(s, c);
    const fixed = g.correct!(s, 'reverse-order', {});
    if (isError(fixed)) throw new Error(fixed.error);
    s = fixed;
    const positions: string[] = [];
    for (const c of cards.slice(4)) {
      const e = g.expect(s);
      if (e.kind === 'card') positions.push(e.position);
      s = g.place(s, c);
    }
    expect(positions).toEqual(['p3', 'p2', 'p1', 'banker', 'p3', 'p2', 'p1', 'banker']);
    // the physical P1 got the cards the gateway first took for p1's seat... all of them as p3
    expect(g.cards(s)).toEqual({ p1: hand('2C 3C 4C'), p2: hand('KS QH JD'), p3: hand('JS 3H 6D'), banker: hand('QS TH 9D') });
  });

  it('statistics: ranks and player-vs-banker match exact one-deck enumerations', () => {
    // one hand: every 3-subset of the deck
    const rankCount = new Array<number>(32).fill(0);
    for (const h of deckSubsets(3)) rankCount[evaluateThreePictures(h).rank]++;
    const total = 22100;
    // player vs banker: six cards by class (0 = picture x12, 1 = ten x4, 2..10 = values 1..9 x4)
    const cls = [12, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4];
    let rem = 52;
    let win = 0;
    let tie = 0;
    let win6 = 0;
    const rankOf = (a: number, b: number, c: number) => {
      const pics = +(a === 0) + +(b === 0) + +(c === 0);
      if (pics === 3) return 1;
      const pts = ((a > 1 ? a - 1 : 0) + (b > 1 ? b - 1 : 0) + (c > 1 ? c - 1 : 0)) % 10;
      return 2 + (9 - pts) * 3 + (2 - pics);
    };
    const ks: number[] = [];
    const walk = (w: number) => {
      if (ks.length === 6) {
        const p = rankOf(ks[0], ks[1], ks[2]);
        const b = rankOf(ks[3], ks[4], ks[5]);
        if (p < b) win += w;
        else if (p === b) tie += w;
        const winner = Math.min(p, b);
        if (p !== b && winner >= 11 && winner <= 13) win6 += w;
        return;
      }
      for (let k = 0; k < 11; k++) {
        if (!cls[k]) continue;
        const wk = (w * cls[k]) / rem;
        cls[k]--;
        rem--;
        ks.push(k);
        walk(wk);
        ks.pop();
        cls[k]++;
        rem++;
      }
    };
    walk(1);
    const n = 100_000;
    const c = simulate({ game: 'three-pictures', rounds: n, seed: '3p-stats-1' }).counts;
    const sum = (field: string, value: string) => ['p1', 'p2', 'p3'].reduce((a, p) => a + (c[`positions.${p}.${field}`][value] ?? 0), 0);
    expectRate('3-pictures threeKnights (p1..p3)', sum('threeKnights', 'true'), 3 * n, rankCount[1] / total);
    expectRate('3-pictures rank 3 single-knight-9 (p1..p3)', sum('rank', '3'), 3 * n, rankCount[3] / total);
    expectRate('3-pictures rank 31 plain-0 (p1..p3)', sum('rank', '31'), 3 * n, rankCount[31] / total);
    expectRate('3-pictures banker rank 12', c['positions.banker.rank']['12'], n, rankCount[12] / total);
    expectRate('3-pictures p1 outcome=win', c['positions.p1.outcome'].win, n, win);
    expectRate('3-pictures p2 outcome=tie', c['positions.p2.outcome'].tie, n, tie);
    expectRate('3-pictures p3 winWith6', c['positions.p3.winWith6'].true, n, win6);
  });
});
