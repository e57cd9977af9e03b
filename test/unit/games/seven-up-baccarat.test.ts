import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { oneDeck } from '../../../src/core/vocabulary/card.js';
import { sevenUpBaccarat as g } from '../../../src/core/games/seven-up-baccarat.js';
import { simulate } from '../../../src/app/simulate/simulate.js';
import { baccaratExact, SHEET_BANKER_DRAWS } from './exact.js';
import { expectRate, hand, play } from './helpers.js';

describe('7 Up baccarat (seed 000)', () => {
  it('order B1, P2, B2; the fixed 7 is implied: not in cards.player, counted everywhere else', () => {
    // player 7 + K = 7 stands; banker 2 + 4 = 6 stands (the player stood, banker draws on 0-5 only)
    const r = play(g, '2H KS 4D');
    expect(r.placed.map((x) => x.position)).toEqual(['banker', 'player', 'banker']);
    expect(g.cards(r.state)).toEqual({ player: hand('KS'), banker: hand('2H 4D') });
    expect(g.outcome(r.state)).toEqual({
      winner: 'player',
      playerTotal: 7,
      bankerTotal: 6,
      natural: false,
      playerNatural: false,
      bankerNatural: false,
      playerPair: false,
      bankerPair: false,
      cardCount: 4,
      size: 'small',
      winningTotal: 7,
      sevens: 1,
      super7: false,
    });
  });

  it('a natural: 7 + A = 8, 7 + 2 = 9 (the deal ends)', () => {
    expect(g.outcome(play(g, '5H AS 3D').state)).toMatchObject({
      winner: 'tie',
      playerTotal: 8,
      bankerTotal: 8,
      natural: true,
      playerNatural: true,
      bankerNatural: true,
      cardCount: 4,
      winningTotal: 8,
    });
    expect(g.outcome(play(g, 'KH 2S QD').state)).toMatchObject({
      winner: 'player',
      playerTotal: 9,
      bankerTotal: 0,
      natural: true,
      playerNatural: true,
      bankerNatural: false,
      winningTotal: 9,
    });
    expect(g.outcome(play(g, '4H TS 5D').state)).toMatchObject({
      winner: 'banker',
      playerTotal: 7,
      bankerTotal: 9,
      natural: true,
      playerNatural: false,
      bankerNatural: true,
      winningTotal: 9,
    });
  });

  it('the player pair is the fixed 7 and a 7; 7+7 = 4 draws', () => {
    // banker K + 5 = 5; player 7 + 7 = 4 draws 3 -> 7; banker 5 with third card 3: stands
    const r = play(g, 'KH 7S 5D 3C');
    expect(r.placed.map((x) => x.position)).toEqual(['banker', 'player', 'banker', 'player']);
    expect(g.outcome(r.state)).toEqual({
      winner: 'player',
      playerTotal: 7,
      bankerTotal: 5,
      natural: false,
      playerNatural: false,
      bankerNatural: false,
      playerPair: true,
      bankerPair: false,
      cardCount: 5,
      size: 'big',
      winningTotal: 7,
      sevens: 2,
      super7: true,
    });
  });

  it('third cards by the baccarat table with the 7 counted (7 + 8 = 5 draws)', () => {
    // banker 3 + 3 = 6; player 7 + 8 = 5 draws 6 -> 1; banker 6 with third card 6 draws 7 -> 3
    const r = play(g, '3H 8S 3D 6C 7D');
    expect(r.placed.map((x) => x.position)).toEqual(['banker', 'player', 'banker', 'player', 'banker']);
    expect(g.outcome(r.state)).toMatchObject({
      winner: 'banker',
      playerTotal: 1,
      bankerTotal: 3,
      cardCount: 6,
      bankerPair: true,
      sevens: 2,
      super7: true,
      winningTotal: 3,
    });
  });

  it('a tie reports the tied total; Super 7s count every 7 incl. the fixed one', () => {
    // banker 7 + K = 7; player 7 + K = 7: both stand, tie on 7 with two sevens
    expect(g.outcome(play(g, '7H KS KD').state)).toMatchObject({ winner: 'tie', winningTotal: 7, sevens: 2, super7: true, cardCount: 4 });
    // banker 7 + 7 = 4, player 7 + 7 = 4: player draws 7 -> 1, banker 4 with third 7 draws 7 -> 1: six sevens
    expect(g.outcome(play(g, '7H 7S 7D 7C 7S').state)).toMatchObject({ winner: 'tie', playerTotal: 1, bankerTotal: 1, sevens: 6, super7: true, cardCount: 6 });
  });

  it('property: 3-5 shoe cards, cardCount = shoe cards + 1, follows the table with the 7 counted', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...oneDeck()), { minLength: 5, maxLength: 5 }), (cards) => {
        let s = g.newRound({ engine: false });
        let n = 0;
        while (g.expect(s).kind === 'card') s = g.place(s, cards[n++]);
        expect(n).toBeGreaterThanOrEqual(3);
        const o = g.outcome(s);
        expect(o.cardCount).toBe(n + 1);
        const pts = (cs: string[], base = 0) => cs.reduce((a, c) => a + (c[0] === 'A' ? 1 : /[2-9]/.test(c[0]) ? Number(c[0]) : 0), base) % 10;
        const { player, banker } = g.cards(s);
        const p2 = pts([player[0]], 7);
        const b2 = pts(banker.slice(0, 2));
        if (p2 >= 8 || b2 >= 8) expect(n).toBe(3);
        else if (p2 <= 5) {
          expect(player.length).toBe(2);
          expect(banker.length === 3).toBe(SHEET_BANKER_DRAWS[b2].includes(pts([player[1]])));
        } else expect(banker.length === 3).toBe(b2 <= 5);
      }),
      { numRuns: 2000 },
    );
  });

  it('statistics: simulated frequencies match the exact 8-deck enumeration', () => {
    const ex = baccaratExact(8, true);
    const n = 200_000;
    const c = simulate({ game: 'seven-up-baccarat', rounds: n, seed: '7up-stats-1' }).counts;
    expectRate('7up winner=banker', c.winner.banker, n, ex.banker);
    expectRate('7up winner=player', c.winner.player, n, ex.player);
    expectRate('7up winner=tie', c.winner.tie, n, ex.tie);
    expectRate('7up natural', c.natural.true, n, ex.natural);
    expectRate('7up cardCount=4', c.cardCount['4'], n, ex.cards4);
    expectRate('7up cardCount=6', c.cardCount['6'], n, ex.cards6);
    expectRate('7up super7', c.super7.true, n, ex.super7);
    expectRate('7up winningTotal=7', c.winningTotal['7'], n, ex.winningTotal7);
    expectRate('7up playerPair (fixed 7 + a 7)', c.playerPair.true, n, 32 / 416);
  });
});
