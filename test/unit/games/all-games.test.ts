import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { oneDeck, type Card } from '../../../src/core/vocabulary/card.js';
import { seededRng } from '../../../simulators/rng.js';
import type { AnyCardGame } from '../../../src/core/games/game.js';
import { CARD_GAMES, GAME_IDS } from '../../../src/core/games/registry.js';
import { decideFor, windowDecision } from '../../../simulators/dealers/decision-policies.js';
import { dealShoe } from '../../../simulators/dealers/shoe-dealer.js';
import { isError } from './helpers.js';
import { GameMachine } from '../../helpers/table-harness.js';

const TABLE: Record<string, { positions: string[] }> = {
  baccarat: { positions: ['player', 'banker'] },
  'seven-up-baccarat': { positions: ['player', 'banker'] },
  'dragon-tiger': { positions: ['dragon', 'tiger'] },
  'pok-deng': { positions: ['p1', 'p2', 'p3', 'p4', 'p5', 'banker'] },
  'three-pictures': { positions: ['p1', 'p2', 'p3', 'banker'] },
  'three-card-poker': { positions: ['player', 'dealer'] },
  blackjack: { positions: ['seat1', 'seat2', 'seat3', 'seat4', 'dealer'] },
  holdem: { positions: ['player', 'dealer', 'board'] },
};

describe('the registry (games.md table of ids and positions)', () => {
  it('every game of the table is registered with its positions', () => {
    expect(GAME_IDS.sort()).toEqual(Object.keys(TABLE).sort());
    for (const [id, t] of Object.entries(TABLE)) {
      expect(CARD_GAMES[id].id).toBe(id);
      expect(CARD_GAMES[id].positions).toEqual(t.positions);
    }
  });

  it('defaults per games.md', () => {
    const d = (id: string) => CARD_GAMES[id].defaults;
    expect([
      d('baccarat').burnPerRound,
      d('seven-up-baccarat').burnPerRound,
      d('dragon-tiger').burnPerRound,
      d('pok-deng').burnPerRound,
      d('three-pictures').burnPerRound,
      d('blackjack').burnPerRound,
    ]).toEqual([0, 1, 1, 1, 4, 4]);
    expect(GAME_IDS.filter((id) => d(id).singleDeck).sort()).toEqual(['holdem', 'three-card-poker', 'three-pictures']);
    expect(GAME_IDS.filter((id) => d(id).needsEngine).sort()).toEqual(['blackjack', 'holdem']);
    expect(GAME_IDS.filter((id) => d(id).burnFaceDown)).toEqual(['pok-deng']);
    for (const id of GAME_IDS) expect(d(id).decks).toBe(d(id).singleDeck ? 1 : 8);
  });
});

/** plays a round from `cards` with random legal decisions; returns where each card went */
function randomRound(g: AnyCardGame, cards: Card[], seed: number, engine: boolean) {
  const rng = seededRng(seed);
  const decide = decideFor(g.id);
  let s = g.newRound({ engine });
  const placed: { position: string; card: Card }[] = [];
  for (let guard = 0; guard < 500; guard++) {
    const e = g.expect(s);
    if (e.kind === 'complete') return { s, placed, terminated: true };
    if (e.kind === 'card') {
      expect(placed.length).toBeLessThan(g.defaults.maxCardsPerRound);
      const c = cards[placed.length];
      s = g.place(s, c);
      placed.push({ position: e.position, card: c });
    } else if (e.kind === 'decision') {
      const r = g.decide!(s, e.seat, e.actions[Math.floor(rng() * e.actions.length)]);
      if (isError(r)) throw new Error(r.error);
      s = r;
    } else {
      const w = rng() < 0.5 ? windowDecision(g, s) : null;
      const r = w ? g.decide!(s, w.seat, decide(w, rng, { cards: g.cards(s) })) : g.closeDecisions!(s);
      if (isError(r)) throw new Error(r.error);
      s = r;
    }
  }
  return { s, placed, terminated: false };
}

describe('every game: rounds terminate and cards() matches the dealing order', () => {
  for (const id of GAME_IDS) {
    const g = CARD_GAMES[id];
    for (const engine of g.defaults.needsEngine ? [true] : [false, true]) {
      it(`${id}${engine ? ' (engine)' : ''}`, () => {
        fc.assert(
          fc.property(fc.array(fc.constantFrom(...oneDeck()), { minLength: 80, maxLength: 80 }), fc.integer(), (cards, seed) => {
            const { s, placed, terminated } = randomRound(g, cards, seed, engine);
            expect(terminated).toBe(true);
            const got = g.cards(s);
            // every card placed is in cards(), in dealing order per position; a split hand starts
            // with the card its seat was dealt before the split
            expect(Object.values(got).flat().sort()).toEqual(placed.map((p) => p.card).sort());
            for (const [pos, cs] of Object.entries(got)) {
              const to = placed.filter((p) => p.position === pos).map((p) => p.card);
              const split = id === 'blackjack' && /^seat\d[ab]$/.test(pos);
              expect(split || g.positions.includes(pos), `${pos} is a position of ${id}`).toBe(true);
              if (split) {
                const parent = placed.filter((p) => p.position === pos.slice(0, -1)).map((p) => p.card);
                expect(cs).toEqual([parent[pos.endsWith('a') ? 0 : 1], ...to]);
              } else expect(cs).toEqual(to);
            }
            expect(() => JSON.stringify(g.outcome(s))).not.toThrow();
          }),
          { numRuns: 300 },
        );
      });
    }
  }
});

describe('the virtual dealer through the table machine: every game deals clean shoes', () => {
  const cases: Array<[string, 'engine' | 'none', number]> = [
    ['baccarat', 'none', 1],
    ['seven-up-baccarat', 'none', 1],
    ['dragon-tiger', 'none', 1],
    ['pok-deng', 'none', 1],
    ['pok-deng', 'engine', 1],
    ['three-pictures', 'none', 6],
    ['three-pictures', 'engine', 6],
    ['three-card-poker', 'none', 6],
    ['three-card-poker', 'engine', 6],
    ['blackjack', 'engine', 1],
    ['holdem', 'engine', 8],
  ];
  for (const [id, betting, shoes] of cases) {
    it(`${id}, betting ${betting}: no alert, no refused request, every result as the game says`, () => {
      const g = CARD_GAMES[id];
      const m = new GameMachine(id, betting);
      const rng = seededRng(`${id}-${betting}`);
      const ends: Array<{ state: unknown }> = [];
      for (let i = 0; i < shoes; i++) {
        for (const a of dealShoe(
          { game: g, decks: g.defaults.decks, burnPerRound: g.defaults.burnPerRound, engine: betting === 'engine', cutCardFromEnd: 70 },
          rng,
        )) {
          m.act(a);
          if (a.type === 'round-end') {
            expect(a.complete).toBe(true);
            ends.push({ state: a.state });
          }
        }
      }
      expect(m.published('alerts').map((a) => `${String(a.kind)}: ${String(a.detail)}`)).toEqual([]);
      const results = m.published('result');
      expect(results.length).toBe(ends.length);
      expect(results.length).toBeGreaterThan(0);
      results.forEach((r, i) => {
        expect(r.status).toBe('complete');
        const { burn, ...cards } = r.cards as Record<string, string[]>;
        expect(burn.length).toBe(g.defaults.burnPerRound);
        expect(cards).toEqual(g.cards(ends[i].state));
        expect(r.outcome).toEqual(JSON.parse(JSON.stringify(g.outcome(ends[i].state))));
      });
      // decisions and close-decisions were all accepted
      for (const resp of m.published().filter((e) => e.type === 'response')) expect(resp.status, String(resp.error)).toBe('ok');
      // shoe games: the cut card ended every shoe
      if (!g.defaults.singleDeck) expect(m.published('shoe').at(-1)?.state).toBe('closed');
    });
  }
});
