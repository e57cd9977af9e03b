/**
 * `tablegw simulate --game <id> --rounds <n> [--seed <s>] [--json]`: deals n rounds of a game
 * through the game modules and the virtual dealer and prints how often each outcome value came.
 */
import { parseArgs } from 'node:util';
import { randomSeed } from '../../../../simulators/rng.js';
import { nonCardGame } from '../../../core/games/non-card-games.js';
import { formatTable, frequencyRows, SIMULATED_GAME_IDS, simulate } from '../../simulate/simulate.js';
import { didYouMean } from '../../config/near-names.js';
import type { CliCommand } from './command.js';

const help = `Usage: tablegw simulate --game <id> [--rounds <n>] [--seed <s>] [--decks <n>] [--engine] [--json]
       npm run simulate -- --game baccarat --rounds 1000000 --seed 42

Deals <n> rounds (default 100000) of a card game through the gateway's own game modules and
virtual dealer (shuffled shoes, burns, cut card; decisions from the virtual engine's policies)
and prints, for every outcome field, how often each value came: field, value, count, frequency.
Sic bo and keno: each round is a roll of three fair dice or a draw of 20 balls of 1..80, through
the outcome the table publishes (total, size, triple, faceCounts...; sum, bigSmall, element...).
Nested fields are flattened (positions.p1.outcome); arrays (hand ranks, cards) are not counted.
  --game <id>    ${SIMULATED_GAME_IDS.join(', ')}
  --rounds <n>   rounds to deal (default 100000)
  --seed <s>     a seed makes the run repeatable (default: random, printed)
  --decks <n>    decks per shoe (shoe games; default: the game's; not for sic bo or keno)
  --engine       engine-driven rounds (betting windows; always on for blackjack and holdem; card games only)
  --json         one JSON object instead of the table`;

export const command: CliCommand = {
  summary: 'deal N rounds of a game and count every outcome value',
  help,
  async run(argv) {
    const { values } = parseArgs({
      args: argv,
      options: {
        game: { type: 'string' },
        rounds: { type: 'string' },
        seed: { type: 'string' },
        decks: { type: 'string' },
        engine: { type: 'boolean' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) {
      console.log(help);
      return 0;
    }
    if (!values.game) {
      console.error(`simulate: --game is required\n\n${help}`);
      return 2;
    }
    if (!SIMULATED_GAME_IDS.includes(values.game)) {
      console.error(`simulate: unknown game "${values.game}"${didYouMean(values.game, SIMULATED_GAME_IDS)} (known: ${SIMULATED_GAME_IDS.join(', ')})`);
      return 2;
    }
    const cardless = nonCardGame(values.game);
    if (cardless && (values.decks !== undefined || values.engine)) {
      console.error(`simulate: --decks and --engine are for card games; ${values.game} has no shoe and no betting decisions`);
      return 2;
    }
    const rounds = values.rounds === undefined ? 100_000 : Number(values.rounds);
    if (!Number.isInteger(rounds) || rounds < 1) {
      console.error(`simulate: --rounds must be a whole number >= 1, got "${values.rounds}"`);
      return 2;
    }
    const decks = values.decks === undefined ? undefined : Number(values.decks);
    if (decks !== undefined && (!Number.isInteger(decks) || decks < 1 || decks > 16)) {
      console.error(`simulate: --decks must be 1-16, got "${values.decks}"`);
      return 2;
    }
    const seed = values.seed ?? randomSeed();
    const t0 = performance.now();
    const r = simulate({ game: values.game, rounds, seed, decks, engine: values.engine ? true : undefined });
    const ms = performance.now() - t0;
    const perSecond = Math.round(r.rounds / (ms / 1000));
    if (values.json) {
      const fields: Record<string, Record<string, { count: number; frequency: number }>> = {};
      for (const row of frequencyRows(r)) {
        fields[row.field] ??= {};
        fields[row.field][row.value] = { count: row.count, frequency: row.frequency };
      }
      console.log(
        JSON.stringify({
          game: r.game,
          rounds: r.rounds,
          seed: r.seed,
          decks: r.decks,
          engine: r.engine,
          shoes: r.shoes,
          elapsedMs: Math.round(ms),
          roundsPerSecond: perSecond,
          fields,
        }),
      );
    } else {
      const dealt = cardless
        ? `${r.rounds} ${cardless.table === 'keno' ? 'draws' : 'rolls'}`
        : `${r.rounds} rounds, ${r.shoes} ${r.decks === 1 ? 'decks' : 'shoes'} of ${r.decks} deck${r.decks === 1 ? '' : 's'}`;
      console.log(
        `${r.game}: ${dealt}, seed ${r.seed}${r.engine ? ', engine' : ''} — ${(ms / 1000).toFixed(2)} s (${perSecond.toLocaleString('en-US')} rounds/s)\n`,
      );
      console.log(formatTable(r));
    }
    return 0;
  },
};
