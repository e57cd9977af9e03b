/** The `result` topic: a round's result, typed per game by its outcome. (The index of the API's messages: ../messages.ts.) */
import * as z from 'zod';
import { OUTCOME_SCHEMAS, VOID_OUTCOME_SCHEMAS, type OutcomeGameId } from '../../games/outcomes.js';
import { ALERT_KINDS } from '../../vocabulary/alerts.js';
import { cardSchema, message } from './envelope.js';
import { ball, die } from './rounds.js';

// ------------------------------------------------------------------ result

const resultFields = {
  status: z
    .enum(['complete', 'void', 'corrected'])
    .describe('`corrected` (or `void`) with `supersedesSeq`: the pit corrected or voided a completed round (games.md Corrections)'),
  supersedesSeq: z.number().int().min(1).optional().describe('the `seq` of the result this one replaces'),
  correction: z
    .object({
      kind: z.enum(['void', 'cards', 'reverse-order', 'dice', 'balls']),
      by: z.string(),
      reason: z.string().optional(),
    })
    .strict()
    .optional()
    .describe('what the pit did to a completed round, and who'),
  reason: z.enum(ALERT_KINDS).optional().describe('why the round is void'),
  detail: z.string().optional(),
  outcome: z.union([z.record(z.string(), z.unknown()), z.null()]).describe("the game's outcome (games.md); null for a void round"),
};

const cardsField = z
  .record(z.string(), z.array(z.union([cardSchema, z.null()])))
  .describe("position -> cards; `burn` holds the round's burns (null for a burn card dropped unread)");
const diceFields = {
  dice: z.union([z.tuple([die, die, die]), z.null()]).describe('the valid roll (null when void)'),
  bounces: z.number().int().min(0).optional(),
  attempts: z.number().int().min(0).optional().describe('void attempts before the valid roll (not on a result that corrects a completed round)'),
};
const kenoFields = { balls: z.array(ball).describe('the balls drawn, in order (20 when complete)') };

/** the loose shapes of a result by kind of table (the table machine's view: any outcome object) */
export const cardResultMessageSchema = message('result', { ...resultFields, cards: cardsField }).describe('card games: the final result of a round');
export const diceResultMessageSchema = message('result', { ...resultFields, ...diceFields }).describe('sic bo: the final result of a round');
export const kenoResultMessageSchema = message('result', { ...resultFields, ...kenoFields }).describe('keno: the final result of a draw');
const anyResultMessageSchema = z.union([cardResultMessageSchema, diceResultMessageSchema, kenoResultMessageSchema]);

function outcomeField(game: OutcomeGameId): z.ZodType {
  const typed = OUTCOME_SCHEMAS[game];
  const voided = VOID_OUTCOME_SCHEMAS[game];
  const alternatives = voided ? [typed, voided, z.null()] : [typed, z.null()];
  return z
    .union(alternatives as unknown as [z.ZodType, z.ZodType, ...z.ZodType[]])
    .describe(
      voided
        ? `the ${game} outcome (games.md); on a void round ${voided.description ?? 'what it still carries'}, or null`
        : `the ${game} outcome (games.md); null for a void round`,
    );
}

/** game id -> the result message of that game: its own `game` and its typed `outcome` */
export const RESULT_SCHEMAS_BY_GAME = Object.fromEntries(
  (Object.keys(OUTCOME_SCHEMAS) as OutcomeGameId[]).map((game) => {
    const table = game === 'sic-bo' ? diceFields : game === 'keno' ? kenoFields : { cards: cardsField };
    return [
      game,
      message('result', { ...resultFields, game: z.literal(game), outcome: outcomeField(game), ...table }).describe(
        `${game}: the final result of a round, with the facts every bet of the game settles from`,
      ),
    ];
  }),
) as unknown as Record<OutcomeGameId, z.ZodObject>;

/**
 * The result of any game, by its `game`. Typed for the table machine as the loose shapes above
 * (it composes outcomes as plain objects); validated against the typed schema of each game.
 */
export const resultMessageSchema = z
  .discriminatedUnion('game', Object.values(RESULT_SCHEMAS_BY_GAME) as [z.ZodObject, ...z.ZodObject[]])
  .describe('the final result of a round, by game') as unknown as typeof anyResultMessageSchema;
