/** Device profile schema (device-protocols.md §3): a YAML file validated with zod, errors name file and key path. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

/** the YAML parser, loaded on the first profile file (a gateway without profiles never loads it) */
function parse(text: string): unknown {
  return (createRequire(import.meta.url)('yaml') as typeof Yaml).parse(text);
}
import * as z from 'zod';
import { issueLines, strictKeyErrors } from '../../src/core/vocabulary/strict-keys.js';
import { checksumBytes, INTEGRITY_ALGORITHMS, type IntegrityAlgorithm } from './checksums.js';
import { migrateProfile } from './profile-migration.js';
import { compileUserPattern } from './linear-pattern.js';

export const FRAME_TYPES = [
  'CARD',
  'MISREAD',
  'CUT',
  'DROP',
  'STATE',
  'TAG',
  'ROLL',
  'COCKED',
  'NOREAD',
  'SHAKE',
  'BALL',
  'START',
  'END',
  'SHUF_STATE',
  'COUNT',
  'HB',
  'ERR',
  'VER',
] as const;

const GROUPS_NEEDED: Partial<Record<(typeof FRAME_TYPES)[number], string[]>> = {
  CARD: ['card'],
  BALL: ['ball'],
  COUNT: ['count'],
  TAG: ['uid'],
  ROLL: ['d1', 'd2', 'd3'],
};

/** The stable reject codes of src/core/vocabulary/frames.ts `RejectReason` a `rejects` rule may name. */
export const REJECT_REASONS = ['noise', 'too-long', 'bad-checksum', 'malformed', 'unknown-talker', 'unknown-type', 'bad-field'] as const;

const fieldValue = z.union([z.string(), z.number(), z.boolean()]);
const range = z.strictObject({ min: z.number().int(), max: z.number().int() }).refine((r) => r.min <= r.max, { message: 'min is above max' });

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

/** A binary field: `width` bytes at `at` of the payload, in `order`, optionally bits `[lo, hi]` of it (0 = least significant). */
export const binaryFieldSchema = z.strictObject({
  at: z.number().int().min(0).max(1023),
  width: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]).default(1),
  order: z.enum(['be', 'le']).default('be'),
  bits: z.tuple([z.number().int().min(0).max(31), z.number().int().min(0).max(31)]).optional(),
  /** `hex`: the bytes as upper-case hex text (an RFID uid); `number` (default): the value */
  as: z.enum(['number', 'hex']).default('number'),
});
export type BinaryField = z.infer<typeof binaryFieldSchema>;

/** A binary message: matched on the payload bytes, not on text (device-protocols.md §3.1 Fields). */
export const bytesMessageSchema = z.strictObject({
  /** the payload's exact length in bytes (absent: at least what the fields and matches need) */
  length: z.number().int().min(1).max(1024).optional(),
  /** bytes that say which message it is: `{ at: 0, value: 0x01 }`, optionally under a `mask` */
  match: z
    .array(
      z.strictObject({ at: z.number().int().min(0).max(1023), value: z.number().int().min(0).max(255), mask: z.number().int().min(0).max(255).default(0xff) }),
    )
    .default([]),
  /** field -> where it sits (`d1: { at: 2 }`, `seq: { at: 1, width: 2, order: le }`) */
  fields: z.record(z.string(), binaryFieldSchema).default({}),
});

export const messageSchema = z
  .strictObject({
    name: z.string().min(1),
    /** a text message: regex with named groups over the whole (text) body */
    pattern: z.string().min(1).optional(),
    /** a binary message: byte matches and fields by offset, width, order and bits */
    bytes: bytesMessageSchema.optional(),
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
    if ((m.pattern === undefined) === (m.bytes === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['pattern'], message: 'a message needs either "pattern" (text) or "bytes" (binary), not both' });
      return;
    }
    if (m.bytes) {
      const have = new Set(Object.keys(m.bytes.fields));
      for (const g of GROUPS_NEEDED[m.type] ?? [])
        if (!have.has(g) && !(g in m.fields)) ctx.addIssue({ code: 'custom', path: ['bytes', 'fields'], message: `needs a field "${g}"` });
      if (m.seq && !have.has(m.seq)) ctx.addIssue({ code: 'custom', path: ['seq'], message: `names no field of bytes.fields ("${m.seq}")` });
      for (const [k, f] of Object.entries(m.bytes.fields)) {
        if (f.bits && (f.bits[0] > f.bits[1] || f.bits[1] >= f.width * 8))
          ctx.addIssue({ code: 'custom', path: ['bytes', 'fields', k, 'bits'], message: `needs lo <= hi < ${f.width * 8}` });
        if (m.bytes.length !== undefined && f.at + f.width > m.bytes.length)
          ctx.addIssue({ code: 'custom', path: ['bytes', 'fields', k], message: `is outside the ${m.bytes.length}-byte payload` });
      }
      return;
    }
    const pattern = m.pattern!;
    if (!checkPattern(pattern, ctx)) return;
    const groups = patternGroups(pattern);
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
  .strictObject({ name: z.string().min(1), pattern: z.string().min(1), reason: z.enum(REJECT_REASONS) })
  .superRefine((r, ctx) => {
    checkPattern(r.pattern, ctx);
  });

const byteValue = z.number().int().min(0).max(255);
const offset = z.number().int().min(0).max(63);

/** A vendor HID input report (device-protocols.md §2b): byte offsets and value maps. */
export const reportLayoutSchema = z
  .strictObject({
    length: z.number().int().min(1).max(64),
    /** report id byte: another value is a `malformed` report */
    id: z.strictObject({ offset, value: byteValue }).optional(),
    /** the device's SEQ byte (8-bit: the driver's modulus is 256); absent = no SEQ */
    seq: z.strictObject({ offset }).optional(),
    /** check value at `offset` (its width from the algorithm, in `order`: little-endian by default) over bytes [from, to) */
    checksum: z
      .strictObject({
        algorithm: z.enum(INTEGRITY_ALGORITHMS.filter((a) => a !== 'none') as [IntegrityAlgorithm, ...IntegrityAlgorithm[]]),
        offset,
        order: z.enum(['be', 'le']).default('le'),
        from: offset.default(0),
        to: z.number().int().min(1).max(64),
      })
      .optional(),
    /** the byte that says which frame the report is; a value not in `map` is `bad-field` */
    type: z.strictObject({ offset, map: z.record(z.string().regex(/^\d{1,3}$/, 'keys are byte values 0..255'), z.enum(FRAME_TYPES)) }),
    /** field -> byte offset (`d1: 2`), or a binary field (`uid: { at: 1, width: 4, as: hex }`); only the fields of the report's frame type are read */
    fields: z.record(z.string(), z.union([offset, binaryFieldSchema])).default({}),
  })
  .superRefine((r, ctx) => {
    const check = (path: (string | number)[], at: number, width = 1) => {
      if (at + width > r.length) ctx.addIssue({ code: 'custom', path, message: `is outside the ${r.length}-byte report` });
    };
    if (r.id) check(['id', 'offset'], r.id.offset);
    if (r.seq) check(['seq', 'offset'], r.seq.offset);
    check(['type', 'offset'], r.type.offset);
    if (r.checksum) {
      check(['checksum', 'offset'], r.checksum.offset, checksumBytes(r.checksum.algorithm));
      if (r.checksum.to > r.length || r.checksum.from >= r.checksum.to)
        ctx.addIssue({ code: 'custom', path: ['checksum', 'to'], message: 'needs from < to <= length' });
    }
    for (const [k, v] of Object.entries(r.fields)) typeof v === 'number' ? check(['fields', k], v) : check(['fields', k], v.at, v.width);
    for (const k of Object.keys(r.type.map))
      if (Number(k) > 255) ctx.addIssue({ code: 'custom', path: ['type', 'map', k], message: 'is not a byte value (0..255)' });
  });

export const profileSchema = z
  .strictObject({
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
      .strictObject({
        /** start sequence (one or more bytes): frames begin with it; a new one resynchronises */
        start: z.string().min(1).optional(),
        /** end sequence */
        end: z.string().min(1).optional(),
        /** further end sequences accepted on input (`end` is what a device writes): `["\n"]` beside `"\r\n"` */
        acceptEnd: z.array(z.string().min(1)).default([]),
        /** bytes after the end sequence that belong to the frame (a check byte: `STX body ETX BCC`) */
        trailer: z.number().int().min(0).max(16).default(0),
        /** fixed frame length in bytes (with `start` as its sync word) */
        length: z.number().int().positive().optional(),
        /** a length field in the frame: where it is, and what it counts */
        lengthField: z
          .strictObject({
            /** byte offset from the first byte of the frame (the start sequence included) */
            offset: z.number().int().min(0).max(255),
            width: z.union([z.literal(1), z.literal(2), z.literal(4)]).default(1),
            order: z.enum(['be', 'le']).default('be'),
            /** `frame`: the whole frame; `following`: the bytes after the field; `payload`: the bytes after the field up to the check value */
            counts: z.enum(['frame', 'following', 'payload']).default('following'),
            /** added to the value (a field counting itself or a fixed tail) */
            adjust: z.number().int().min(-255).max(255).default(0),
          })
          .optional(),
        /**
         * Byte stuffing undone before decoding: `double` (the escape byte doubled inside data, as DLE in
         * `DLE STX ... DLE ETX`; start and end then begin with the escape) or `xor` (escape, then the
         * data byte XOR `xor`; start and end never occur in data).
         */
        stuffing: z
          .strictObject({ escape: z.string().length(1), mode: z.enum(['double', 'xor']), xor: z.number().int().min(0).max(255).default(0x20) })
          .optional(),
        /** the longest frame in bytes, start, end and trailer included */
        maxLength: z.number().int().positive().default(128),
        /** silence that ends a frame: a last resort, for devices with no end sequence, length or sync */
        idleMs: z.number().int().positive().optional(),
        /** reject of a frame cut short by a new start sequence (resynchronisation) */
        interrupted: z.enum(['malformed', 'noise']).default('malformed'),
      })
      .prefault({}),
    /** checks of the body text, before the check value is compared */
    body: z
      .strictObject({
        /** characters that never occur in a body: one there makes the frame `malformed` */
        forbid: z.string().default(''),
        /** `reject`: a control byte (0x00-0x1F, 0x7F) in the body makes the frame `malformed` */
        controls: z.enum(['allow', 'reject']).default('allow'),
        /** match patterns against the upper-cased body */
        uppercase: z.boolean().default(false),
        /** several messages in one frame: the text body is split on this and each part is a message */
        split: z.string().min(1).optional(),
      })
      .prefault({}),
    integrity: z
      .strictObject({
        /** the algorithm, from the catalogue of drivers/profiles/checksums.ts */
        algorithm: z.enum(INTEGRITY_ALGORITHMS).default('none'),
        /** how the value is written: binary (big / little endian), hex (`hex`: either case on input), decimal digits */
        encoding: z.enum(['binary-be', 'binary-le', 'hex', 'hex-upper', 'hex-lower', 'decimal']).default('hex'),
        /** `before-end`: the last bytes of the body (after `separator` if any); `after-end`: the trailer after the end sequence */
        place: z.enum(['before-end', 'after-end']).default('before-end'),
        /** text between the payload and a `before-end` value (`*`) */
        separator: z.string().min(1).optional(),
        /** decimal encoding: the number of digits (default: enough for the algorithm's width) */
        digits: z.number().int().min(1).max(10).optional(),
        /** what the value covers: the start sequence, the payload, the separator, the end sequence */
        covers: z
          .strictObject({
            start: z.boolean().default(false),
            payload: z.boolean().default(true),
            separator: z.boolean().default(false),
            end: z.boolean().default(false),
          })
          .prefault({}),
        /** computed over the stuffed bytes as sent, or the unstuffed ones */
        over: z.enum(['unstuffed', 'stuffed']).default('unstuffed'),
      })
      .prefault({}),
    cards: z
      .strictObject({
        preset: z.enum(['rank-suit', 'suit-rank', 'suit_rank', 'four-digit', 'index52', 'custom', 'table']),
        suitOrder: z
          .array(z.enum(['S', 'H', 'D', 'C']))
          .length(4)
          .optional(),
        ranks: z.record(z.string(), z.enum(['A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K'])).optional(),
        suits: z.record(z.string(), z.enum(['S', 'H', 'D', 'C'])).optional(),
        order: z.enum(['rank-suit', 'suit-rank']).optional(),
        /** `preset: table`: 52 entries, the device's code (text, or a binary field's decimal value) -> the card */
        table: z.record(z.string(), z.string().regex(/^[A2-9TJQK][SHDC]$/, 'is not a card (rank A23456789TJQK + suit SHDC)')).optional(),
      })
      .superRefine((c, ctx) => {
        if (c.preset === 'table') {
          if (!c.table) return void ctx.addIssue({ code: 'custom', path: ['table'], message: 'is required with preset table (52 entries)' });
          const cards = Object.values(c.table);
          const seen = new Set(cards);
          if (cards.length !== 52 || seen.size !== 52)
            ctx.addIssue({
              code: 'custom',
              path: ['table'],
              message: `needs 52 entries, one per card (has ${cards.length} entries, ${seen.size} distinct cards)`,
            });
        } else if (c.table) ctx.addIssue({ code: 'custom', path: ['table'], message: 'is only read with preset table' });
      })
      .default({ preset: 'rank-suit' }),
    /** the device's SEQ numbering: it wraps from `wrap` to 0 (65535 for the reference protocol, 255 for one byte) */
    seq: z.strictObject({ wrap: z.number().int().min(1).max(0xffffffff).default(65535) }).prefault({}),
    /** serial line settings of the device (a device's config transport overrides each) */
    line: z
      .strictObject({
        baudRate: z.number().int().positive().optional(),
        dataBits: z.union([z.literal(5), z.literal(6), z.literal(7), z.literal(8)]).optional(),
        parity: z.enum(['none', 'even', 'odd', 'mark', 'space']).optional(),
        stopBits: z.union([z.literal(1), z.literal(1.5), z.literal(2)]).optional(),
        rtscts: z.boolean().optional(),
      })
      .optional(),
    messages: z.array(messageSchema).default([]),
    rejects: z.array(rejectRuleSchema).default([]),
    report: reportLayoutSchema.optional(),
    /**
     * Commands the device understands, as body templates framed like uplink messages (start,
     * checksum, end). Placeholders: `{seq}` the gateway's own command counter, `{from}` the first
     * SEQ a `repeat` asks for. A command with no template is not sent (the device takes none).
     */
    downlink: z
      .strictObject({
        rescan: z.string().min(1).optional(),
        lock: z.string().min(1).optional(),
        unlock: z.string().min(1).optional(),
        repeat: z.string().min(1).optional(),
      })
      .strict()
      .default({}),
    /** USB ids of devices known to speak this profile (`tablegw devices` suggests the profile). */
    usb: z.array(z.strictObject({ vendorId: z.number().int().min(0).max(0xffff), productId: z.number().int().min(0).max(0xffff) })).default([]),
  })
  // how frames end: checked whenever `input` and `framing` themselves read, even when other keys are
  // wrong, so one pass names every mistake (a refinement runs only on a clean parse by default)
  .superRefine(
    (p, ctx) => {
      const f = p.framing;
      if (p.input === 'bytes' && f.end === undefined && f.length === undefined && f.lengthField === undefined && f.idleMs === undefined) {
        ctx.addIssue({ code: 'custom', path: ['framing'], message: 'needs "end", "length", "lengthField" or (last resort) "idleMs"' });
      }
    },
    {
      when: (payload) =>
        typeof payload.value === 'object' &&
        payload.value !== null &&
        !payload.issues.some((i) => i.path === undefined || i.path.length === 0 || i.path[0] === 'framing' || i.path[0] === 'input'),
    },
  )
  .superRefine((p, ctx) => {
    const f = p.framing;
    const i = p.integrity;
    const issue = (path: (string | number)[], message: string): void => ctx.addIssue({ code: 'custom', path, message });
    if (f.length !== undefined && f.length > f.maxLength) issue(['framing', 'length'], `is above maxLength (${f.maxLength})`);
    if (f.acceptEnd.length > 0 && f.end === undefined) issue(['framing', 'acceptEnd'], 'needs "end"');
    if (f.trailer > 0 && f.end === undefined) issue(['framing', 'trailer'], 'needs "end" (the trailer follows the end sequence)');
    if (f.lengthField && f.length !== undefined) issue(['framing', 'lengthField'], 'a frame has a fixed "length" or a length field, not both');
    if (f.lengthField && f.stuffing) issue(['framing', 'lengthField'], 'is not read on stuffed frames: their end sequence says where they end');
    if (f.lengthField && f.end !== undefined) issue(['framing', 'lengthField'], 'a frame ends by its length field or by "end", not both');
    if (f.stuffing?.mode === 'double') {
      for (const k of ['start', 'end'] as const) {
        const v = f[k];
        if (v !== undefined && (v.length < 2 || v[0] !== f.stuffing.escape))
          issue(['framing', k], `with stuffing mode double, needs to be the escape byte and a control byte (such as "${f.stuffing.escape}\u0003")`);
      }
    }
    if (f.stuffing?.mode === 'xor') {
      for (const k of ['start', 'end'] as const) if (f[k]?.includes(f.stuffing.escape)) issue(['framing', k], 'must not contain the escape byte');
    }
    if (f.stuffing && f.start === undefined) issue(['framing', 'stuffing'], 'needs "start"');
    const width = checksumBytes(i.algorithm);
    const textWidth = i.encoding.startsWith('binary') ? width : i.encoding === 'decimal' ? (i.digits ?? String(2 ** (8 * width) - 1).length) : width * 2;
    if (i.algorithm !== 'none') {
      if (i.place === 'after-end') {
        if (f.end === undefined) issue(['integrity', 'place'], 'after-end needs framing.end');
        else if (f.trailer !== textWidth)
          issue(['framing', 'trailer'], `needs ${textWidth} (the ${i.algorithm} value, ${i.encoding}, follows the end sequence)`);
        if (i.separator !== undefined) issue(['integrity', 'separator'], 'is read only with place before-end');
      }
      if (i.covers.end && f.end === undefined) issue(['integrity', 'covers', 'end'], 'needs framing.end');
      if (i.covers.start && f.start === undefined) issue(['integrity', 'covers', 'start'], 'needs framing.start');
      if (i.covers.separator && i.separator === undefined) issue(['integrity', 'covers', 'separator'], 'needs integrity.separator');
      if (i.covers.end && i.place === 'before-end') issue(['integrity', 'covers', 'end'], 'a value before the end sequence cannot cover it (place: after-end)');
      if (i.over === 'stuffed' && !f.stuffing) issue(['integrity', 'over'], 'stuffed needs framing.stuffing');
    } else if (f.trailer > 0) issue(['framing', 'trailer'], 'holds nothing: integrity.algorithm is none');
    if (p.body.split !== undefined && p.messages.some((m) => m.bytes)) issue(['body', 'split'], 'splits text bodies; a binary message reads the whole payload');
    if (p.input === 'hid-report') {
      if (!p.report) issue(['report'], 'is required with input hid-report');
    } else if (p.messages.length === 0) {
      issue(['messages'], 'needs at least one message');
    }
  });

export type DeviceProfile = z.infer<typeof profileSchema>;

export class ProfileError extends Error {}

export type FrameTypeName = (typeof FRAME_TYPES)[number];

/** The key path of an issue; a message or reject rule by its name (`messages.card.pattern`). */
function pathOf(data: unknown, path: readonly PropertyKey[]): string {
  return path
    .map((p, k) => {
      if (k === 1 && (path[0] === 'messages' || path[0] === 'rejects') && typeof p === 'number') {
        const list = (data as Record<string, { name?: unknown }[] | undefined> | null)?.[path[0]];
        const n = Array.isArray(list) ? list[p]?.name : undefined;
        return typeof n === 'string' ? n : String(p);
      }
      return String(p);
    })
    .join('.');
}

export interface ReadProfile {
  profile: DeviceProfile;
  /** v1 keys read in their v1.2 form (profile-migration.ts): what to write instead */
  migrated: string[];
}

/**
 * Validate parsed YAML (v1 keys are read in their v1.2 form first); errors read
 * `file: messages.card.pattern: needs a named group "card"` (messages by name), an unknown key
 * `file: framing.idelMs: unknown key; did you mean idleMs?`.
 */
export function readProfile(file: string, data: unknown): ReadProfile {
  const { data: v12, notes } = migrateProfile(data);
  // parsed once per profile: without zod's compiled fast path (its code generation costs more than it saves here)
  const r = profileSchema.safeParse(v12, { jitless: true, error: strictKeyErrors });
  if (r.success) return { profile: r.data, migrated: notes };
  // in the order of the profile's keys (a check over several keys is reported at its own key)
  const keyOrder = Object.keys(profileSchema.shape);
  const rank = (i: z.core.$ZodIssue): number => keyOrder.indexOf(String(i.path[0]));
  const issues = r.error.issues
    .map((i, n) => ({ i, n }))
    .sort((a, b) => rank(a.i) - rank(b.i) || a.n - b.n)
    .map((x) => x.i);
  throw new ProfileError(
    issueLines(issues, (path) => pathOf(v12, path))
      .map((l) => `${file}: ${l}`)
      .join('\n'),
  );
}

export function validateProfile(file: string, data: unknown): DeviceProfile {
  return readProfile(file, data).profile;
}

/**
 * What is legal but risky in a profile (`tablegw profile check` and start-up print these): no
 * integrity check (a corrupted frame that still matches a pattern is accepted), frames ended by
 * silence although the grammar says where they end.
 */
export function profileWarnings(p: DeviceProfile): string[] {
  const out: string[] = [];
  const f = p.framing;
  if (p.input === 'bytes' && p.integrity.algorithm === 'none')
    out.push(
      'integrity: none: a frame corrupted on the line that still matches a message is accepted (a wrong card); set integrity.algorithm if the device sends a check value',
    );
  if (p.input === 'hid-report' && !p.report?.checksum)
    out.push('report.checksum: none: a corrupted report that still reads is accepted; set report.checksum if the device sends one');
  if (p.input === 'bytes' && f.idleMs !== undefined) {
    const by =
      f.end !== undefined
        ? f.trailer > 0
          ? 'an end sequence and a trailer'
          : 'an end sequence'
        : f.length !== undefined
          ? 'a fixed length'
          : f.lengthField
            ? 'a length field'
            : undefined;
    if (by)
      out.push(`framing.idleMs: frames end by ${by}, so the idle timeout is not used (silence must never end a frame the grammar can end): remove idleMs`);
  }
  return out;
}

export function loadProfileFile(file: string): DeviceProfile {
  return validateProfile(file, parse(readFileSync(file, 'utf8')));
}

/** A profile file with its warnings (profileWarnings) and v1 notes: what start-up logs. */
export function profileFileWarnings(file: string): string[] {
  const r = readProfile(file, parse(readFileSync(file, 'utf8')));
  return [...profileWarnings(r.profile), ...r.migrated];
}
