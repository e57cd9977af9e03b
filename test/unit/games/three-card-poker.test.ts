import { describe, expect, it } from 'vitest';
import { threeCardPoker as g, threeCardPokerFacts as facts } from '../../../src/core/games/three-card-poker.js';
import { evaluateThreeCard, scoreBestIds, threeCardQualifies } from '../../../src/core/games/evaluators/poker.js';
import { simulate } from '../../../src/app/simulate/simulate.js';
import { deckSubsets } from './exact.js';
import { expectRate, hand, isError, play } from './helpers.js';

describe('Three Card Poker (seed 004)', () => {
  it('player 3 then dealer 3, face down: player revealed at close-betting, dealer at close-decisions', () => {
    expect(g.defaults).toMatchObject({ decks: 1, burnPerRound: 0, singleDeck: true, maxCardsPerRound: 6, needsEngine: false });
    const r = play(g, 'AS KS QS 2H 3D 9C', { engine: true });
    expect(r.placed.map((x) => [x.position, x.faceDown, x.revealAt])).toEqual([
      ['player', true, 'close-betting'],
      ['player', true, 'close-betting'],
      ['player', true, 'close-betting'],
      ['dealer', true, 'close-decisions'],
      ['dealer', true, 'close-decisions'],
      ['dealer', true, 'close-decisions'],
    ]);
    // with an engine the sixth card is followed by close-decisions, then the result
    expect(r.trail.slice(-2)).toEqual([{ kind: 'close-decisions' }, { kind: 'complete' }]);
    expect(g.cards(r.state)).toEqual({ player: hand('AS KS QS'), dealer: hand('2H 3D 9C') });
  });

  it('without an engine: every card hidden until the result, which follows the sixth card', () => {
    const r = play(g, 'AS KS QS 2H 3D 9C', { engine: false });
    expect(r.placed.every((x) => x.faceDown && x.revealAt === 'result')).toBe(true);
    expect(r.trail.at(-1)).toEqual({ kind: 'complete' });
    expect(r.trail.some((e) => e.kind === 'close-decisions')).toBe(false);
  });

  it('dealOrder option: dealer-first and alternate', () => {
    expect(play(g, 'AS KS QS 2H 3D 9C', { engine: false, options: { dealOrder: 'dealer-first' } }).placed.map((x) => x.position)).toEqual([
      'dealer',
      'dealer',
      'dealer',
      'player',
      'player',
      'player',
    ]);
    const alt = play(g, 'AS KS QS 2H 3D 9C', { engine: false, options: { dealOrder: 'alternate' } });
    expect(alt.placed.map((x) => x.position)).toEqual(['player', 'dealer', 'player', 'dealer', 'player', 'dealer']);
    expect(g.cards(alt.state)).toEqual({ player: hand('AS QS 3D'), dealer: hand('KS 2H 9C') });
    expect(() => g.newRound({ engine: false, options: { dealOrder: 'sideways' } })).toThrow(/dealOrder/);
  });

  it('decisions: optional play/fold of seat player inside the window, recorded only', () => {
    let s = g.newRound({ engine: true });
    for (const c of hand('AS KS QS')) s = g.place(s, c);
    expect(isError(g.closeDecisions!(s))).toBe(true); // not before the six cards
    const early = g.decide!(s, 'player', 'play'); // the player's three cards are in: allowed
    expect(isError(early)).toBe(false);
    for (const c of hand('2H 3D 9C')) s = g.place(s, c);
    expect(isError(g.decide!(s, 'seat1', 'play'))).toBe(true);
    expect(isError(g.decide!(s, 'player', 'hit'))).toBe(true);
    const folded = g.decide!(s, 'player', 'fold');
    if (isError(folded)) throw new Error(folded.error);
    expect(isError(g.decide!(folded, 'player', 'play'))).toBe(true); // one decision per round
    const closed = g.closeDecisions!(folded);
    if (isError(closed)) throw new Error(closed.error);
    expect(g.expect(closed)).toEqual({ kind: 'complete' });
    expect(isError(g.decide!(closed, 'player', 'play'))).toBe(true);
    expect(isError(g.closeDecisions!(closed))).toBe(true);
    // a fold changes no fact: Pair Plus and 6 Card Bonus are settled whatever the player did
    expect(g.outcome(closed)).toEqual(g.outcome(play(g, 'AS KS QS 2H 3D 9C', { engine: true }).state));
  });

  it("the sheet's example: player three of a kind vs dealer straight flush -> ante bonus, dealer wins", () => {
    expect(facts(hand('TS TH TC'), hand('8H 7H 6H'))).toEqual({
      playerHand: { category: 'three-of-a-kind', ranks: [10] },
      dealerHand: { category: 'straight-flush', ranks: [8] },
      dealerQualifies: true,
      winner: 'dealer',
      anteBonus: 'three-of-a-kind',
      pairPlus: 'three-of-a-kind',
      sixCardBonus: 'three-of-a-kind',
    });
  });

  it("the sheet's comparisons", () => {
    const w = (p: string, d: string) => facts(hand(p), hand(d)).winner;
    expect(w('TD 9D 8D', '9C 8C 7C')).toBe('player'); // higher straight flush
    expect(w('TC 9D 8C', 'TD 9C 8D')).toBe('standoff'); // the same straight
    expect(w('AC JC 2C', 'AH TH 9H')).toBe('player'); // flush: second card decides
    expect(w('AC AH 8D', 'QS QD 2D')).toBe('player'); // higher pair
    expect(w('AC AH 8D', 'AS AD 2D')).toBe('player'); // the same pair: the third card
    expect(w('AC AH 8D', 'AS AD 8C')).toBe('standoff');
    expect(w('AC JH 2D', 'AH TS 9S')).toBe('player'); // high card
    expect(w('3C 2C AC', '4D 3D 2D')).toBe('dealer'); // A-2-3 is the lowest straight flush
    expect(evaluateThreeCard(hand('AS KS QS'))).toEqual({ category: 'straight-flush', ranks: [14], miniRoyal: true });
  });

  it('dealer qualifies with Q-high or better; winner is the comparison either way', () => {
    expect(threeCardQualifies(hand('QC TH 6D'))).toBe(true);
    const o = facts(hand('KS 4H 2D'), hand('JC 9H 7D'));
    expect(o).toMatchObject({ dealerQualifies: false, winner: 'player', anteBonus: null, pairPlus: null });
    expect(facts(hand('5S 4H 2D'), hand('JC 9H 7D'))).toMatchObject({ dealerQualifies: false, winner: 'dealer' });
  });

  it('6 Card Bonus: best five of the six cards, three of a kind or better, else null', () => {
    expect(facts(hand('AS KS QS'), hand('JS TS 2H')).sixCardBonus).toBe('royal-flush');
    expect(facts(hand('9S 9H 2C'), hand('9D 9C 5H')).sixCardBonus).toBe('four-of-a-kind');
    expect(facts(hand('9S 9H 2C'), hand('2D 2H 5H')).sixCardBonus).toBe('full-house');
    expect(facts(hand('2S 3H 4C'), hand('5D 6H KH')).sixCardBonus).toBe('straight');
    expect(facts(hand('2S 3H 4C'), hand('5D 7H KH')).sixCardBonus).toBeNull();
    expect(facts(hand('9S 9H 2C'), hand('2D 3H 5H')).sixCardBonus).toBeNull(); // two pair
  });

  it('statistics: categories, dealer qualification and 6 Card Bonus match exact one-deck enumeration', () => {
    const cat: Record<string, number> = {};
    let qualifies = 0;
    for (const h of deckSubsets(3)) {
      const c = evaluateThreeCard(h).category;
      cat[c] = (cat[c] ?? 0) + 1;
      if (threeCardQualifies(h)) qualifies++;
    }
    expect(cat).toEqual({ 'straight-flush': 48, 'three-of-a-kind': 52, straight: 720, flush: 1096, pair: 3744, 'high-card': 16440 });
    // six cards: C(52,6) subsets by integer ids
    const ids = new Int32Array(6);
    let six = 0;
    for (let a = 0; a < 52; a++) {
      ids[0] = a;
      for (let b = a + 1; b < 52; b++) {
        ids[1] = b;
        for (let c = b + 1; c < 52; c++) {
          ids[2] = c;
          for (let d = c + 1; d < 52; d++) {
            ids[3] = d;
            for (let e = d + 1; e < 52; e++) {
              ids[4] = e;
              for (let f = e + 1; f < 52; f++) {
                ids[5] = f;
                if (scoreBestIds(ids, 6) >>> 20 >= 3) six++;
              }
            }
          }
        }
      }
    }
    const n = 200_000;
    const r = simulate({ game: 'three-card-poker', rounds: n, seed: '3cp-stats-1' }).counts;
    const T = 22100;
    expectRate('3cp playerHand=pair', r['playerHand.category'].pair, n, 3744 / T);
    expectRate('3cp playerHand=flush', r['playerHand.category'].flush, n, 1096 / T);
    expectRate('3cp playerHand=straight', r['playerHand.category'].straight, n, 720 / T);
    expectRate('3cp playerHand=three-of-a-kind', r['playerHand.category']['three-of-a-kind'], n, 52 / T);
    expectRate('3cp dealerHand=straight-flush', r['dealerHand.category']['straight-flush'], n, 48 / T);
    expectRate('3cp dealerQualifies', r.dealerQualifies.true, n, qualifies / T);
    expectRate('3cp pairPlus (pair or better)', n - r.pairPlus.null, n, (T - 16440) / T);
    expectRate('3cp sixCardBonus (trips or better)', n - r.sixCardBonus.null, n, six / 20358520);
  });
});
