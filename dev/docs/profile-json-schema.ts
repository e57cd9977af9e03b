/**
 * docs/profile.schema.json: the JSON Schema of a device profile file (device-protocols.md §3),
 * generated from the zod schema in drivers/profiles/profile-schema.ts by `npm run docs:api`, so a
 * key added there shows up here by itself. An editor pointed at it (docs/DEVICES.md) completes and
 * checks profile keys while an installer types. The key descriptions live here, keyed by their
 * path (`messages[].pattern`); a `.describe()` text on the zod schema wins over them. Pure and
 * deterministic: test/unit/observability/api-docs.test.ts rebuilds it and compares.
 */
import * as z from 'zod';
import { profileSchema } from '../../drivers/profiles/profile-schema.js';

type Json = Record<string, unknown>;

/** what each profile key means, for an installer (docs/DEVICES.md has the long form) */
export const PROFILE_KEY_DESCRIPTIONS: Readonly<Record<string, string>> = {
  name: "The profile's name (shown in errors and by `tablegw profile list`).",
  talker:
    'The reference talker the frames are given as: SHOE (card shoe, serial scanner), RFID, SHUF (shuffler), DICE or BALL. It must fit the device kind that uses the profile.',
  input:
    "What the transport delivers: bytes (default, a serial line), hid-keyboard (8-byte boot-keyboard reports of a keyboard-wedge scanner, typed into text with the US layout; Enter ends a frame, no delimiters needed) or hid-report (vendor HID input reports laid out by `report`). It must fit the device's transport: bytes on serial, hid-keyboard or hid-report on hid.",
  encoding: 'ascii: the body is text. binary: the body is matched as uppercase hex text, two digits a byte, and numeric groups are read as hex.',
  framing:
    'How a frame is cut out of the byte stream (the frame grammar): a start sequence, an end sequence with an optional trailer, a length field, or a fixed length with a sync word; byte stuffing; an idle timeout only where nothing else ends a frame.',
  'framing.start':
    'The start sequence, one or more bytes (each character is one byte: "\\u0002" is STX). Bytes before it are one `noise` reject; a new start inside a text frame ends the broken frame with the reject named by `interrupted`; a failed frame holding a later start is rejected only up to it.',
  'framing.trailer': 'Bytes after the end sequence that belong to the frame, taken as they come (the check byte of STX body ETX BCC). Needs `end`.',
  'framing.lengthField': 'A length field in the frame: the frame ends when the counted bytes are in.',
  'framing.lengthField.offset': 'Byte offset of the field from the first byte of the frame (the start sequence included).',
  'framing.lengthField.width': 'Bytes of the field: 1, 2 or 4.',
  'framing.lengthField.order': 'be (default) or le.',
  'framing.lengthField.counts':
    'What the value counts: frame (the whole frame), following (default: the bytes after the field) or payload (the bytes after the field up to the check value).',
  'framing.lengthField.adjust': 'Added to the value (-255..255).',
  'framing.stuffing': 'Byte stuffing, undone before the body is read.',
  'framing.stuffing.escape': 'The escape byte (DLE is "\\u0010", 0x7D "\\u007d").',
  'framing.stuffing.mode':
    'double: the escape byte is doubled in data, and start and end are the escape plus a control byte. xor: the escape byte, then the data byte XOR `xor`.',
  'framing.stuffing.xor': 'mode xor: the value XORed into an escaped byte (default 0x20).',
  'framing.end': 'Characters that end a frame ("\\r", "\\r\\n", "\\u0003" for ETX, ";"): the delimiter a device writes.',
  'framing.acceptEnd': 'Further end delimiters accepted on input beside `end` (["\\n"] beside "\\r\\n"); the longest that matches is cut off. Needs `end`.',
  'framing.length': 'Fixed frame length in bytes, the start byte included.',
  'framing.maxLength': 'The longest frame in bytes, start, end and trailer included; longer is a `too-long` reject (default 128).',
  'framing.idleMs':
    'A frame ends when the line has been silent this many milliseconds: only for devices with no end sequence, length or fixed size (beside those it is not used, and warned about); a pending noise run is flushed as one `noise` reject.',
  'framing.interrupted':
    'The reject of a frame cut short by a new start byte (ASCII profiles with `start`): malformed (default) or noise (the reference protocol).',
  body: 'Checks of the body text before the check value is compared: a body that fails them is `malformed`, not `bad-checksum`.',
  'body.forbid': 'Characters that never occur in a body: one there makes the frame `malformed` (the reference profiles forbid "*").',
  'body.controls': 'allow (default), or reject: a control byte (0x00-0x1F, 0x7F) in the body makes the frame `malformed`.',
  'body.uppercase': 'Match the patterns against the upper-cased body (a scanner typing "sa" or "SA" alike).',
  'body.split': 'Several messages in one frame: the text body is split on this string and each part is a message (a frame or a reject of its own).',
  integrity: 'The check value each frame carries, if any.',
  'integrity.algorithm':
    "From the catalogue (drivers/profiles/checksums.ts, standard parameters): none, xor8, sum8, lrc (two's complement of SUM-8), crc8 (SMBUS), crc8-maxim, crc8-itu, crc8-cdma2000, crc8-autosar, crc16-modbus, crc16-ccitt-false, crc16-xmodem, crc16-kermit, crc16-arc, crc16-x25, crc32.",
  'integrity.encoding': 'How the value is written: hex (either case), hex-upper, hex-lower, binary-be, binary-le or decimal.',
  'integrity.place':
    'before-end (default): the last bytes of the body, after `separator` if given. after-end: the trailer after the end sequence (framing.trailer = its width).',
  'integrity.separator': 'The check value follows this string (e.g. "*") at the end of the body.',
  'integrity.digits': "decimal encoding: the number of digits (default: enough for the algorithm's width).",
  'integrity.covers': 'What the value covers, in wire order (default: the payload only).',
  'integrity.covers.start': 'The start sequence.',
  'integrity.covers.payload': 'The body after the start sequence, up to the separator.',
  'integrity.covers.separator': 'The separator.',
  'integrity.covers.end': 'The end sequence (place after-end).',
  'integrity.over': 'unstuffed (default): the bytes after unstuffing; stuffed: as sent.',
  cards: 'How the device writes a card.',
  'cards.preset':
    'rank-suit (AS, 10S, TS), suit-rank (SA, H10), suit_rank (S_K, C_10), four-digit (1010 = AS: suit digit 1=S 2=H 3=C 4=D, then the rank x 10), index52 (1..52), custom (ranks and suits maps).',
  'cards.suitOrder': 'index52: the order of the four suits (default S, H, D, C).',
  'cards.ranks': "custom: the device's rank text -> the rank (A 2-9 T J Q K).",
  'cards.suits': "custom: the device's suit text -> the suit (S H D C).",
  'cards.order': 'custom: rank before suit (rank-suit) or suit before rank (suit-rank).',
  'cards.table': "preset table: exactly 52 entries, the device's code (text, or a binary field's value in decimal) -> the card (AS, TD, ...), each card once.",
  seq: "The device's SEQ numbering.",
  'seq.wrap': 'The last SEQ before the device wraps to 0 (default 65535; 255 for one byte).',
  line: "The device's serial line settings; a device's own transport keys in the config override each.",
  'line.baudRate': 'Line speed in baud.',
  'line.dataBits': 'Data bits per character (5-8).',
  'line.parity': 'none, even, odd, mark or space.',
  'line.stopBits': '1, 1.5 or 2.',
  'line.rtscts': 'RTS/CTS hardware flow control.',
  messages: 'The message types the device sends, tried in order; a body no pattern matches is an `unknown-type` reject.',
  'messages[].name': 'A name for the message (error messages name the message by it).',
  'messages[].pattern':
    'A text message: a regular expression matched against the whole body, with named groups: CARD needs `card`, BALL `ball`, ROLL `d1` `d2` `d3` (and `bounces`), COUNT `count`, TAG `uid`.',
  'messages[].bytes': 'A binary message, matched on the payload bytes (after the start sequence, unstuffed) instead of a pattern.',
  'messages[].bytes.length': "The payload's exact length (absent: at least what the fields and matches need).",
  'messages[].bytes.match': 'Bytes that say which message it is.',
  'messages[].bytes.match[].at': 'Byte offset in the payload.',
  'messages[].bytes.match[].value': 'The byte value (0-255), after the mask.',
  'messages[].bytes.match[].mask': 'Bits compared (default 0xFF).',
  'messages[].bytes.fields':
    'Field -> { at, width (1-4), order (be/le), bits [lo, hi], as (number/hex) }: CARD needs `card`, BALL `ball`, ROLL `d1` `d2` `d3`, ...',
  'messages[].type':
    'The gateway frame the message becomes (CARD, MISREAD, CUT, DROP, STATE, TAG, ROLL, COCKED, NOREAD, SHAKE, BALL, START, END, SHUF_STATE, COUNT, HB, ERR, VER).',
  'messages[].fields': 'Constant fields of the frame (e.g. state: LOADED, bounces: 0); a named group of the same name wins.',
  'messages[].map':
    'Value maps per field: the captured text (or the constant) is looked up and replaced (state: { L: LOADED, E: EMPTY }); a value with no entry is a `bad-field` reject.',
  'messages[].ranges':
    'The accepted range { min, max } of a numeric field (ball, d1, d2, d3, bounces, count), replacing the default (ball 1..80, dice 1..6, bounces 0..99, count 0..999); outside it is `bad-field`.',
  'messages[].seq': "The named group (or binary field) that carries the device's sequence number; without it the frame has no SEQ (no gap rules).",
  'messages[].emit': 'How a device writes this message: the body with {group} placeholders ("{seq},C,{card}"); framing and checksum are added around it.',
  rejects:
    'Known kinds of bad frame, tried in order after no message matched: the first whose pattern matches the whole body names the reject. A body no message and no rule matches is `unknown-type`.',
  'rejects[].name': 'A name for the rule (error messages name the rule by it).',
  'rejects[].pattern': 'A regular expression matched against the whole body.',
  'rejects[].reason': 'The stable reject code the frame gets: noise, too-long, bad-checksum, malformed, unknown-talker, unknown-type or bad-field.',
  report: 'input hid-report: the layout of the vendor input report (required there), read by byte offset instead of patterns.',
  'report.length': 'Bytes per report (1-64); a chunk that is not a whole number of reports is one `malformed` reject.',
  'report.id': 'The report id byte: another value there is a `malformed` report.',
  'report.id.offset': 'Byte offset of the report id.',
  'report.id.value': 'The report id the device sends (0-255).',
  'report.seq': "The device's sequence byte (8-bit: the driver's SEQ modulus is 256); absent = the frames have no SEQ.",
  'report.seq.offset': 'Byte offset of the sequence byte.',
  'report.checksum': 'The check value of the report; a wrong one is `bad-checksum`.',
  'report.checksum.algorithm': 'From the integrity catalogue (xor8, sum8, lrc, crc8..., crc16-..., crc32).',
  'report.checksum.order': 'Byte order of a multi-byte value: le (default) or be.',
  'report.checksum.offset': 'Byte offset of the check value.',
  'report.checksum.from': 'First byte the check covers (default 0).',
  'report.checksum.to': 'The check covers bytes up to, not including, this offset (from < to <= length).',
  'report.type': 'The byte that says which frame the report is.',
  'report.type.offset': 'Byte offset of the type byte.',
  'report.type.map': 'Type byte value ("0".."255") -> frame type (ROLL, COCKED, ...); a value not in the map is `bad-field`.',
  'report.fields':
    "Field -> byte offset (d1: 2) or a binary field ({ at, width, order, bits, as }); only the fields of the report's frame type are read and range-checked. A `messages` entry of the same type may add constants, `map` or `ranges`.",
  downlink: 'Commands the device understands, as body templates framed like uplink messages; a command with no template is not sent.',
  'downlink.rescan': "The RESCAN command template ({seq}: the gateway's command counter).",
  'downlink.lock': 'The LOCK command template.',
  'downlink.unlock': 'The UNLOCK command template.',
  'downlink.repeat': 'The REPEAT command template ({from}: the first SEQ asked for).',
  usb: 'USB vendor/product ids of devices known to speak this profile: `tablegw devices` suggests the profile for them.',
  'usb[].vendorId': 'USB vendor id (0-65535; 0x0403 in YAML).',
  'usb[].productId': 'USB product id (0-65535).',
};

/** every object property of a JSON Schema node, with its key path (`messages[].pattern`) */
export function profileSchemaKeys(node: Json, prefix = ''): Array<{ path: string; node: Json }> {
  const out: Array<{ path: string; node: Json }> = [];
  const props = node.properties as Record<string, Json> | undefined;
  if (props) {
    for (const [k, child] of Object.entries(props)) {
      const path = prefix ? `${prefix}.${k}` : k;
      out.push({ path, node: child });
      out.push(...profileSchemaKeys(child, path));
    }
  }
  const items = node.items as Json | undefined;
  if (items && typeof items === 'object' && !Array.isArray(items)) out.push(...profileSchemaKeys(items, `${prefix}[]`));
  return out;
}

/** docs/profile.schema.json */
export function buildProfileSchema(): Json {
  const s = z.toJSONSchema(profileSchema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as Json;
  for (const { path, node } of profileSchemaKeys(s)) {
    if (node.description === undefined && PROFILE_KEY_DESCRIPTIONS[path]) node.description = PROFILE_KEY_DESCRIPTIONS[path];
  }
  return {
    $schema: s.$schema,
    $id: 'https://table-edge-gateway.invalid/profile.schema.json',
    title: 'table-edge-gateway device profile',
    description:
      'Generated from drivers/profiles/profile-schema.ts by `npm run docs:api`; do not edit. A YAML device profile (device-protocols.md §3); docs/DEVICES.md "Write a profile by hand: the frame grammar" explains the keys.',
    ...Object.fromEntries(Object.entries(s).filter(([k]) => k !== '$schema')),
  };
}
