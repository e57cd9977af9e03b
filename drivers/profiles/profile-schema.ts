/** Device profile schema (device-protocols.md §3): a YAML file validated with zod, errors name file and key path. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

/** the YAML parser, loaded on the first profile file (a gateway without profiles never loads it) */
function parse(text: string): unknown {
  return (createRequire(import.meta.url)('yaml') as typeof Yaml).parse(text);
}
import { z } from 'zod';

const FRAME_TYPES = ['CARD', 'MISREAD', 'CUT', 'DROP', 'STATE', 'TAG', 'ROLL', 'COCKED', 'NOREAD', 'SHAKE', 'BALL', 'START', 'END', 'SHUF_STATE', 'COUNT', 'HB', 'ERR', 'VER'] as const;

const GROUPS_NEEDED: Partial<Record<(typeof FRAME_TYPES)[number], string[]>> = { CARD: ['card'], BALL: ['ball'], COUNT: ['count'], TAG: ['uid'], ROLL: ['d1', 'd2', 'd3'] };

export const messageSchema = z
  .object({
    name: z.string().min(1),
    pattern: z.string().min(1),
    type: z.enum(FRAME_TYPES),
    fields: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
    seq: z.string().optional(),
    /**
     * How a device (a simulator, `tablegw profile check --self-test`) writes this message: the
     * body with `{group}` placeholders (`"{seq},C,{card}"`); framing and checksum are added around
     * it. `{card}` is encoded with the profile's card preset. Rendered output must match `pattern`.
     */
    emit: z.string().min(1).optional(),
  })
  .superRefine((m, ctx) => {
    let re: RegExp;
    try {
      re = new RegExp(m.pattern);
    } catch {
      ctx.addIssue({ code: 'custom', path: ['pattern'], message: 'is not a valid regular expression' });
      return;
    }
    const groups = new Set(re.source.match(/\(\?<([A-Za-z_]\w*)>/g)?.map((g) => g.slice(3, -1)) ?? []);
    for (const g of GROUPS_NEEDED[m.type] ?? []) {
      if (!groups.has(g) && !(g in m.fields)) ctx.addIssue({ code: 'custom', path: ['pattern'], message: `needs a named group "${g}"` });
    }
    if (m.seq && !groups.has(m.seq)) ctx.addIssue({ code: 'custom', path: ['seq'], message: `names no group of the pattern ("${m.seq}")` });
  });

export const profileSchema = z.object({
  name: z.string().min(1),
  talker: z.enum(['SHOE', 'RFID', 'SHUF', 'DICE', 'BALL']),
  encoding: z.enum(['ascii', 'binary']).default('ascii'),
  framing: z
    .object({
      start: z.string().optional(),
      end: z.string().optional(),
      length: z.number().int().positive().optional(),
      maxLength: z.number().int().positive().default(128),
      idleMs: z.number().int().positive().optional(),
    })
    .refine((f) => f.end !== undefined || f.length !== undefined, { message: 'needs "end" or "length"' }),
  integrity: z
    .object({
      kind: z.enum(['none', 'xor8', 'sum8', 'lrc', 'crc16-modbus', 'crc16-ccitt']).default('none'),
      format: z.enum(['hex', 'binary']).default('hex'),
      /** check value after this separator (ASCII), or the trailing bytes of the frame when absent */
      separator: z.string().optional(),
      /** covers the body only, or the start string too */
      covers: z.enum(['body', 'start-and-body']).default('body'),
    })
    .default({ kind: 'none', format: 'hex', covers: 'body' }),
  cards: z
    .object({
      preset: z.enum(['rank-suit', 'suit-rank', 'suit_rank', 'four-digit', 'index52', 'custom']),
      suitOrder: z.array(z.enum(['S', 'H', 'D', 'C'])).length(4).optional(),
      ranks: z.record(z.string(), z.enum(['A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K'])).optional(),
      suits: z.record(z.string(), z.enum(['S', 'H', 'D', 'C'])).optional(),
      order: z.enum(['rank-suit', 'suit-rank']).optional(),
    })
    .default({ preset: 'rank-suit' }),
  messages: z.array(messageSchema).min(1),
  /**
   * Commands the device understands, as body templates framed like uplink messages (start,
   * checksum, end). Placeholders: `{seq}` the gateway's own command counter, `{from}` the first
   * SEQ a `repeat` asks for. A command with no template is not sent (the device takes none).
   */
  downlink: z
    .object({ rescan: z.string().min(1).optional(), lock: z.string().min(1).optional(), unlock: z.string().min(1).optional(), repeat: z.string().min(1).optional() })
    .strict()
    .default({}),
  /** USB ids of devices known to speak this profile (`tablegw devices` suggests the profile). */
  usb: z.array(z.object({ vendorId: z.number().int().min(0).max(0xffff), productId: z.number().int().min(0).max(0xffff) })).default([]),
});

export type DeviceProfile = z.infer<typeof profileSchema>;

export class ProfileError extends Error {}

/** Validate parsed YAML; errors read `file: messages.card.pattern: needs a named group "card"` (messages by name). */
export function validateProfile(file: string, data: unknown): DeviceProfile {
  const r = profileSchema.safeParse(data);
  if (r.success) return r.data;
  const msgs = r.error.issues.map((i) => {
    const path = i.path.map((p, k) => {
      if (k === 1 && i.path[0] === 'messages' && typeof p === 'number') {
        const n = (data as { messages?: { name?: unknown }[] })?.messages?.[p]?.name;
        return typeof n === 'string' ? n : String(p);
      }
      return String(p);
    });
    return `${file}: ${path.join('.')}: ${i.message}`;
  });
  throw new ProfileError(msgs.join('\n'));
}

export function loadProfileFile(file: string): DeviceProfile {
  return validateProfile(file, parse(readFileSync(file, 'utf8')));
}
