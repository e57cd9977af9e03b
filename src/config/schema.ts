/**
 * The configuration file (spec/config.md), defined once as zod schemas: validation, defaults and
 * the error messages a technician reads all come from here.
 */
import { z } from 'zod';

const id = z.string().regex(/^[a-z0-9-]{1,32}$/, 'must be 1-32 characters of a-z, 0-9 and -');
const ms = z.number().int().min(0).max(24 * 3600 * 1000);
const usbId = z.union([z.number().int().min(0).max(0xffff), z.string().regex(/^(0x)?[0-9a-fA-F]{1,4}$/).transform((s) => parseInt(s.replace(/^0x/, ''), 16))]);

export const serialTransportSchema = z.object({
  type: z.literal('serial'),
  path: z.string().min(1),
  baudRate: z.number().int().positive().default(9600),
  dataBits: z.union([z.literal(5), z.literal(6), z.literal(7), z.literal(8)]).default(8),
  parity: z.enum(['none', 'even', 'odd', 'mark', 'space']).default('none'),
  stopBits: z.union([z.literal(1), z.literal(1.5), z.literal(2)]).default(1),
}).strict();

export const hidTransportSchema = z.object({
  type: z.literal('hid'),
  vendorId: usbId,
  productId: usbId,
  serialNumber: z.string().optional(),
}).strict();

export const simulatorFaultsSchema = z.object({
  /** probability per card that the shoe reports MISREAD before the rescan */
  misreadRate: z.number().min(0).max(1).default(0),
  /** card shoes: the dealer drops a card that was read (the shoe's DROP follows the CARD) */
  dropCardRate: z.number().min(0).max(1).default(0),
  /** probability per frame of a line of garbage bytes on the wire */
  garbageRate: z.number().min(0).max(1).default(0),
  /** probability per frame that the frame is lost on the line (a SEQ gap) */
  dropFrameRate: z.number().min(0).max(1).default(0),
  // other device kinds (docs/DEVICES.md): each a probability per read / cycle / roll / draw
  /** rfid-shoe: a tag that is in no registered deck */
  unknownTagRate: z.number().min(0).max(1).default(0),
  /** rfid-shoe: a tag reported 2-3 times while it passes the antenna (within dedupeMs) */
  repeatReadRate: z.number().min(0).max(1).default(0),
  /** shuffler: a JAM during a cycle */
  jamRate: z.number().min(0).max(1).default(0),
  /** shuffler: the door opened (and closed again) during a cycle */
  doorOpenRate: z.number().min(0).max(1).default(0),
  /** shuffler: a COUNT one card short */
  countMismatchRate: z.number().min(0).max(1).default(0),
  /** dice-sensor: COCKED before the roll is re-shaken */
  cockedRate: z.number().min(0).max(1).default(0),
  /** dice-sensor: NOREAD before the dice are read again */
  noReadRate: z.number().min(0).max(1).default(0),
  /** dice-sensor: a ROLL with 0 bounces (void, re-shaken) */
  noBounceRate: z.number().min(0).max(1).default(0),
  /** ball-reader: a ball reported twice in a draw */
  duplicateBallRate: z.number().min(0).max(1).default(0),
  /** ball-reader: a BALL,81 in a draw */
  outOfRangeBallRate: z.number().min(0).max(1).default(0),
  /** ball-reader: END before the 20th ball */
  earlyEndRate: z.number().min(0).max(1).default(0),
  /** barcode-scanner: a barcode that maps to no card */
  badBarcodeRate: z.number().min(0).max(1).default(0),
  /** any device: the cable is pulled for unplugMs (per round / cycle) */
  unplugRate: z.number().min(0).max(1).default(0),
}).strict();

export const simulatorTransportSchema = z.object({
  type: z.literal('simulator'),
  /** milliseconds between two cards (0 = as fast as possible) */
  cardIntervalMs: ms.default(900),
  /** milliseconds between two rounds */
  roundIntervalMs: ms.default(4000),
  /** a fixed seed makes the shuffles repeatable; default: a fresh random seed */
  seed: z.union([z.string(), z.number()]).optional(),
  /** cut card position, in cards from the end of the shoe */
  cutCardFromEnd: z.number().int().min(1).max(400).default(70),
  faults: simulatorFaultsSchema.prefault({}),
  /** dice-sensor: `line` (DICE serial frames) or `hid` (8-byte HID reports) */
  protocol: z.enum(['line', 'hid']).default('line'),
  /** how long a simulated unplug (faults.unplugRate) lasts */
  unplugMs: ms.default(2000),
}).strict();

export const transportSchema = z.discriminatedUnion('type', [serialTransportSchema, hidTransportSchema, simulatorTransportSchema]);

export const deviceKindSchema = z.enum(['card-shoe', 'rfid-shoe', 'barcode-scanner', 'shuffler', 'dice-sensor', 'ball-reader']);

export const deviceSchema = z.object({
  id,
  kind: deviceKindSchema,
  transport: transportSchema,
  /** no valid frame for this long marks the device stale */
  staleAfterMs: ms.default(3000),
  /** rfid-shoe: repeats of one uid within this many ms are one card (default 1500) */
  dedupeMs: ms.optional(),
  /** rfid-shoe: deck registry CSV `uid,card,deck` (required unless the transport is a simulator) */
  deckRegistry: z.string().min(1).optional(),
  /** barcode-scanner: barcode -> card mapping (default pattern ^(?<card>[A2-9TJQK][SHDC])$) */
  barcode: z.object({
    pattern: z.string().min(1).optional(),
    table: z.record(z.string(), z.string()).optional(),
  }).strict().optional(),
}).strict();

export const tableSchema = z.object({
  id,
  game: z.string(),
  decks: z.number().int().min(1).max(16).optional(),
  betting: z.enum(['engine', 'none']).default('none'),
  burnPerRound: z.number().int().min(0).max(20).optional(),
  rescanRetries: z.number().int().min(0).max(10).default(2),
  rescanIntervalMs: ms.default(500),
  rescanTimeoutMs: ms.default(20000),
  gameOptions: z.record(z.string(), z.unknown()).default({}),
  /** sic-bo: a ROLL with fewer bounces is void */
  minBounces: z.number().int().min(0).max(99).default(1),
  /** shuffler COUNT expected (default 52 x decks: 52 for single-deck games) */
  expectedDeckSize: z.number().int().min(1).max(999).optional(),
  devices: z.array(deviceSchema).min(1),
}).strict();

const brokerUrl = z.string().regex(/^(mqtt|mqtts|tcp|tls|ws|wss):\/\/.+/, 'must be "embedded" or a broker URL such as mqtt://host:1883');

/** `mqtt.url` as the list of broker URLs to fail over between, in order ("embedded" stays one entry) */
export function brokerUrls(m: { url: string | readonly string[] }): string[] {
  return typeof m.url === 'string' ? [m.url] : [...m.url];
}

export const mqttSchema = z.object({
  /** one broker, or a failover list (docs/SCALING.md): tried in order, back to the first when it returns */
  url: z.union([z.literal('embedded'), brokerUrl, z.array(brokerUrl).min(1).max(16)]).default('embedded'),
  topicPrefix: z.string().regex(/^[^#+]+$/, 'must not contain MQTT wildcards').default('casino'),
  clientIdPrefix: z.string().max(64).default('tablegw-'),
  /** MQTT 5 (default for an external broker) or 3.1.1 (always with the embedded broker, which speaks only 3.1.1) */
  protocolVersion: z.union([z.literal(4), z.literal(5)]).optional(),
  username: z.string().optional(),
  password: z.string().optional(),
  passwordFile: z.string().optional(),
  ca: z.string().optional(),
  cert: z.string().optional(),
  key: z.string().optional(),
  /** the name of an environment variable holding the password (docs/SECURITY.md) */
  passwordEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name').optional(),
  keepaliveSec: z.number().int().min(0).max(3600).default(30),
  /** reconnect backoff (docs/SCALING.md): the first retry after this, doubling per failed round of the URL list, with jitter */
  reconnectMinMs: z.number().int().min(50).max(60_000).default(500),
  /** the longest wait between two rounds of connection attempts */
  reconnectMaxMs: z.number().int().min(100).max(600_000).default(30_000),
  /** one connection attempt to one broker gives up after this (then the next URL is tried) */
  connectTimeoutMs: z.number().int().min(500).max(120_000).default(5_000),
  /** while on a later URL of the list, how often the first is checked to return to it (0: never) */
  failbackCheckMs: z.number().int().min(0).max(3_600_000).default(15_000),
}).strict().superRefine((m, ctx) => {
  // docs/SECURITY.md: one source of the password, no silent precedence
  const sources = (['password', 'passwordFile', 'passwordEnv'] as const).filter((k) => m[k] !== undefined);
  if (sources.length > 1) ctx.addIssue({ code: 'custom', path: [sources[1]], message: `set only one of password, passwordFile, passwordEnv (${sources.join(' and ')} are set)` });
  if (m.cert !== undefined && m.key === undefined) ctx.addIssue({ code: 'custom', path: ['key'], message: 'mqtt.cert needs mqtt.key (the client certificate\'s private key)' });
  if (m.key !== undefined && m.cert === undefined) ctx.addIssue({ code: 'custom', path: ['cert'], message: 'mqtt.key needs mqtt.cert (the client certificate)' });
  const plain = brokerUrls(m).filter((u) => !/^(mqtts|tls|wss):\/\//.test(u));
  for (const k of ['ca', 'cert', 'key'] as const) {
    if (m[k] !== undefined && plain.length) ctx.addIssue({ code: 'custom', path: [k], message: `a TLS file is set but mqtt.url "${plain[0]}" is not TLS (use mqtts://host:8883)` });
  }
  if (m.reconnectMaxMs < m.reconnectMinMs) ctx.addIssue({ code: 'custom', path: ['reconnectMaxMs'], message: `must be at least mqtt.reconnectMinMs (${m.reconnectMinMs})` });
});

/** one piece of hardware the gateway may open (docs/SECURITY.md, "Device allow-list") */
export const allowedDeviceSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('serial'),
    /** the device path as configured, or the tty it resolves to (/dev/serial/by-id/... links are followed) */
    path: z.string().min(1).optional(),
    /** the USB serial number (what `SerialPort.list()` / udev report for the tty) */
    serialNumber: z.string().min(1).optional(),
    vendorId: usbId.optional(),
    productId: usbId.optional(),
    /** free text for the technician (where the device is, asset tag, ...) */
    note: z.string().optional(),
  }).strict().refine((e) => e.path !== undefined || e.serialNumber !== undefined, { message: 'a serial entry needs a path or a serialNumber (or both)' }),
  z.object({
    type: z.literal('hid'),
    vendorId: usbId,
    productId: usbId,
    serialNumber: z.string().min(1).optional(),
    note: z.string().optional(),
  }).strict(),
]);

/** result signatures (docs/SECURITY.md) */
export const signingSchema = z.object({
  /** Ed25519 private key, PKCS#8 PEM (`tablegw keygen`, or `openssl genpkey -algorithm ed25519`) */
  privateKeyFile: z.string().min(1),
  /** names the key in each signature (default: its fingerprint, `ed25519:` + 16 hex digits) */
  keyId: z.string().min(1).max(64).regex(/^[A-Za-z0-9._:-]+$/, 'letters, digits and . _ : - only').optional(),
  /** message types that carry a signature (default: results only) */
  types: z.array(z.enum(['result', 'round', 'event', 'alert', 'shoe', 'device', 'response', 'health'])).min(1).default(['result']),
}).strict();

/** limits on engine requests, per table (docs/SECURITY.md) */
export const requestLimitsSchema = z.object({
  /** sustained requests per second a table accepts (token bucket refill rate) */
  ratePerSec: z.number().min(0.1).max(10_000).default(20),
  /** requests a table accepts at once before the rate applies (token bucket size) */
  burst: z.number().int().min(1).max(100_000).default(40),
  /** a request payload larger than this is refused unread */
  maxPayloadBytes: z.number().int().min(64).max(1024 * 1024).default(16 * 1024),
}).strict();

export const configSchema = z.object({
  mqtt: mqttSchema.default({ url: 'embedded', topicPrefix: 'casino', clientIdPrefix: 'tablegw-', keepaliveSec: 30, reconnectMinMs: 500, reconnectMaxMs: 30_000, connectTimeoutMs: 5_000, failbackCheckMs: 15_000 }),
  embeddedBroker: z.object({
    host: z.string().default('127.0.0.1'),
    port: z.number().int().min(0).max(65535).default(1883),
  }).strict().default({ host: '127.0.0.1', port: 1883 }),
  dataDir: z.string().default('./data'),
  journal: z.object({
    /** `full`: every commit is fsync'd before its messages leave (survives power loss); `normal`: survives a crash */
    synchronous: z.enum(['full', 'normal']).default('full'),
    /** journal entries and delivered messages older than this are deleted */
    retentionDays: z.number().min(0.01).max(3650).default(14),
    /** the outbox's bound per table: an alarm at 80%, the shoes held at 100% (nothing is dropped) */
    outboxMaxMessages: z.number().int().min(10).max(10_000_000).default(100_000),
  }).strict().default({ synchronous: 'full', retentionDays: 14, outboxMaxMessages: 100_000 }),
  log: z.object({ level: z.enum(['debug', 'info', 'warn', 'error']).default('info') }).strict().default({ level: 'info' }),
  /** the status page, /metrics, /healthz and /readyz (docs/OPERATIONS.md) */
  http: z.object({
    enabled: z.boolean().default(true),
    /** 127.0.0.1 by default: the page shows cards as they are dealt */
    host: z.string().min(1).default('127.0.0.1'),
    /** 0 = any free port (the URL is logged) */
    port: z.number().int().min(0).max(65535).default(8080),
  }).strict().prefault({}),
  /** the retained `<prefix>/<table>/health` message: every intervalMs and when a table's problems change (0 = on change only) */
  health: z.object({ intervalMs: ms.default(30_000) }).strict().prefault({}),
  tables: z.array(tableSchema).min(1),
  /** Ed25519 signatures on results (docs/SECURITY.md); absent: messages are not signed */
  signing: signingSchema.optional(),
  security: z.object({
    /** when set, a serial or HID device that matches no entry is not opened (simulators are exempt) */
    allowedDevices: z.array(allowedDeviceSchema).optional(),
  }).strict().prefault({}),
  requests: requestLimitsSchema.prefault({}),
}).strict();

export type GatewayConfig = z.infer<typeof configSchema>;
export type TableConfig = z.infer<typeof tableSchema>;
export type DeviceConfig = z.infer<typeof deviceSchema>;
export type TransportConfig = z.infer<typeof transportSchema>;
export type SimulatorTransportConfig = z.infer<typeof simulatorTransportSchema>;
export type AllowedDeviceConfig = z.infer<typeof allowedDeviceSchema>;
export type SigningConfig = z.infer<typeof signingSchema>;
export type RequestLimitsConfig = z.infer<typeof requestLimitsSchema>;
