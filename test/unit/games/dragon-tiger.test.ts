import { describe, expect, it } from 'vitest';
import { dragonTiger as g } from '../../../src/core/games/dragon-tiger.js';
import { simulate } from '../../../src/app/simulate/simulate.js';
import { expectRate, hand, play } from './helpers.js';

describe('Dragon Tiger (seed 000)', () => {
  it('dragon then tiger; K high … A low; burn 1 per round by default', () => {
    expect(g.defaults).toMatchObject({ decks: 8, burnPerRound: 1, burnFaceDown: false, singleDeck: false });
    const r = play(g, 'KS QH');
    expect(r.placed.map((x) => x.position)).toEqual(['dragon', 'tiger']);
    expect(g.cards(r.state)).toEqual({ dragon: hand('KS'), tiger: hand('QH') });
    expect(g.outcome(r.state)).toEqual({
      winner: 'dragon',
      dragonRank: 13,
      tigerRank: 12,
      suitedTie: false,
      dragonSuit: 'S',
      tigerSuit: 'H',
      dragonColor: 'black',
      tigerColor: 'red',
    });
    expect(g.outcome(play(g, 'AS 2H').state)).toEqual({
      winner: 'tiger',
      dragonRank: 1,
      tigerRank: 2,
      suitedTie: false,
      dragonSuit: 'S',
      tigerSuit: 'H',
      dragonColor: 'black',
      tigerColor: 'red',
    });
    expect(g.outcome(play(g, 'TS 9H').state)).toMatchObject({ winner: 'dragon', dragonRank: 10, tigerRank: 9 });
  });

  it('equal ranks tie whatever the suits; a suited tie needs the same suit (8 decks)', () => {
    expect(g.outcome(play(g, '7S 7H').state)).toEqual({
      winner: 'tie',
      dragonRank: 7,
      tigerRank: 7,
      suitedTie: false,
      dragonSuit: 'S',
      tigerSuit: 'H',
      dragonColor: 'black',
      tigerColor: 'red',
    });
    expect(g.outcome(play(g, 'JD JD').state)).toEqual({
      winner: 'tie',
      dragonRank: 11,
      tigerRank: 11,
      suitedTie: true,
      dragonSuit: 'D',
      tigerSuit: 'D',
      dragonColor: 'red',
      tigerColor: 'red',
    });
    expect(g.outcome(play(g, '4C QS').state)).toMatchObject({ dragonSuit: 'C', tigerSuit: 'S', dragonColor: 'black', tigerColor: 'black' });
  });

  it('statistics: tie and suited tie match the exact 8-deck composition', () => {
    const n = 300_000;
    const c = simulate({ game: 'dragon-tiger', rounds: n, seed: 'dt-stats-1' }).counts;
    // tie: same rank (31 of the other 415 cards), suited tie: the same card (7 of 415)
    const tie = 31 / 415;
    expectRate('dragon-tiger winner=tie', c.winner.tie, n, tie);
    expectRate('dragon-tiger suitedTie', c.suitedTie.true, n, 7 / 415);
    expectRate('dragon-tiger winner=dragon', c.winner.dragon, n, (1 - tie) / 2);
    expectRate('dragon-tiger dragonRank=13', c.dragonRank['13'], n, 1 / 13);
  });
});
