import { describe, expect, it } from 'vitest';
import { RecyclingMessageIds, SlotStore } from '../../../src/adapters/mqtt/inflight-slots.js';

/** a tiny deterministic PRNG for the acks' order */
function lcg(seed: number) {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
}

describe('message ids for publishes in flight', () => {
  it('never hands out an id that is in flight, and with at most 64 in flight stays within 1..64', () => {
    const ids = new RecyclingMessageIds();
    const rnd = lcg(7);
    const inFlight = new Set<number>();
    let highest = 0;
    for (let i = 0; i < 100_000; i++) {
      if (inFlight.size < 64 && (inFlight.size === 0 || rnd() < 0.5)) {
        const id = ids.allocate()!;
        expect(inFlight.has(id)).toBe(false);
        expect(ids.getLastAllocated()).toBe(id);
        inFlight.add(id);
        highest = Math.max(highest, id);
      } else {
        // PUBACKs in any order
        const all = [...inFlight];
        const id = all[Math.floor(rnd() * all.length)];
        inFlight.delete(id);
        ids.deallocate(id);
      }
    }
    expect(highest).toBe(64);
  });

  it('a freed id is the next one handed out; a double free does not hand it out twice', () => {
    const ids = new RecyclingMessageIds();
    expect([ids.allocate(), ids.allocate(), ids.allocate()]).toEqual([1, 2, 3]);
    ids.deallocate(2);
    ids.deallocate(2);
    expect(ids.allocate()).toBe(2);
    expect(ids.allocate()).toBe(4);
  });

  it('register takes an id a resent packet already has, once; an id taken so is not handed out', () => {
    const ids = new RecyclingMessageIds();
    expect(ids.register(2)).toBe(true);
    expect(ids.register(2)).toBe(false);
    expect(ids.register(0)).toBe(false);
    expect(ids.register(65536)).toBe(false);
    expect([ids.allocate(), ids.allocate()]).toEqual([1, 3]);
    ids.deallocate(1);
    expect(ids.register(1)).toBe(true); // freed, then taken by a resend: not handed out again
    expect(ids.allocate()).toBe(4);
  });

  it('runs out at 65,535 in flight (null, as mqtt.js expects) and clear() starts again at 1', () => {
    const ids = new RecyclingMessageIds();
    for (let i = 1; i <= 65535; i++) expect(ids.allocate()).toBe(i);
    expect(ids.allocate()).toBeNull();
    ids.deallocate(40_000);
    expect(ids.allocate()).toBe(40_000);
    ids.clear();
    expect(ids.getLastAllocated()).toBeNull();
    expect(ids.allocate()).toBe(1);
  });
});

describe('the outgoing store by message id', () => {
  const pub = (messageId: number) => ({ cmd: 'publish' as const, messageId, qos: 1 as const, dup: false, retain: false, topic: `t/${messageId}`, payload: '' });

  it('gets and deletes by id, and says when a packet is missing', () => {
    const store = new SlotStore();
    store.put(pub(3), () => {});
    const got: unknown[] = [];
    store.get({ messageId: 3 }, (err, p) => got.push(err ?? p?.messageId));
    store.del({ messageId: 3 }, (err, p) => got.push(err ?? p?.messageId));
    store.get({ messageId: 3 }, (err) => got.push(err?.message));
    store.del({ messageId: 3 }, (err) => got.push(err?.message));
    expect(got).toEqual([3, 3, 'missing packet', 'missing packet']);
  });

  it('streams what it holds in the order it was put, not by id', async () => {
    const store = new SlotStore();
    for (const id of [5, 1, 9, 2]) store.put(pub(id), () => {});
    store.del({ messageId: 9 }, () => {});
    store.put(pub(9), () => {}); // the id used again: now the last one put
    const out: number[] = [];
    for await (const p of store.createStream() as unknown as AsyncIterable<{ messageId: number }>) out.push(p.messageId);
    expect(out).toEqual([5, 1, 2, 9]);
  });
});
