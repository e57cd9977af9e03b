/** The `alerts`, `shoe`, `response/<command>` and `health` topics. (The index of the API's messages: ../messages.ts.) */
import * as z from 'zod';
import { ALERT_KINDS } from '../../vocabulary/alerts.js';
import { REQUEST_ERROR_CODES } from '../../vocabulary/requests.js';
import { cardSchema, deviceKindSchema, deviceStateSchema, envelopeFields, message } from './envelope.js';

// ------------------------------------------------------------------ alerts

export const severitySchema = z.enum(['info', 'warning', 'critical']);

export const alertMessageSchema = z
  .object({
    ...envelopeFields,
    type: z.literal('alert'),
    kind: z.enum(ALERT_KINDS),
    severity: severitySchema,
    detail: z.string(),
    deviceId: z.string().optional(),
  })
  .catchall(z.unknown())
  .describe('something a pit boss or technician must know; kind-specific fields (card, count, code, ...) may follow');

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
  burnCards: z
    .array(z.union([cardSchema, z.null()]))
    .optional()
    .describe('the new-shoe burn cards: only once the shoe is closed or void'),
}).describe('the shoe (or deck) in the table');

// ------------------------------------------------------------------ response/<command>

export const responseMessageSchema = message('response', {
  command: z.string(),
  transaction: z.union([z.string(), z.null()]),
  status: z.enum(['ok', 'error']),
  code: z.enum(REQUEST_ERROR_CODES).optional().describe('with status "error": a stable machine-readable reason (mqtt-api.md)'),
  error: z.string().optional(),
  data: z.record(z.string(), z.unknown()).optional(),
  replayed: z
    .literal(true)
    .optional()
    .describe(
      'a retry of a request the table already answered (the same `transaction`, or MQTT 5 correlation data, and the same body): not executed again; this is the first answer once more',
    ),
  replayOf: z.number().int().min(1).optional().describe('with `replayed`: the `seq` of the first answer'),
}).describe('the answer to a request/<command>');

// ------------------------------------------------------------------ health

export const healthProblemSchema = z.string().describe('a reason the table is not ready, e.g. "device shoe-1 is disconnected"');

export const healthMessageSchema = message('health', {
  status: z.enum(['ok', 'degraded']).describe('"ok" when the broker connection and every device are up'),
  problems: z.array(healthProblemSchema),
  mqtt: z.enum(['connected', 'disconnected']).describe("the table's broker connection when the message was composed"),
  broker: z.string().optional().describe('the broker the table is on (its URL from mqtt.url, without credentials), when connected'),
  uptimeSec: z.number().int().min(0).describe('seconds since the gateway process started'),
  outboxDepth: z.union([z.number().int().min(0), z.null()]).describe('messages waiting to be delivered to the broker (null: not known)'),
  devices: z.record(
    z.string(),
    z
      .object({
        kind: deviceKindSchema,
        state: deviceStateSchema,
        frames: z.number().int().min(0).describe('valid frames since the gateway started'),
        rejected: z.number().int().min(0).describe('bad frames since the gateway started'),
        duplicates: z.number().int().min(0).describe('retransmitted frames dropped since the gateway started'),
        serial: z
          .object({
            lowLatency: z.boolean().describe('the port is in low-latency mode'),
            reason: z.string().optional().describe('why it is not: turned off in the config, or the driver refused (a pty does)'),
            latencyTimerMs: z.number().int().min(0).optional().describe("an FTDI adapter's latency_timer in ms (sysfs)"),
          })
          .strict()
          .optional()
          .describe('serial lines: low-latency mode of the port (device-protocols.md §3.3)'),
      })
      .strict(),
  ),
}).describe("a summary of the table's health, published every health.intervalMs and whenever the summary changes");
