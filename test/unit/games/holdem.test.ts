import { describe, expect, it } from 'vitest';
import { holdem as g, holdemFacts as facts, holdemWindowActions } from '../../../src/core/games/holdem.js';
import { holdemBonus } from '../../../src/core/games/evaluators/holdem-bonus.js';
import { simulate } from '../../../src/app/simulate/simulate.js';
import { deckSubsets } from './exact.js';
import { expectRate, hand, isError, play } from './helpers.js';

describe("Texas Hold'em vs dealer (seed 000)", () => {
  it('player, player, dealer, dealer (face down until the result), then flop, turn, river after close-decisions', () => {
    expect(g.defaults).toMatchObject({ decks: 1, burnPerRound: 0, singleDeck: true, maxCardsPerRound: 9, needsEngine: true });
    const r = play(g, 'AS KD AH QC 2S 4D 6H 8C AC', { engine: true });
    expect(r.trail.map((e) => (e.kind === 'card' ? `${e.position}${e.faceDown ? `(hidden:${e.revealAt})` : ''}` : e.kind))).toEqual([
      'player',
      'player',
      'dealer(hidden:result)',
      'dealer(hidden:result)',
      'close-decisions',
      'board',
      'board',
      'board',
      'close-decisions',
      'board',
      'close-decisions',
      'board',
      'complete',
    ]);
    expect(g.cards(r.state)).toEqual({ player: hand('AS KD'), dealer: hand('AH QC'), board: hand('2S 4D 6H 8C AC') });
  });

  it("the sheet's kicker example: A-K vs A-Q on 2-4-6-8-A, both a pair of aces, the king wins", () => {
    const o = g.outcome(play(g, 'AS KD AH QC 2S 4D 6H 8C AC').state);
    expect(o).toEqual({
      playerHand: { category: 'pair', ranks: [14, 13, 8, 6] },
      dealerHand: { category: 'pair', ranks: [14, 12, 8, 6] },
      winner: 'player',
      anteWins: false,
      bonus: 'ak-offsuit',
      bonusDealerAA: false,
      folded: false,
    });
  });

  it('ante wins only with a straight or better; ties; bonus on the hole cards; AA + dealer AA', () => {
    expect(facts(hand('9S TD'), hand('2C 2D'), hand('JH QS KC 4D 7H'))).toMatchObject({
      playerHand: { category: 'straight', ranks: [13] },
      winner: 'player',
      anteWins: true,
      bonus: null,
    });
    expect(facts(hand('2S 3D'), hand('2C 3C'), hand('AH KS QC JD TH'))).toMatchObject({ winner: 'tie', anteWins: false });
    expect(facts(hand('AS AD'), hand('AH AC'), hand('2S 5D 9H JC KD'))).toMatchObject({ winner: 'tie', bonus: 'aa', bonusDealerAA: true });
    expect(facts(hand('KS KD'), hand('QH QC'), hand('2S 5D 9H JC 3D'))).toMatchObject({ winner: 'player', bonus: 'kk-qq-jj', anteWins: false });
    expect(facts(hand('AS JS'), hand('QH QC'), hand('2S 5S 9H JC 3D'))).toMatchObject({ winner: 'dealer', bonus: 'aq-aj-suited' });
    // the sheet's rankings: J-J-2-2-4 beats 10-10-9-9-8; 8-8-6-6-3 beats 8-8-5-5-K
    expect(facts(hand('JS 4D'), hand('TH 9C'), hand('JC 2S 2D TD 9H')).winner).toBe('player');
    expect(facts(hand('6S 3D'), hand('5H KC'), hand('8C 8S 6D 5D 2H')).winner).toBe('player');
  });

  it('decisions: play/fold before the flop, bet/check after flop and turn, none after the river', () => {
    let s = g.newRound({ engine: true });
    for (const c of hand('AS KD AH QC')) s = g.place(s, c);
    expect(holdemWindowActions(s)).toEqual(['play', 'fold']);
    expect(isError(g.decide!(s, 'player', 'bet'))).toBe(true);
    expect(isError(g.decide!(s, 'dealer', 'play'))).toBe(true);
    let r = g.decide!(s, 'player', 'play');
    if (isError(r)) throw new Error(r.error);
    expect(isError(g.decide!(r, 'player', 'play'))).toBe(true); // one decision per window
    expect(holdemWindowActions(r)).toBeNull();
    r = g.closeDecisions!(r);
    if (isError(r)) throw new Error(r.error);
    expect(isError(g.closeDecisions!(r))).toBe(true); // the flop is due, no window
    expect(isError(g.decide!(r, 'player', 'check'))).toBe(true);
    for (const c of hand('2S 4D 6H')) r = g.place(r, c);
    expect(holdemWindowActions(r)).toEqual(['bet', 'check']);
    expect(isError(g.decide!(r, 'player', 'fold'))).toBe(true); // no fold after the flop
    r = g.decide!(r, 'player', 'bet') as typeof r;
    r = g.closeDecisions!(r) as typeof r;
    r = g.place(r, '8C');
    r = g.closeDecisions!(r) as typeof r; // no decision in the turn window: fine
    r = g.place(r, 'AC');
    expect(g.expect(r)).toEqual({ kind: 'complete' });
    expect(holdemWindowActions(r)).toBeNull();
  });

  it('a fold before the flop ends the round: no board, the dealer wins, the bonus still reported', () => {
    let s = g.newRound({ engine: true });
    for (const c of hand('AS AD 7H 2C')) s = g.place(s, c);
    const f = g.decide!(s, 'player', 'fold');
    if (isError(f)) throw new Error(f.error);
    expect(g.expect(f)).toEqual({ kind: 'complete' });
    expect(g.outcome(f)).toEqual({ playerHand: null, dealerHand: null, winner: 'dealer', anteWins: false, bonus: 'aa', bonusDealerAA: false, folded: true });
  });

  it('statistics: the Bonus categories match the exact 1326 two-card hands', () => {
    const exact: Record<string, number> = {};
    for (const h of deckSubsets(2)) {
      const b = String(holdemBonus(h));
      exact[b] = (exact[b] ?? 0) + 1;
    }
    expect(exact).toEqual({ aa: 6, 'ak-suited': 4, 'aq-aj-suited': 8, 'ak-offsuit': 12, 'kk-qq-jj': 18, 'aq-aj-offsuit': 24, 'pair-2-10': 54, null: 1200 });
    const n = 100_000;
    const r = simulate({ game: 'holdem', rounds: n, seed: 'he-stats-1' }).counts;
    for (const k of ['aa', 'ak-offsuit', 'kk-qq-jj', 'aq-aj-offsuit', 'pair-2-10', 'null']) expectRate(`holdem bonus=${k}`, r.bonus[k], n, exact[k] / 1326);
    expectRate('holdem folded (policy: 5% before the flop)', r.folded.true, n, 0.05);
  });
});
