import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { oneDeck } from '../../../src/core/vocabulary/card.js';
import { seededRng } from '../../../simulators/rng.js';
import { blackjack as g, type BlackjackRound } from '../../../src/core/games/blackjack.js';
import { blackjackTotal } from '../../../src/core/games/evaluators/blackjack-hand.js';
import { simulate } from '../../../src/app/simulate/simulate.js';
import { expectRate, hand, isError, play } from './helpers.js';

type Facts = Record<string, Record<string, unknown>>;
const one = { seats: 1 };
const pos = (s: BlackjackRound) => (g.outcome(s) as { positions: Facts }).positions;

describe('Blackjack (seed 000)', () => {
  it('defaults; initial deal seat1..4, dealer up card, seat1..4; no hole card', () => {
    expect(g.defaults).toMatchObject({ decks: 8, burnPerRound: 4, singleDeck: false, needsEngine: true });
    let s = g.newRound({ engine: true });
    const order: string[] = [];
    for (const c of hand('TS TH TD TC 6H 9S 9H 9D 9C')) {
      const e = g.expect(s);
      if (e.kind === 'card') order.push(e.position);
      s = g.place(s, c);
    }
    expect(order).toEqual(['seat1', 'seat2', 'seat3', 'seat4', 'dealer', 'seat1', 'seat2', 'seat3', 'seat4']);
    expect(g.expect(s)).toEqual({ kind: 'decision', seat: 'seat1', actions: ['hit', 'stand', 'double'] });
    expect(g.cards(s)).toEqual({ seat1: hand('TS 9S'), seat2: hand('TH 9H'), seat3: hand('TD 9D'), seat4: hand('TC 9C'), dealer: hand('6H') });
  });

  it('hit and stand; the dealer draws to 17 and stands; equal totals push', () => {
    const r = play(g, 'TS 6H 5D 3C KC 2D', { options: one, decisions: ['hit', 'stand'] });
    expect(r.placed.map((x) => x.position)).toEqual(['seat1', 'dealer', 'seat1', 'seat1', 'dealer', 'dealer']);
    expect(pos(r.state)).toEqual({
      seat1: {
        cards: hand('TS 5D 3C'),
        total: 18,
        soft: false,
        bust: false,
        blackjack: false,
        charlie: false,
        doubled: false,
        split: false,
        folded: false,
        outcome: 'push',
        perfectPairs: null,
      },
      dealer: { cards: hand('6H KC 2D'), total: 18, soft: false, bust: false, blackjack: false, perfectPairs: null },
    });
  });

  it('the dealer stands on soft 17', () => {
    const r = play(g, 'TS AH 9C 6D', { options: one, decisions: ['stand'] });
    expect(pos(r.state).dealer).toMatchObject({ total: 17, soft: true });
    expect(pos(r.state).seat1).toMatchObject({ total: 19, outcome: 'win' });
  });

  it('double: first two cards of an unsplit hand totalling 11 or more, exactly one card, then the hand ends', () => {
    let s = g.newRound({ engine: true, options: one });
    for (const c of hand('6S 9H 4D')) s = g.place(s, c);
    expect(g.expect(s)).toEqual({ kind: 'decision', seat: 'seat1', actions: ['hit', 'stand'] }); // 10: no double
    expect(isError(g.decide!(s, 'seat1', 'double'))).toBe(true);
    s = g.newRound({ engine: true, options: one });
    for (const c of hand('AS 9H 2D')) s = g.place(s, c);
    // games.md v1.2: double on a two-card total of 11 or more, soft totals included, not on pairs
    expect(g.expect(s)).toMatchObject({ actions: ['hit', 'stand', 'double'] }); // soft 13: double
    s = g.newRound({ engine: true, options: one });
    for (const c of hand('AS 9H 7D')) s = g.place(s, c);
    expect(g.expect(s)).toMatchObject({ actions: ['hit', 'stand', 'double'] }); // A-7, soft 18: double
    s = g.newRound({ engine: true, options: one });
    for (const c of hand('6S 9H 6D')) s = g.place(s, c);
    expect(g.expect(s)).toMatchObject({ actions: ['hit', 'stand'] }); // 6-6, hard 12: a pair, no double
    expect(isError(g.decide!(s, 'seat1', 'double'))).toBe(true);
    s = g.newRound({ engine: true, options: one });
    for (const c of hand('TS 9H TD')) s = g.place(s, c);
    expect(g.expect(s)).toMatchObject({ actions: ['hit', 'stand'] }); // T-T: a pair, no double
    const r = play(g, '6S 9H 5D TC TD', { options: one, decisions: ['double'] });
    expect(r.placed.map((x) => x.position)).toEqual(['seat1', 'dealer', 'seat1', 'seat1', 'dealer']);
    expect(pos(r.state).seat1).toMatchObject({ total: 21, doubled: true, outcome: 'win' });
    // a double that does not reach 21 still ends the hand after its one card
    const low = play(g, '6S 9H 5D 2C TD', { options: one, decisions: ['double'] });
    expect(pos(low.state).seat1).toMatchObject({ total: 13, doubled: true, outcome: 'lose' });
  });

  it('doubleOn: exactly-11 offers double on a two-card 11 only; an unknown doubleOn is refused', () => {
    const exactly = { ...one, doubleOn: 'exactly-11' };
    const actionsFor = (cards: string) => {
      let s = g.newRound({ engine: true, options: exactly });
      for (const c of hand(cards)) s = g.place(s, c);
      const e = g.expect(s);
      return e.kind === 'decision' ? e.actions : [];
    };
    expect(actionsFor('6S 9H 5D')).toEqual(['hit', 'stand', 'double']); // 11
    expect(actionsFor('6S 9H 6C')).toEqual(['hit', 'stand']); // 6-6: a pair
    expect(actionsFor('7S 9H 5D')).toEqual(['hit', 'stand']); // 12
    expect(actionsFor('AS 9H 7D')).toEqual(['hit', 'stand']); // soft 18
    expect(actionsFor('4S 9H 6D')).toEqual(['hit', 'stand']); // 10
    const r = play(g, '6S 9H 5D TC TD', { options: exactly, decisions: ['double'] });
    expect(pos(r.state).seat1).toMatchObject({ total: 21, doubled: true });
    expect(() => g.newRound({ engine: true, options: { ...one, doubleOn: 'hard-only' } })).toThrow(/doubleOn/);
  });

  it('a hand ends by itself at 21, and a two-card 21 is blackjack (paid unless the dealer has one too)', () => {
    const r = play(g, 'TS 5H 6D 5C KD 3S', { options: one, decisions: ['hit'] });
    expect(pos(r.state).seat1).toMatchObject({ total: 21, blackjack: false, outcome: 'win' });
    expect(pos(play(g, 'AS 9H KD QC', { options: one }).state).seat1).toMatchObject({ total: 21, blackjack: true, outcome: 'win' });
    const both = play(g, 'AS AH KD KC', { options: one });
    expect(pos(both.state).seat1).toMatchObject({ blackjack: true, outcome: 'push' });
    expect(pos(both.state).dealer).toMatchObject({ blackjack: true, total: 21 });
  });

  it('split 8-8: seatNa gets the next card, then seatNb, then seatNa acts; no double after split, no resplit', () => {
    let s = g.newRound({ engine: true, options: { seats: 2 } });
    for (const c of hand('TH 8S 6H 9C 8D')) s = g.place(s, c);
    s = g.decide!(s, 'seat1', 'stand') as BlackjackRound;
    expect(g.expect(s)).toEqual({ kind: 'decision', seat: 'seat2', actions: ['split', 'fold'] });
    expect(isError(g.decide!(s, 'seat2', 'hit'))).toBe(true); // the sheet: A-A and 8-8 only split or fold
    s = g.decide!(s, 'seat2', 'split') as BlackjackRound;
    expect(g.expect(s)).toEqual({ kind: 'card', position: 'seat2a', faceDown: false });
    s = g.place(s, '3C');
    expect(g.expect(s)).toEqual({ kind: 'card', position: 'seat2b', faceDown: false });
    s = g.place(s, '8C');
    expect(g.expect(s)).toEqual({ kind: 'decision', seat: 'seat2a', actions: ['hit', 'stand'] }); // 11 but split: no double
    expect(isError(g.decide!(s, 'seat2b', 'stand'))).toBe(true); // not acting
    expect(isError(g.decide!(s, 'seat2', 'stand'))).toBe(true); // no such hand any more
    expect(isError(g.decide!(s, 'seat1', 'hit'))).toBe(true); // done
    s = g.decide!(s, 'seat2a', 'hit') as BlackjackRound;
    s = g.place(s, '9D');
    s = g.decide!(s, 'seat2a', 'stand') as BlackjackRound;
    expect(g.expect(s)).toEqual({ kind: 'decision', seat: 'seat2b', actions: ['hit', 'stand'] }); // 8-8 again: no resplit
    s = g.decide!(s, 'seat2b', 'stand') as BlackjackRound;
    s = g.place(s, 'TS'); // dealer 16
    s = g.place(s, '5S'); // 21
    expect(g.expect(s)).toEqual({ kind: 'complete' });
    expect(g.cards(s)).toEqual({ seat1: hand('TH 9C'), seat2a: hand('8S 3C 9D'), seat2b: hand('8D 8C'), dealer: hand('6H TS 5S') });
    const p = pos(s);
    expect(p.seat2a).toMatchObject({ total: 20, split: true, outcome: 'lose', perfectPairs: 'mixed' });
    expect(p.seat2b).toMatchObject({ total: 16, split: true, outcome: 'lose', perfectPairs: 'mixed' });
    expect(p.seat1).toMatchObject({ total: 19, outcome: 'lose', perfectPairs: null });
  });

  it('split aces get one card each and end; an ace and a ten after a split is 21, not blackjack', () => {
    const r = play(g, 'AS 9H AD KC 5D 7C 2S', { options: one, decisions: ['split'] });
    expect(r.placed.map((x) => x.position)).toEqual(['seat1', 'dealer', 'seat1', 'seat1a', 'seat1b', 'dealer', 'dealer']);
    const p = pos(r.state);
    expect(p.seat1a).toMatchObject({ cards: hand('AS KC'), total: 21, blackjack: false, split: true, outcome: 'win', perfectPairs: 'mixed' });
    expect(p.seat1b).toMatchObject({ cards: hand('AD 5D'), total: 16, soft: true, outcome: 'lose', perfectPairs: 'mixed' });
    expect(p.dealer).toMatchObject({ total: 18 });
  });

  it('fold (the 20% surrender of the split table): the hand is out and loses', () => {
    const r = play(g, '8S 7H 8C 9D', { options: one, decisions: ['fold'] });
    // every seat hand folded: the dealer draws only the second card
    expect(r.placed.map((x) => x.position)).toEqual(['seat1', 'dealer', 'seat1', 'dealer']);
    expect(pos(r.state).seat1).toMatchObject({ folded: true, outcome: 'lose', total: 16, perfectPairs: 'colored' });
  });

  it('every seat bust (split hands counted): the dealer draws only a second card', () => {
    const r = play(g, 'TS TD 5H 6S 7C KC QH 2C', { options: { seats: 2 }, decisions: ['hit', 'hit'] });
    expect(r.placed.map((x) => x.position)).toEqual(['seat1', 'seat2', 'dealer', 'seat1', 'seat2', 'seat1', 'seat2', 'dealer']);
    expect(pos(r.state).dealer).toMatchObject({ cards: hand('5H 2C'), total: 7 });
    expect(pos(r.state).seat1).toMatchObject({ bust: true, total: 26, outcome: 'lose' });
    // one live hand left: the dealer plays on to 17
    const live = play(g, 'TS TD 5H 6S 7C KC 2C 9H 3D', { options: { seats: 2 }, decisions: ['hit', 'stand'] });
    expect(pos(live.state).dealer).toMatchObject({ cards: hand('5H 2C 9H 3D'), total: 19 });
    expect(pos(live.state).seat2).toMatchObject({ total: 17, outcome: 'lose' });
  });

  it('8-card charlie wins automatically unless the dealer has blackjack', () => {
    const cards = '2S TH 3D 2C 2D 3C 3H 2H AS';
    const hits = ['hit', 'hit', 'hit', 'hit', 'hit', 'hit'];
    const r = play(g, `${cards} KS`, { options: one, decisions: hits });
    expect(pos(r.state).seat1).toMatchObject({ total: 18, charlie: true, outcome: 'win' });
    expect(pos(r.state).dealer).toMatchObject({ total: 20 });
    const bj = play(g, `${cards} AC`, { options: one, decisions: hits });
    expect(pos(bj.state).dealer).toMatchObject({ blackjack: true });
    expect(pos(bj.state).seat1).toMatchObject({ charlie: true, outcome: 'lose' });
  });

  it('perfect pairs: perfect, colored, mixed for the seat and the dealer', () => {
    const r = play(g, 'QH 4S 7D QH 4H 7D TC', { options: { seats: 2 }, decisions: ['stand', 'stand'] });
    expect(pos(r.state).seat1).toMatchObject({ perfectPairs: 'perfect' });
    expect(pos(r.state).seat2).toMatchObject({ perfectPairs: 'mixed' });
    expect(pos(r.state).dealer).toMatchObject({ perfectPairs: 'perfect' });
  });

  it('property: every round terminates; no hand over 21 unless bust; the dealer stops right', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...oneDeck()), { minLength: 80, maxLength: 80 }),
        fc.integer(),
        fc.integer({ min: 1, max: 4 }),
        (cards, seed, seats) => {
          const rng = seededRng(seed);
          let s = g.newRound({ engine: true, options: { seats } });
          let used = 0;
          for (let guard = 0; ; guard++) {
            expect(guard).toBeLessThan(200);
            const e = g.expect(s);
            if (e.kind === 'complete') break;
            if (e.kind === 'card') s = g.place(s, cards[used++]);
            else if (e.kind === 'decision') {
              const r = g.decide!(s, e.seat, e.actions[Math.floor(rng() * e.actions.length)]);
              if (isError(r)) throw new Error(r.error);
              s = r;
            } else throw new Error('blackjack never waits for close-decisions');
          }
          const p = pos(s);
          let live = false;
          for (const [name, f] of Object.entries(p)) {
            const cs = f.cards as string[];
            expect(f.bust).toBe(blackjackTotal(cs).bust);
            if (!f.bust) expect(f.total as number).toBeLessThanOrEqual(21);
            if (name !== 'dealer') {
              expect(cs.length).toBeLessThanOrEqual(8);
              if (!f.bust && !f.folded) live = true;
            }
          }
          if (live) expect(p.dealer.total as number).toBeGreaterThanOrEqual(17);
          else expect((p.dealer.cards as string[]).length).toBe(2);
          expect(Object.values(g.cards(s)).flat().length).toBe(used);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('statistics: dealer blackjack and perfect pairs match the exact 8-deck composition', () => {
    const n = 100_000;
    const r = simulate({ game: 'blackjack', rounds: n, seed: 'bj-stats-1' }).counts;
    const bj = (2 * 32 * 128) / (416 * 415);
    expectRate('blackjack dealer blackjack', r['positions.dealer.blackjack'].true, n, bj);
    expectRate('blackjack seat1 blackjack', r['positions.seat1.blackjack'].true, n, bj);
    const pp = (v: string) => (r['positions.seat2.perfectPairs'][v] ?? 0) + (r['positions.seat2a.perfectPairs']?.[v] ?? 0);
    expectRate('blackjack seat2 perfectPairs=perfect', pp('perfect'), n, 7 / 415);
    expectRate('blackjack seat2 perfectPairs=colored', pp('colored'), n, 8 / 415);
    expectRate('blackjack seat2 perfectPairs=mixed', pp('mixed'), n, 16 / 415);
    expectRate('blackjack dealer perfectPairs (any)', n - r['positions.dealer.perfectPairs'].null, n, 31 / 415);
  });

  describe('two players on one seat (sheet 000; games.md keepStanding)', () => {
    const dealSeat1 = (cards: string) => {
      let s = g.newRound({ engine: true, options: one });
      for (const c of hand(cards)) s = g.place(s, c);
      return s;
    };
    it('hit with keepStanding keeps the cards so far as the standing hand seat1s, settled like any hand', () => {
      let s = dealSeat1('TS 9H 7D'); // seat1 T 7 = 17, dealer 9
      const k = g.decide!(s, 'seat1', 'hit', { keepStanding: true });
      expect(isError(k)).toBe(false);
      s = k as BlackjackRound;
      expect(g.expect(s)).toEqual({ kind: 'card', position: 'seat1', faceDown: false });
      s = g.place(s, '9C'); // seat1 busts with 26
      // the standing hand is live: the dealer draws to 17 (no "every seat busted" short cut)
      expect(g.expect(s)).toEqual({ kind: 'card', position: 'dealer', faceDown: false });
      s = g.place(s, '8D'); // dealer 17
      expect(g.expect(s)).toEqual({ kind: 'complete' });
      expect(g.cards(s)).toMatchObject({ seat1: ['TS', '7D', '9C'], seat1s: ['TS', '7D'], dealer: ['9H', '8D'] });
      expect(pos(s).seat1).toMatchObject({ bust: true, outcome: 'lose' });
      expect(pos(s).seat1s).toMatchObject({ total: 17, bust: false, outcome: 'push' });
    });
    it('keepStanding only with hit, once per seat, never on a split hand', () => {
      const s = dealSeat1('TS 9H 7D');
      expect(isError(g.decide!(s, 'seat1', 'stand', { keepStanding: true }))).toBe(true);
      const once = g.decide!(s, 'seat1', 'hit', { keepStanding: true }) as BlackjackRound;
      const again = g.decide!(g.place(once, '2C'), 'seat1', 'hit', { keepStanding: true });
      expect(isError(again)).toBe(true);
      const split = g.decide!(dealSeat1('8S 9H 8D'), 'seat1', 'split') as BlackjackRound;
      const a = g.place(g.place(split, '2C'), '3C');
      expect(isError(g.decide!(a, 'seat1a', 'hit', { keepStanding: true }))).toBe(true);
    });
  });
});
