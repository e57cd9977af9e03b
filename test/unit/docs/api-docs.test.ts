/**
 * docs/asyncapi.json and docs/config.schema.json are generated from the zod schemas
 * (`npm run docs:api`); this fails when a schema changed and the documents were not regenerated.
 * The examples in the committed document (captured from a simulator run) must match the schemas.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildAsyncApi, buildConfigReference, buildConfigSchema, EXAMPLE_EPOCH, toJsonText, type Examples } from '../../../dev/docs/api-docs.js';
import { REQUEST_SCHEMAS, validateMessage } from '../../../src/core/table/messages.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const read = (f: string) => readFileSync(join(ROOT, 'docs', f), 'utf8');
const HINT = 'out of date: run `npm run docs:api` and commit docs/asyncapi.json and docs/config.schema.json';

describe('generated API documents', () => {
  it('docs/config.schema.json matches src/core/vocabulary/config-schema.ts', () => {
    expect(read('config.schema.json') === toJsonText(buildConfigSchema()), `docs/config.schema.json ${HINT}`).toBe(true);
  });

  it('docs/asyncapi.json matches src/core/table/messages.ts and requests.ts', () => {
    const committed = read('asyncapi.json');
    const examples = JSON.parse(read('api-examples.json')) as Examples;
    const rebuilt = toJsonText(buildAsyncApi(examples));
    expect(committed === rebuilt, `docs/asyncapi.json ${HINT}`).toBe(true);
  });

  it('docs/CONFIG.md matches src/core/vocabulary/config-schema.ts, and every config key is described', () => {
    const committed = read('CONFIG.md');
    expect(committed === buildConfigReference(), `docs/CONFIG.md ${HINT}`).toBe(true);
    expect(committed.split('\n').filter((l) => l.includes('(no description)'))).toEqual([]);
    expect(committed).toContain('| `gatewayId` |');
    expect(committed).toContain('| `tables[].devices[].missingAfterMs` |');
  });

  it('the examples are on the fixed clock (the document does not change between runs)', () => {
    const text = read('api-examples.json');
    const stamps = [...text.matchAll(/"(\d{4}-\d{2}-\d{2}T[^"]+Z)"/g)].map((m) => Date.parse(m[1]));
    expect(stamps.length).toBeGreaterThan(10);
    for (const t of stamps) expect(t >= EXAMPLE_EPOCH && t < EXAMPLE_EPOCH + 86_400_000, new Date(t).toISOString()).toBe(true);
  });

  it('names every schema (no AnonymousSchema in generated code), has security schemes, correlation ids and the gateway info channel', () => {
    const doc = JSON.parse(read('asyncapi.json'));
    const untitled: string[] = [];
    const walk = (s: any, path: string) => {
      if (!s || typeof s !== 'object') return;
      if (!Array.isArray(s) && (s.type === 'object' || s.properties) && typeof s.title !== 'string') untitled.push(path);
      for (const [k, v] of Object.entries(s)) walk(v, `${path}/${k}`);
    };
    walk(doc.components.schemas, '#/components/schemas');
    expect(untitled).toEqual([]);
    expect(Object.keys(doc.components.securitySchemes)).toEqual(['userPassword', 'clientCertificate']);
    expect(doc.servers.floor.security.length).toBe(2);
    expect(doc.components.messages['request-status'].correlationId).toEqual({ $ref: '#/components/correlationIds/correlationData' });
    expect(doc.components.messages.response.correlationId).toEqual({ $ref: '#/components/correlationIds/correlationData' });
    expect(doc.channels['gateway-info'].address).toBe('{prefix}/gateway/{gatewayId}/info');
  });

  it('every example in docs/asyncapi.json is valid against its schema', () => {
    const doc = JSON.parse(read('asyncapi.json'));
    const messages = doc.components.messages as Record<string, { examples?: Array<{ payload: any }> }>;
    const topicOf: Record<string, string> = {
      status: 'status',
      device: 'devices/x',
      round: 'round',
      result: 'result',
      alert: 'alerts',
      shoe: 'shoe',
      health: 'health',
      response: 'response/status',
    };
    let n = 0;
    for (const [name, m] of Object.entries(messages)) {
      if (name.startsWith('gateway-')) continue; // not a table message (checked in test/integration/gateway-cli.test.ts)
      for (const ex of m.examples ?? []) {
        n++;
        if (name.startsWith('request-')) {
          const schema = REQUEST_SCHEMAS[name.slice('request-'.length) as keyof typeof REQUEST_SCHEMAS];
          expect(schema.safeParse(ex.payload).success, name).toBe(true);
        } else {
          const topic = name.startsWith('event-') ? 'events' : topicOf[name.split('-')[0]];
          expect(validateMessage(topic, ex.payload), `example of ${name} (${HINT}, examples are refreshed by it)`).toEqual([]);
        }
      }
    }
    expect(n).toBeGreaterThan(15);
    // one example of each kind of message a baccarat table publishes
    for (const name of [
      'status',
      'device',
      'event-card',
      'round',
      'result-baccarat',
      'alert',
      'shoe',
      'health',
      'response',
      'round-sic-bo',
      'result-sic-bo',
      'event-dice',
      'round-keno',
      'result-keno',
      'event-ball',
    ]) {
      expect(messages[name]?.examples?.length, `an example of ${name}`).toBeGreaterThan(0);
    }
  });

  it('is an AsyncAPI 3 document with a channel and a send operation per published topic', () => {
    const doc = JSON.parse(read('asyncapi.json'));
    expect(doc.asyncapi).toBe('3.0.0');
    for (const ch of ['status', 'device', 'event', 'round', 'result', 'alert', 'shoe', 'health', 'response']) {
      expect(doc.channels[ch].address).toMatch(/^\{prefix\}\/\{tableId\}\//);
      expect(doc.operations[`publish-${ch}`]).toMatchObject({ action: 'send', channel: { $ref: `#/channels/${ch}` } });
    }
    expect(doc.operations['receive-request']).toMatchObject({ action: 'receive', channel: { $ref: '#/channels/request' } });
    expect(doc.operations['publish-result'].bindings.mqtt).toMatchObject({ qos: 1, retain: true });
  });
});
