/** The topic map: one place builds every topic, and what the machine publishes follows it. */
import { describe, expect, it } from 'vitest';
import { PUBLISHED_TOPICS } from '../../../src/core/table/messages.js';
import { isRetained, relativeTopic, TOPIC_PATTERNS, topicsFor, type MessageType } from '../../../src/core/vocabulary/topics.js';
import { TableHarness } from '../../helpers/table-harness.js';

describe('topic map', () => {
  it('builds relative and full topics from the patterns', () => {
    expect(relativeTopic('device', 'shoe-1')).toBe('devices/shoe-1');
    expect(relativeTopic('response', 'open-betting')).toBe('response/open-betting');
    expect(relativeTopic('alert')).toBe('alerts');
    expect(relativeTopic('event')).toBe('events');
    const t = topicsFor('casino', 'bac-01');
    expect(t.device('shoe-1')).toBe('casino/bac-01/devices/shoe-1');
    expect(t.response('status')).toBe('casino/bac-01/response/status');
    expect(t.alerts).toBe('casino/bac-01/alerts');
    expect(t.requests).toBe('casino/bac-01/request/+');
  });

  it('the API document takes its topics and retain flags from the same map', () => {
    for (const [type, t] of Object.entries(PUBLISHED_TOPICS)) {
      expect(t.topic).toBe(TOPIC_PATTERNS[type as MessageType].topic);
      expect(t.retain).toBe(TOPIC_PATTERNS[type as MessageType].retain);
    }
  });

  it("every message of a dealt round goes on its type's topic, retained as the map says", () => {
    const t = new TableHarness({ betting: 'engine' });
    t.request('open-betting');
    t.request('close-betting');
    t.cards('9C', 'KS', '9D', '2S');
    t.frame({ type: 'MISREAD' });
    t.request('status');
    const published = t.outputs.filter((o) => o.type === 'publish');
    const types = new Set(published.map((o) => o.payload.type));
    expect([...types].sort()).toEqual(['alert', 'device', 'event', 'response', 'result', 'round', 'shoe']);
    for (const o of published) {
      const type = o.payload.type as MessageType;
      const expected =
        type === 'device'
          ? relativeTopic('device', String(o.payload.deviceId))
          : type === 'response'
            ? relativeTopic('response', String(o.payload.command))
            : type === 'status'
              ? relativeTopic('status')
              : relativeTopic(type);
      expect(o.topic).toBe(expected);
      expect(o.retain).toBe(isRetained(type));
    }
  });
});
