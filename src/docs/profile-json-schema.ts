/**
 * docs/profile.schema.json: the JSON Schema of a device profile file (device-protocols.md §3),
 * generated from the zod schema in drivers/profiles/profile-schema.ts by `npm run docs:api`, so a
 * key added there shows up here by itself. An editor pointed at it (docs/DEVICES.md) completes and
 * checks profile keys while an installer types. The key descriptions live here, keyed by their
 * path (`messages[].pattern`); a `.describe()` text on the zod schema wins over them. Pure and
 * deterministic: test/unit/observability/api-docs.test.ts rebuilds it and compares.
 */
import { z } from 'zod';
import { profileSchema } from '../../drivers/profiles/profile-schema.js';

type Json = Record<string, unknown>;

/** what each profile key means, for an installer (docs/DEVICES.md has the long form) */
export const PROFILE_KEY_DESCRIPTIONS: Readonly<Record<string, string>> = {
  name: 'The profile\'s name (shown in errors and by `tablegw profile list`).',
  talker: 'The reference talker the frames are given as: SHOE (card shoe, serial scanner), RFID, SHUF (shuffler), DICE or BALL. It must fit the device kind that uses the profile.',
  encoding: 'ascii: the body is text. binary: the body is matched as uppercase hex text, two digits a byte, and numeric groups are read as hex.',
  framing: 'How a frame is cut out of the byte stream: an end delimiter and/or a fixed length, optionally a start string.',
  'framing.start': 'Characters that begin a frame (each character is one byte: "\\u0002" is STX). Bytes before it are one `noise` reject; a new start byte inside a frame ends the broken frame as `malformed`.',
  'framing.end': 'Characters that end a frame ("\\r", "\\r\\n", "\\u0003" for ETX, ";").',
  'framing.length': 'Fixed frame length in bytes, the start byte included.',
  'framing.maxLength': 'A frame longer than this many bytes is a `too-long` reject (default 128).',
  'framing.idleMs': 'An inter-byte pause that ends a frame (accepted, not acted on yet).',
  integrity: 'The check value each frame carries, if any.',
  'integrity.kind': 'none, xor8, sum8, lrc (two\'s complement of SUM-8), crc16-modbus or crc16-ccitt (CCITT-FALSE: init 0xFFFF, poly 0x1021).',
  'integrity.format': 'hex: the check value as hex digits (2 or 4, either case). binary: as 1 or 2 bytes, CRC low byte first.',
  'integrity.separator': 'The check value follows this string (e.g. "*"); without one it is the last bytes before the end delimiter.',
  'integrity.covers': 'body: the check covers the bytes after the start string up to the separator; start-and-body: the start string too.',
  cards: 'How the device writes a card.',
  'cards.preset': 'rank-suit (AS, 10S, TS), suit-rank (SA, H10), suit_rank (S_K, C_10), four-digit (1010 = AS: suit digit 1=S 2=H 3=C 4=D, then the rank x 10), index52 (1..52), custom (ranks and suits maps).',
  'cards.suitOrder': 'index52: the order of the four suits (default S, H, D, C).',
  'cards.ranks': 'custom: the device\'s rank text -> the rank (A 2-9 T J Q K).',
  'cards.suits': 'custom: the device\'s suit text -> the suit (S H D C).',
  'cards.order': 'custom: rank before suit (rank-suit) or suit before rank (suit-rank).',
  messages: 'The message types the device sends, tried in order; a body no pattern matches is an `unknown-type` reject.',
  'messages[].name': 'A name for the message (error messages name the message by it).',
  'messages[].pattern': 'A regular expression matched against the whole body, with named groups: CARD needs `card`, BALL `ball`, ROLL `d1` `d2` `d3` (and `bounces`), COUNT `count`, TAG `uid`.',
  'messages[].type': 'The gateway frame the message becomes (CARD, MISREAD, CUT, DROP, STATE, TAG, ROLL, COCKED, NOREAD, SHAKE, BALL, START, END, SHUF_STATE, COUNT, HB, ERR, VER).',
  'messages[].fields': 'Constant fields of the frame (e.g. state: LOADED, bounces: 0); a named group of the same name wins.',
  'messages[].seq': 'The named group that carries the device\'s sequence number; without it the frame has no SEQ (no gap rules).',
  'messages[].emit': 'How a device writes this message: the body with {group} placeholders ("{seq},C,{card}"); framing and checksum are added around it.',
  downlink: 'Commands the device understands, as body templates framed like uplink messages; a command with no template is not sent.',
  'downlink.rescan': 'The RESCAN command template ({seq}: the gateway\'s command counter).',
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
    description: 'Generated from drivers/profiles/profile-schema.ts by `npm run docs:api`; do not edit. A YAML device profile (device-protocols.md §3); docs/DEVICES.md "Write a profile for your device" explains the keys.',
    ...Object.fromEntries(Object.entries(s).filter(([k]) => k !== '$schema')),
  };
}
