/** The `events` topic: one schema per event kind. (The index of the API's messages: ../messages.ts.) */
import * as z from 'zod';
import { cardRole, cardSchema, envelopeFields, message, visibleCardSchema } from './envelope.js';

// ------------------------------------------------------------------ events

const eventKind = <K extends string, S extends z.ZodRawShape>(kind: K, fields: S, description: string) =>
  message('event', { kind: z.literal(kind), ...fields }).describe(description);

export const EVENT_SCHEMAS = {
  card: eventKind(
    'card',
    {
      deviceId: z.string(),
      role: cardRole.describe(
        '`burn`, `reveal` (first card of a new shoe) or the position the card goes to (`player`, `banker`, `dragon`, `seat2`, `board`, ...)',
      ),
      card: visibleCardSchema,
      faceDown: z.boolean(),
      cardNo: z.number().int().min(1).describe("the card's number in the shoe (or deck)"),
      unnecessary: z.literal(true).optional().describe('a card drawn when none was expected: it becomes a burn of the next round'),
      exposed: z.literal(true).optional().describe('dealt face up while betting was open: the round is void'),
      unread: z.literal(true).optional().describe('a burn card dropped before it was read: it counts as that burn, its value unknown (`card` null)'),
      afterLastRound: z.literal(true).optional().describe("role `discard`: drawn after the shoe's last round"),
      foreign: z.literal(true).optional().describe('role `discard`: a card that is not of this shoe (the `foreign-card` alert)'),
      deckExhausted: z.literal(true).optional().describe('role `discard`: the card that found the deck exhausted (the round is void)'),
    },
    'a card came out of the shoe: every card counted appears in exactly one card event',
  ),
  misread: eventKind('misread', { deviceId: z.string() }, 'the shoe could not read a card: a rescan is required'),
  rescan: eventKind('rescan', { deviceId: z.string(), card: visibleCardSchema }, 'the misread card was rescanned (dealt right after)'),
  cut: eventKind(
    'cut',
    {
      deviceId: z.string(),
      when: z
        .enum(['in-round', 'between-rounds', 'after-shoe', 'before-first-card'])
        .describe('`before-first-card`: Pok Deng, after open-betting: this round is the last'),
    },
    'the cut card came out',
  ),
  drop: eventKind(
    'drop',
    { deviceId: z.string(), read: z.boolean().describe('false only for a burn card dropped unread: it counts as that burn'), detail: z.string() },
    'a card was dropped (a read one counts; a face-down one voids the round)',
  ),
  reveal: eventKind(
    'reveal',
    {
      cards: z.array(z.object({ position: z.string(), index: z.number().int().min(0), card: cardSchema }).strict()),
    },
    'face-down cards turned over at their reveal point',
  ),
  'shoe-state': eventKind('shoe-state', { deviceId: z.string(), state: z.string() }, 'the shoe reported a STATE (e.g. LOADED)'),
  'round-resumed': eventKind(
    'round-resumed',
    {
      by: z.string(),
      reason: z.string().optional(),
      deviceId: z.string().describe('the device whose frame gap held the round'),
      queued: z.number().int().min(0).describe('frames read while the round was held, now taken in order'),
    },
    'the pit confirmed no card was lost in a round held after a frame gap (resume-round)',
  ),
  'device-restart': eventKind('device-restart', { deviceId: z.string() }, 'the device restarted (its SEQ went back to 0)'),
  decision: eventKind(
    'decision',
    {
      seat: z.string(),
      action: z.string(),
      keepStanding: z.literal(true).optional().describe('blackjack shared seat: the cards so far stay as the standing hand `<seat>s`'),
    },
    'a player decision the engine sent',
  ),
  correction: eventKind(
    'correction',
    { correction: z.string(), by: z.string().optional().describe('the operator id (a correction of a completed round)'), roundId: z.string().optional() },
    'a correction the rules allow: during the round, or of a completed round within the correction window',
  ),
  shuffler: eventKind(
    'shuffler',
    {
      deviceId: z.string(),
      state: z.string().optional().describe('the STATE the shuffler reported (IDLE, SHUFFLING, READY, JAM, DOOR_OPEN, ERROR)'),
      count: z.number().int().min(0).optional().describe('the COUNT the shuffler reported'),
      expected: z.number().int().min(0).optional().describe('the count a full deck (or shoe) has'),
      ok: z.boolean().optional().describe('whether the count matches'),
    },
    'the shuffler reported a state or a card count',
  ),
  dice: eventKind(
    'dice',
    {
      deviceId: z.string(),
      action: z.enum(['shake', 'roll', 'cocked', 'noread']),
      dice: z.tuple([z.number().int().min(1).max(6), z.number().int().min(1).max(6), z.number().int().min(1).max(6)]).optional(),
      bounces: z.number().int().min(0).optional(),
      valid: z.boolean().optional().describe('a roll with at least minBounces bounces'),
    },
    'sic bo: the dice were shaken, rolled, or could not be read',
  ),
  ball: eventKind(
    'ball',
    {
      deviceId: z.string(),
      action: z.enum(['start', 'ball', 'end']),
      ball: z.number().int().optional().describe('the ball number (1-80 when valid)'),
      index: z.number().int().min(1).max(20).optional().describe("the ball's place in the draw"),
      ignored: z.literal(true).optional().describe('the frame belongs to no draw (or repeats a ball): not counted'),
    },
    'keno: the draw machine started, drew a ball, or ended',
  ),
} as const;

/** events of other kinds: the envelope and a kind */
export const otherEventSchema = z
  .object({ ...envelopeFields, type: z.literal('event'), kind: z.string() })
  .catchall(z.unknown())
  .describe('events of kinds not listed here: the envelope, `kind` and kind-specific fields');

export const eventMessageSchema = z.union([...Object.values(EVENT_SCHEMAS), otherEventSchema]);
