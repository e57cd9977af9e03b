/**
 * Builds docs/asyncapi.json (AsyncAPI 3 of the MQTT API) and docs/config.schema.json (JSON Schema
 * of the configuration file) from the zod schemas: `src/mqtt/messages.ts`, `src/mqtt/requests.ts`
 * and `src/config/schema.ts`. Pure: the examples are passed in (they come from a simulator run,
 * `capture.ts`), so a test can rebuild the committed documents in memory and compare.
 */
import { z } from 'zod';
import { configSchema } from '../config/schema.js';
import {
  cardResultMessageSchema, cardRoundMessageSchema, diceResultMessageSchema, diceRoundMessageSchema, EVENT_SCHEMAS,
  kenoResultMessageSchema, kenoRoundMessageSchema, otherEventSchema, PUBLISHED_TOPICS, REQUEST_SCHEMAS,
} from '../mqtt/messages.js';
import type { CapturedMessage } from './capture.js';

type Json = Record<string, unknown>;

export interface MessageExample {
  name: string;
  summary?: string;
  payload: unknown;
}

/** message component name -> examples */
export type Examples = Record<string, MessageExample[]>;

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const s = z.toJSONSchema(schema, { target: 'draft-07', io, unrepresentable: 'any' }) as Json;
  delete s.$schema;
  return s;
}

/** docs/config.schema.json */
export function buildConfigSchema(): Json {
  const s = z.toJSONSchema(configSchema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as Json;
  return {
    $schema: s.$schema,
    $id: 'https://table-edge-gateway.invalid/config.schema.json',
    title: 'table-edge-gateway configuration file',
    description: 'Generated from src/config/schema.ts by `npm run docs:api`; do not edit. YAML or JSON; spec/config.md and docs/OPERATIONS.md describe the keys.',
    ...Object.fromEntries(Object.entries(s).filter(([k]) => k !== '$schema')),
  };
}

const EVENT_KIND_SUMMARY: Record<string, string> = Object.fromEntries(
  Object.entries(EVENT_SCHEMAS).map(([k, s]) => [k, s.description ?? k]),
);

/** the message components of the published topics, in document order */
function publishedMessages(): Array<{ name: string; channel: keyof typeof PUBLISHED_TOPICS; title: string; summary: string; schema: z.ZodType }> {
  const out: Array<{ name: string; channel: keyof typeof PUBLISHED_TOPICS; title: string; summary: string; schema: z.ZodType }> = [];
  for (const [name, t] of Object.entries(PUBLISHED_TOPICS) as Array<[keyof typeof PUBLISHED_TOPICS, (typeof PUBLISHED_TOPICS)[keyof typeof PUBLISHED_TOPICS]]>) {
    if (name === 'event') {
      for (const [kind, schema] of Object.entries(EVENT_SCHEMAS)) {
        out.push({ name: `event-${kind}`, channel: 'event', title: `event: ${kind}`, summary: EVENT_KIND_SUMMARY[kind], schema });
      }
      out.push({ name: 'event-other', channel: 'event', title: 'event: other kinds', summary: otherEventSchema.description ?? '', schema: otherEventSchema });
    } else if (name === 'round' || name === 'result') {
      const v = name === 'round'
        ? { card: cardRoundMessageSchema, 'sic-bo': diceRoundMessageSchema, keno: kenoRoundMessageSchema }
        : { card: cardResultMessageSchema, 'sic-bo': diceResultMessageSchema, keno: kenoResultMessageSchema };
      for (const [kind, schema] of Object.entries(v)) {
        out.push({ name: variantName(name, kind), channel: name, title: `${name}: ${kind === 'card' ? 'card games' : kind}`, summary: schema.description ?? t.description, schema });
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

const mqttBinding = (retain: boolean) => ({ mqtt: { qos: 1, retain, bindingVersion: '0.2.0' } });

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
      payload: { $ref: `#/components/schemas/${m.name}` },
      ...(examples[m.name]?.length ? { examples: examples[m.name] } : {}),
    };
  }

  channels.request = {
    address: '{prefix}/{tableId}/request/{command}',
    title: 'request',
    description: 'Requests from game engines. The answer goes to response/{command} (and to the MQTT 5 response topic with the correlation data, when the request carries them). A request that fails validation is answered with status "error" and changes nothing.',
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
      payload: { $ref: `#/components/schemas/${name}` },
      ...(REQUEST_EXAMPLES[command] ? { examples: [{ name: command, payload: REQUEST_EXAMPLES[command] }] } : {}),
    };
  }

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
        'Generated from the zod schemas in src/mqtt/messages.ts and src/mqtt/requests.ts by `npm run docs:api`; the examples were captured from a simulator run. Do not edit by hand.',
      ].join('\n\n'),
      license: { name: 'Apache-2.0' },
    },
    defaultContentType: 'application/json',
    servers: {
      embedded: { host: '127.0.0.1:1883', protocol: 'mqtt', protocolVersion: '3.1.1', description: 'the broker built into the gateway (config mqtt.url: embedded)' },
      floor: { host: 'broker.floor.example:1883', protocol: 'mqtt', protocolVersion: '5', description: 'a floor broker (Mosquitto, or a clustered EMQX / HiveMQ / VerneMQ); mqtts:// is supported' },
    },
    channels,
    operations,
    components: {
      parameters: {
        prefix: { default: 'casino', description: 'config mqtt.topicPrefix' },
        tableId: { description: 'table id from the config: 1-32 characters of a-z, 0-9 and -', examples: ['bac-01'] },
        deviceId: { description: 'device id from the config', examples: ['shoe-1'] },
        command: { enum: Object.keys(REQUEST_SCHEMAS), description: 'request command' },
      },
      schemas,
      messages,
    },
  };
}

/** `round` / `result` message names: the card-game variant keeps the plain name */
function variantName(base: 'round' | 'result', tableKind: string): string {
  return tableKind === 'card' ? base : `${base}-${tableKind}`;
}

const tableKindOf = (game: unknown) => (game === 'sic-bo' || game === 'keno' ? game : 'card');

/** one example per message component, from a capture (the first of each; a dealt card for `event-card`) */
export function pickExamples(captured: readonly CapturedMessage[]): Examples {
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
    const complete = first((m) => ofKind(m) && m.rel === 'result' && m.payload.status === 'complete');
    if (complete) add(variantName('result', kind), complete, `a complete ${String(complete.payload.game)} round`);
    const dealing = first((m) => ofKind(m) && m.rel === 'round' && m.payload.phase === 'dealing'
      && (kind !== 'card' || Object.values(m.payload.cards as Record<string, unknown[]>).some((c) => c.length > 0))
      && (kind !== 'keno' || (m.payload.balls as unknown[]).length > 0));
    if (dealing) add(variantName('round', kind), dealing, `a ${String(dealing.payload.game)} round in progress`);
  }
  const ok = first((m) => m.rel === 'response/status');
  if (ok) add('response', ok, 'the answer to a status request');
  for (const m of captured) {
    const first = m.rel.split('/')[0];
    const name = first === 'events' ? (`event-${String(m.payload.kind)}` in EVENT_SCHEMAS_BY_NAME ? `event-${String(m.payload.kind)}` : 'event-other')
      : first === 'devices' ? 'device' : first === 'alerts' ? 'alert'
        : first === 'round' || first === 'result' ? variantName(first, tableKindOf(m.payload.game)) : first;
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
