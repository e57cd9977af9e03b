/** The `round` topic: the round in progress of each kind of table. (The index of the API's messages: ../messages.ts.) */
import * as z from 'zod';
import { message, visibleCardSchema } from './envelope.js';

// ------------------------------------------------------------------ round

export const roundPhaseSchema = z.enum(['idle', 'betting', 'dealing', 'awaiting-rescan', 'awaiting-decision', 'held', 'complete', 'void']);

export const expectationSchema = z
  .union([
    z
      .object({
        kind: z.literal('card'),
        position: z.string(),
        faceDown: z.boolean(),
        revealAt: z.enum(['close-betting', 'close-decisions', 'result']).optional(),
      })
      .strict(),
    z.object({ kind: z.literal('decision'), seat: z.string(), actions: z.array(z.string()) }).strict(),
    z.object({ kind: z.literal('close-decisions') }).strict(),
    z.object({ kind: z.literal('complete') }).strict(),
    z.object({ kind: z.literal('rescan') }).strict(),
  ])
  .describe('what the gateway expects next');

const roundNo = z.union([z.number().int().min(1), z.null()]).describe("the round's number (in the shoe for card games); null when no round was played yet");
const voidReason = z.string().optional().describe('why the round is void (phase `void`)');

export const cardRoundMessageSchema = message('round', {
  phase: roundPhaseSchema,
  roundNo,
  cards: z.record(z.string(), z.array(visibleCardSchema)).describe("position -> cards so far (face-down cards as null); `burn` holds the round's burns"),
  expect: z.union([expectationSchema, z.null()]),
  reason: voidReason,
}).describe('card games: snapshot of the round in progress (or of the last one)');

export const die = z.number().int().min(1).max(6);
const diceAttemptSchema = z
  .object({
    kind: z.enum(['no-bounce', 'cocked', 'noread']),
    dice: z.tuple([die, die, die]).optional(),
    bounces: z.number().int().min(0).optional(),
  })
  .strict();

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

export const ball = z.number().int().min(1).max(80);
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

export const roundMessageSchema = z
  .union([cardRoundMessageSchema, diceRoundMessageSchema, kenoRoundMessageSchema])
  .describe('snapshot of the round in progress (or of the last one), by kind of table');
