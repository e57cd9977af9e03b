/**
 * The MQTT API's messages (spec mqtt-api.md) as zod schemas: the envelope every table message
 * carries and the payload of each topic. They document the API (`npm run docs:api` turns them
 * into docs/asyncapi.json) and tests validate messages captured from real simulator runs against
 * them, so a field added to a message without being added here fails a test.
 *
 * Request payloads are the schemas the gateway validates requests with (`requests.ts`).
 */
import * as z from 'zod';
import { NON_CARD_GAME_IDS } from '../games/non-card-games.js';
import { type holdemVoidOutcomeSchema, OUTCOME_SCHEMAS, VOID_OUTCOME_SCHEMAS, type OutcomeGameId, type OutcomeOf } from '../games/outcomes.js';
import { CARD_GAMES, GAME_IDS } from '../games/registry.js';
import { ALERT_KINDS } from '../vocabulary/alerts.js';
import { REQUEST_ERROR_CODES, REQUEST_SCHEMAS } from '../vocabulary/requests.js';
import { TOPIC_PATTERNS, type MessageType } from '../vocabulary/topics.js';

export const cardSchema = z.string().regex(/^[A2-9TJQK][SHDC]$/).describe('a card: rank A23456789TJQK + suit SHDC, e.g. "AS", "TD"');
/** a card as the public may see it: null while it lies face down */
export const visibleCardSchema = z.union([cardSchema, z.null()]).describe('a card, or null while it is face down');

const tableId = z.string().regex(/^[a-z0-9-]{1,32}$/);
/** where a card goes: `burn`, `reveal`, `discard`, or a position of a game's layout (a blackjack split hand adds `a`/`b`) */
const CARD_ROLES = [...new Set(['burn', 'reveal', 'discard', ...Object.values(CARD_GAMES).flatMap((g) => g.positions)])] as [string, ...string[]];
const cardRole = z.union([z.enum(CARD_ROLES), z.string().regex(/^seat[1-9][0-9]?[abs]$/).describe('a blackjack split hand (`seat2a`, `seat2b`) or standing hand of a shared seat (`seat2s`)')]);
/** every game id the gateway knows (games.md): an enum in the API document */
const gameId = z.enum([...GAME_IDS, ...NON_CARD_GAME_IDS] as [string, ...string[]]).describe('game id (games.md)');

/** Fields every table message has. `seq` is on all but `status`. */
export const envelopeFields = {
  v: z.literal(1).describe('API version'),
  type: z.string(),
  table: tableId.describe('table id'),
  game: gameId,
  epoch: z.string().min(1).max(64).optional().describe('the table\'s stream epoch: a random id fixed when the table\'s journal was created, kept by backup and restore; on every message of a gateway with a journal (v1.2 on; absent only from a gateway before v1.2). Deduplicate and detect gaps by (epoch, seq); a new epoch is a new stream (its seq starts again), announced by a `new-epoch` alert and on the retained `info` and `status` (docs/ENGINES.md "Epochs")'),
  seq: z.number().int().min(1).describe('per table, strictly increasing over every message the table publishes, never reused, also across restarts'),
  ts: z.iso.datetime().describe('when the message was composed (the time the input that caused it was received)'),
  shoeId: z.string().optional().describe('the shoe (or deck) this message belongs to, when there is one'),
  roundId: z.string().optional().describe('the round this message belongs to, when there is one'),
  signature: z.object({
    alg: z.literal('Ed25519'),
    keyId: z.string().describe('the signing key: `signing.keyId`, else `ed25519:` + the first 16 hex digits of the SHA-256 of the raw 32-byte Ed25519 public key (its RFC 8032 encoding, the JWK `x` decoded; not the PEM or DER)'),
    sig: z.string().regex(/^[A-Za-z0-9+/]{86}==$/).describe('base64 of the 64-byte Ed25519 signature'),
  }).strict().optional().describe('with `signing` configured (results by default): an Ed25519 signature over the canonical JSON of the message without this field (docs/SECURITY.md)'),
};

export const envelopeSchema = z.object(envelopeFields).catchall(z.unknown()).describe('the envelope of every message the gateway publishes');

function message<T extends string, S extends z.ZodRawShape>(type: T, fields: S) {
  // a field of `fields` replaces the envelope's of the same name (the shoe's `shoeId` is required): say so to the type too
  const shape = { ...envelopeFields, type: z.literal(type), ...fields } as unknown as Omit<typeof envelopeFields, 'type' | keyof S> & { type: z.ZodLiteral<T> } & S;
  return z.object(shape).strict();
}

// ------------------------------------------------------------------ status (no seq: it is the last will)

export const statusMessageSchema = z.object({
  v: z.literal(1),
  type: z.literal('status'),
  table: tableId,
  game: gameId,
  ts: z.iso.datetime(),
  state: z.enum(['online', 'offline']).describe('"offline" is the MQTT last will, fixed when the connection opens, or a clean stop'),
  reason: z.enum(['start', 'reconnect', 'stopped', 'connection-lost', 'moved']).describe('why: online `start` (the first connection of this gateway run) or `reconnect` (the same run connected again after a broker restart, a network loss or a failover: nothing of the table was lost); offline `stopped` (a clean stop), `connection-lost` (the last will: the broker lost the gateway\'s connection; the gateway may still be running) or `moved` (left on a broker the table moved away from)'),
  startedAt: z.iso.datetime().describe('when this gateway run started: the same on every status of one run; a new value after `online` means the gateway restarted (from its journal)'),
  epoch: z.string().min(1).max(64).optional().describe('the table\'s stream epoch (the `epoch` of its envelopes); absent only on a last will composed before the journal was opened'),
}).strict().describe('`status` carries no `seq`: its offline form is the last will, composed before anything else is known');

// ------------------------------------------------------------------ devices/<deviceId>

export const deviceStateSchema = z.enum(['connected', 'disconnected', 'stale', 'fault']);
export const deviceKindSchema = z.enum(['card-shoe', 'rfid-shoe', 'barcode-scanner', 'shuffler', 'dice-sensor', 'ball-reader', 'unknown']);

export const deviceMessageSchema = message('device', {
  deviceId: z.string(),
  state: deviceStateSchema,
  kind: deviceKindSchema,
  detail: z.string().optional(),
  model: z.string().optional(),
  firmware: z.string().optional(),
});

// ------------------------------------------------------------------ events

const eventKind = <K extends string, S extends z.ZodRawShape>(kind: K, fields: S, description: string) =>
  message('event', { kind: z.literal(kind), ...fields }).describe(description);

export const EVENT_SCHEMAS = {
  card: eventKind('card', {
    deviceId: z.string(),
    role: cardRole.describe('`burn`, `reveal` (first card of a new shoe) or the position the card goes to (`player`, `banker`, `dragon`, `seat2`, `board`, ...)'),
    card: visibleCardSchema,
    faceDown: z.boolean(),
    cardNo: z.number().int().min(1).describe('the card\'s number in the shoe (or deck)'),
    unnecessary: z.literal(true).optional().describe('a card drawn when none was expected: it becomes a burn of the next round'),
    exposed: z.literal(true).optional().describe('dealt face up while betting was open: the round is void'),
    unread: z.literal(true).optional().describe('a burn card dropped before it was read: it counts as that burn, its value unknown (`card` null)'),
    afterLastRound: z.literal(true).optional().describe('role `discard`: drawn after the shoe\'s last round'),
    foreign: z.literal(true).optional().describe('role `discard`: a card that is not of this shoe (the `foreign-card` alert)'),
    deckExhausted: z.literal(true).optional().describe('role `discard`: the card that found the deck exhausted (the round is void)'),
  }, 'a card came out of the shoe: every card counted appears in exactly one card event'),
  misread: eventKind('misread', { deviceId: z.string() }, 'the shoe could not read a card: a rescan is required'),
  rescan: eventKind('rescan', { deviceId: z.string(), card: visibleCardSchema }, 'the misread card was rescanned (dealt right after)'),
  cut: eventKind('cut', { deviceId: z.string(), when: z.enum(['in-round', 'between-rounds', 'after-shoe', 'before-first-card']).describe('`before-first-card`: Pok Deng, after open-betting: this round is the last') }, 'the cut card came out'),
  drop: eventKind('drop', { deviceId: z.string(), read: z.boolean().describe('false only for a burn card dropped unread: it counts as that burn'), detail: z.string() }, 'a card was dropped (a read one counts; a face-down one voids the round)'),
  reveal: eventKind('reveal', {
    cards: z.array(z.object({ position: z.string(), index: z.number().int().min(0), card: cardSchema }).strict()),
  }, 'face-down cards turned over at their reveal point'),
  'shoe-state': eventKind('shoe-state', { deviceId: z.string(), state: z.string() }, 'the shoe reported a STATE (e.g. LOADED)'),
  'round-resumed': eventKind('round-resumed', {
    by: z.string(), reason: z.string().optional(), deviceId: z.string().describe('the device whose frame gap held the round'),
    queued: z.number().int().min(0).describe('frames read while the round was held, now taken in order'),
  }, 'the pit confirmed no card was lost in a round held after a frame gap (resume-round)'),
  'device-restart': eventKind('device-restart', { deviceId: z.string() }, 'the device restarted (its SEQ went back to 0)'),
  decision: eventKind('decision', { seat: z.string(), action: z.string(), keepStanding: z.literal(true).optional().describe('blackjack shared seat: the cards so far stay as the standing hand `<seat>s`') }, 'a player decision the engine sent'),
  correction: eventKind('correction', { correction: z.string(), by: z.string().optional().describe('the operator id (a correction of a completed round)'), roundId: z.string().optional() }, 'a correction the rules allow: during the round, or of a completed round within the correction window'),
  shuffler: eventKind('shuffler', {
    deviceId: z.string(),
    state: z.string().optional().describe('the STATE the shuffler reported (IDLE, SHUFFLING, READY, JAM, DOOR_OPEN, ERROR)'),
    count: z.number().int().min(0).optional().describe('the COUNT the shuffler reported'),
    expected: z.number().int().min(0).optional().describe('the count a full deck (or shoe) has'),
    ok: z.boolean().optional().describe('whether the count matches'),
  }, 'the shuffler reported a state or a card count'),
  dice: eventKind('dice', {
    deviceId: z.string(),
    action: z.enum(['shake', 'roll', 'cocked', 'noread']),
    dice: z.tuple([z.number().int().min(1).max(6), z.number().int().min(1).max(6), z.number().int().min(1).max(6)]).optional(),
    bounces: z.number().int().min(0).optional(),
    valid: z.boolean().optional().describe('a roll with at least minBounces bounces'),
  }, 'sic bo: the dice were shaken, rolled, or could not be read'),
  ball: eventKind('ball', {
    deviceId: z.string(),
    action: z.enum(['start', 'ball', 'end']),
    ball: z.number().int().optional().describe('the ball number (1-80 when valid)'),
    index: z.number().int().min(1).max(20).optional().describe('the ball\'s place in the draw'),
    ignored: z.literal(true).optional().describe('the frame belongs to no draw (or repeats a ball): not counted'),
  }, 'keno: the draw machine started, drew a ball, or ended'),
} as const;

/** events of other kinds: the envelope and a kind */
export const otherEventSchema = z.object({ ...envelopeFields, type: z.literal('event'), kind: z.string() }).catchall(z.unknown())
  .describe('events of kinds not listed here: the envelope, `kind` and kind-specific fields');

export const eventMessageSchema = z.union([...Object.values(EVENT_SCHEMAS), otherEventSchema]);

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

const cardsField = z.record(z.string(), z.array(z.union([cardSchema, z.null()]))).describe('position -> cards; `burn` holds the round\'s burns (null for a burn card dropped unread)');
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
  return z.union(alternatives as unknown as [z.ZodType, z.ZodType, ...z.ZodType[]])
    .describe(voided ? `the ${game} outcome (games.md); on a void round ${voided.description ?? 'what it still carries'}, or null` : `the ${game} outcome (games.md); null for a void round`);
}

/** game id -> the result message of that game: its own `game` and its typed `outcome` */
export const RESULT_SCHEMAS_BY_GAME = Object.fromEntries((Object.keys(OUTCOME_SCHEMAS) as OutcomeGameId[]).map((game) => {
  const table = game === 'sic-bo' ? diceFields : game === 'keno' ? kenoFields : { cards: cardsField };
  return [game, message('result', { ...resultFields, game: z.literal(game), outcome: outcomeField(game), ...table })
    .describe(`${game}: the final result of a round, with the facts every bet of the game settles from`)];
})) as unknown as Record<OutcomeGameId, z.ZodObject>;

/**
 * The result of any game, by its `game`. Typed for the table machine as the loose shapes above
 * (it composes outcomes as plain objects); validated against the typed schema of each game.
 */
export const resultMessageSchema = z.discriminatedUnion('game', Object.values(RESULT_SCHEMAS_BY_GAME) as [z.ZodObject, ...z.ZodObject[]])
  .describe('the final result of a round, by game') as unknown as typeof anyResultMessageSchema;

// ------------------------------------------------------------------ alerts

export const severitySchema = z.enum(['info', 'warning', 'critical']);

export const alertMessageSchema = z.object({
  ...envelopeFields,
  type: z.literal('alert'),
  kind: z.enum(ALERT_KINDS),
  severity: severitySchema,
  detail: z.string(),
  deviceId: z.string().optional(),
}).catchall(z.unknown()).describe('something a pit boss or technician must know; kind-specific fields (card, count, code, ...) may follow');

// ------------------------------------------------------------------ shoe

export const shoeMessageSchema = message('shoe', {
  shoeId: z.string(),
  state: z.enum(['burning', 'dealing', 'last-round', 'closed', 'void']),
  decks: z.number().int().min(1),
  cardsDealt: z.number().int().min(0),
  cutCardSeen: z.boolean(),
  revealCard: z.union([cardSchema, z.null()]).describe('the first card of a new shoe (null for a shoe the gateway did not see loaded)'),
  burnCount: z.number().int().min(0).describe('how many cards the new-shoe burn takes'),
  roundsCompleted: z.number().int().min(0),
  burnCards: z.array(z.union([cardSchema, z.null()])).optional().describe('the new-shoe burn cards: only once the shoe is closed or void'),
}).describe('the shoe (or deck) in the table');

// ------------------------------------------------------------------ response/<command>

export const responseMessageSchema = message('response', {
  command: z.string(),
  transaction: z.union([z.string(), z.null()]),
  status: z.enum(['ok', 'error']),
  code: z.enum(REQUEST_ERROR_CODES).optional().describe('with status "error": a stable machine-readable reason (mqtt-api.md)'),
  error: z.string().optional(),
  data: z.record(z.string(), z.unknown()).optional(),
  replayed: z.literal(true).optional().describe('a retry of a request the table already answered (the same `transaction`, or MQTT 5 correlation data, and the same body): not executed again; this is the first answer once more'),
  replayOf: z.number().int().min(1).optional().describe('with `replayed`: the `seq` of the first answer'),
}).describe('the answer to a request/<command>');

// ------------------------------------------------------------------ health

export const healthProblemSchema = z.string().describe('a reason the table is not ready, e.g. "device shoe-1 is disconnected"');

export const healthMessageSchema = message('health', {
  status: z.enum(['ok', 'degraded']).describe('"ok" when the broker connection and every device are up'),
  problems: z.array(healthProblemSchema),
  mqtt: z.enum(['connected', 'disconnected']).describe('the table\'s broker connection when the message was composed'),
  broker: z.string().optional().describe('the broker the table is on (its URL from mqtt.url, without credentials), when connected'),
  uptimeSec: z.number().int().min(0).describe('seconds since the gateway process started'),
  outboxDepth: z.union([z.number().int().min(0), z.null()]).describe('messages waiting to be delivered to the broker (null: not known)'),
  devices: z.record(z.string(), z.object({
    kind: deviceKindSchema,
    state: deviceStateSchema,
    frames: z.number().int().min(0).describe('valid frames since the gateway started'),
    rejected: z.number().int().min(0).describe('bad frames since the gateway started'),
    duplicates: z.number().int().min(0).describe('retransmitted frames dropped since the gateway started'),
    serial: z.object({
      lowLatency: z.boolean().describe('the port is in low-latency mode'),
      reason: z.string().optional().describe('why it is not: turned off in the config, or the driver refused (a pty does)'),
      latencyTimerMs: z.number().int().min(0).optional().describe('an FTDI adapter\'s latency_timer in ms (sysfs)'),
    }).strict().optional().describe('serial lines: low-latency mode of the port (device-protocols.md §3.3)'),
  }).strict()),
}).describe('a summary of the table\'s health, published every health.intervalMs and whenever the summary changes');

// ------------------------------------------------------------------ all topics

/** table-relative topic patterns the gateway publishes on, with their schema */
export const PUBLISHED_TOPICS = {
  status: { ...TOPIC_PATTERNS.status, schema: statusMessageSchema, description: 'the table\'s connection: online, or offline (the MQTT last will)' },
  device: { ...TOPIC_PATTERNS.device, schema: deviceMessageSchema, description: 'one device\'s state' },
  event: { ...TOPIC_PATTERNS.event, schema: eventMessageSchema, description: 'each accepted device event: cards, misreads, rescans, cut card, reveals, ...' },
  round: { ...TOPIC_PATTERNS.round, schema: roundMessageSchema, description: 'the round in progress as it changes' },
  result: { ...TOPIC_PATTERNS.result, schema: resultMessageSchema, description: 'the final result of each round' },
  alert: { ...TOPIC_PATTERNS.alert, schema: alertMessageSchema, description: 'alerts for the pit and the technicians' },
  shoe: { ...TOPIC_PATTERNS.shoe, schema: shoeMessageSchema, description: 'the shoe (or deck) state' },
  health: { ...TOPIC_PATTERNS.health, schema: healthMessageSchema, description: 'a health summary of the table (its devices, its broker connection, its outbox)' },
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
  ? Omit<Extract<MessageOf<'result'>, G extends 'sic-bo' ? { dice: unknown } : G extends 'keno' ? { balls: unknown } : { cards: unknown }>, 'game' | 'outcome'>
    & { game: G; outcome: OutcomeOf<G> | (G extends 'holdem' ? z.infer<typeof holdemVoidOutcomeSchema> : never) | null }
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
    case 'status': return statusMessageSchema;
    case 'devices': return deviceMessageSchema;
    case 'events': {
      const kind = payload && typeof payload === 'object' ? (payload as { kind?: unknown }).kind : undefined;
      return typeof kind === 'string' && kind in EVENT_SCHEMAS ? EVENT_SCHEMAS[kind as keyof typeof EVENT_SCHEMAS] : otherEventSchema;
    }
    case 'round': return roundMessageSchema;
    case 'result': return resultMessageSchema;
    case 'alerts': return alertMessageSchema;
    case 'shoe': return shoeMessageSchema;
    case 'health': return healthMessageSchema;
    case 'response': return responseMessageSchema;
    default: return null;
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
