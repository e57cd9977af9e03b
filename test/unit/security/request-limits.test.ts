/**
 * Requests refused at the runtime's edge (rate limit, size) still get an answer from the pure
 * machine, with a seq, and change nothing (src/runtime/request-limiter.ts, src/core/table/requests.ts).
 */
import { describe, expect, it } from 'vitest';
import { RequestGate, TokenBucket } from '../../../src/runtime/request-limiter.js';
import { TableHarness } from '../../helpers/table-harness.js';

describe('TokenBucket', () => {
  it('allows a burst, then the sustained rate', () => {
    const b = new TokenBucket(2, 3);
    const t0 = 1_000_000;
    expect([b.take(t0), b.take(t0), b.take(t0), b.take(t0)]).toEqual([true, true, true, false]);
    expect(b.take(t0 + 400)).toBe(false); // 0.8 token
    expect(b.take(t0 + 500)).toBe(true); // 1 token after 500 ms at 2/s
    expect(b.take(t0 + 500)).toBe(false);
    // never more than the burst, however long the pause
    const later = t0 + 3_600_000;
    expect([b.take(later), b.take(later), b.take(later), b.take(later)]).toEqual([true, true, true, false]);
  });

  it('does not refill when the clock goes back', () => {
    const b = new TokenBucket(10, 1);
    expect(b.take(5000)).toBe(true);
    expect(b.take(4000)).toBe(false);
    expect(b.take(5000)).toBe(false);
    expect(b.take(5100)).toBe(true);
  });
});

describe('RequestGate', () => {
  const limits = { ratePerSec: 5, burst: 2, maxPayloadBytes: 100 };

  it('accepts up to the burst, refuses with a reason, then drops a flood unanswered', () => {
    const g = new RequestGate(limits);
    const now = 10_000;
    const actions = Array.from({ length: 6 }, () => g.admit('{}', now));
    expect(actions.map((a) => a.action)).toEqual(['accept', 'accept', 'refuse', 'refuse', 'drop', 'drop']);
    const refused = actions[2];
    expect(refused.action === 'refuse' && refused.reason).toMatch(/^rate limited: /);
    expect(g.takeDropped()).toBe(2);
    expect(g.takeDropped()).toBe(0);
    // a second later the bucket has refilled
    expect(g.admit('{}', now + 1000).action).toBe('accept');
  });

  it('refuses a payload over maxPayloadBytes (counted in UTF-8 bytes) without reading it', () => {
    const g = new RequestGate(limits);
    const a = g.admit('é'.repeat(51), 0); // 102 bytes
    expect(a).toEqual({ action: 'refuse', reason: 'payload too large: 102 bytes (requests.maxPayloadBytes is 100)', dropPayload: true });
    expect(g.admit('x'.repeat(100), 0).action).toBe('accept');
  });
});

describe('a refused request in the table machine', () => {
  it('is answered with the refusal, a seq and the transaction, and changes nothing', () => {
    const h = new TableHarness({ betting: 'engine' });
    const before = structuredClone(h.state);
    const roundsBefore = h.published('round').length;
    const out = h.input({
      type: 'request',
      at: h.tick(),
      command: 'open-betting',
      payload: JSON.stringify({ transaction: 'tx-9' }),
      refused: 'rate limited: more than 40 requests at once or 20 per second on this table; retry later',
    });
    const resp = out.find((o) => o.type === 'publish');
    expect(resp?.type === 'publish' && resp.topic).toBe('response/open-betting');
    expect(resp?.type === 'publish' && resp.payload).toMatchObject({
      type: 'response',
      command: 'open-betting',
      transaction: 'tx-9',
      status: 'error',
      seq: before.seq + 1,
      error: 'rate limited: more than 40 requests at once or 20 per second on this table; retry later',
    });
    // only the seq moved: no round was opened
    expect({ ...h.state, seq: before.seq }).toEqual(before);
    expect(h.published('round').length).toBe(roundsBefore);
    // the same request, not refused, opens the round
    expect(h.request('open-betting', { transaction: 'tx-10' })).toMatchObject({ status: 'ok', transaction: 'tx-10' });
  });

  it('answers an oversized request (payload dropped at the edge) with transaction null', () => {
    const h = new TableHarness({ betting: 'engine' });
    const out = h.input({
      type: 'request',
      at: h.tick(),
      command: 'status',
      payload: '',
      refused: 'payload too large: 20000 bytes (requests.maxPayloadBytes is 16384)',
    });
    const resp = out.find((o) => o.type === 'publish');
    expect(resp?.type === 'publish' && resp.payload).toMatchObject({ status: 'error', transaction: null, error: expect.stringMatching(/^payload too large/) });
  });
});
