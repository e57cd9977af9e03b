/**
 * Builds docs/asyncapi.json (AsyncAPI 3 of the MQTT API) and docs/config.schema.json (JSON Schema
 * of the configuration file) from the zod schemas: `src/core/table/messages.ts`, `src/core/vocabulary/requests.ts`
 * and `src/core/vocabulary/config-schema.ts`. Pure: the examples are passed in (they come from a simulator run,
 * `capture.ts`), so a test can rebuild the committed documents in memory and compare.
 */
import * as z from 'zod';
import { configSchema } from '../../src/core/vocabulary/config-schema.js';
import {
  cardRoundMessageSchema,
  diceRoundMessageSchema,
  EVENT_SCHEMAS,
  kenoRoundMessageSchema,
  otherEventSchema,
  PUBLISHED_TOPICS,
  REQUEST_SCHEMAS,
  RESULT_SCHEMAS_BY_GAME,
} from '../../src/core/table/messages.js';
import type { CapturedMessage } from './capture.js';
import { PUBLISH_QOS } from '../../src/core/vocabulary/topics.js';

type Json = Record<string, unknown>;

export interface MessageExample {
  name: string;
  summary?: string;
  payload: unknown;
}

/** message component name -> examples */
export type Examples = Record<string, MessageExample[]>;

/** the JSON Schema dialect of every schema in the AsyncAPI document (declared on each, and on each payload) */
export const SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';
/** AsyncAPI 3's name of that dialect, the `schemaFormat` of every payload */
export const SCHEMA_FORMAT = 'application/schema+json;version=draft-2020-12';

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const s = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Json;
  const { $schema: _, ...rest } = s;
  return { $schema: SCHEMA_DIALECT, ...rest };
}

/** a message payload: a Multi Format Schema Object naming the dialect, the schema itself under components */
const payloadRef = (name: string) => ({ schemaFormat: SCHEMA_FORMAT, schema: { $ref: `#/components/schemas/${name}` } });

/** docs/config.schema.json */
export function buildConfigSchema(): Json {
  const s = z.toJSONSchema(configSchema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as Json;
  return {
    $schema: s.$schema,
    $id: 'https://table-edge-gateway.invalid/config.schema.json',
    title: 'table-edge-gateway configuration file',
    description:
      'Generated from src/core/vocabulary/config-schema.ts by `npm run docs:api`; do not edit. YAML or JSON; spec/config.md and docs/OPERATIONS.md describe the keys.',
    ...Object.fromEntries(Object.entries(s).filter(([k]) => k !== '$schema')),
  };
}

const EVENT_KIND_SUMMARY: Record<string, string> = Object.fromEntries(Object.entries(EVENT_SCHEMAS).map(([k, s]) => [k, s.description ?? k]));

/** the message components of the published topics, in document order */
function publishedMessages(): Array<{ name: string; channel: keyof typeof PUBLISHED_TOPICS; title: string; summary: string; schema: z.ZodType }> {
  const out: Array<{ name: string; channel: keyof typeof PUBLISHED_TOPICS; title: string; summary: string; schema: z.ZodType }> = [];
  for (const [name, t] of Object.entries(PUBLISHED_TOPICS) as Array<
    [keyof typeof PUBLISHED_TOPICS, (typeof PUBLISHED_TOPICS)[keyof typeof PUBLISHED_TOPICS]]
  >) {
    if (name === 'event') {
      for (const [kind, schema] of Object.entries(EVENT_SCHEMAS)) {
        out.push({ name: `event-${kind}`, channel: 'event', title: `event: ${kind}`, summary: EVENT_KIND_SUMMARY[kind], schema });
      }
      out.push({ name: 'event-other', channel: 'event', title: 'event: other kinds', summary: otherEventSchema.description ?? '', schema: otherEventSchema });
    } else if (name === 'round') {
      const v = { card: cardRoundMessageSchema, 'sic-bo': diceRoundMessageSchema, keno: kenoRoundMessageSchema };
      for (const [kind, schema] of Object.entries(v)) {
        out.push({
          name: variantName(name, kind),
          channel: name,
          title: `${name}: ${kind === 'card' ? 'card games' : kind}`,
          summary: schema.description ?? t.description,
          schema,
        });
      }
    } else if (name === 'result') {
      // one message per game: its `game` and its typed `outcome` (src/core/games/outcomes.ts)
      for (const [game, schema] of Object.entries(RESULT_SCHEMAS_BY_GAME)) {
        out.push({ name: `result-${game}`, channel: name, title: `result: ${game}`, summary: schema.description ?? t.description, schema });
      }
    } else {
      out.push({ name, channel: name, title: name, summary: t.description, schema: t.schema });
    }
  }
  return out;
}

const REQUEST_SUMMARY: Record<string, string> = {
  'open-betting': 'a new round starts in phase `betting` (the engine may give its own roundId)',
  'close-betting': 'betting closed; dealing may begin',
  decision: 'a player decision where the game needs one',
  'close-decisions': 'the decision window closed: the next cards / the reveal may follow',
  'void-round': 'the pit voids the round in progress',
  'new-shoe': 'a new shoe, when the shoe cannot tell',
  'end-shoe': 'the shoe ends, when the shoe cannot tell',
  correction: 'a dealer correction the rules allow (e.g. reverse-order in 3 Pictures)',
  status: 'answers with tables, devices, shoe and round snapshots',
};

const REQUEST_EXAMPLES: Record<string, Json> = {
  'open-betting': { transaction: 'eng-7f3a', roundId: 'R-20261130-0042' },
  'close-betting': { transaction: 'eng-7f3b' },
  decision: { transaction: 'eng-7f3c', seat: 'seat2', action: 'hit' },
  'close-decisions': { transaction: 'eng-7f3d' },
  'void-round': { transaction: 'eng-7f3e', reason: 'dealer error: card flipped' },
  'new-shoe': { transaction: 'eng-7f3f' },
  'end-shoe': { transaction: 'eng-7f40' },
  correction: { transaction: 'eng-7f41', kind: 'reverse-order' },
  status: { transaction: 'eng-7f42' },
};

const mqttBinding = (retain: boolean) => ({ mqtt: { qos: PUBLISH_QOS, retain, bindingVersion: '0.2.0' } });

/** docs/asyncapi.json */
export function buildAsyncApi(examples: Examples): Json {
  const messages: Json = {};
  const channels: Json = {};
  const operations: Json = {};
  const schemas: Json = {};
  const params = (names: string[]) => Object.fromEntries(names.map((n) => [n, { $ref: `#/components/parameters/${n}` }]));

  const pub = publishedMessages();
  for (const [name, t] of Object.entries(PUBLISHED_TOPICS)) {
    const address = `{prefix}/{tableId}/${t.topic}`;
    const names = ['prefix', 'tableId', ...[...t.topic.matchAll(/\{(\w+)\}/g)].map((m) => m[1])];
    channels[name] = {
      address,
      title: name,
      description: `${t.description}. QoS 1, ${t.retain ? 'retained' : 'not retained'}.`,
      parameters: params(names),
      messages: Object.fromEntries(pub.filter((m) => m.channel === name).map((m) => [m.name, { $ref: `#/components/messages/${m.name}` }])),
    };
    operations[`publish-${name}`] = {
      action: 'send',
      channel: { $ref: `#/channels/${name}` },
      summary: `The gateway publishes ${name} messages on ${address}`,
      bindings: mqttBinding(t.retain),
    };
  }
  for (const m of pub) {
    schemas[m.name] = jsonSchema(m.schema, 'output');
    messages[m.name] = {
      name: m.name,
      title: m.title,
      summary: m.summary,
      contentType: 'application/json',
      payload: payloadRef(m.name),
      ...(examples[m.name]?.length ? { examples: examples[m.name] } : {}),
    };
  }

  channels.request = {
    address: '{prefix}/{tableId}/request/{command}',
    title: 'request',
    description:
      "Requests from game engines (QoS 1, with a `transaction`). The answer's place is response/{command}, in the table's stream (its `seq`); a request with an MQTT 5 response topic also gets a copy there: the same bytes (same `seq`), with its correlation data and the user property `copy-of` naming the answer's topic (one message under the dedupe rule by table and seq). A retry with the same `transaction` (or correlation data) and body within requests.idempotencyWindowSec is not executed again: its first answer is published again with `replayed: true`; the same transaction with another body is refused `transaction-reused` (docs/ENGINES.md). A request that fails validation is answered with status \"error\" and changes nothing.",
    parameters: params(['prefix', 'tableId', 'command']),
    messages: Object.fromEntries(Object.keys(REQUEST_SCHEMAS).map((c) => [`request-${c}`, { $ref: `#/components/messages/request-${c}` }])),
  };
  operations['receive-request'] = {
    action: 'receive',
    channel: { $ref: '#/channels/request' },
    summary: 'The gateway takes requests from game engines',
    bindings: mqttBinding(false),
    reply: { channel: { $ref: '#/channels/response' } },
  };
  for (const [command, schema] of Object.entries(REQUEST_SCHEMAS)) {
    const name = `request-${command}`;
    schemas[name] = jsonSchema(schema, 'input');
    messages[name] = {
      name,
      title: `request/${command}`,
      summary: REQUEST_SUMMARY[command] ?? command,
      contentType: 'application/json',
      payload: payloadRef(name),
      correlationId: { $ref: '#/components/correlationIds/correlationData' },
      ...(REQUEST_EXAMPLES[command] ? { examples: [{ name: command, payload: REQUEST_EXAMPLES[command] }] } : {}),
    };
  }
  if (messages.response) (messages.response as Json).correlationId = { $ref: '#/components/correlationIds/correlationData' };

  // the gateway itself (mqtt-api.md, "The gateway itself"; src/adapters/mqtt/gateway-info.ts)
  channels['gateway-info'] = {
    address: '{prefix}/gateway/{gatewayId}/info',
    title: 'gateway info',
    description:
      'One per gateway: its version, tables and devices, published on every connect (`state: online`, `reason` `start` or `reconnect`); `{"state":"offline","reason":"connection-lost",...}` as its last will and `reason: stopped` on a clean stop (docs/ENGINES.md, Presence). QoS 1, retained. Subscribe to `{prefix}/gateway/+/info` to find every table of a floor.',
    parameters: params(['prefix', 'gatewayId']),
    messages: { 'gateway-info': { $ref: '#/components/messages/gateway-info' }, 'gateway-offline': { $ref: '#/components/messages/gateway-offline' } },
  };
  operations['publish-gateway-info'] = {
    action: 'send',
    channel: { $ref: '#/channels/gateway-info' },
    summary: 'The gateway announces itself on {prefix}/gateway/{gatewayId}/info',
    bindings: mqttBinding(true),
  };
  schemas['gateway-info'] = { $schema: SCHEMA_DIALECT, ...GATEWAY_INFO_SCHEMA };
  schemas['gateway-offline'] = {
    $schema: SCHEMA_DIALECT,
    type: 'object',
    properties: {
      state: { const: 'offline' },
      reason: {
        enum: ['stopped', 'connection-lost', 'moved'],
        description:
          '`stopped`: a clean stop; `connection-lost`: the last will (the broker lost the connection: the gateway, the network or the broker went away); `moved`: left on a broker the gateway moved away from',
      },
      gatewayId: { type: 'string' },
      startedAt: { type: 'string', format: 'date-time', description: 'the run of the gateway this is about' },
    },
    required: ['state', 'reason', 'gatewayId', 'startedAt'],
    additionalProperties: false,
  };
  messages['gateway-info'] = {
    name: 'gateway-info',
    title: 'gateway info',
    summary: 'the gateway, its version, tables and devices',
    contentType: 'application/json',
    payload: payloadRef('gateway-info'),
    examples: [{ name: 'gateway-info-1', payload: GATEWAY_INFO_EXAMPLE }],
  };
  messages['gateway-offline'] = {
    name: 'gateway-offline',
    title: 'gateway offline',
    summary: 'the last will: the gateway is gone',
    contentType: 'application/json',
    payload: payloadRef('gateway-offline'),
    examples: [
      { name: 'gateway-offline-1', payload: { state: 'offline', reason: 'connection-lost', gatewayId: 'pit-3-pc-1', startedAt: '2026-01-01T12:00:00.000Z' } },
    ],
  };
  for (const [name, s] of Object.entries(schemas)) nameSchemas(s as Json, pascal(name));

  return {
    asyncapi: '3.0.0',
    id: 'urn:table-edge-gateway:mqtt-api:v1',
    info: {
      title: 'Table-edge gateway MQTT API',
      version: '1',
      description: [
        'Card shoes, shufflers and dice sensors in; normalized game events and results out. One MQTT connection per table (client id `<clientIdPrefix><tableId>`), QoS 1, payloads UTF-8 JSON.',
        'Every message carries the envelope `v`, `type`, `table`, `game`, `ts` and — on all but `status` — `seq`: per table, strictly increasing over every message the table publishes, never reused, also across restarts.',
        'Hidden cards are published as `card: null, faceDown: true` until their reveal point.',
        'Every `result` message is typed per game (`result-<game>`): its `outcome` names the facts every bet of the game settles from, each field described with its rule (docs/GAMES.md has a settlement table per game).',
        `Every schema is JSON Schema 2020-12: each declares \`$schema\` (${SCHEMA_DIALECT}) and each payload its \`schemaFormat\` (${SCHEMA_FORMAT}).`,
        'Generated from the zod schemas in src/core/table/messages.ts and src/core/vocabulary/requests.ts by `npm run docs:api`; the examples were captured from a simulator run. Do not edit by hand.',
      ].join('\n\n'),
      license: { name: 'Apache-2.0' },
    },
    defaultContentType: 'application/json',
    servers: {
      embedded: {
        host: '127.0.0.1:1883',
        protocol: 'mqtt',
        protocolVersion: '3.1.1',
        description: 'the broker built into the gateway (config mqtt.url: embedded)',
      },
      floor: {
        host: 'broker.floor.example:8883',
        protocol: 'secure-mqtt',
        protocolVersion: '5',
        description: 'a floor broker (Mosquitto, or a clustered EMQX / HiveMQ / VerneMQ) over TLS (docs/SECURITY.md); plain mqtt:// on 1883 works too',
        security: [{ $ref: '#/components/securitySchemes/userPassword' }, { $ref: '#/components/securitySchemes/clientCertificate' }],
      },
    },
    channels,
    operations,
    components: {
      parameters: {
        prefix: { default: 'casino', description: 'config mqtt.topicPrefix' },
        tableId: { description: 'table id from the config: 1-32 characters of a-z, 0-9 and -', examples: ['bac-01'] },
        deviceId: { description: 'device id from the config', examples: ['shoe-1'] },
        command: { enum: Object.keys(REQUEST_SCHEMAS), description: 'request command' },
        gatewayId: { description: 'config gatewayId, default the host name', examples: ['pit-3-pc-1'] },
      },
      securitySchemes: {
        userPassword: {
          type: 'userPassword',
          description: 'broker user name and password (config mqtt.username with mqtt.passwordFile / passwordEnv / password)',
        },
        clientCertificate: { type: 'X509', description: "TLS client certificate (config mqtt.cert and mqtt.key; mqtt.ca for the broker's CA)" },
      },
      correlationIds: {
        correlationData: {
          description:
            "MQTT 5 correlation data of a request, returned unchanged on its answer (on the request's response topic); requests also carry `transaction`, echoed in the response",
          location: '$message.header#/correlationData',
        },
      },
      schemas,
      messages,
    },
  };
}

const pascal = (name: string) =>
  name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');

/**
 * Gives every schema and every nested object schema a `title` (`ResultSicBo`, `ResultSicBoDice`,
 * ...), so code generators name their models instead of emitting `AnonymousSchema_N`.
 */
function nameSchemas(s: Json, name: string): void {
  if (!s || typeof s !== 'object') return;
  if ((s.type === 'object' || s.properties) && s.title === undefined) s.title = name;
  for (const [k, v] of Object.entries((s.properties as Record<string, Json> | undefined) ?? {})) nameSchemas(v, name + pascal(k));
  if (s.items && typeof s.items === 'object' && !Array.isArray(s.items)) nameSchemas(s.items as Json, `${name}Item`);
  if (s.additionalProperties && typeof s.additionalProperties === 'object') nameSchemas(s.additionalProperties as Json, `${name}Value`);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const alts = s[key] as Json[] | undefined;
    alts?.forEach((a, i) => {
      const kind = (a.properties as Json | undefined)?.kind as Json | undefined;
      nameSchemas(a, `${name}${pascal(String(kind?.const || ''))}${alts.length > 1 && !kind ? `Option${i + 1}` : ''}`);
    });
  }
  for (const d of Object.values((s.$defs as Record<string, Json> | undefined) ?? {})) nameSchemas(d, name);
}

const GATEWAY_INFO_SCHEMA: Json = {
  type: 'object',
  properties: {
    v: { const: 1 },
    type: { const: 'info' },
    gatewayId: { type: 'string', description: 'config gatewayId, default the host name' },
    version: { type: 'string', description: 'the gateway version (package.json)' },
    commit: { type: 'string', description: 'the commit of the build, when known' },
    startedAt: { type: 'string', format: 'date-time' },
    node: { type: 'string', description: 'the Node.js version, e.g. v24.11.0' },
    tables: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          game: { type: 'string' },
          betting: { enum: ['engine', 'none'] },
          epoch: {
            type: 'string',
            description: 'the table\'s stream epoch, as on its envelopes and its retained status: a new one is a new stream (docs/ENGINES.md "Epochs")',
          },
          devices: {
            type: 'array',
            items: {
              type: 'object',
              properties: { id: { type: 'string' }, kind: { type: 'string' }, transport: { enum: ['serial', 'hid', 'simulator'] } },
              required: ['id', 'kind', 'transport'],
            },
          },
        },
        required: ['id', 'game', 'betting', 'devices'],
      },
    },
    signing: {
      type: 'object',
      properties: {
        keyId: {
          type: 'string',
          description:
            '`signing.keyId`, else `ed25519:` + the first 16 hex digits of the SHA-256 of the raw 32-byte Ed25519 public key (its RFC 8032 encoding, the JWK `x` decoded; not the PEM or DER) (docs/SECURITY.md)',
        },
      },
      required: ['keyId'],
    },
    state: { const: 'online' },
    reason: {
      enum: ['start', 'reconnect'],
      description:
        '`start`: the first connection of this gateway run (`startedAt` is new); `reconnect`: the same run connected again (a broker restart, a network loss, a failover): nothing was lost',
    },
  },
  required: ['v', 'type', 'gatewayId', 'version', 'startedAt', 'node', 'tables', 'state', 'reason'],
};

const GATEWAY_INFO_EXAMPLE: Json = {
  v: 1,
  type: 'info',
  gatewayId: 'pit-3-pc-1',
  version: '0.1.0',
  commit: '6a3fefa4831b',
  startedAt: '2026-01-01T12:00:00.000Z',
  node: 'v24.11.0',
  tables: [
    {
      id: 'bac-01',
      game: 'baccarat',
      betting: 'engine',
      epoch: '3f1c9a2e-5b7d-4c1e-9f0a-2d6b8e4c7a13',
      devices: [
        { id: 'shoe-1', kind: 'card-shoe', transport: 'serial' },
        { id: 'shuffler-1', kind: 'shuffler', transport: 'serial' },
      ],
    },
  ],
  state: 'online',
  reason: 'start',
};

/** `round` message names: the card-game variant keeps the plain name */
function variantName(base: 'round', tableKind: string): string {
  return tableKind === 'card' ? base : `${base}-${tableKind}`;
}

const tableKindOf = (game: unknown) => (game === 'sic-bo' || game === 'keno' ? game : 'card');

/** the fixed clock of the examples: a message's `ts` is this plus its `seq` seconds */
export const EXAMPLE_EPOCH = Date.parse('2026-01-01T12:00:00.000Z');
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/**
 * Puts a captured payload on the fixed clock: every ISO timestamp becomes EXAMPLE_EPOCH + the
 * message's seq seconds, every duration measured on the wall clock (uptime, latency) a fixed
 * value — so the document does not change from one capture to the next (CI checks it).
 */
export function onFixedClock(payload: unknown): unknown {
  const seq = typeof (payload as Json)?.seq === 'number' ? ((payload as Json).seq as number) : 0;
  const at = new Date(EXAMPLE_EPOCH + seq * 1000).toISOString();
  const walk = (v: unknown, key: string): unknown => {
    if (typeof v === 'string' && ISO.test(v)) return at;
    if (typeof v === 'number' && /^(uptimeSec|latencyMs|ageMs|elapsedMs|durationMs)$/.test(key)) return key === 'uptimeSec' ? 60 : 0;
    if (Array.isArray(v)) return v.map((x) => walk(x, key));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, k)]));
    return v;
  };
  return walk(payload, '');
}

/**
 * One example per message component, from a capture (the first of each; a dealt card for
 * `event-card`). The capture is put in a fixed order first — the tables by id, each table's
 * messages by seq — so which table's message is "first" does not depend on timing.
 */
export function pickExamples(capturedInArrivalOrder: readonly CapturedMessage[]): Examples {
  const seqOf = (m: CapturedMessage) => (typeof m.payload.seq === 'number' ? m.payload.seq : -1);
  const captured = [...capturedInArrivalOrder]
    .sort((a, b) => (a.table < b.table ? -1 : a.table > b.table ? 1 : 0) || seqOf(a) - seqOf(b))
    .map((m) => ({ ...m, payload: onFixedClock(m.payload) as Record<string, unknown> }));
  const out: Examples = {};
  const add = (name: string, m: CapturedMessage, summary?: string) => {
    if (out[name]) return;
    out[name] = [{ name: `${name}-1`, ...(summary ? { summary } : {}), payload: m.payload }];
  };
  const first = (pred: (m: CapturedMessage) => boolean) => captured.find(pred);
  const dealt = first((m) => m.rel === 'events' && m.payload.kind === 'card' && m.payload.role === 'player');
  if (dealt) add('event-card', dealt, 'a card dealt to the player');
  for (const kind of ['card', 'sic-bo', 'keno']) {
    const ofKind = (m: CapturedMessage) => tableKindOf(m.payload.game) === kind;
    const dealing = first(
      (m) =>
        ofKind(m) &&
        m.rel === 'round' &&
        m.payload.phase === 'dealing' &&
        (kind !== 'card' || Object.values(m.payload.cards as Record<string, unknown[]>).some((c) => c.length > 0)) &&
        (kind !== 'keno' || (m.payload.balls as unknown[]).length > 0),
    );
    if (dealing) add(variantName('round', kind), dealing, `a ${String(dealing.payload.game)} round in progress`);
  }
  for (const game of Object.keys(RESULT_SCHEMAS_BY_GAME)) {
    const complete = first((m) => m.payload.game === game && m.rel === 'result' && m.payload.status === 'complete');
    if (complete) add(`result-${game}`, complete, `a complete ${game} round`);
  }
  const ok = first((m) => m.rel === 'response/status');
  if (ok) add('response', ok, 'the answer to a status request');
  for (const m of captured) {
    const first = m.rel.split('/')[0];
    const name =
      first === 'events'
        ? `event-${String(m.payload.kind)}` in EVENT_SCHEMAS_BY_NAME
          ? `event-${String(m.payload.kind)}`
          : 'event-other'
        : first === 'devices'
          ? 'device'
          : first === 'alerts'
            ? 'alert'
            : first === 'round'
              ? variantName(first, tableKindOf(m.payload.game))
              : first === 'result'
                ? `result-${String(m.payload.game)}`
                : first;
    add(name, m);
  }
  return out;
}

const EVENT_SCHEMAS_BY_NAME: Record<string, true> = Object.fromEntries(Object.keys(EVENT_SCHEMAS).map((k) => [`event-${k}`, true]));

/** the examples of published messages in an existing document (to rebuild it without a new capture) */
export function examplesOf(doc: unknown): Examples {
  const out: Examples = {};
  const messages = ((doc as Json)?.components as Json | undefined)?.messages as Record<string, { examples?: MessageExample[] }> | undefined;
  for (const [name, m] of Object.entries(messages ?? {})) {
    if (name.startsWith('request-')) continue;
    if (m.examples?.length) out[name] = m.examples;
  }
  return out;
}

export function toJsonText(v: unknown): string {
  return JSON.stringify(v, null, 2) + '\n';
}

/** a JSON Schema node's type in a few words (for docs/CONFIG.md) */
function typeText(s: Json): string {
  if (s.const !== undefined) return `\`${JSON.stringify(s.const)}\``;
  if (Array.isArray(s.enum)) return s.enum.map((e) => `\`${JSON.stringify(e)}\``).join(' \\| ');
  const alts = (s.anyOf ?? s.oneOf) as Json[] | undefined;
  if (alts) return alts.map(typeText).join(' \\| ');
  if (s.type === 'array') return `list of ${typeText((s.items as Json) ?? {})}`;
  if (s.type === 'object' && s.additionalProperties && typeof s.additionalProperties === 'object' && !s.properties) return 'map';
  if (typeof s.type === 'string') {
    const range = [s.minimum !== undefined ? `>= ${String(s.minimum)}` : '', s.maximum !== undefined ? `<= ${String(s.maximum)}` : '']
      .filter(Boolean)
      .join(', ');
    return `${s.type}${range ? ` (${range})` : ''}`;
  }
  return 'any';
}

/**
 * docs/CONFIG.md: every key of the configuration file with its type, default and description,
 * from the same JSON Schema as docs/config.schema.json (the `.describe()` texts of
 * src/core/vocabulary/config-schema.ts). Keys without a description are listed as such (a test keeps it at none).
 */
export function buildConfigReference(): string {
  const root = buildConfigSchema();
  const rows: string[] = [];
  const walk = (s: Json, path: string) => {
    const alts = (s.anyOf ?? s.oneOf) as Json[] | undefined;
    if (alts?.some((a) => a.type === 'object' && a.properties)) {
      for (const a of alts)
        if (a.properties) walkProps(a, path, a.properties && (a.properties as Json).type ? ` (type ${typeText((a.properties as Json).type as Json)})` : '');
      return;
    }
    if (s.type === 'array' && (s.items as Json | undefined)?.properties) return walkProps(s.items as Json, `${path}[]`, '');
    if (s.type === 'array' && ((s.items as Json | undefined)?.anyOf || (s.items as Json | undefined)?.oneOf)) return walk(s.items as Json, `${path}[]`);
    if (s.type === 'object' && s.properties) walkProps(s, path, '');
  };
  const walkProps = (s: Json, path: string, variant: string) => {
    for (const [k, v] of Object.entries(s.properties as Record<string, Json>)) {
      const p = path ? `${path}.${k}` : k;
      const def = v.default !== undefined ? `\`${JSON.stringify(v.default)}\`` : (s.required as string[] | undefined)?.includes(k) ? 'required' : '';
      const desc = String(v.description ?? '(no description)')
        .replace(/\n/g, ' ')
        .replace(/\|/g, '\\|');
      rows.push(`| \`${p}\`${variant} | ${typeText(v)} | ${def} | ${desc} |`);
      walk(v, p);
    }
  };
  walk(root, '');
  return [
    '# Configuration reference',
    '',
    'Generated from src/core/vocabulary/config-schema.ts by `npm run docs:api`; do not edit. The same keys as',
    '[config.schema.json](config.schema.json); the contract is [spec/config.md](spec/config.md).',
    '`tablegw check-config <file>` validates a file against it.',
    '',
    '| key | type | default | description |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
