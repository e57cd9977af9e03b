/** The envelope every table message carries, `status` and `devices/<deviceId>`. (The index of the API's messages: ../messages.ts.) */
import * as z from 'zod';
import { NON_CARD_GAME_IDS } from '../../games/non-card-games.js';
import { CARD_GAMES, GAME_IDS } from '../../games/registry.js';

export const cardSchema = z
  .string()
  .regex(/^[A2-9TJQK][SHDC]$/)
  .describe('a card: rank A23456789TJQK + suit SHDC, e.g. "AS", "TD"');
/** a card as the public may see it: null while it lies face down */
export const visibleCardSchema = z.union([cardSchema, z.null()]).describe('a card, or null while it is face down');

const tableId = z.string().regex(/^[a-z0-9-]{1,32}$/);
/** where a card goes: `burn`, `reveal`, `discard`, or a position of a game's layout (a blackjack split hand adds `a`/`b`) */
const CARD_ROLES = [...new Set(['burn', 'reveal', 'discard', ...Object.values(CARD_GAMES).flatMap((g) => g.positions)])] as [string, ...string[]];
export const cardRole = z.union([
  z.enum(CARD_ROLES),
  z
    .string()
    .regex(/^seat[1-9][0-9]?[abs]$/)
    .describe('a blackjack split hand (`seat2a`, `seat2b`) or standing hand of a shared seat (`seat2s`)'),
]);
/** every game id the gateway knows (games.md): an enum in the API document */
const gameId = z.enum([...GAME_IDS, ...NON_CARD_GAME_IDS] as [string, ...string[]]).describe('game id (games.md)');

/** Fields every table message has. `seq` is on all but `status`. */
export const envelopeFields = {
  v: z.literal(1).describe('API version'),
  type: z.string(),
  table: tableId.describe('table id'),
  game: gameId,
  epoch: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe(
      'the table\'s stream epoch: a random id fixed when the table\'s journal was created, kept by backup and restore; on every message of a gateway with a journal (v1.2 on; absent only from a gateway before v1.2). Deduplicate and detect gaps by (epoch, seq); a new epoch is a new stream (its seq starts again), announced by a `new-epoch` alert and on the retained `info` and `status` (docs/ENGINES.md "Epochs")',
    ),
  seq: z.number().int().min(1).describe('per table, strictly increasing over every message the table publishes, never reused, also across restarts'),
  ts: z.iso.datetime().describe('when the message was composed (the time the input that caused it was received)'),
  shoeId: z.string().optional().describe('the shoe (or deck) this message belongs to, when there is one'),
  roundId: z.string().optional().describe('the round this message belongs to, when there is one'),
  signature: z
    .object({
      alg: z.literal('Ed25519'),
      keyId: z
        .string()
        .describe(
          'the signing key: `signing.keyId`, else `ed25519:` + the first 16 hex digits of the SHA-256 of the raw 32-byte Ed25519 public key (its RFC 8032 encoding, the JWK `x` decoded; not the PEM or DER)',
        ),
      sig: z
        .string()
        .regex(/^[A-Za-z0-9+/]{86}==$/)
        .describe('base64 of the 64-byte Ed25519 signature'),
    })
    .strict()
    .optional()
    .describe(
      'with `signing` configured (results by default): an Ed25519 signature over the canonical JSON (RFC 8785: keys sorted, no whitespace) of the whole message less `signature.sig` (its `alg` and `keyId` are signed too; docs/SECURITY.md "The canonical form")',
    ),
};

export const envelopeSchema = z.object(envelopeFields).catchall(z.unknown()).describe('the envelope of every message the gateway publishes');

export function message<T extends string, S extends z.ZodRawShape>(type: T, fields: S) {
  // a field of `fields` replaces the envelope's of the same name (the shoe's `shoeId` is required): say so to the type too
  const shape = { ...envelopeFields, type: z.literal(type), ...fields } as unknown as Omit<typeof envelopeFields, 'type' | keyof S> & {
    type: z.ZodLiteral<T>;
  } & S;
  return z.object(shape).strict();
}

// ------------------------------------------------------------------ status (no seq: it is the last will)

export const statusMessageSchema = z
  .object({
    v: z.literal(1),
    type: z.literal('status'),
    table: tableId,
    game: gameId,
    ts: z.iso.datetime(),
    state: z.enum(['online', 'offline']).describe('"offline" is the MQTT last will, fixed when the connection opens, or a clean stop'),
    reason: z
      .enum(['start', 'reconnect', 'stopped', 'connection-lost', 'moved'])
      .describe(
        "why: online `start` (the first connection of this gateway run) or `reconnect` (the same run connected again after a broker restart, a network loss or a failover: nothing of the table was lost); offline `stopped` (a clean stop), `connection-lost` (the last will: the broker lost the gateway's connection; the gateway may still be running) or `moved` (left on a broker the table moved away from)",
      ),
    startedAt: z.iso
      .datetime()
      .describe(
        'when this gateway run started: the same on every status of one run; a new value after `online` means the gateway restarted (from its journal)',
      ),
    epoch: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .describe("the table's stream epoch (the `epoch` of its envelopes); absent only on a last will composed before the journal was opened"),
  })
  .strict()
  .describe('`status` carries no `seq`: its offline form is the last will, composed before anything else is known');

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
