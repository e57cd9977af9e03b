/**
 * Engine benchmark, run in its own process (`node --expose-gc --import tsx dev/bench/engine.ts`,
 * pinned to one core by dev/bench/run.ts): pure code only, no I/O.
 *
 * - rounds/s of every registered game module (newRound -> expect/place/decide -> outcome), and
 *   outcomes/s of the games without cards (sic bo, keno)
 * - rounds/s of baccarat through the full pure table machine `step()`, and with the runtime's
 *   pure per-step work added (the JSON text of every published envelope)
 * - hand evaluations/s of the poker evaluators beside phe and pokersolver on identical hands
 * - RSS and heap before/after one million baccarat rounds through `step()`
 * - the cost of one durable-store commit (a step; a PUBACK batch) on this disk, fsync or not
 *
 * Prints one JSON object (the results) on the last line of stdout, and sends it over IPC when
 * there is a parent.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { oneDeck, type Card } from '../../src/core/vocabulary/card.js';
import { seededRng, shuffleInPlace, type Rng } from '../../simulators/rng.js';
import { kenoOutcome } from '../../src/core/games/evaluators/keno.js';
import { cardId, scoreBest, scoreBestIds, scoreThreeCard } from '../../src/core/games/evaluators/poker.js';
import { sicBoOutcome } from '../../src/core/games/evaluators/sic-bo.js';
import type { AnyCardGame, Expectation } from '../../src/core/games/game.js';
import { CARD_GAMES } from '../../src/core/games/registry.js';
import { GatewayStore } from '../../src/adapters/store/gateway-store.js';
import type { CardTableSettings, TableInput } from '../../src/core/table/types.js';
import { baccaratScript, baccaratSettings, stepLoop, type Script } from './lib/baccarat-script.js';
import { mb, round1 } from './lib/stats.js';

const require = createRequire(import.meta.url);
const quick = process.argv.includes('--quick');
const SAMPLE_MS = quick ? 150 : 400;
const SAMPLES = quick ? 3 : 5;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

/**
 * A private copy of a self-contained function (no free variables but globals): each candidate's
 * loop gets its own type feedback, so one candidate's calls do not make a shared call site
 * megamorphic for the next. (`__name` is the helper tsx/esbuild inserts for named closures.)
 */
function fresh<F>(fn: F): F {
  return new Function('__name', `return (${String(fn)})`)((f: unknown) => f) as F;
}

/**
 * ops per second of `fn(n)` (runs n operations): calibrated to ~SAMPLE_MS per run, one warm-up
 * run, then the best of SAMPLES timed runs. Time is the process's CPU time (user + system, GC
 * threads included) rather than the wall clock: the bench process is pinned to one core, and on a
 * machine shared with other work the wall clock would also count the time slices the scheduler
 * gave to others. On an idle machine the two agree (see `cpuVsWall` in the results).
 */
function opsPerSec(fn: (n: number) => number, sampleMs = SAMPLE_MS): number {
  return measure(fn, sampleMs).cpu;
}

const cpuMsNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

function measure(fn: (n: number) => number, sampleMs = SAMPLE_MS): { cpu: number; wall: number } {
  let n = 1;
  let sink = 0;
  for (;;) {
    const t0 = performance.now();
    sink += fn(n);
    const dt = performance.now() - t0;
    if (dt > 30) {
      n = Math.max(1, Math.round((n * sampleMs) / dt));
      break;
    }
    n *= 4;
  }
  sink += fn(n); // warm-up at full size (optimised code, inline caches settled)
  let bestCpu = 0;
  let bestWall = 0;
  for (let i = 0; i < SAMPLES; i++) {
    const c0 = cpuMsNow();
    const t0 = performance.now();
    sink += fn(n);
    const wall = performance.now() - t0;
    const cpu = Math.max(cpuMsNow() - c0, 0.001);
    bestCpu = Math.max(bestCpu, (n * 1000) / cpu);
    bestWall = Math.max(bestWall, (n * 1000) / wall);
  }
  if (sink === 0.5) console.log('');
  return { cpu: Math.round(bestCpu), wall: Math.round(bestWall) };
}

// ------------------------------------------------------------------------------- game modules

/** many shuffled single decks, one after the other (a round never spans two decks) */
function cardPool(decks: number, rng: Rng): Card[] {
  const out: Card[] = [];
  for (let i = 0; i < decks; i++) out.push(...shuffleInPlace(oneDeck(), rng));
  return out;
}

const isError = (x: unknown): x is { error: string } => !!x && typeof x === 'object' && 'error' in (x as object);

/** the engine's choice in the benchmark: stand / play / check when allowed, else the first action */
function pickAction(e: Extract<Expectation, { kind: 'decision' }>): string {
  for (const a of ['stand', 'play', 'check']) if (e.actions.includes(a)) return a;
  return e.actions[0];
}

/** self-contained (see `fresh`): plays rounds of `game` with cards from `pool` */
function roundRunnerFactory(
  game: AnyCardGame,
  pool: readonly Card[],
  pickAction: (e: Extract<Expectation, { kind: 'decision' }>) => string,
  isError: (x: unknown) => x is { error: string },
): (n: number) => number {
  const opts = { engine: game.defaults.needsEngine, options: {} };
  const max = Math.min(52, game.defaults.maxCardsPerRound);
  let deckStart = 0;
  let pos = 0;
  return (n) => {
    let sink = 0;
    for (let i = 0; i < n; i++) {
      if (pos - deckStart + max > 52) {
        deckStart += 52;
        if (deckStart + 52 > pool.length) deckStart = 0;
        pos = deckStart;
      }
      let s = game.newRound(opts);
      for (let guard = 0; guard < 64; guard++) {
        const e = game.expect(s);
        if (e.kind === 'card') s = game.place(s, pool[pos++]);
        else if (e.kind === 'decision') {
          const r = game.decide!(s, e.seat, pickAction(e));
          if (isError(r)) throw new Error(`${game.id}: ${r.error}`);
          s = r;
        } else if (e.kind === 'close-decisions') {
          const r = game.closeDecisions!(s);
          if (isError(r)) throw new Error(`${game.id}: ${r.error}`);
          s = r;
        } else break;
      }
      const o = game.outcome(s);
      sink += o === null ? 0 : 1;
    }
    return sink;
  };
}

function roundRunner(game: AnyCardGame, pool: readonly Card[]): (n: number) => number {
  return fresh(roundRunnerFactory)(game, pool, pickAction, isError);
}

/**
 * The games that are not dealt from cards (NON_CARD_GAMES: sic bo, keno) have no round module:
 * their outcome is one pure function of a roll or a draw. Rates of those, on pre-generated rolls.
 */
function nonCardOutcomes(): Record<string, number> {
  const rng = seededRng('bench-non-card');
  const rolls = Array.from({ length: 10_000 }, () => [1, 2, 3].map(() => 1 + Math.floor(rng() * 6)));
  const draws = Array.from({ length: 10_000 }, () => {
    const balls = Array.from({ length: 80 }, (_, i) => i + 1);
    return shuffleInPlace(balls, rng).slice(0, 20);
  });
  return {
    'sic-bo': opsPerSec(fresh(loopFactory)(rolls, (r: number[]) => (sicBoOutcome(r) ? 1 : 0))),
    keno: opsPerSec(fresh(loopFactory)(draws, (d: number[]) => (kenoOutcome(d) ? 1 : 0))),
  };
}

function gameModules(): Record<string, number | string> {
  const pool = cardPool(4096, seededRng('bench-games'));
  const out: Record<string, number | string> = {};
  for (const [id, game] of Object.entries(CARD_GAMES)) {
    try {
      out[id] = opsPerSec(roundRunner(game, pool));
    } catch (e) {
      out[id] = `error: ${(e as Error).message}`;
    }
  }
  return out;
}

// ------------------------------------------------------------------------------- table machine

function tableMachine(measure: boolean) {
  const settings = baccaratSettings();
  const script = baccaratScript(settings, 20);
  const inputsPerRound = script.inputs.length / script.rounds;
  if (!measure) return { settings, script, figures: {} };
  const plain = stepLoop(settings, script, false);
  const stepsPerSec = opsPerSec(plain.run);
  const withJson = stepLoop(settings, script, 'json');
  const stepsPerSecJson = opsPerSec(withJson.run);
  const withValidate = stepLoop(settings, script, 'validate');
  const stepsPerSecValidate = opsPerSec(withValidate.run);
  return {
    settings,
    script,
    figures: {
      baccaratStepRoundsPerSec: Math.round(stepsPerSec / inputsPerRound),
      baccaratStepInputsPerSec: stepsPerSec,
      baccaratStepUsPerCard: round1((1e6 / stepsPerSec) * 1000) / 1000,
      baccaratStepPlusJsonRoundsPerSec: Math.round(stepsPerSecJson / inputsPerRound),
      baccaratStepPlusJsonUsPerCard: round1((1e6 / stepsPerSecJson) * 1000) / 1000,
      baccaratStepPlusValidateJsonUsPerCard: round1((1e6 / stepsPerSecValidate) * 1000) / 1000,
      framesPerRound: round1(inputsPerRound * 100) / 100,
    },
  };
}

/** RSS / heap before and after one million rounds through step() */
function millionRounds(settings: CardTableSettings, script: Script, rounds: number) {
  const loop = stepLoop(settings, script, false);
  const perRound = script.inputs.length / script.rounds;
  loop.run(Math.round(20_000 * perRound)); // warm up (JIT, inline caches)
  gc();
  gc();
  const before = process.memoryUsage();
  const inputs = Math.round(rounds * perRound);
  let peakRss = before.rss;
  const t0 = performance.now();
  const c0 = cpuMsNow();
  for (let done = 0; done < inputs; ) {
    const chunk = Math.min(inputs - done, 200_000);
    loop.run(chunk);
    done += chunk;
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }
  const secs = (performance.now() - t0) / 1000;
  const cpuSecs = (cpuMsNow() - c0) / 1000;
  gc();
  gc();
  const after = process.memoryUsage();
  if (loop.state.seq <= 0) throw new Error('no step ran');
  return {
    rounds,
    inputs,
    seconds: round1(secs * 10) / 10,
    roundsPerWallSec: Math.round(rounds / secs),
    roundsPerCpuSec: Math.round(rounds / cpuSecs),
    gcExposed: typeof (globalThis as { gc?: unknown }).gc === 'function',
    rssBeforeMb: mb(before.rss),
    rssAfterMb: mb(after.rss),
    rssPeakMb: mb(peakRss),
    heapUsedBeforeMb: mb(before.heapUsed),
    heapUsedAfterGcMb: mb(after.heapUsed),
  };
}

// ------------------------------------------------------------------------------- evaluators

interface PokerSolverHand {
  rank: number;
}
interface PokerSolver {
  Hand: { solve(cards: string[], game?: string): PokerSolverHand; winners(h: PokerSolverHand[]): PokerSolverHand[] };
}
interface Phe {
  evaluateCardCodes(codes: number[]): number;
  evaluateCardsFast(cards: string[]): number;
  cardCode(card: string): number;
}

function randomHands(n: number, size: number, rng: Rng): Card[][] {
  const deck = oneDeck();
  const out: Card[][] = [];
  for (let i = 0; i < n; i++) {
    // partial Fisher-Yates: `size` distinct cards
    for (let j = 0; j < size; j++) {
      const k = j + Math.floor(rng() * (52 - j));
      const t = deck[j];
      deck[j] = deck[k];
      deck[k] = t;
    }
    out.push(deck.slice(0, size));
  }
  return out;
}

/** `AS` -> `As` (pokersolver and phe take lower-case suits) */
const lowerSuit = (c: Card): string => c[0] + c[1].toLowerCase();

/** self-contained (see `fresh`): cycles `f` over `hands` */
function loopFactory<T>(hands: readonly T[], f: (h: T) => number): (n: number) => number {
  let k = 0;
  return (n) => {
    let sink = 0;
    for (let i = 0; i < n; i++) {
      sink += f(hands[k]);
      if (++k === hands.length) k = 0;
    }
    return sink;
  };
}

function evaluators() {
  const ps = require('pokersolver') as PokerSolver;
  const phe = require('phe') as Phe;
  const phe7 = require('phe/lib/evaluator7') as (...c: number[]) => number;
  const phe6 = require('phe/lib/evaluator6') as (...c: number[]) => number;
  const rng = seededRng('bench-hands');
  const N = quick ? 20_000 : 100_000;
  const loopOver = <T>(hands: readonly T[], f: (h: T) => number) => fresh(loopFactory)(hands, f);
  const out: Record<string, Record<string, number | string>> = {};

  // three cards: ours vs pokersolver's 'threecard' game (phe does not do three-card hands)
  const h3 = randomHands(N, 3, rng);
  const h3s = h3.map((h) => h.map(lowerSuit));
  out.threeCard = {
    hands: N,
    ours_scoreThreeCard: opsPerSec(loopOver(h3, scoreThreeCard)),
    pokersolver_threecard: opsPerSec(
      loopOver(h3s, (h) => ps.Hand.solve(h, 'threecard').rank),
      SAMPLE_MS / 2,
    ),
    phe: 'n/a (5-7 cards only)',
  };

  for (const size of [6, 7] as const) {
    const hs = randomHands(N, size, rng);
    const ids = hs.map((h) => h.map(cardId));
    const strs = hs.map((h) => h.map(lowerSuit));
    const codes = strs.map((h) => h.map((c) => phe.cardCode(c)));
    const direct = size === 7 ? (h: number[]) => phe7(h[0], h[1], h[2], h[3], h[4], h[5], h[6]) : (h: number[]) => phe6(h[0], h[1], h[2], h[3], h[4], h[5]);
    out[size === 6 ? 'bestOf6' : 'bestOf7'] = {
      hands: N,
      ours_scoreBest_strings: opsPerSec(loopOver(hs, scoreBest)),
      ours_scoreBestIds_numbers: opsPerSec(loopOver(ids, (h) => scoreBestIds(h))),
      phe_evaluateCardsFast_strings: opsPerSec(loopOver(strs, (h) => phe.evaluateCardsFast(h))),
      phe_evaluateCardCodes_numbers: opsPerSec(loopOver(codes, (h) => phe.evaluateCardCodes(h))),
      phe_evaluator_direct_numbers: opsPerSec(loopOver(codes, direct)),
      pokersolver_solve_strings: opsPerSec(
        loopOver(strs, (h) => ps.Hand.solve(h).rank),
        SAMPLE_MS / 2,
      ),
    };
  }

  // agreement: ours and phe must order random pairs of 7-card hands the same way
  const a = randomHands(5000, 7, rng);
  const b = randomHands(5000, 7, rng);
  let disagree7 = 0;
  for (let i = 0; i < a.length; i++) {
    const ours = Math.sign(scoreBest(a[i]) - scoreBest(b[i]));
    const theirs = Math.sign(phe.evaluateCardsFast(b[i].map(lowerSuit)) - phe.evaluateCardsFast(a[i].map(lowerSuit)));
    if (ours !== theirs) disagree7++;
  }
  // and ours and pokersolver on three-card pairs (winners: one hand, or both on a tie)
  const a3 = randomHands(5000, 3, rng);
  const b3 = randomHands(5000, 3, rng);
  let disagree3 = 0;
  for (let i = 0; i < a3.length; i++) {
    const ours = Math.sign(scoreThreeCard(a3[i]) - scoreThreeCard(b3[i]));
    const ha = ps.Hand.solve(a3[i].map(lowerSuit), 'threecard');
    const hb = ps.Hand.solve(b3[i].map(lowerSuit), 'threecard');
    const w = ps.Hand.winners([ha, hb]);
    const theirs = w.length === 2 ? 0 : w[0] === ha ? 1 : -1;
    if (ours !== theirs) disagree3++;
  }
  out.agreement = { pairs7VsPhe: a.length, disagreements7: disagree7, pairs3VsPokersolver: a3.length, disagreements3: disagree3 };
  return out;
}

// ------------------------------------------------------------------------------- durable store

/**
 * What one card costs the durable store (src/adapters/store/gateway-store.ts) on this disk: one
 * committed step (its input, an `events` and a `round` message) and one committed PUBACK batch,
 * each its own transaction as in the gateway, with `synchronous` FULL (fsync per commit, the
 * default) and NORMAL, on the disk holding the OS temp dir and on tmpfs.
 */
function journalCommit() {
  const n = quick ? 200 : 1000;
  const input = {
    type: 'frame',
    at: Date.UTC(2026, 0, 1),
    deviceId: 'shoe-1',
    frame: { talker: 'SHOE', seq: 17, type: 'CARD', card: 'AS', rescan: false },
  } as TableInput;
  const pad = (k: number) => 'x'.repeat(k);
  const out: Record<string, unknown> = {};
  const dirs: Array<[string, string]> = [['disk', tmpdir()]];
  if (existsSync('/dev/shm')) dirs.push(['tmpfs', '/dev/shm']);
  for (const [where, base] of dirs) {
    for (const synchronous of ['full', 'normal'] as const) {
      const dir = mkdtempSync(join(base, 'teg-bench-store-'));
      try {
        const store = new GatewayStore(dir, { synchronous, retentionDays: 14 });
        store.registerTable('bench-bac', {}, () => ({}));
        let seq = 0;
        const t0 = performance.now();
        for (let i = 0; i < n; i++) {
          store.enqueue(
            {
              tableId: 'bench-bac',
              input,
              messages: [
                { seq: ++seq, topic: 'events', retain: false, payload: pad(300) },
                { seq: ++seq, topic: 'round', retain: true, payload: pad(450) },
              ],
            },
            () => {},
          );
          store.flush();
        }
        const stepUs = ((performance.now() - t0) * 1000) / n;
        const t1 = performance.now();
        for (let i = 1; i <= n; i++) {
          store.acknowledge('bench-bac', 2 * i - 1);
          store.acknowledge('bench-bac', 2 * i);
          store.flush();
        }
        const ackUs = ((performance.now() - t1) * 1000) / n;
        store.close();
        out[`${where}_${synchronous}`] = { commitsTimed: n, usPerStepCommit: round1(stepUs), usPerAckCommit: round1(ackUs) };
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }
  return out;
}

// ------------------------------------------------------------------------------- main

/** `--section games|step|evaluators|store|million` runs only that part (e.g. under --cpu-prof) */
function main() {
  const si = process.argv.indexOf('--section');
  const only = si > 0 ? process.argv[si + 1] : null;
  const want = (x: string) => only === null || only === x;
  const t0 = performance.now();
  const result: Record<string, unknown> = { node: process.version, pinnedCpu: process.env.BENCH_PINNED_CPU ?? null };
  if (want('games')) {
    const games = gameModules();
    result.gameRoundsPerSec = games;
    result.baccaratRoundsPerSec = games.baccarat;
    const pool = cardPool(4096, seededRng('bench-games'));
    const b = measure(roundRunner(CARD_GAMES.baccarat, pool));
    result.nonCardOutcomesPerSec = nonCardOutcomes();
    result.cpuVsWall = { baccaratRoundsPerCpuSec: b.cpu, baccaratRoundsPerWallSec: b.wall };
  }
  const needMachine = want('step') || want('million');
  const tm = needMachine ? tableMachine(want('step')) : null;
  if (tm && want('step')) Object.assign(result, tm.figures);
  if (want('evaluators')) result.evaluators = evaluators();
  if (want('store')) result.journalCommit = journalCommit();
  if (tm && want('million')) result.millionRounds = millionRounds(tm.settings, tm.script, quick ? 100_000 : 1_000_000);
  result.seconds = Math.round((performance.now() - t0) / 100) / 10;
  console.log(JSON.stringify(result));
  if (process.send) process.send({ type: 'engine', result }, () => process.exit(0));
}

main();
