/**
 * Every game's outcome schema (src/core/games/outcomes.ts) against what the game modules really
 * produce: thousands of rounds of each card game dealt by the virtual dealer (with and without an
 * engine, blackjack splits, folds and standing hands, Pok Deng with special hands), every roll of
 * three dice, seeded keno draws. A fact a module returns that the schema does not name, or names
 * differently, fails here — and would otherwise be quarantined by the gateway's own check.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as z from 'zod';
import { dealShoe } from '../../../simulators/dealers/shoe-dealer.js';
import { holdem } from '../../../src/core/games/holdem.js';
import { kenoOutcome } from '../../../src/core/games/evaluators/keno.js';
import { sicBoOutcome } from '../../../src/core/games/evaluators/sic-bo.js';
import { OUTCOME_SCHEMAS, VOID_OUTCOME_SCHEMAS, baccaratOutcomeSchema, dragonTigerOutcomeSchema } from '../../../src/core/games/outcomes.js';
import { CARD_GAMES, GAME_IDS } from '../../../src/core/games/registry.js';
import { NON_CARD_GAME_IDS } from '../../../src/core/games/non-card-games.js';
import { seededRng } from '../../../simulators/rng.js';
import type { Card } from '../../../src/core/vocabulary/card.js';
import { resultMessageSchema, type AnyGameResultMessage } from '../../../src/core/table/messages.js';

function outcomesOf(gameId: string, rounds: number, engine: boolean, gameOptions?: Record<string, unknown>): unknown[] {
  const game = CARD_GAMES[gameId];
  const rng = seededRng(`outcome-schemas:${gameId}:${engine}`);
  const out: unknown[] = [];
  while (out.length < rounds) {
    for (const a of dealShoe({ game, decks: game.defaults.decks, engine, burnPerRound: game.defaults.burnPerRound, cutCardFromEnd: 70, gameOptions }, rng)) {
      if (a.type === 'round-end' && a.complete) out.push(game.outcome(a.state));
      if (out.length >= rounds) break;
    }
  }
  return out;
}

const problems = (schema: z.ZodType, values: unknown[]) =>
  values.flatMap((v) => {
    const r = schema.safeParse(v);
    return r.success ? [] : [`${JSON.stringify(v)}: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`];
  });

describe('typed outcomes', () => {
  it('has one schema per game the gateway runs', () => {
    expect(Object.keys(OUTCOME_SCHEMAS).sort()).toEqual([...GAME_IDS, ...NON_CARD_GAME_IDS].sort());
  });

  for (const id of GAME_IDS) {
    const engines = CARD_GAMES[id].defaults.needsEngine ? [true] : [false, true];
    for (const engine of engines) {
      it(`${id}${engine ? ' (engine)' : ''}: every outcome of 3,000 dealt rounds matches its schema`, () => {
        const outcomes = outcomesOf(id, 3000, engine);
        expect(problems(OUTCOME_SCHEMAS[id as keyof typeof OUTCOME_SCHEMAS], outcomes).slice(0, 3)).toEqual([]);
      });
    }
  }

  it('pok-deng with special hands and fewer boxes matches its schema (and flags special hands)', () => {
    const outcomes = outcomesOf('pok-deng', 2000, true, { players: 2, specialHands: ['K Q', '9* 9*'] }) as Array<{
      positions: Record<string, { special?: true }>;
    }>;
    expect(problems(OUTCOME_SCHEMAS['pok-deng'], outcomes).slice(0, 3)).toEqual([]);
    expect(outcomes.some((o) => Object.values(o.positions).some((h) => h.special === true))).toBe(true);
    expect(outcomes.every((o) => Object.keys(o.positions).sort().join() === 'banker,p1,p2')).toBe(true);
  });

  it("blackjack outcomes exercise splits, folds and the dealer's blackjack", () => {
    const outcomes = outcomesOf('blackjack', 3000, true) as Array<{ positions: Record<string, { split?: boolean; folded?: boolean; blackjack: boolean }> }>;
    const hands = outcomes.flatMap((o) => Object.entries(o.positions));
    expect(hands.some(([p, h]) => /^seat\da$/.test(p) && h.split)).toBe(true);
    expect(hands.some(([, h]) => h.folded)).toBe(true);
    expect(hands.some(([p, h]) => p === 'dealer' && h.blackjack)).toBe(true);
  });

  it("hold'em void outcomes (the Bonus stands) match the void schema", () => {
    const schema = VOID_OUTCOME_SCHEMAS.holdem!;
    let s = holdem.newRound({ engine: false });
    for (const c of ['AS', 'AD'] as Card[]) s = holdem.place(s, c);
    const afterHole = holdem.voidOutcome!(s);
    for (const c of ['AH', 'AC'] as Card[]) s = holdem.place(s, c);
    const afterDealer = holdem.voidOutcome!(s);
    expect(problems(schema, [afterHole, afterDealer])).toEqual([]);
    expect(afterHole).toEqual({ bonus: 'aa', bonusDealerAA: null });
    expect(afterDealer).toEqual({ bonus: 'aa', bonusDealerAA: true });
  });

  it('sic bo: every one of the 216 rolls matches its schema', () => {
    const rolls: number[][] = [];
    for (let a = 1; a <= 6; a++) for (let b = 1; b <= 6; b++) for (let c = 1; c <= 6; c++) rolls.push([a, b, c]);
    expect(
      problems(
        OUTCOME_SCHEMAS['sic-bo'],
        rolls.map((r) => sicBoOutcome(r)),
      ),
    ).toEqual([]);
  });

  it('keno: seeded draws, the lowest and the highest sums match the schema', () => {
    const rng = seededRng('outcome-schemas:keno');
    const draws: number[][] = [Array.from({ length: 20 }, (_, i) => i + 1), Array.from({ length: 20 }, (_, i) => 80 - i)];
    for (let n = 0; n < 2000; n++) {
      const balls = new Set<number>();
      while (balls.size < 20) balls.add(1 + Math.floor(rng() * 80));
      draws.push([...balls]);
    }
    expect(
      problems(
        OUTCOME_SCHEMAS.keno,
        draws.map((b) => kenoOutcome(b)),
      ),
    ).toEqual([]);
  });

  it('refuses a fact it does not name and a value outside its rule', () => {
    const good = {
      winner: 'player',
      playerTotal: 9,
      bankerTotal: 0,
      natural: true,
      playerNatural: true,
      bankerNatural: false,
      playerPair: false,
      bankerPair: false,
      cardCount: 4,
      size: 'small',
    };
    expect(baccaratOutcomeSchema.safeParse(good).success).toBe(true);
    expect(baccaratOutcomeSchema.safeParse({ ...good, extra: 1 }).success).toBe(false);
    expect(baccaratOutcomeSchema.safeParse({ ...good, playerTotal: 10 }).success).toBe(false);
    const { playerNatural: _, ...withoutSide } = good;
    expect(baccaratOutcomeSchema.safeParse(withoutSide).success).toBe(false);
    expect(
      dragonTigerOutcomeSchema.safeParse({
        winner: 'tie',
        dragonRank: 7,
        tigerRank: 7,
        suitedTie: true,
        dragonSuit: 'H',
        tigerSuit: 'H',
        dragonColor: 'green',
        tigerColor: 'red',
      }).success,
    ).toBe(false);
  });

  it('describes every field with the rule it carries', () => {
    const undescribed: string[] = [];
    const walk = (s: Record<string, unknown>, path: string) => {
      for (const [k, v] of Object.entries((s.properties as Record<string, Record<string, unknown>> | undefined) ?? {})) {
        if (typeof v.description !== 'string' || v.description.length < 10) undescribed.push(`${path}.${k}`);
        walk(v, `${path}.${k}`);
      }
      for (const key of ['anyOf', 'oneOf'] as const) for (const a of (s[key] as Array<Record<string, unknown>> | undefined) ?? []) walk(a, path);
      if (s.additionalProperties && typeof s.additionalProperties === 'object') walk(s.additionalProperties as Record<string, unknown>, `${path}.*`);
    };
    for (const [id, schema] of Object.entries({ ...OUTCOME_SCHEMAS, 'holdem-void': VOID_OUTCOME_SCHEMAS.holdem! })) {
      walk(z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'output' }) as Record<string, unknown>, id);
    }
    expect(undescribed).toEqual([]);
  });

  it("a result narrows by its game to that game's outcome type", () => {
    const outcome = outcomesOf('dragon-tiger', 1, false)[0];
    const message = {
      v: 1,
      type: 'result',
      table: 'dt-01',
      game: 'dragon-tiger',
      seq: 7,
      ts: '2026-12-07T00:00:00.000Z',
      shoeId: 'dt-01-s0001',
      roundId: 'dt-01-s0001-r0001',
      status: 'complete',
      cards: { dragon: ['KS'], tiger: ['QH'], burn: ['4D'] },
      outcome,
    };
    const r = resultMessageSchema.parse(message) as AnyGameResultMessage;
    if (r.game !== 'dragon-tiger' || !r.outcome) throw new Error('not a complete dragon-tiger result');
    expectTypeOf(r.outcome.dragonColor).toEqualTypeOf<'red' | 'black'>();
    expectTypeOf(r.cards).toEqualTypeOf<Record<string, Array<string | null>>>();
    expect(['red', 'black']).toContain(r.outcome.dragonColor);
    // the same message under another game's name is refused
    expect(resultMessageSchema.safeParse({ ...message, game: 'baccarat' }).success).toBe(false);
  });
});
