/**
 * Requests from game engines (mqtt-api.md): `request/<command>` with a JSON payload.
 * Validated with zod; a request that fails validation is answered with an error and changes nothing.
 */
import * as z from 'zod';

const transaction = z.string().max(128).optional();
const base = z.object({ transaction }).strict();

/**
 * The commands that act on a completed or held round when the table's state says so (docs/SECURITY.md
 * "Privileged requests"): such a request must be signed by a key the table's config lists for it.
 */
export const PRIVILEGED_COMMANDS = ['void-round', 'correction', 'resume-round', 'end-shoe', 'new-shoe'] as const;
export type PrivilegedCommand = (typeof PRIVILEGED_COMMANDS)[number];

/**
 * The Ed25519 signature a pit tool puts on a privileged request (docs/SECURITY.md): it covers the
 * whole payload but `sig` (canonical JSON, as result signatures). Checked at the runtime's edge; the
 * table machine only ever trusts the signer the edge wrote into the input, never this member.
 */
export const requestSignatureSchema = z
  .object({
    alg: z.literal('Ed25519'),
    keyId: z.string().min(1).max(64).describe("the `name` of the key in the table's `requests.privileged.keys`: published as `by`"),
    table: z.string().min(1).max(32).describe('the table the request is for'),
    command: z.string().min(1).max(32).describe('the command the request is for'),
    ts: z.string().min(1).max(40).describe('when it was signed (ISO 8601 UTC, e.g. 2026-12-06T23:50:00.000Z)'),
    sig: z.string().max(200).describe('base64 of the 64-byte Ed25519 signature'),
  })
  .strict();
const signed = { signature: requestSignatureSchema.optional() };

export const REQUEST_SCHEMAS = {
  'open-betting': base
    .extend({
      roundId: z
        .string()
        .min(1)
        .max(64)
        .regex(/^[A-Za-z0-9._:-]+$/, 'letters, digits and . _ : - only')
        .optional(),
    })
    .strict(),
  'close-betting': base,
  decision: base
    .extend({
      seat: z.string().min(1).max(16),
      action: z.enum(['hit', 'stand', 'double', 'split', 'fold', 'play', 'bet', 'check']),
      /** blackjack: a shared seat, one player stands while the other hits (games.md) */
      keepStanding: z.boolean().optional(),
    })
    .strict(),
  'close-decisions': base,
  'void-round': base
    .extend({
      ...signed,
      reason: z.string().min(1).max(200),
      /** a completed round within the correction window (games.md Corrections) */
      roundId: z.string().min(1).max(64).optional(),
      /** the operator id; required for a completed round */
      by: z.string().min(1).max(64).optional(),
    })
    .strict(),
  'resume-round': base.extend({ ...signed, by: z.string().min(1).max(64), reason: z.string().min(1).max(200).optional() }).strict(),
  'new-shoe': base.extend(signed).strict(),
  'end-shoe': base.extend(signed).strict(),
  correction: base.extend({ ...signed, kind: z.string().min(1).max(32) }).catchall(z.unknown()),
  status: base,
} as const;

export type RequestCommand = keyof typeof REQUEST_SCHEMAS;
export const REQUEST_COMMANDS = Object.keys(REQUEST_SCHEMAS) as RequestCommand[];

/**
 * The stable machine-readable `code` of an error answer (mqtt-api.md). Engines branch on it; the
 * `error` text beside it is for people and may change.
 */
export const REQUEST_ERROR_CODES = [
  'invalid-json',
  'not-an-object',
  'invalid-args',
  'unknown-command',
  'wrong-phase',
  'duplicate-round-id',
  'too-large',
  'rate-limited',
  'not-allowed',
  'outside-window',
  'transaction-reused',
  // privileged requests (docs/SECURITY.md): refused at the runtime's edge, or by the machine for `signature-required`
  'signature-required',
  'bad-signature',
  'unknown-key',
  'key-not-allowed',
  'stale-request',
  'replayed-request',
] as const;
export type RequestErrorCode = (typeof REQUEST_ERROR_CODES)[number];

/** a valid request's arguments, typed per command from its schema (the transaction aside) */
export type RequestArgs<C extends RequestCommand> = WithoutTransaction<z.infer<(typeof REQUEST_SCHEMAS)[C]>>;
/** `Omit` would also drop the named keys of a schema with a catch-all (`correction`) */
type WithoutTransaction<T> = { [K in keyof T as K extends 'transaction' | 'signature' ? never : K]: T[K] };

/** a request that passed its schema: one member per command, so `args` is typed by `command` */
export type ValidRequest = { [C in RequestCommand]: { ok: true; command: C; transaction?: string; args: RequestArgs<C> } }[RequestCommand];

export type ParsedRequest = ValidRequest | { ok: false; command: string; transaction?: string; code: RequestErrorCode; error: string };

/** `command` is one of the commands listed above: an own property only, never `toString` or `__proto__` */
export function isRequestCommand(command: string): command is RequestCommand {
  return Object.hasOwn(REQUEST_SCHEMAS, command);
}

/**
 * Parses a request payload (raw text) for `command`. Never throws. A payload that is not a JSON
 * object (an empty one included: the usual way to clear a retained message) is `not-an-object`.
 */
export function parseRequest(command: string, payloadText: string): ParsedRequest {
  if (payloadText.trim() === '') {
    return { ok: false, command, code: 'not-an-object', error: 'the payload is empty: a request is a JSON object, e.g. {"transaction":"t1"}' };
  }
  let json: unknown;
  try {
    json = JSON.parse(payloadText);
  } catch (e) {
    return { ok: false, command, code: 'invalid-json', error: `payload is not valid JSON: ${(e as Error).message}` };
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    return {
      ok: false,
      command,
      code: 'not-an-object',
      error: `the payload is ${Array.isArray(json) ? 'an array' : json === null ? 'null' : `a ${typeof json}`}: a request is a JSON object`,
    };
  }
  const tx = Object.hasOwn(json, 'transaction') ? (json as { transaction?: unknown }).transaction : undefined;
  const transaction = typeof tx === 'string' ? tx.slice(0, 128) : undefined;
  if (!isRequestCommand(command)) {
    return {
      ok: false,
      command,
      transaction,
      code: 'unknown-command',
      error: `unknown command "${command.slice(0, 64)}" (known: ${REQUEST_COMMANDS.join(', ')})`,
    };
  }
  const schema = REQUEST_SCHEMAS[command] as z.ZodType<Record<string, unknown>>;
  const r = schema.safeParse(json);
  if (!r.success) {
    const msg = r.error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(payload)'}: ${i.message}`).join('; ');
    return { ok: false, command, transaction, code: 'invalid-args', error: `invalid request: ${msg}` };
  }
  // the signature was checked at the runtime's edge (the input's `signer`): no handler sees it
  const { transaction: validTx, signature: _signature, ...args } = r.data as { transaction?: string; signature?: unknown } & Record<string, unknown>;
  // the schema of `command` accepted the payload: `args` has that command's shape
  return { ok: true, command, transaction: validTx, args } as ValidRequest;
}
