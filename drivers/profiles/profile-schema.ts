/** Device profile schema (device-protocols.md §3): a YAML file validated with zod, errors name file and key path. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

/** the YAML parser, loaded on the first profile file (a gateway without profiles never loads it) */
function parse(text: string): unknown {
  return (createRequire(import.meta.url)('yaml') as typeof Yaml).parse(text);
}
import * as z from 'zod';
import { compileUserPattern } from './linear-pattern.js';

export const FRAME_TYPES = ['CARD', 'MISREAD', 'CUT', 'DROP', 'STATE', 'TAG', 'ROLL', 'COCKED', 'NOREAD', 'SHAKE', 'BALL', 'START', 'END', 'SHUF_STATE', 'COUNT', 'HB', 'ERR', 'VER'] as const;

const GROUPS_NEEDED: Partial<Record<(typeof FRAME_TYPES)[number], string[]>> = { CARD: ['card'], BALL: ['ball'], COUNT: ['count'], TAG: ['uid'], ROLL: ['d1', 'd2', 'd3'] };

/** The stable reject codes of src/core/vocabulary/frames.ts `RejectReason` a `rejects` rule may name. */
export const REJECT_REASONS = ['noise', 'too-long', 'bad-checksum', 'malformed', 'unknown-talker', 'unknown-type', 'bad-field'] as const;

const fieldValue = z.union([z.string(), z.number(), z.boolean()]);
const range = z.object({ min: z.number().int(), max: z.number().int() }).refine((r) => r.min <= r.max, { message: 'min is above max' });

/** Names of the capture groups a pattern defines (`(?<name>...)`). */
export function patternGroups(pattern: string): Set<string> {
  return new Set(pattern.match(/\(\?<([A-Za-z_]\w*)>/g)?.map((g) => g.slice(3, -1)) ?? []);
}

/**
 * A pattern must compile onto the linear-time engine (linear-pattern.ts), matched against the
 * whole body: a syntax error is `pattern-invalid`, a construct that engine cannot run
 * (backreference, lookbehind, ...) `pattern-unsupported`, each at the pattern's key path.
 */
function checkPattern(pattern: string, ctx: z.RefinementCtx): boolean {
  const r = compileUserPattern(pattern, '', 'pattern', { whole: true });
  if (r.ok) return true;
  ctx.addIssue({ code: 'custom', path: ['pattern'], message: r.refusal.reason });
  return false;
}

export const messageSchema = z
  .object({
    name: z.string().min(1),
    pattern: z.string().min(1),
    type: z.enum(FRAME_TYPES),
    /** constants for fields the pattern does not capture (a group that matched wins) */
    fields: z.record(z.string(), fieldValue).default({}),
    /**
     * Value maps per field: the captured text (or the constant) is looked up and replaced
     * (`state: { L: LOADED, E: EMPTY }`); a value with no entry is a `bad-field` reject.
     */
    map: z.record(z.string(), z.record(z.string(), fieldValue)).default({}),
    /** accepted range of a numeric field, replacing the default (ball 1..80, dice 1..6, bounces 0..99, count 0..999) */
    ranges: z.partialRecord(z.enum(['ball', 'd1', 'd2', 'd3', 'bounces', 'count']), range).default({}),
    seq: z.string().optional(),
    /**
     * How a device (a simulator, `tablegw profile check --self-test`) writes this message: the
     * body with `{group}` placeholders (`"{seq},C,{card}"`); framing and checksum are added around
     * it. `{card}` is encoded with the profile's card preset. Rendered output must match `pattern`.
     */
    emit: z.string().min(1).optional(),
  })
  .superRefine((m, ctx) => {
    if (!checkPattern(m.pattern, ctx)) return;
    const groups = patternGroups(m.pattern);
    for (const g of GROUPS_NEEDED[m.type] ?? []) {
      if (!groups.has(g) && !(g in m.fields)) ctx.addIssue({ code: 'custom', path: ['pattern'], message: `needs a named group "${g}"` });
    }
    if (m.seq && !groups.has(m.seq)) ctx.addIssue({ code: 'custom', path: ['seq'], message: `names no group of the pattern ("${m.seq}")` });
  });

/**
 * A body that is not a message but a known kind of bad frame: tried in order after every message
 * failed to match; the first that matches names the reject (`unknown-talker`, `bad-field`, ...).
 * A body no message and no rule matches is `unknown-type`.
 */
export const rejectRuleSchema = z
  .object({ name: z.string().min(1), pattern: z.string().min(1), reason: z.enum(REJECT_REASONS) })
  .superRefine((r, ctx) => {
    checkPattern(r.pattern, ctx);
  });

const byteValue = z.number().int().min(0).max(255);
const offset = z.number().int().min(0).max(63);

/** A vendor HID input report (device-protocols.md §2b): byte offsets and value maps. */
export const reportLayoutSchema = z
  .object({
    length: z.number().int().min(1).max(64),
    /** report id byte: another value is a `malformed` report */
    id: z.object({ offset, value: byteValue }).optional(),
    /** the device's SEQ byte (8-bit: the driver's modulus is 256); absent = no SEQ */
    seq: z.object({ offset }).optional(),
    /** check value at `offset` (1 byte, or 2 little-endian for CRC-16) over bytes [from, to) */
    checksum: z.object({ kind: z.enum(['xor8', 'sum8', 'lrc', 'crc16-modbus', 'crc16-ccitt']), offset, from: offset.default(0), to: z.number().int().min(1).max(64) }).optional(),
    /** the byte that says which frame the report is; a value not in `map` is `bad-field` */
    type: z.object({ offset, map: z.record(z.string().regex(/^\d{1,3}$/, 'keys are byte values 0..255'), z.enum(FRAME_TYPES)) }),
    /** field -> byte offset (`d1: 2`); only the fields of the report's frame type are read */
    fields: z.record(z.string(), offset).default({}),
  })
  .superRefine((r, ctx) => {
    const check = (path: (string | number)[], at: number, width = 1) => {
      if (at + width > r.length) ctx.addIssue({ code: 'custom', path, message: `is outside the ${r.length}-byte report` });
    };
    if (r.id) check(['id', 'offset'], r.id.offset);
    if (r.seq) check(['seq', 'offset'], r.seq.offset);
    check(['type', 'offset'], r.type.offset);
    if (r.checksum) {
      check(['checksum', 'offset'], r.checksum.offset, r.checksum.kind.startsWith('crc16') ? 2 : 1);
      if (r.checksum.to > r.length || r.checksum.from >= r.checksum.to) ctx.addIssue({ code: 'custom', path: ['checksum', 'to'], message: 'needs from < to <= length' });
    }
    for (const [k, v] of Object.entries(r.fields)) check(['fields', k], v);
    for (const k of Object.keys(r.type.map)) if (Number(k) > 255) ctx.addIssue({ code: 'custom', path: ['type', 'map', k], message: 'is not a byte value (0..255)' });
  });

export const profileSchema = z
  .object({
    name: z.string().min(1),
    talker: z.enum(['SHOE', 'RFID', 'SHUF', 'DICE', 'BALL']),
    /**
     * What the transport delivers: `bytes` (a serial line), `hid-keyboard` (8-byte boot-keyboard
     * reports of a keyboard-wedge scanner, typed into text; Enter ends a frame) or `hid-report`
     * (vendor input reports laid out by `report`).
     */
    input: z.enum(['bytes', 'hid-keyboard', 'hid-report']).default('bytes'),
    encoding: z.enum(['ascii', 'binary']).default('ascii'),
    framing: z
      .object({
        start: z.string().min(1).optional(),
        end: z.string().min(1).optional(),
        /** further delimiters accepted on input (`end` is what a device writes): `["\n"]` beside `"\r\n"` */
        acceptEnd: z.array(z.string().min(1)).default([]),
        length: z.number().int().positive().optional(),
        maxLength: z.number().int().positive().default(128),
        idleMs: z.number().int().positive().optional(),
        /** reject of a frame cut short by a new start byte (resynchronisation) */
        interrupted: z.enum(['malformed', 'noise']).default('malformed'),
      })
      .prefault({}),
    /** checks of the body text, before the check value is compared */
    body: z
      .object({
        /** characters that never occur in a body: one there makes the frame `malformed` */
        forbid: z.string().default(''),
        /** `reject`: a control byte (0x00-0x1F, 0x7F) in the body makes the frame `malformed` */
        controls: z.enum(['allow', 'reject']).default('allow'),
        /** match patterns against the upper-cased body */
        uppercase: z.boolean().default(false),
      })
      .prefault({}),
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
    messages: z.array(messageSchema).default([]),
    rejects: z.array(rejectRuleSchema).default([]),
    report: reportLayoutSchema.optional(),
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
  })
  // how frames end: checked whenever `input` and `framing` themselves read, even when other keys are
  // wrong, so one pass names every mistake (a refinement runs only on a clean parse by default)
  .superRefine(
    (p, ctx) => {
      const f = p.framing;
      if (p.input === 'bytes' && f.end === undefined && f.length === undefined && f.idleMs === undefined) {
        ctx.addIssue({ code: 'custom', path: ['framing'], message: 'needs "end", "length" or "idleMs"' });
      }
    },
    {
      when: (payload) =>
        typeof payload.value === 'object' && payload.value !== null && !payload.issues.some((i) => i.path === undefined || i.path.length === 0 || i.path[0] === 'framing' || i.path[0] === 'input'),
    },
  )
  .superRefine((p, ctx) => {
    const f = p.framing;
    if (f.length !== undefined && f.length > f.maxLength) ctx.addIssue({ code: 'custom', path: ['framing', 'length'], message: `is above maxLength (${f.maxLength})` });
    if (f.acceptEnd.length > 0 && f.end === undefined) ctx.addIssue({ code: 'custom', path: ['framing', 'acceptEnd'], message: 'needs "end"' });
    if (p.input === 'hid-report') {
      if (!p.report) ctx.addIssue({ code: 'custom', path: ['report'], message: 'is required with input hid-report' });
    } else if (p.messages.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['messages'], message: 'needs at least one message' });
    }
  });

export type DeviceProfile = z.infer<typeof profileSchema>;

export class ProfileError extends Error {}

export type FrameTypeName = (typeof FRAME_TYPES)[number];

/** Validate parsed YAML; errors read `file: messages.card.pattern: needs a named group "card"` (messages by name). */
export function validateProfile(file: string, data: unknown): DeviceProfile {
  // parsed once per profile: without zod's compiled fast path (its code generation costs more than it saves here)
  const r = profileSchema.safeParse(data, { jitless: true });
  if (r.success) return r.data;
  // in the order of the profile's keys (a check over several keys is reported at its own key)
  const keyOrder = Object.keys(profileSchema.shape);
  const rank = (i: z.core.$ZodIssue): number => keyOrder.indexOf(String(i.path[0]));
  const issues = r.error.issues.map((i, n) => ({ i, n })).sort((a, b) => rank(a.i) - rank(b.i) || a.n - b.n).map((x) => x.i);
  const msgs = issues.map((i) => {
    const path = i.path.map((p, k) => {
      if (k === 1 && (i.path[0] === 'messages' || i.path[0] === 'rejects') && typeof p === 'number') {
        const list = (data as Record<string, { name?: unknown }[] | undefined> | null)?.[i.path[0]];
        const n = Array.isArray(list) ? list[p]?.name : undefined;
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
