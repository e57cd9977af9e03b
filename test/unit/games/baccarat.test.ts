import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { baccaratPoints, oneDeck, type Card } from '../../../src/core/vocabulary/card.js';
import { baccarat, bankerDrawsAfterPlayerThird } from '../../../src/core/games/baccarat.js';
import { simulate } from '../../../src/app/simulate/simulate.js';
import { baccaratExact, SHEET_BANKER_DRAWS } from './exact.js';
import { expectRate, hand, play } from './helpers.js';

/** a card worth `v` points (0 -> a ten) in suit `s` */
const worth = (v: number, s = 'S'): Card => `${v === 0 ? 'T' : v === 1 ? 'A' : v}${s}` as Card;
/** two cards worth `t` points in total, not a pair */
const two = (t: number, suits = 'SH'): Card[] => [worth(0, suits[0]).replace('T', 'K') as Card, worth(t, suits[1])];

describe('baccarat: the third-card tables, every cell (seed 002)', () => {
  for (let b = 0; b <= 7; b++) {
    for (let x = 0; x <= 9; x++) {
      const draws = SHEET_BANKER_DRAWS[b].includes(x);
      it(`banker ${b}, player's third card ${x}: banker ${draws ? 'draws' : 'stands'}`, () => {
        expect(bankerDrawsAfterPlayerThird(b, x)).toBe(draws);
        // through the game: player K+T (0) draws x; banker two cards worth b
        const cards = [two(0, 'CD')[0], two(b)[0], two(0, 'CD')[1], two(b)[1], worth(x, 'C')];
        let s = baccarat.newRound({ engine: false });
        for (const c of cards) s = baccarat.place(s, c);
        expect(baccarat.expect(s)).toEqual(draws ? { kind: 'card', position: 'banker', faceDown: false } : { kind: 'complete' });
        if (draws) {
          s = baccarat.place(s, 'AC');
          expect(baccarat.expect(s).kind).toBe('complete');
          expect(baccarat.outcome(s).cardCount).toBe(6);
        } else expect(baccarat.outcome(s).cardCount).toBe(5);
      });
    }
  }

  for (let b = 0; b <= 9; b++) {
    for (const p of [6, 7]) {
      const draws = b <= 5;
      it(`player stood on ${p}, banker ${b}: banker ${b >= 8 ? 'has a natural' : draws ? 'draws' : 'stands'}`, () => {
        const r = play(baccarat, draws ? [two(p)[0], two(b)[0], two(p)[1], two(b)[1], 'AC'] : [two(p)[0], two(b)[0], two(p)[1], two(b)[1]]);
        expect(r.placed.map((x) => x.position)).toEqual(draws ? ['player', 'banker', 'player', 'banker', 'banker'] : ['player', 'banker', 'player', 'banker']);
      });
    }
  }

  for (let p = 0; p <= 9; p++) {
    for (let b = 0; b <= 9; b++) {
      const natural = p >= 8 || b >= 8;
      const playerDraws = !natural && p <= 5;
      it(`player ${p} vs banker ${b}: ${natural ? 'a natural ends the deal' : playerDraws ? 'player draws' : 'player stands'}`, () => {
        let s = baccarat.newRound({ engine: false });
        for (const c of [two(p)[0], two(b, 'DC')[0], two(p)[1], two(b, 'DC')[1]]) s = baccarat.place(s, c);
        const e = baccarat.expect(s);
        if (natural) expect(e).toEqual({ kind: 'complete' });
        else if (playerDraws) expect(e).toEqual({ kind: 'card', position: 'player', faceDown: false });
        else expect(e).toEqual(b <= 5 ? { kind: 'card', position: 'banker', faceDown: false } : { kind: 'complete' });
      });
    }
  }
});

describe('baccarat outcomes', () => {
  it('naturals: a natural on either side ends the deal and wins unless tied', () => {
    expect(baccarat.outcome(play(baccarat, '4S TH 4D KC').state)).toEqual({
      winner: 'player',
      playerTotal: 8,
      bankerTotal: 0,
      natural: true,
      playerNatural: true,
      bankerNatural: false,
      playerPair: true,
      bankerPair: false,
      cardCount: 4,
      size: 'small',
    });
    expect(baccarat.outcome(play(baccarat, '2S 9H 3D KC').state)).toMatchObject({
      winner: 'banker',
      playerTotal: 5,
      bankerTotal: 9,
      natural: true,
      playerNatural: false,
      bankerNatural: true,
      cardCount: 4,
    });
    expect(baccarat.outcome(play(baccarat, '9S KH 9D KC').state)).toMatchObject({
      winner: 'player',
      playerTotal: 8,
      natural: true,
      playerPair: true,
      bankerPair: true,
    });
    expect(baccarat.outcome(play(baccarat, '8S 4H KD 4C').state)).toMatchObject({
      winner: 'tie',
      playerTotal: 8,
      bankerTotal: 8,
      natural: true,
      playerNatural: true,
      bankerNatural: true,
    });
  });

  it('both sides on 6 or 7 stand: a tie with four cards (seed 000 "if both have 6 or 7")', () => {
    expect(baccarat.outcome(play(baccarat, '3S 6H 3D KC').state)).toMatchObject({
      winner: 'tie',
      playerTotal: 6,
      bankerTotal: 6,
      natural: false,
      size: 'small',
    });
  });

  it('a full six-card round: player 0-5 draws, banker draws by the table', () => {
    // player 2+3=5 draws 4 -> 9; banker 3+2=5, third 4 -> draws 5 -> 0
    const r = play(baccarat, '2S 3H 3D 2C 4S 5D');
    expect(r.placed.map((x) => x.position)).toEqual(['player', 'banker', 'player', 'banker', 'player', 'banker']);
    expect(baccarat.outcome(r.state)).toEqual({
      winner: 'player',
      playerTotal: 9,
      bankerTotal: 0,
      natural: false,
      playerNatural: false,
      bankerNatural: false,
      playerPair: false,
      bankerPair: false,
      cardCount: 6,
      size: 'big',
    });
    expect(baccarat.cards(r.state)).toEqual({ player: hand('2S 3D 4S'), banker: hand('3H 2C 5D') });
  });

  it('pairs are the first two cards of the same rank (K-K yes, K-Q no)', () => {
    expect(baccarat.outcome(play(baccarat, 'KS KH KD QC 5S AC').state)).toMatchObject({ playerPair: true, bankerPair: false });
    expect(baccarat.outcome(play(baccarat, 'QS 5H KD 5C 2S AC').state)).toMatchObject({ playerPair: false, bankerPair: true });
  });
});

/** reference deal from the sheet, independent of the module: the positions a deck prefix takes */
function sheetDeal(cards: readonly Card[]): { player: Card[]; banker: Card[] } {
  const player = [cards[0], cards[2]];
  const banker = [cards[1], cards[3]];
  const pts = (h: Card[]) => h.reduce((a, c) => a + baccaratPoints(c), 0) % 10;
  let next = 4;
  const p2 = pts(player);
  const b2 = pts(banker);
  if (p2 >= 8 || b2 >= 8) return { player, banker };
  if (p2 <= 5) {
    const x = cards[next++];
    player.push(x);
    if (SHEET_BANKER_DRAWS[b2].includes(baccaratPoints(x))) banker.push(cards[next++]);
  } else if (b2 <= 5) banker.push(cards[next++]);
  return { player, banker };
}

describe('baccarat properties', () => {
  const shoe = fc.array(fc.constantFrom(...oneDeck()), { minLength: 6, maxLength: 6 });
  it('a completed round has 4-6 cards and follows the third-card table', () => {
    fc.assert(
      fc.property(shoe, (cards) => {
        let s = baccarat.newRound({ engine: false });
        let used = 0;
        while (baccarat.expect(s).kind === 'card') s = baccarat.place(s, cards[used++]);
        expect(used).toBeGreaterThanOrEqual(4);
        expect(used).toBeLessThanOrEqual(6);
        expect(baccarat.cards(s)).toEqual(sheetDeal(cards));
        const o = baccarat.outcome(s);
        expect(o.cardCount).toBe(used);
        expect(o.size).toBe(used === 4 ? 'small' : 'big');
      }),
      { numRuns: 3000 },
    );
  });
});

describe('baccarat statistics (8 decks, exact composition)', () => {
  it('simulated frequencies match the exact probabilities', () => {
    const ex = baccaratExact(8);
    // the published 8-deck values
    expect(ex.banker).toBeCloseTo(0.458597, 6);
    expect(ex.player).toBeCloseTo(0.446247, 6);
    expect(ex.tie).toBeCloseTo(0.095156, 6);
    const n = 200_000;
    const r = simulate({ game: 'baccarat', rounds: n, seed: 'bac-stats-1' });
    const c = r.counts;
    expectRate('baccarat winner=banker', c.winner.banker, n, ex.banker);
    expectRate('baccarat winner=player', c.winner.player, n, ex.player);
    expectRate('baccarat winner=tie', c.winner.tie, n, ex.tie);
    expectRate('baccarat natural', c.natural.true, n, ex.natural);
    expectRate('baccarat cardCount=4', c.cardCount['4'], n, ex.cards4);
    expectRate('baccarat cardCount=6', c.cardCount['6'], n, ex.cards6);
    expectRate('baccarat playerPair', c.playerPair.true, n, 31 / 415);
    expectRate('baccarat bankerPair', c.bankerPair.true, n, 31 / 415);
  });
});
