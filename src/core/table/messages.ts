/**
 * The MQTT API's messages (spec mqtt-api.md) as zod schemas: the envelope every table message
 * carries and the payload of each topic. They document the API (`npm run docs:api` turns them
 * into docs/asyncapi.json) and tests validate messages captured from real simulator runs against
 * them, so a field added to a message without being added here fails a test.
 *
 * Request payloads are the schemas the gateway validates requests with (`requests.ts`).
 */
import type * as z from 'zod';
import type { holdemVoidOutcomeSchema, OutcomeGameId, OutcomeOf } from '../games/outcomes.js';
import { REQUEST_SCHEMAS } from '../vocabulary/requests.js';
import { TOPIC_PATTERNS, type MessageType } from '../vocabulary/topics.js';
import { roundMessageSchema } from './messages/rounds.js';
import { resultMessageSchema } from './messages/results.js';
import { deviceMessageSchema, statusMessageSchema } from './messages/envelope.js';
import { alertMessageSchema, healthMessageSchema, responseMessageSchema, shoeMessageSchema } from './messages/table-state.js';
import { EVENT_SCHEMAS, eventMessageSchema, otherEventSchema } from './messages/events.js';

export * from './messages/envelope.js';
export * from './messages/events.js';
export * from './messages/rounds.js';
export * from './messages/results.js';
export * from './messages/table-state.js';

// ------------------------------------------------------------------ all topics

/** table-relative topic patterns the gateway publishes on, with their schema */
export const PUBLISHED_TOPICS = {
  status: { ...TOPIC_PATTERNS.status, schema: statusMessageSchema, description: "the table's connection: online, or offline (the MQTT last will)" },
  device: { ...TOPIC_PATTERNS.device, schema: deviceMessageSchema, description: "one device's state" },
  event: { ...TOPIC_PATTERNS.event, schema: eventMessageSchema, description: 'each accepted device event: cards, misreads, rescans, cut card, reveals, ...' },
  round: { ...TOPIC_PATTERNS.round, schema: roundMessageSchema, description: 'the round in progress as it changes' },
  result: { ...TOPIC_PATTERNS.result, schema: resultMessageSchema, description: 'the final result of each round' },
  alert: { ...TOPIC_PATTERNS.alert, schema: alertMessageSchema, description: 'alerts for the pit and the technicians' },
  shoe: { ...TOPIC_PATTERNS.shoe, schema: shoeMessageSchema, description: 'the shoe (or deck) state' },
  health: {
    ...TOPIC_PATTERNS.health,
    schema: healthMessageSchema,
    description: 'a health summary of the table (its devices, its broker connection, its outbox)',
  },
  response: { ...TOPIC_PATTERNS.response, schema: responseMessageSchema, description: 'answers to requests' },
} as const satisfies Record<MessageType, { topic: string; retain: boolean; schema: z.ZodType; description: string }>;

export type PublishedType = keyof typeof PUBLISHED_TOPICS;

/** the payload of a message of `type`, as its schema describes it */
export type MessageOf<T extends PublishedType> = z.infer<(typeof PUBLISHED_TOPICS)[T]['schema']>;
/** the fields the table machine's envelope sets (never a body's) */
type EnvelopeOnlyKey = 'v' | 'type' | 'table' | 'game' | 'epoch' | 'seq' | 'ts' | 'signature';
type WithoutEnvelope<M> = M extends unknown ? { [K in keyof M as K extends EnvelopeOnlyKey ? never : K]: M[K] } : never;
/** what the table machine puts in a message of `type`: its payload without the envelope */
export type MessageBody<T extends PublishedType> = WithoutEnvelope<MessageOf<T>>;
/** the kinds of event the API describes, and each one's body */
export type EventKind = keyof typeof EVENT_SCHEMAS;
export type EventBody<K extends EventKind> = WithoutEnvelope<z.infer<(typeof EVENT_SCHEMAS)[K]>>;
/**
 * The result of a game `G` as an engine reads it: the result message with its own `game` and the
 * typed outcome of that game (null on a void round; Hold'em's void outcome aside). The type the
 * schema in RESULT_SCHEMAS_BY_GAME validates.
 */
export type GameResultMessage<G extends OutcomeGameId> = G extends OutcomeGameId
  ? Omit<
      Extract<MessageOf<'result'>, G extends 'sic-bo' ? { dice: unknown } : G extends 'keno' ? { balls: unknown } : { cards: unknown }>,
      'game' | 'outcome'
    > & { game: G; outcome: OutcomeOf<G> | (G extends 'holdem' ? z.infer<typeof holdemVoidOutcomeSchema> : never) | null }
  : never;
/** the result of any game, discriminated by `game` */
export type AnyGameResultMessage = GameResultMessage<OutcomeGameId>;

/** what the pit did to a completed round (a result's `correction.kind`) */
export type CorrectionKind = NonNullable<MessageBody<'result'>['correction']>['kind'];

export { REQUEST_SCHEMAS };

/** the schema a message published on the table-relative `topic` must match (null: not a gateway topic) */
export function schemaForTopic(relTopic: string, payload?: unknown): z.ZodType | null {
  const first = relTopic.split('/')[0];
  switch (first) {
    case 'status':
      return statusMessageSchema;
    case 'devices':
      return deviceMessageSchema;
    case 'events': {
      const kind = payload && typeof payload === 'object' ? (payload as { kind?: unknown }).kind : undefined;
      return typeof kind === 'string' && kind in EVENT_SCHEMAS ? EVENT_SCHEMAS[kind as keyof typeof EVENT_SCHEMAS] : otherEventSchema;
    }
    case 'round':
      return roundMessageSchema;
    case 'result':
      return resultMessageSchema;
    case 'alerts':
      return alertMessageSchema;
    case 'shoe':
      return shoeMessageSchema;
    case 'health':
      return healthMessageSchema;
    case 'response':
      return responseMessageSchema;
    default:
      return null;
  }
}

/** Validates one message published on `relTopic`; returns the problems (empty when valid). */
export function validateMessage(relTopic: string, payload: unknown): string[] {
  const schema = schemaForTopic(relTopic, payload);
  if (!schema) return [`${relTopic}: not a topic the gateway publishes on`];
  const r = schema.safeParse(payload);
  if (r.success) return [];
  return r.error.issues.map((i) => `${relTopic}: ${i.path.length ? i.path.join('.') : '(payload)'}: ${i.message}`);
}
