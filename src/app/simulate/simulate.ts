/**
 * Simulation: deals N rounds of a card game through the same game modules and virtual dealer
 * the gateway's simulated tables use (`dealShoe`: shuffled shoes, reveal and burns, per-round
 * burns, cut card, decisions from the virtual engine's policies), with a seeded rng, and counts
 * how often every outcome field takes every value. Sic bo and keno, which deal no cards: a round
 * is a roll of three fair dice or a draw of 20 distinct balls of 1..80 (as the virtual dice table
 * and keno machine make them, without their faults), through the same outcome evaluators the
 * table machines publish.
 *
 * Pure apart from the work itself: the same options and seed give the same counts.
 *
 * Outcome fields are flattened with dots (`positions.p1.outcome`, `playerHand.category`); arrays
 * (`ranks`, blackjack `cards`) are not counted; `null` counts as the value `null`, booleans and
 * numbers as their text.
 */
import { randomInt, seededRng, shuffleInPlace, type Rng } from '../../../simulators/rng.js';
import { NON_CARD_GAME_IDS, nonCardGame } from '../../core/games/non-card-games.js';
import { sicBoOutcome } from '../../core/games/evaluators/sic-bo.js';
import { kenoOutcome } from '../../core/games/evaluators/keno.js';
import { KENO_BALLS_PER_DRAW, KENO_MAX_BALL } from '../../core/table/numbered/keno.js';
import type { AnyCardGame } from '../../core/games/game.js';
import { cardGame, GAME_IDS } from '../../core/games/registry.js';
import { dealShoe } from '../../../simulators/dealers/shoe-dealer.js';
import type { DecideFn } from '../../../simulators/dealers/decision-policies.js';

export interface SimulateOptions {
  /** a game id of the registry, or a game module */
  game: string | AnyCardGame;
  rounds: number;
  seed: string | number;
  /** default: the game's `defaults.decks` */
  decks?: number;
  /** default: the game's `defaults.burnPerRound` */
  burnPerRound?: number;
  /** engine-driven rounds (betting windows, decisions); default: the game's `needsEngine` */
  engine?: boolean;
  /** cards behind the cut card (shoe games); default 70 */
  cutCardFromEnd?: number;
  gameOptions?: Readonly<Record<string, unknown>>;
  /** decision policy; default: the virtual engine's policy for the game */
  decide?: DecideFn;
}

export interface SimulationResult {
  game: string;
  rounds: number;
  seed: string | number;
  decks: number;
  engine: boolean;
  shoes: number;
  /** field -> value -> rounds in which the field had that value */
  counts: Record<string, Record<string, number>>;
}

export interface FrequencyRow {
  field: string;
  value: string;
  count: number;
  frequency: number;
}

/**
 * Counters for the leaves of outcome objects, as a tree that mirrors the outcome (no key strings
 * are built per round; leaf values are Map keys as they are: strings, numbers, booleans, null).
 */
export class OutcomeCounter {
  private readonly root: CounterNode = newNode();

  /** adds every scalar leaf of an outcome (arrays skipped, undefined skipped) */
  add(outcome: unknown): void {
    addTo(this.root, outcome);
  }

  /** field path -> value text -> count, fields in first-seen order */
  counts(): Record<string, Record<string, number>> {
    const out: Record<string, Record<string, number>> = {};
    const walk = (n: CounterNode, path: string) => {
      if (n.values) {
        out[path] ??= {};
        const m = out[path];
        for (const [v, c] of n.values) m[String(v)] = (m[String(v)] ?? 0) + c;
      }
      if (n.children) for (const [k, child] of n.children) walk(child, path ? `${path}.${k}` : k);
    };
    walk(this.root, '');
    return out;
  }
}

interface CounterNode {
  values: Map<unknown, number> | null;
  children: Map<string, CounterNode> | null;
}

const newNode = (): CounterNode => ({ values: null, children: null });

function addTo(node: CounterNode, v: unknown): void {
  if (v === undefined) return;
  if (v === null || typeof v !== 'object') {
    node.values ??= new Map();
    const m = node.values;
    m.set(v, (m.get(v) ?? 0) + 1);
    return;
  }
  if (Array.isArray(v)) return;
  node.children ??= new Map();
  const children = node.children;
  const o = v as Record<string, unknown>;
  for (const k in o) {
    let child = children.get(k);
    if (!child) {
      child = newNode();
      children.set(k, child);
    }
    addTo(child, o[k]);
  }
}

/** every game `simulate` knows: the card games, then sic bo and keno */
export const SIMULATED_GAME_IDS: readonly string[] = [...GAME_IDS, ...NON_CARD_GAME_IDS];

/** one round of a game without cards: its outcome (sicBoOutcome / kenoOutcome) */
function nonCardRound(table: 'sic-bo' | 'keno', rng: Rng): unknown {
  if (table === 'sic-bo') return sicBoOutcome([1 + randomInt(rng, 6), 1 + randomInt(rng, 6), 1 + randomInt(rng, 6)]);
  const pool = Array.from({ length: KENO_MAX_BALL }, (_, i) => i + 1);
  return kenoOutcome(shuffleInPlace(pool, rng).slice(0, KENO_BALLS_PER_DRAW));
}

export function simulate(o: SimulateOptions): SimulationResult {
  if (!Number.isInteger(o.rounds) || o.rounds < 0) throw new Error(`rounds must be a whole number >= 0, got ${o.rounds}`);
  const other = typeof o.game === 'string' ? nonCardGame(o.game) : undefined;
  if (other) {
    // no shoes, no decks, no engine: each round is one roll or one draw
    const rng = seededRng(o.seed);
    const counter = new OutcomeCounter();
    for (let i = 0; i < o.rounds; i++) counter.add(nonCardRound(other.table, rng));
    return { game: other.id, rounds: o.rounds, seed: o.seed, decks: 0, engine: false, shoes: 0, counts: counter.counts() };
  }
  const game = typeof o.game === 'string' ? cardGame(o.game) : o.game;
  if (!game) throw new Error(`unknown game "${String(o.game)}" (known: ${SIMULATED_GAME_IDS.join(', ')})`);
  const decks = game.defaults.singleDeck ? 1 : (o.decks ?? game.defaults.decks);
  const engine = o.engine ?? game.defaults.needsEngine;
  const rng = seededRng(o.seed);
  const counter = new OutcomeCounter();
  let done = 0;
  let shoes = 0;
  while (done < o.rounds) {
    shoes++;
    let dealtInShoe = 0;
    const actions = dealShoe(
      {
        game,
        decks,
        engine,
        burnPerRound: o.burnPerRound ?? game.defaults.burnPerRound,
        cutCardFromEnd: o.cutCardFromEnd ?? 70,
        decide: o.decide,
        gameOptions: o.gameOptions,
      },
      rng,
    );
    for (const a of actions) {
      if (a.type !== 'round-end' || !a.complete) continue;
      counter.add(game.outcome(a.state));
      dealtInShoe++;
      if (++done >= o.rounds) break;
    }
    if (dealtInShoe === 0) throw new Error(`${game.id}: a whole shoe dealt no complete round (check decks / cutCardFromEnd)`);
  }
  return { game: game.id, rounds: done, seed: o.seed, decks, engine, shoes, counts: counter.counts() };
}

const isNumeric = (s: string) => s !== '' && !Number.isNaN(Number(s));

/** rows for a table: fields in first-seen order, numeric values ascending, others by count */
export function frequencyRows(r: SimulationResult): FrequencyRow[] {
  const rows: FrequencyRow[] = [];
  for (const [field, values] of Object.entries(r.counts)) {
    const entries = Object.entries(values);
    if (entries.every(([v]) => isNumeric(v))) entries.sort((a, b) => Number(a[0]) - Number(b[0]));
    else entries.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    for (const [value, count] of entries) rows.push({ field, value, count, frequency: r.rounds ? count / r.rounds : 0 });
  }
  return rows;
}

/** a readable table: field, value, count, frequency */
export function formatTable(r: SimulationResult): string {
  const rows = frequencyRows(r);
  const head = ['field', 'value', 'count', 'frequency'];
  const cells = rows.map((x) => [x.field, x.value, String(x.count), x.frequency.toFixed(6)]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) =>
    c
      .map((s, i) => (i >= 2 ? s.padStart(widths[i]) : s.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  const out = [line(head), line(widths.map((w) => '-'.repeat(w)))];
  let prev = '';
  for (const c of cells) {
    out.push(line(c[0] === prev ? ['', ...c.slice(1)] : c));
    prev = c[0];
  }
  return out.join('\n');
}
