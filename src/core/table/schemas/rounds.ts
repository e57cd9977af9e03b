/**
 * The `round` and `result` messages of the MQTT API, by kind of table (cards, sic bo, keno), as
 * zod schemas (src/core/table/messages.ts).
 */
import * as z from 'zod';
import { ALERT_KINDS } from '../../vocabulary/alerts.js';
import { cardSchema, message, visibleCardSchema } from './envelope.js';

// ------------------------------------------------------------------ round

export const roundPhaseSchema = z.enum(['idle', 'betting', 'dealing', 'awaiting-rescan', 'awaiting-decision', 'held', 'complete', 'void']);

export const expectationSchema = z.union([
  z.object({ kind: z.literal('card'), position: z.string(), faceDown: z.boolean(), revealAt: z.enum(['close-betting', 'close-decisions', 'result']).optional() }).strict(),
  z.object({ kind: z.literal('decision'), seat: z.string(), actions: z.array(z.string()) }).strict(),
  z.object({ kind: z.literal('close-decisions') }).strict(),
  z.object({ kind: z.literal('complete') }).strict(),
  z.object({ kind: z.literal('rescan') }).strict(),
]).describe('what the gateway expects next');

const roundNo = z.union([z.number().int().min(1), z.null()]).describe('the round\'s number (in the shoe for card games); null when no round was played yet');
const voidReason = z.string().optional().describe('why the round is void (phase `void`)');

export const cardRoundMessageSchema = message('round', {
  phase: roundPhaseSchema,
  roundNo,
  cards: z.record(z.string(), z.array(visibleCardSchema)).describe('position -> cards so far (face-down cards as null); `burn` holds the round\'s burns'),
  expect: z.union([expectationSchema, z.null()]),
  reason: voidReason,
}).describe('card games: snapshot of the round in progress (or of the last one)');

const die = z.number().int().min(1).max(6);
const diceAttemptSchema = z.object({
  kind: z.enum(['no-bounce', 'cocked', 'noread']),
  dice: z.tuple([die, die, die]).optional(),
  bounces: z.number().int().min(0).optional(),
}).strict();

export const diceRoundMessageSchema = message('round', {
  phase: z.enum(['idle', 'betting', 'dealing', 'complete', 'void']),
  roundNo,
  dice: z.union([z.tuple([die, die, die]), z.null()]).describe('the valid roll, once there is one'),
  shakes: z.number().int().min(0),
  attempts: z.array(diceAttemptSchema).describe('void attempts before the valid roll'),
  bounces: z.number().int().min(0).optional(),
  expect: z.union([z.object({ kind: z.enum(['roll', 'open-betting']) }).strict(), z.null()]),
  reason: voidReason,
}).describe('sic bo: snapshot of the round in progress (or of the last one)');

const ball = z.number().int().min(1).max(80);
export const kenoRoundMessageSchema = message('round', {
  phase: z.enum(['idle', 'betting', 'dealing', 'complete', 'void']),
  roundNo,
  started: z.boolean().describe('the draw machine reported START'),
  balls: z.array(ball).describe('balls drawn so far, in order'),
  expect: z.union([
    z.object({ kind: z.enum(['start', 'end', 'open-betting']) }).strict(),
    z.object({ kind: z.literal('ball'), index: z.number().int().min(1).max(20) }).strict(),
    z.null(),
  ]),
  reason: voidReason,
}).describe('keno: snapshot of the draw in progress (or of the last one)');

export const roundMessageSchema = z.union([cardRoundMessageSchema, diceRoundMessageSchema, kenoRoundMessageSchema])
  .describe('snapshot of the round in progress (or of the last one), by kind of table');

// ------------------------------------------------------------------ result

const resultFields = {
  status: z.enum(['complete', 'void', 'corrected']).describe('`corrected` (or `void`) with `supersedesSeq`: the pit corrected or voided a completed round (games.md Corrections)'),
  supersedesSeq: z.number().int().min(1).optional().describe('the `seq` of the result this one replaces'),
  correction: z.object({
    kind: z.enum(['void', 'cards', 'reverse-order', 'dice', 'balls']), by: z.string(), reason: z.string().optional(),
  }).strict().optional().describe('what the pit did to a completed round, and who'),
  reason: z.enum(ALERT_KINDS).optional().describe('why the round is void'),
  detail: z.string().optional(),
  outcome: z.union([z.record(z.string(), z.unknown()), z.null()]).describe('the game\'s outcome (games.md); null for a void round'),
};

export const cardResultMessageSchema = message('result', {
  ...resultFields,
  cards: z.record(z.string(), z.array(z.union([cardSchema, z.null()]))).describe('position -> cards; `burn` holds the round\'s burns (null for a burn card dropped unread)'),
}).describe('card games: the final result of a round');

export const diceResultMessageSchema = message('result', {
  ...resultFields,
  dice: z.union([z.tuple([die, die, die]), z.null()]).describe('the valid roll (null when void)'),
  bounces: z.number().int().min(0).optional(),
  attempts: z.number().int().min(0).optional().describe('void attempts before the valid roll (not on a result that corrects a completed round)'),
}).describe('sic bo: the final result of a round');

export const kenoResultMessageSchema = message('result', {
  ...resultFields,
  balls: z.array(ball).describe('the balls drawn, in order (20 when complete)'),
}).describe('keno: the final result of a draw');

export const resultMessageSchema = z.union([cardResultMessageSchema, diceResultMessageSchema, kenoResultMessageSchema])
  .describe('the final result of a round, by kind of table');
