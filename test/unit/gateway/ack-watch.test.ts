/**
 * The outbox's acknowledgement watch (docs/FAULTS.md "Broker stalled"): messages in flight and no
 * PUBACK for `timeoutMs` is a stall, reported once per connection; the next acknowledgement ends it.
 */
import { Subject } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OutboxSender, type BrokerStall } from '../../../src/runtime/outbox-sender.js';
import type { Publisher } from '../../../src/runtime/ports.js';
import { tableProblems } from '../../../src/core/table/health.js';
import { topicsFor } from '../../../src/core/vocabulary/topics.js';

function heldLink() {
  const connected$ = new Subject<boolean>();
  const pending: Array<{ seq: number; ack: () => void }> = [];
  const link = {
    connected: true,
    topics: topicsFor('casino', 't1'),
    connected$,
    publish(_t: string, p: string, _r: boolean, _c?: string, done?: (err?: Error) => void) {
      pending.push({ seq: JSON.parse(p).seq, ack: () => done?.() });
    },
  };
  return { link, pending, connected$ };
}

describe('the acknowledgement watch', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reports a stall after the timeout with nothing acknowledged, once per connection, and its end at the next PUBACK', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'performance'] });
    const { link, pending, connected$ } = heldLink();
    const stalls: Array<{ s: BrokerStall; first: boolean }> = [];
    const moving: number[] = [];
    const sender = new OutboxSender(link as unknown as Publisher, () => {}, 4);
    sender.watchAcks({ timeoutMs: 1_000, onStall: (s, first) => stalls.push({ s, first }), onMoving: (_s, ms) => moving.push(ms) });
    // nothing in flight: no stall however long
    vi.advanceTimersByTime(5_000);
    expect(stalls).toEqual([]);
    for (let seq = 1; seq <= 6; seq++) sender.push({ seq, topic: 'events', retain: false, payload: JSON.stringify({ seq }) });
    expect(pending.map((p) => p.seq)).toEqual([1, 2, 3, 4]);
    // acknowledgements within the timeout of each other: no stall, even past the timeout in total
    vi.advanceTimersByTime(800);
    pending.shift()!.ack();
    vi.advanceTimersByTime(800);
    pending.shift()!.ack();
    expect(stalls).toEqual([]);
    expect(sender.stall).toBeNull();
    // checked every quarter of the timeout: noticed between 1 and 1.25 timeouts after the last PUBACK
    vi.advanceTimersByTime(900);
    expect(stalls).toEqual([]);
    vi.advanceTimersByTime(350);
    expect(stalls).toHaveLength(1);
    expect(stalls[0].first).toBe(true);
    expect(stalls[0].s).toMatchObject({ inFlight: 4, depth: 4, timeoutMs: 1_000, oldestSeq: 3 });
    expect(stalls[0].s.sinceMs).toBeGreaterThanOrEqual(1_000);
    expect(sender.stall).not.toBeNull();
    // once per connection
    vi.advanceTimersByTime(3_000);
    expect(stalls).toHaveLength(1);
    // a new connection: everything unacknowledged again, in order; still nothing: reported again, not the first of the stall
    pending.length = 0;
    connected$.next(true);
    expect(pending.map((p) => p.seq)).toEqual([3, 4, 5, 6]);
    vi.advanceTimersByTime(1_300);
    expect(stalls).toHaveLength(2);
    expect(stalls[1].first).toBe(false);
    // the broker moves: the stall ends
    pending.shift()!.ack();
    expect(sender.stall).toBeNull();
    expect(moving).toHaveLength(1);
    expect(moving[0]).toBeGreaterThanOrEqual(2_300);
    sender.stop();
  });

  it('a disconnected link is not a stall (the connection loss is its own problem)', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] });
    const { link } = heldLink();
    const stalls: BrokerStall[] = [];
    const sender = new OutboxSender(link as unknown as Publisher, () => {}, 4);
    sender.watchAcks({ timeoutMs: 1_000, onStall: (s) => stalls.push(s), onMoving: () => {} });
    sender.push({ seq: 1, topic: 'events', retain: false, payload: '{"seq":1}' });
    link.connected = false;
    vi.advanceTimersByTime(5_000);
    expect(stalls).toEqual([]);
    sender.stop();
  });
});

describe('table problems from the link', () => {
  it('a pending SUBACK says subscribing, a refusal says refused, a stall is named', () => {
    expect(tableProblems(true, {}, false, { subscribing: true })).toEqual(['requests are not subscribed yet (subscribing: the SUBACK is on its way)']);
    expect(tableProblems(true, {}, false)).toEqual(['requests are not subscribed (the broker refused the subscription; retrying)']);
    expect(tableProblems(true, {}, true, { brokerStalled: 'no acknowledgement (PUBACK) for 5000 ms' })).toEqual([
      'broker stalled: no acknowledgement (PUBACK) for 5000 ms',
    ]);
    expect(tableProblems(true, {}, true, { brokerStalled: null })).toEqual([]);
  });
});
