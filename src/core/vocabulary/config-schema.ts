/**
 * The configuration file (spec/config.md), defined once as zod schemas: validation, defaults and
 * the error messages a technician reads all come from here.
 */
import * as z from 'zod';
import { DEVICE_KINDS } from './device-kinds.js';
import { PRIVILEGED_COMMANDS } from './requests.js';

const id = z.string().regex(/^[a-z0-9-]{1,32}$/, 'must be 1-32 characters of a-z, 0-9 and -');
const ms = z
  .number()
  .int()
  .min(0)
  .max(24 * 3600 * 1000);
const usbId = z.union([
  z.number().int().min(0).max(0xffff),
  z
    .string()
    .regex(/^(0x)?[0-9a-fA-F]{1,4}$/)
    .transform((s) => parseInt(s.replace(/^0x/, ''), 16)),
]);

export const serialTransportSchema = z
  .object({
    type: z.literal('serial').describe('the device is on a serial line (RS-232, or a USB serial adapter)'),
    path: z.string().min(1).describe('the serial device, e.g. /dev/serial/by-id/usb-... or /dev/ttyUSB0 (docs/INSTALL.md: stable names)'),
    baudRate: z.number().int().positive().optional().describe("line speed in baud (default: the profile's line.baudRate, else 9600)"),
    dataBits: z
      .union([z.literal(5), z.literal(6), z.literal(7), z.literal(8)])
      .optional()
      .describe("data bits per character (default: the profile's, else 8)"),
    parity: z.enum(['none', 'even', 'odd', 'mark', 'space']).optional().describe("parity bit (default: the profile's, else none)"),
    stopBits: z
      .union([z.literal(1), z.literal(1.5), z.literal(2)])
      .optional()
      .describe("stop bits (default: the profile's, else 1)"),
    lowLatency: z
      .boolean()
      .default(true)
      .describe('open the port in low-latency mode where the driver allows it (docs/DEVICES.md, Serial latency); false turns it off'),
  })
  .strict();

export const hidTransportSchema = z
  .object({
    type: z.literal('hid').describe('the device is a USB HID device'),
    vendorId: usbId.describe('USB vendor id (number, or hex string such as "0x1a86")'),
    productId: usbId.describe('USB product id (number, or hex string)'),
    serialNumber: z.string().optional().describe('the USB serial number, to tell two identical devices apart'),
  })
  .strict();

export const simulatorFaultsSchema = z
  .object({
    /** probability per card that the shoe reports MISREAD before the rescan */
    misreadRate: z.number().min(0).max(1).default(0).describe('probability per card that the shoe reports MISREAD before the rescan'),
    /** card shoes: the dealer drops a card that was read (the shoe's DROP follows the CARD) */
    dropCardRate: z.number().min(0).max(1).default(0).describe("card shoes: the dealer drops a card that was read (the shoe's DROP follows the CARD)"),
    /** probability per frame of a line of garbage bytes on the wire */
    garbageRate: z.number().min(0).max(1).default(0).describe('probability per frame of a line of garbage bytes on the wire'),
    /** probability per frame that the frame is lost on the line (a SEQ gap) */
    dropFrameRate: z.number().min(0).max(1).default(0).describe('probability per frame that the frame is lost on the line (a SEQ gap)'),
    // other device kinds (docs/DEVICES.md): each a probability per read / cycle / roll / draw
    /** rfid-shoe: a tag that is in no registered deck */
    unknownTagRate: z.number().min(0).max(1).default(0).describe('rfid-shoe: a tag that is in no registered deck'),
    /** rfid-shoe: a tag reported 2-3 times while it passes the antenna (within dedupeMs) */
    repeatReadRate: z.number().min(0).max(1).default(0).describe('rfid-shoe: a tag reported 2-3 times while it passes the antenna (within dedupeMs)'),
    /** shuffler: a JAM during a cycle */
    jamRate: z.number().min(0).max(1).default(0).describe('shuffler: a JAM during a cycle'),
    /** shuffler: the door opened (and closed again) during a cycle */
    doorOpenRate: z.number().min(0).max(1).default(0).describe('shuffler: the door opened (and closed again) during a cycle'),
    /** shuffler: a COUNT one card short */
    countMismatchRate: z.number().min(0).max(1).default(0).describe('shuffler: a COUNT one card short'),
    /** dice-sensor: COCKED before the roll is re-shaken */
    cockedRate: z.number().min(0).max(1).default(0).describe('dice-sensor: COCKED before the roll is re-shaken'),
    /** dice-sensor: NOREAD before the dice are read again */
    noReadRate: z.number().min(0).max(1).default(0).describe('dice-sensor: NOREAD before the dice are read again'),
    /** dice-sensor: a ROLL with 0 bounces (void, re-shaken) */
    noBounceRate: z.number().min(0).max(1).default(0).describe('dice-sensor: a ROLL with 0 bounces (void, re-shaken)'),
    /** ball-reader: a ball reported twice in a draw */
    duplicateBallRate: z.number().min(0).max(1).default(0).describe('ball-reader: a ball reported twice in a draw'),
    /** ball-reader: a BALL,81 in a draw */
    outOfRangeBallRate: z.number().min(0).max(1).default(0).describe('ball-reader: a BALL,81 in a draw'),
    /** ball-reader: END before the 20th ball */
    earlyEndRate: z.number().min(0).max(1).default(0).describe('ball-reader: END before the 20th ball'),
    /** barcode-scanner: a barcode that maps to no card */
    badBarcodeRate: z.number().min(0).max(1).default(0).describe('barcode-scanner: a barcode that maps to no card'),
    /** any device: the cable is pulled for unplugMs (per round / cycle) */
    unplugRate: z.number().min(0).max(1).default(0).describe('any device: the cable is pulled for unplugMs (per round / cycle)'),
  })
  .strict();

export const simulatorTransportSchema = z
  .object({
    type: z.literal('simulator').describe('a virtual device built into the gateway (the demo, tests)'),
    /** milliseconds between two cards (0 = as fast as possible) */
    cardIntervalMs: ms.default(900).describe('milliseconds between two cards (0 = as fast as possible)'),
    /** milliseconds between two rounds */
    roundIntervalMs: ms.default(4000).describe('milliseconds between two rounds'),
    /** a fixed seed makes the shuffles repeatable; default: a fresh random seed */
    seed: z.union([z.string(), z.number()]).optional().describe('a fixed seed makes the shuffles repeatable; default: a fresh random seed'),
    /** cut card position, in cards from the end of the shoe */
    cutCardFromEnd: z.number().int().min(1).max(400).default(70).describe('cut card position, in cards from the end of the shoe'),
    faults: simulatorFaultsSchema.prefault({}).describe('simulated faults, each a probability (docs/DEVICES.md)'),
    /** dice-sensor: `line` (DICE serial frames) or `hid` (8-byte HID reports) */
    protocol: z.enum(['line', 'hid']).default('line').describe('dice-sensor: `line` (DICE serial frames) or `hid` (8-byte HID reports)'),
    /** how long a simulated unplug (faults.unplugRate) lasts */
    unplugMs: ms.default(2000).describe('how long a simulated unplug (faults.unplugRate) lasts'),
    engine: z
      .enum(['virtual', 'external'])
      .default('virtual')
      .describe(
        "with `betting: engine`, who sends the table's betting requests: `virtual` (the built-in virtual engine) or `external` (an engine of your own: the virtual dealer waits for its open-betting, close-betting and close-decisions; docs/ENGINES.md). Not for games whose player decisions change the deal (blackjack, holdem)",
      ),
  })
  .strict();

export const transportSchema = z.discriminatedUnion('type', [serialTransportSchema, hidTransportSchema, simulatorTransportSchema]);

export const deviceKindSchema = z.enum(DEVICE_KINDS);

export const deviceSchema = z
  .object({
    id: id.describe('the device id, unique in its table (topics `devices/<id>`)'),
    kind: deviceKindSchema.describe('the kind of device (docs/DEVICES.md)'),
    transport: transportSchema.describe('how the gateway reaches the device: `serial`, `hid` or `simulator`'),
    /** no valid frame for this long marks the device stale */
    staleAfterMs: ms.default(3000).describe('no valid frame for this long marks the device stale'),
    /** a device that has not connected this long after the start raises `device-missing` (0 = never) */
    missingAfterMs: ms.default(10_000).describe('a device that has not connected this long after the start raises a `device-missing` alert (0 = never)'),
    /** a device profile (device-protocols.md §3): a shipped profile's name or a profile file; absent = the reference protocol */
    profile: z
      .string()
      .min(1)
      .optional()
      .describe(
        'a device profile (device-protocols.md §3, docs/DEVICES.md): the name of a shipped profile (drivers/profiles/shipped/) or the path of a profile file; absent: the reference protocol',
      ),
    /** rfid-shoe: repeats of one uid within this many ms are one card; barcode-scanner as dealer: the same card again within it is a double trigger (default 1500) */
    dedupeMs: ms
      .optional()
      .describe(
        'rfid-shoe: repeats of one uid within this many ms are one card; barcode-scanner with role dealer: the same card read again within this many ms of its previous read is a double trigger, one card (default 1500)',
      ),
    /** barcode-scanner: `dealer` (every barcode is the next card dealt) or `rescan` (answers a shoe's misread); default rescan when the table has a shoe, else dealer */
    role: z
      .enum(['dealer', 'rescan'])
      .optional()
      .describe(
        "barcode-scanner (device-protocols.md §3): `dealer`: every barcode read is the next card dealt, in order; `rescan`: the shoe's helper, a read answers its misread (§2a). Default: `rescan` when the table also has a card-shoe or rfid-shoe, else `dealer`",
      ),
    /** rfid-shoe: deck registry CSV `uid,card,deck` (required unless the transport is a simulator) */
    deckRegistry: z.string().min(1).optional().describe('rfid-shoe: deck registry CSV `uid,card,deck` (required unless the transport is a simulator)'),
    /** barcode-scanner: barcode -> card mapping (default pattern ^(?<card>[A2-9TJQK][SHDC])$) */
    barcode: z
      .object({
        pattern: z.string().min(1).optional().describe('a regular expression with a named group `card` (e.g. `^(?<card>[A2-9TJQK][SHDC])$`)'),
        table: z.record(z.string(), z.string()).optional().describe('barcode -> card (e.g. "4006381333931": "AS"), checked before the pattern'),
      })
      .strict()
      .optional()
      .describe('barcode-scanner: how a barcode maps to a card'),
  })
  .strict();

/** one key a table accepts privileged requests from (docs/SECURITY.md, "Privileged requests") */
export const privilegedKeySchema = z
  .object({
    name: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[A-Za-z0-9._:@-]+$/, 'letters, digits and . _ : @ - only')
      .describe(
        "the key's name: the `keyId` a signed request names, and the `by` the gateway publishes for what it signs (e.g. the pit boss or pit tool, `pit-7`)",
      ),
    publicKey: z.string().min(1).optional().describe('the Ed25519 public key as SPKI PEM text (`-----BEGIN PUBLIC KEY-----...`)'),
    publicKeyFile: z.string().min(1).optional().describe('a file holding the Ed25519 public key (SPKI PEM; the `.pub` of `tablegw keygen`)'),
    commands: z
      .array(z.enum(PRIVILEGED_COMMANDS))
      .min(1)
      .describe('the commands this key may sign on this table: any of void-round, correction, resume-round, end-shoe, new-shoe'),
  })
  .strict()
  .superRefine((k, ctx) => {
    const n = (k.publicKey === undefined ? 0 : 1) + (k.publicKeyFile === undefined ? 0 : 1);
    if (n !== 1)
      ctx.addIssue({ code: 'custom', path: ['publicKey'], message: n ? 'set only one of publicKey, publicKeyFile' : 'set publicKey or publicKeyFile' });
  });

/**
 * Privileged requests of one table (docs/SECURITY.md): `void-round`, `correction`, `resume-round`,
 * `end-shoe`, `new-shoe` on a completed or held round need a signature by one of these keys.
 */
export const privilegedRequestsSchema = z
  .object({
    keys: z
      .array(privilegedKeySchema)
      .max(256)
      .default([])
      .describe('the keys whose signatures this table accepts (none: every request on a completed or held round is refused `signature-required`)'),
    maxSkewSeconds: z
      .number()
      .int()
      .min(1)
      .max(3600)
      .default(30)
      .describe(
        "a signature whose time stamp is further than this from the gateway's clock (either way) is refused `stale-request`; an accepted request's transaction is remembered as long, so a copy is refused `replayed-request`",
      ),
  })
  .strict()
  .superRefine((p, ctx) => {
    const seen = new Set<string>();
    p.keys.forEach((k, i) => {
      if (seen.has(k.name)) ctx.addIssue({ code: 'custom', path: ['keys', i, 'name'], message: `key name "${k.name}" is listed twice` });
      seen.add(k.name);
    });
  });
/**
 * A table id must not be one of the gateway's own names: `<prefix>/gateway/...` holds the
 * gateways' info topics, and `<clientIdPrefix>gateway-<gatewayId>` is the gateway's own MQTT
 * client id (a table `gateway-x` could take a gateway's connection away, and the other way round).
 */
export const RESERVED_TABLE_ID = /^gateway(-|$)/;

const tableId = id.refine(
  (t) => !RESERVED_TABLE_ID.test(t),
  "is reserved: `gateway` and `gateway-...` are the gateway's own topic level and MQTT client id; choose another table id",
);

export const tableSchema = z
  .object({
    id: tableId.describe(
      "the table id: the second topic level (`<prefix>/<id>/...`); not `gateway` nor `gateway-...` (the gateway's own topics and client id)",
    ),
    game: z
      .string()
      .describe(
        'the game id (games.md): baccarat, seven-up-baccarat, dragon-tiger, pok-deng, three-pictures, three-card-poker, blackjack, holdem, sic-bo, keno',
      ),
    decks: z.number().int().min(1).max(16).optional().describe("decks in the shoe (default: the game's own)"),
    betting: z
      .enum(['engine', 'none'])
      .default('none')
      .describe("`engine`: rounds open on the engine's open-betting request; `none`: the table deals on its own"),
    burnPerRound: z.number().int().min(0).max(20).optional().describe("cards burned before each round (default: the game's own)"),
    rescanRetries: z.number().int().min(0).max(10).default(2).describe('RESCAN requests after a misread before `rescan-overdue`'),
    rescanIntervalMs: ms.default(500).describe('milliseconds between two RESCAN requests'),
    rescanTimeoutMs: ms.default(20000).describe('a misread not rescanned within this is `rescan-overdue`'),
    repeatTimeoutMs: ms.default(500).describe('a SEQ gap on a device that announced REPEAT: how long the re-sent frames may take (games.md "Lost frames")'),
    gameOptions: z.record(z.string(), z.unknown()).default({}).describe('game-specific options (docs/GAMES.md)'),
    /** sic-bo: a ROLL with fewer bounces is void */
    minBounces: z.number().int().min(0).max(99).default(1).describe('sic-bo: a ROLL with fewer bounces is void'),
    /** shuffler COUNT expected (default 52 x decks: 52 for single-deck games) */
    expectedDeckSize: z.number().int().min(1).max(999).optional().describe('shuffler COUNT expected (default 52 x decks: 52 for single-deck games)'),
    exposedCardVoidsShoe: z
      .boolean()
      .optional()
      .describe('games.md Exposed card: an exposed card voids the rest of the shoe too (default true for baccarat, 7 Up, Dragon Tiger, else false)'),
    unnecessaryCardRule: z
      .enum(['burn-then-void-shoe', 'alert'])
      .optional()
      .describe('games.md Unnecessary card (default burn-then-void-shoe for baccarat, 7 Up, Dragon Tiger, Pok Deng, else alert)'),
    correctionWindowRounds: z
      .number()
      .int()
      .min(0)
      .max(100)
      .default(1)
      .describe('games.md Corrections: how many of the most recent completed rounds the pit may still void or correct'),
    devices: z.array(deviceSchema).min(1).describe("the table's devices (at least one)"),
    requests: z
      .object({
        privileged: privilegedRequestsSchema
          .prefault({})
          .describe(
            'who may void, correct or resume a completed or held round (docs/SECURITY.md "Privileged requests"): the keys, the commands each may sign, the time window',
          ),
      })
      .strict()
      .prefault({})
      .describe("this table's own request settings (the limits are the gateway-wide `requests`)"),
  })
  .strict();

const brokerUrl = z.string().regex(/^(mqtt|mqtts|tcp|tls|ws|wss):\/\/.+/, 'must be "embedded" or a broker URL such as mqtt://host:1883');

/** `mqtt.url` as the list of broker URLs to fail over between, in order ("embedded" stays one entry) */
export function brokerUrls(m: { url: string | readonly string[] }): string[] {
  return typeof m.url === 'string' ? [m.url] : [...m.url];
}

export const mqttSchema = z
  .object({
    url: z
      .union([z.literal('embedded'), brokerUrl, z.array(brokerUrl).min(1).max(16)])
      .default('embedded')
      .describe(
        '`embedded` (the broker built into the gateway) or a broker URL such as mqtt://host:1883 or mqtts://host:8883; or a failover list of broker URLs, tried in order, back to the first when it returns (docs/SCALING.md)',
      ),
    topicPrefix: z
      .string()
      .regex(/^[^#+]+$/, 'must not contain MQTT wildcards')
      .default('casino')
      .describe('the first topic level of every topic (`<prefix>/<table>/...`)'),
    clientIdPrefix: z.string().max(64).default('tablegw-').describe('MQTT client ids are this plus the table id'),
    /** MQTT 5 (default for an external broker) or 3.1.1 (always with the embedded broker, which speaks only 3.1.1) */
    protocolVersion: z
      .union([z.literal(4), z.literal(5)])
      .optional()
      .describe('MQTT 5 (default for an external broker) or 3.1.1 (always with the embedded broker, which speaks only 3.1.1)'),
    username: z.string().optional().describe('broker user name'),
    password: z.string().optional().describe('broker password in the file itself (prefer passwordFile or passwordEnv, docs/SECURITY.md)'),
    passwordFile: z.string().optional().describe('a file holding the broker password'),
    ca: z.string().optional().describe('CA certificate file (PEM) for mqtts://'),
    cert: z.string().optional().describe('client certificate file (PEM) for mqtts://'),
    key: z.string().optional().describe("the client certificate's private key file (PEM)"),
    /** the name of an environment variable holding the password (docs/SECURITY.md) */
    passwordEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')
      .optional()
      .describe('the name of an environment variable holding the password (docs/SECURITY.md)'),
    keepaliveSec: z.number().int().min(0).max(3600).default(30).describe('MQTT keepalive in seconds'),
    reconnectMinMs: z
      .number()
      .int()
      .min(50)
      .max(60_000)
      .default(500)
      .describe('reconnect backoff (docs/SCALING.md): the first retry after this, doubling per failed round of the URL list, with jitter'),
    reconnectMaxMs: z.number().int().min(100).max(600_000).default(30_000).describe('the longest wait between two rounds of connection attempts'),
    connectTimeoutMs: z
      .number()
      .int()
      .min(500)
      .max(120_000)
      .default(5_000)
      .describe('one connection attempt to one broker gives up after this (then the next URL is tried)'),
    failbackCheckMs: z
      .number()
      .int()
      .min(0)
      .max(3_600_000)
      .default(15_000)
      .describe('while on a later URL of the list, how often the first is checked to return to it (0: never)'),
    /** a published message the broker has not acknowledged after this: the broker is stalled (docs/FAULTS.md) */
    ackTimeoutMs: z
      .number()
      .int()
      .min(500)
      .max(600_000)
      .default(5_000)
      .describe(
        'a message in flight that the broker has not acknowledged (PUBACK) after this many ms, with no other acknowledgement meanwhile: the broker is stalled; the table goes `degraded` and not ready, raises `broker-stalled`, drops the connection and makes it again (docs/FAULTS.md)',
      ),
    sessionExpirySec: z
      .number()
      .int()
      .min(0)
      .max(604_800)
      .default(600)
      .describe(
        "each table's MQTT session outlives its connection this long (MQTT 5: clean start off and this session expiry; 3.1.1: clean session off, the broker's own expiry applies): requests the broker queued while the gateway was down are delivered when it is back and answered once. 0: a clean session on every connect",
      ),
  })
  .strict()
  .superRefine((m, ctx) => {
    // docs/SECURITY.md: one source of the password, no silent precedence
    const sources = (['password', 'passwordFile', 'passwordEnv'] as const).filter((k) => m[k] !== undefined);
    if (sources.length > 1)
      ctx.addIssue({ code: 'custom', path: [sources[1]], message: `set only one of password, passwordFile, passwordEnv (${sources.join(' and ')} are set)` });
    if (m.cert !== undefined && m.key === undefined)
      ctx.addIssue({ code: 'custom', path: ['key'], message: "mqtt.cert needs mqtt.key (the client certificate's private key)" });
    if (m.key !== undefined && m.cert === undefined)
      ctx.addIssue({ code: 'custom', path: ['cert'], message: 'mqtt.key needs mqtt.cert (the client certificate)' });
    const plain = brokerUrls(m).filter((u) => !/^(mqtts|tls|wss):\/\//.test(u));
    for (const k of ['ca', 'cert', 'key'] as const) {
      if (m[k] !== undefined && plain.length)
        ctx.addIssue({ code: 'custom', path: [k], message: `a TLS file is set but mqtt.url "${plain[0]}" is not TLS (use mqtts://host:8883)` });
    }
    if (m.reconnectMaxMs < m.reconnectMinMs)
      ctx.addIssue({ code: 'custom', path: ['reconnectMaxMs'], message: `must be at least mqtt.reconnectMinMs (${m.reconnectMinMs})` });
  });

/** one piece of hardware the gateway may open (docs/SECURITY.md, "Device allow-list") */
export const allowedDeviceSchema = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('serial').describe('a serial device entry'),
      /** the device path as configured, or the tty it resolves to (/dev/serial/by-id/... links are followed) */
      path: z.string().min(1).optional().describe('the device path as configured, or the tty it resolves to (/dev/serial/by-id/... links are followed)'),
      /** the USB serial number (what `SerialPort.list()` / udev report for the tty) */
      serialNumber: z.string().min(1).optional().describe('the USB serial number (what `SerialPort.list()` / udev report for the tty)'),
      vendorId: usbId.optional().describe('USB vendor id of the serial adapter'),
      productId: usbId.optional().describe('USB product id of the serial adapter'),
      /** free text for the technician (where the device is, asset tag, ...) */
      note: z.string().optional().describe('free text for the technician (where the device is, asset tag, ...)'),
    })
    .strict()
    .refine((e) => e.path !== undefined || e.serialNumber !== undefined, { message: 'a serial entry needs a path or a serialNumber (or both)' }),
  z
    .object({
      type: z.literal('hid').describe('a HID device entry'),
      vendorId: usbId.describe('USB vendor id'),
      productId: usbId.describe('USB product id'),
      serialNumber: z.string().min(1).optional().describe('USB serial number (default: any)'),
      note: z.string().optional().describe('free text for the technician'),
    })
    .strict(),
]);

/** result signatures (docs/SECURITY.md) */
export const signingSchema = z
  .object({
    /** Ed25519 private key, PKCS#8 PEM (`tablegw keygen`, or `openssl genpkey -algorithm ed25519`) */
    privateKeyFile: z.string().min(1).describe('Ed25519 private key, PKCS#8 PEM (`tablegw keygen`, or `openssl genpkey -algorithm ed25519`)'),
    /** names the key in each signature (default: its fingerprint, `ed25519:` + 16 hex digits) */
    keyId: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[A-Za-z0-9._:-]+$/, 'letters, digits and . _ : - only')
      .optional()
      .describe('names the key in each signature (default: its fingerprint, `ed25519:` + 16 hex digits)'),
    /** message types that carry a signature (default: results only) */
    types: z
      .array(z.enum(['result', 'round', 'event', 'alert', 'shoe', 'device', 'response', 'health']))
      .min(1)
      .default(['result'])
      .describe('message types that carry a signature (default: results only)'),
  })
  .strict();

/** limits on engine requests, per table (docs/SECURITY.md) */
export const requestLimitsSchema = z
  .object({
    /** sustained requests per second a table accepts (token bucket refill rate); the default admits a fast engine */
    ratePerSec: z.number().min(0.1).max(10_000).default(200).describe('sustained requests per second a table accepts (token bucket refill rate)'),
    /** requests a table accepts at once before the rate applies (token bucket size) */
    burst: z.number().int().min(1).max(100_000).default(1000).describe('requests a table accepts at once before the rate applies (token bucket size)'),
    /** a request payload larger than this is refused unread */
    maxPayloadBytes: z
      .number()
      .int()
      .min(64)
      .max(1024 * 1024)
      .default(16 * 1024)
      .describe('a request payload larger than this is refused unread'),
    responseTopicPrefixes: z
      .array(
        z
          .string()
          .min(1)
          .max(256)
          .refine((p) => !/[+#]/.test(p) && !p.includes('\u0000'), 'a prefix has no wildcard (+, #)'),
      )
      .max(64)
      .default([])
      .describe(
        "MQTT 5 response topics honoured besides the table's own `<prefix>/<table>/response/`: each a topic prefix without wildcards, e.g. `engines/baccarat/replies/`; any other is refused `not-allowed`",
      ),
    idempotencyWindowSec: z
      .number()
      .int()
      .min(0)
      .max(30 * 86_400)
      .default(86_400)
      .describe(
        'how long a table remembers each answered request (by its `transaction`, or MQTT 5 correlation data): a retry within it gets the same answer again (`replayed: true`) and is not executed twice; the same key with another body is refused `transaction-reused`. Kept in the journal, so it survives restarts (never longer than journal.retentionDays). 0: off',
      ),
  })
  .strict();

/** scheduled backups of the journal (docs/OPERATIONS.md "Backups") */
export const backupSchema = z
  .object({
    every: z
      .string()
      .regex(/^[1-9][0-9]{0,4}[mhd]$/, 'a whole number of minutes, hours or days: e.g. 30m, 6h, 1d')
      .refine((v) => Number(v.slice(0, -1)) * ({ m: 1, h: 60, d: 1440 } as Record<string, number>)[v.slice(-1)] <= 20 * 1440, 'at most 20 days (20d)')
      .describe('how often the gateway backs its journal up: e.g. `6h` (m minutes, h hours, d days); the first one an interval after the start'),
    dir: z.string().min(1).describe('where the backups go, ideally a share mounted off the table PC: `tablegw-<time>.db` and its signed `.manifest.json`'),
    keep: z
      .number()
      .int()
      .min(1)
      .max(10_000)
      .default(7)
      .describe('how many of the newest backups in `dir` are kept (older ones are deleted after a good backup)'),
  })
  .strict();

export const configSchema = z
  .object({
    /** names the gateway's retained `<prefix>/gateway/<gatewayId>/info` topic (mqtt-api.md); default the host name */
    gatewayId: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be 1-64 characters of A-Z, a-z, 0-9, . _ and -')
      .optional()
      .describe("names the gateway's retained `<prefix>/gateway/<gatewayId>/info` topic (mqtt-api.md); default: the host name"),
    mqtt: mqttSchema
      .default({
        url: 'embedded',
        topicPrefix: 'casino',
        clientIdPrefix: 'tablegw-',
        keepaliveSec: 30,
        reconnectMinMs: 500,
        reconnectMaxMs: 30_000,
        connectTimeoutMs: 5_000,
        failbackCheckMs: 15_000,
        ackTimeoutMs: 5_000,
        sessionExpirySec: 600,
      })
      .describe('the broker connection (docs/SECURITY.md for TLS and credentials)'),
    embeddedBroker: z
      .object({
        host: z.string().default('127.0.0.1').describe('address the embedded broker listens on'),
        port: z.number().int().min(0).max(65535).default(1883).describe('port the embedded broker listens on (`npm start -- --broker-port <n>`)'),
      })
      .strict()
      .default({ host: '127.0.0.1', port: 1883 })
      .describe('the embedded broker (mqtt.url: embedded)'),
    dataDir: z.string().default('./data').describe('where the journal, outbox and snapshots are kept (SQLite; docs/DURABILITY.md)'),
    journal: z
      .object({
        /** `full`: every commit is fsync'd before its messages leave (survives power loss); `normal`: survives a crash */
        synchronous: z
          .enum(['full', 'normal'])
          .default('full')
          .describe("`full`: every commit is fsync'd before its messages leave (survives power loss); `normal`: survives a crash"),
        /** journal entries and delivered messages older than this are deleted (counted back from the journal's newest entry: docs/DURABILITY.md) */
        retentionDays: z
          .number()
          .min(0.01)
          .max(3650)
          .default(90)
          .describe(
            'journal entries and delivered messages older than this are deleted: counted back from the journal\'s newest entry, never a round of the current or previous shoe, never what the scheduled export has not copied (docs/DURABILITY.md "Retention and the clock"). 90 by default: regulators ask for 90 days of logs (docs/OPERATIONS.md "Audit"); check-config prints the disk it needs',
          ),
        /** one prune deletes at most this share of the journal's inputs */
        pruneMaxShare: z
          .number()
          .min(0.001)
          .max(1)
          .default(0.1)
          .describe(
            "one prune (at start and hourly) deletes at most this share of the journal's inputs (with their messages and snapshots); what is left goes at the next prunes",
          ),
        /** the outbox's bound per table: an alarm at 80%, the shoes held at 100% (nothing is dropped) */
        outboxMaxMessages: z
          .number()
          .int()
          .min(10)
          .max(10_000_000)
          .default(100_000)
          .describe("the outbox's bound per table: an alarm at 80%, the shoes held at 100% (nothing is dropped)"),
        /** where commits run: on a writer thread (`thread`, the default) or on the event loop (`inline`) */
        writer: z
          .enum(['thread', 'inline'])
          .default('thread')
          .describe(
            'where the commits run: `thread` (the default) on the journal\'s writer thread, so the event loop goes on reading devices and talking MQTT while a commit waits for the disk; `inline` on the event loop: no thread hops and a few MB less memory, but a slow disk holds everything up (dev/bench/notes/performance-history.md "Where the journal commits")',
          ),
      })
      .strict()
      .default({ synchronous: 'full', retentionDays: 90, pruneMaxShare: 0.1, outboxMaxMessages: 100_000, writer: 'thread' })
      .describe('the durable journal and outbox (docs/DURABILITY.md)'),
    log: z
      .object({ level: z.enum(['debug', 'info', 'warn', 'error']).default('info').describe('the lowest level logged (`--log-level` overrides it)') })
      .strict()
      .default({ level: 'info' })
      .describe('logging (docs/OPERATIONS.md, Logs)'),
    /** the status page, /metrics, /healthz and /readyz (docs/OPERATIONS.md) */
    http: z
      .object({
        enabled: z.boolean().default(true).describe('serve the status page and metrics'),
        /** 127.0.0.1 by default: the page shows cards as they are dealt */
        host: z.string().min(1).default('127.0.0.1').describe('127.0.0.1 by default: the page shows cards as they are dealt'),
        /** 0 = any free port (the URL is logged) */
        port: z.number().int().min(0).max(65535).default(8080).describe('0 = any free port (the URL is logged)'),
        allowedHosts: z
          .array(z.string().min(1).max(253))
          .default([])
          .describe("`Host` names accepted besides localhost, 127.0.0.1, ::1, this PC's name and addresses (DNS rebinding guard)"),
        tokenFile: z
          .string()
          .min(1)
          .optional()
          .describe('a file holding a token that every path but /healthz and /readyz then requires (advised when host is not a loopback address)'),
        recallRounds: z
          .number()
          .int()
          .min(1)
          .max(100)
          .default(10)
          .describe("how many past rounds a table's recall shows (the table page and GET /api/tables/<id>/recall, which takes ?rounds= up to 100)"),
      })
      .strict()
      .prefault({})
      .describe('the status page, /metrics, /healthz and /readyz (docs/OPERATIONS.md)'),
    /** the scheduled export of the journal to a directory (docs/OPERATIONS.md "Audit") */
    export: z
      .object({
        dir: z
          .string()
          .min(1)
          .optional()
          .describe(
            "a directory (a share mounted off the table PC) that receives a signed archive of the journal every `every`, each from where the last one ended (tablegw verify-export checks them); while it is set, the journal's prune keeps what has not been exported yet. Absent: no scheduled export",
          ),
        every: z
          .string()
          .regex(/^[1-9]\d{0,4}[mhd]$/, 'a duration: <n>m, <n>h or <n>d (e.g. 1h, 1d)')
          .default('1d')
          .describe('how often the scheduled export runs: <n>m, <n>h or <n>d (minutes, hours, days)'),
      })
      .strict()
      .prefault({})
      .describe('the scheduled export of the journal to a directory off the PC (docs/OPERATIONS.md "Audit")'),
    /** the retained `<prefix>/<table>/health` message: every intervalMs and when a table's problems change (0 = on change only) */
    health: z
      .object({ intervalMs: ms.default(30_000).describe('milliseconds between two `health` messages (0 = on change only)') })
      .strict()
      .prefault({})
      .describe("the retained `<prefix>/<table>/health` message: every intervalMs and when a table's problems change (0 = on change only)"),
    backup: backupSchema
      .optional()
      .describe(
        'scheduled backups of the journal (docs/OPERATIONS.md "Backups"); needs `signing` (the manifest is signed with its key). Absent: none (`tablegw backup` by hand)',
      ),
    tables: z.array(tableSchema).min(1).describe('the tables this gateway runs (at least one)'),
    /** Ed25519 signatures on results (docs/SECURITY.md); absent: messages are not signed */
    signing: signingSchema.optional().describe('Ed25519 signatures on results (docs/SECURITY.md); absent: messages are not signed'),
    security: z
      .object({
        /** when set, a serial or HID device that matches no entry is not opened (simulators are exempt) */
        allowedDevices: z
          .array(allowedDeviceSchema)
          .optional()
          .describe('when set, a serial or HID device that matches no entry is not opened (simulators are exempt)'),
      })
      .strict()
      .prefault({})
      .describe('device allow-list (docs/SECURITY.md)'),
    requests: requestLimitsSchema.prefault({}).describe('limits on engine requests, per table (docs/SECURITY.md)'),
    capacity: z
      .object({
        allowFarBeyond: z
          .boolean()
          .default(false)
          .describe(
            'start even with more than 4 times the tables this machine was measured to carry (300 per 2 cores, docs/SCALING.md "Sizing"); beyond the capacity itself the gateway only warns',
          ),
      })
      .strict()
      .prefault({})
      .describe('the gateway\'s check of its table count against the machine\'s measured capacity (docs/SCALING.md "Sizing")'),
  })
  .strict();

export type GatewayConfig = z.infer<typeof configSchema>;
export type TableConfig = z.infer<typeof tableSchema>;
export type DeviceConfig = z.infer<typeof deviceSchema>;
export type TransportConfig = z.infer<typeof transportSchema>;
export type SimulatorTransportConfig = z.infer<typeof simulatorTransportSchema>;
export type AllowedDeviceConfig = z.infer<typeof allowedDeviceSchema>;
export type SigningConfig = z.infer<typeof signingSchema>;
export type RequestLimitsConfig = z.infer<typeof requestLimitsSchema>;
export type PrivilegedRequestsConfig = z.infer<typeof privilegedRequestsSchema>;
