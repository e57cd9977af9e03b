/**
 * Requests from game engines (mqtt-api.md): `request/<command>` with a JSON payload.
 * Validated with zod; a request that fails validation is answered with an error and changes nothing.
 */
import { z } from 'zod';

const transaction = z.string().max(128).optional();
const base = z.object({ transaction }).strict();

export const REQUEST_SCHEMAS = {
  'open-betting': base.extend({ roundId: z.string().min(1).max(64).regex(/^[A-Za-z0-9._:-]+$/, 'letters, digits and . _ : - only').optional() }).strict(),
  'close-betting': base,
  decision: base.extend({
    seat: z.string().min(1).max(16),
    action: z.enum(['hit', 'stand', 'double', 'split', 'fold', 'play', 'bet', 'check']),
    /** blackjack: a shared seat, one player stands while the other hits (games.md) */
    keepStanding: z.boolean().optional(),
  }).strict(),
  'close-decisions': base,
  'void-round': base.extend({
    reason: z.string().min(1).max(200),
    /** a completed round within the correction window (games.md Corrections) */
    roundId: z.string().min(1).max(64).optional(),
    /** the operator id; required for a completed round */
    by: z.string().min(1).max(64).optional(),
  }).strict(),
  'resume-round': base.extend({ by: z.string().min(1).max(64), reason: z.string().min(1).max(200).optional() }).strict(),
  'new-shoe': base,
  'end-shoe': base,
  correction: base.extend({ kind: z.string().min(1).max(32) }).catchall(z.unknown()),
  status: base,
} as const;

export type RequestCommand = keyof typeof REQUEST_SCHEMAS;
export const REQUEST_COMMANDS = Object.keys(REQUEST_SCHEMAS) as RequestCommand[];

export type ParsedRequest =
  | { ok: true; command: RequestCommand; transaction?: string; args: Record<string, unknown> }
  | { ok: false; command: string; transaction?: string; error: string };

/** Parses a request payload (raw text) for `command`. Never throws. */
export function parseRequest(command: string, payloadText: string): ParsedRequest {
  let json: unknown;
  if (payloadText.trim() === '') json = {};
  else {
    try {
      json = JSON.parse(payloadText);
    } catch (e) {
      return { ok: false, command, error: `payload is not valid JSON: ${(e as Error).message}` };
    }
  }
  const transactionOf = (v: unknown): string | undefined =>
    v && typeof v === 'object' && typeof (v as { transaction?: unknown }).transaction === 'string'
      ? (v as { transaction: string }).transaction : undefined;
  if (!(command in REQUEST_SCHEMAS)) {
    return { ok: false, command, transaction: transactionOf(json), error: `unknown command "${command}" (known: ${REQUEST_COMMANDS.join(', ')})` };
  }
  const schema = REQUEST_SCHEMAS[command as RequestCommand] as z.ZodType<Record<string, unknown>>;
  const r = schema.safeParse(json);
  if (!r.success) {
    const msg = r.error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(payload)'}: ${i.message}`).join('; ');
    return { ok: false, command, transaction: transactionOf(json), error: `invalid request: ${msg}` };
  }
  const { transaction: tx, ...args } = r.data as { transaction?: string } & Record<string, unknown>;
  return { ok: true, command: command as RequestCommand, transaction: tx, args };
}
