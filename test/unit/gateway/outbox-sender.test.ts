import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { OutboxSender } from '../../../src/runtime/outbox-sender.js';
import { topicsFor } from '../../../src/core/vocabulary/topics.js';

/** a link whose broker refuses (synchronously, like a closed client) until told otherwise */
function fakeLink() {
  const connected$ = new Subject<boolean>();
  const sent: number[] = [];
  const link = {
    connected: true,
    movedBroker: false,
    failing: true,
    topics: topicsFor('casino', 't1'),
    connected$,
    publish(_topic: string, payload: string, _retain: boolean, _corr?: string, done?: (err?: Error) => void) {
      if (this.failing) return done?.(new Error('not connected'));
      sent.push(JSON.parse(payload).seq);
      done?.();
    },
  };
  return { link, sent, connected$ };
}

describe('the outbox sender', () => {
  it('a link that fails at once does not make it spin; the messages go out, in order, once it works', async () => {
    const { link, sent, connected$ } = fakeLink();
    const acked: number[] = [];
    const sender = new OutboxSender(link, (seq) => acked.push(seq));
    for (let seq = 1; seq <= 5; seq++) sender.push({ seq, topic: 'events', retain: false, payload: JSON.stringify({ seq }) });
    expect(sent).toEqual([]);
    expect(sender.depth).toBe(5);
    link.failing = false;
    connected$.next(true);
    expect(sent).toEqual([1, 2, 3, 4, 5]);
    expect(acked).toEqual([1, 2, 3, 4, 5]);
    expect(sender.depth).toBe(0);
  });

  it('holds messages while disconnected and never more than the window in flight', () => {
    const connected$ = new Subject<boolean>();
    const pending: Array<() => void> = [];
    const link = {
      connected: false,
      movedBroker: false,
      topics: topicsFor('casino', 't1'),
      connected$,
      publish(_t: string, _p: string, _r: boolean, _c?: string, done?: (err?: Error) => void) {
        pending.push(() => done?.());
      },
    };
    const sender = new OutboxSender(link, () => {}, 4);
    for (let seq = 1; seq <= 10; seq++) sender.push({ seq, topic: 'events', retain: false, payload: '{}' });
    expect(pending).toHaveLength(0);
    link.connected = true;
    connected$.next(true);
    expect(pending).toHaveLength(4);
    pending.shift()!();
    expect(pending).toHaveLength(4); // one acked, one more handed over
    expect(sender.depth).toBe(9);
  });

  it('a message the broker refuses (PUBACK reason code >= 0x80) is quarantined: it cannot block what follows', () => {
    const connected$ = new Subject<boolean>();
    const sent: number[] = [];
    const link = {
      connected: true,
      movedBroker: false,
      topics: topicsFor('casino', 't1'),
      connected$,
      publish(_t: string, payload: string, _r: boolean, _c?: string, done?: (err?: Error) => void) {
        const seq = JSON.parse(payload).seq as number;
        sent.push(seq);
        if (seq === 2) return done?.(Object.assign(new Error('Publish error: Not authorized'), { code: 135 }));
        done?.();
      },
    };
    const acked: number[] = [];
    const quarantined: Array<{ seq: number; reason: string }> = [];
    const sender = new OutboxSender(
      link,
      (seq) => acked.push(seq),
      64,
      (m, reason) => quarantined.push({ seq: m.seq, reason }),
    );
    for (let seq = 1; seq <= 4; seq++) sender.push({ seq, topic: 'events', retain: false, payload: JSON.stringify({ seq }) });
    expect(sent).toEqual([1, 2, 3, 4]); // sent once each: no resend loop
    expect(acked).toEqual([1, 2, 3, 4]); // the refused one is marked done too (never resent after a restart)
    expect(quarantined).toEqual([{ seq: 2, reason: expect.stringMatching(/^the broker refused it \(reason code 0x87/) }]);
    expect(sender.depth).toBe(0);
  });

  it('never hands the broker a message whose topic is not a valid topic name (a broker would disconnect)', async () => {
    const connected$ = new Subject<boolean>();
    const topics: string[] = [];
    const link = {
      connected: true,
      movedBroker: false,
      topics: topicsFor('casino', 't1'),
      connected$,
      publish(topic: string, _p: string, _r: boolean, _c?: string, done?: (err?: Error) => void) {
        topics.push(topic);
        done?.();
      },
    };
    const acked: number[] = [];
    const quarantined: number[] = [];
    const sender = new OutboxSender(
      link,
      (seq) => acked.push(seq),
      64,
      (m) => quarantined.push(m.seq),
    );
    // e.g. stored by an older version: a response to `x/#`
    sender.push({ seq: 1, topic: 'response/status', retain: false, payload: '{}', alsoTopic: 'x/#' });
    sender.push({ seq: 2, topic: 'response/a#b', retain: false, payload: '{}' });
    sender.push({ seq: 3, topic: 'events', retain: false, payload: '{}' });
    // the same topics again (the sender remembers what it found per topic)
    sender.push({ seq: 4, topic: 'response/a#b', retain: false, payload: '{}' });
    sender.push({ seq: 5, topic: 'events', retain: false, payload: '{}' });
    await Promise.resolve();
    expect(topics).toEqual(['casino/t1/response/status', 'casino/t1/events', 'casino/t1/events']);
    expect(quarantined).toEqual([2, 4]);
    expect(acked.sort()).toEqual([1, 2, 3, 4, 5]);
    expect(sender.depth).toBe(0);
  });
});

describe('the outbox sender on a move to another broker', () => {
  function movingLink() {
    const connected$ = new Subject<boolean>();
    const sent: Array<{ topic: string; seq: number; retain: boolean }> = [];
    const pending: Array<() => void> = [];
    const link = {
      connected: true,
      movedBroker: false,
      topics: topicsFor('casino', 't1'),
      connected$,
      publish(topic: string, payload: string, retain: boolean, _c?: string, done?: (err?: Error) => void) {
        sent.push({ topic, seq: JSON.parse(payload).seq, retain });
        if (done) pending.push(() => done());
      },
    };
    return { link, sent, pending, connected$ };
  }
  const msg = (seq: number, topic: string, retain: boolean) => ({ seq, topic, retain, payload: JSON.stringify({ seq }) });

  it('sends the latest acknowledged message of each retained topic again, in seq order, before the unacknowledged ones', () => {
    const { link, sent, pending, connected$ } = movingLink();
    const sender = new OutboxSender(link, () => {});
    [
      msg(1, 'result', true),
      msg(2, 'events', false),
      msg(3, 'round', true),
      msg(4, 'result', true),
      msg(5, 'devices/shoe-1', true),
      msg(6, 'events', false),
      msg(7, 'round', true),
    ].forEach((m) => {
      sender.push(m);
    });
    // 1..5 acknowledged by the first broker, 6 and 7 in flight when it went away
    for (let i = 0; i < 5; i++) pending.shift()!();
    pending.length = 0;
    link.connected = false;
    connected$.next(false);
    sent.length = 0;
    link.connected = true;
    link.movedBroker = true;
    connected$.next(true);
    // result 4 and devices 5 again (round 3 is superseded by round 7, which is resent anyway), then 6 and 7
    expect(sent).toEqual([
      { topic: 'casino/t1/result', seq: 4, retain: true },
      { topic: 'casino/t1/devices/shoe-1', seq: 5, retain: true },
      { topic: 'casino/t1/events', seq: 6, retain: false },
      { topic: 'casino/t1/round', seq: 7, retain: true },
    ]);
    expect(sender.depth).toBe(2);
  });

  it('a reconnect to the same broker sends only what is unacknowledged', () => {
    const { link, sent, pending, connected$ } = movingLink();
    const sender = new OutboxSender(link, () => {});
    [msg(1, 'result', true), msg(2, 'round', true)].forEach((m) => {
      sender.push(m);
    });
    pending.shift()!();
    pending.length = 0;
    sent.length = 0;
    connected$.next(true);
    expect(sent).toEqual([{ topic: 'casino/t1/round', seq: 2, retain: true }]);
  });
});

describe('the outbox sender lets acknowledged messages go', () => {
  /** a link that calls back when told, in any order */
  function laterLink() {
    const connected$ = new Subject<boolean>();
    const pending = new Map<number, () => void>();
    const link = {
      connected: true,
      movedBroker: false,
      topics: topicsFor('casino', 't1'),
      connected$,
      publish(_t: string, payload: string, _r: boolean, _c?: string, done?: (err?: Error) => void) {
        pending.set(JSON.parse(payload).seq, () => done?.());
      },
    };
    return { link, pending, connected$ };
  }

  it('acks in order and out of order: each is counted once, the depth follows the first unacknowledged, a reconnect resends only the unacknowledged', () => {
    const { link, pending, connected$ } = laterLink();
    const acked: number[] = [];
    const sender = new OutboxSender(link, (seq) => acked.push(seq));
    for (let seq = 1; seq <= 6; seq++) sender.push({ seq, topic: 'events', retain: false, payload: JSON.stringify({ seq }) });
    pending.get(1)!(); // in order
    pending.get(3)!(); // ahead of 2: counted, but the depth waits for 2
    expect(acked).toEqual([1, 3]);
    expect(sender.depth).toBe(5);
    pending.get(2)!(); // 2 and the 3 behind it
    pending.get(3)!(); // a second PUBACK for 3: already counted
    expect(acked).toEqual([1, 3, 2]);
    expect(sender.depth).toBe(3);
    pending.clear();
    connected$.next(true);
    expect([...pending.keys()]).toEqual([4, 5, 6]);
    pending.get(5)!();
    pending.get(4)!();
    pending.get(6)!();
    expect(acked).toEqual([1, 3, 2, 5, 4, 6]);
    expect(sender.depth).toBe(0);
  });

  it('keeps no reference to a message once it is acknowledged (it must die young, not in a full collection)', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const { link, pending } = laterLink();
    const sender = new OutboxSender(link, () => {});
    const refs: Array<WeakRef<object>> = [];
    (() => {
      for (let seq = 1; seq <= 8; seq++) {
        const m = { seq, topic: 'events', retain: false, payload: JSON.stringify({ seq }) };
        refs.push(new WeakRef(m));
        sender.push(m);
      }
    })();
    // 1-3 in order, 5 and 4 out of order; 6-8 stay unacknowledged
    for (const seq of [1, 2, 3, 5, 4]) pending.get(seq)!();
    pending.clear();
    await new Promise((r) => setTimeout(r, 0)); // WeakRefs hold their targets until the job ends
    gc();
    expect(refs.map((r) => r.deref() !== undefined)).toEqual([false, false, false, false, false, true, true, true]);
    expect(sender.depth).toBe(3);
  });

  it('an answer goes to its own topic, and a copy (the same bytes, marked copy-of) to the response topic, unless that is its own topic', () => {
    const connected$ = new Subject<boolean>();
    const sent: Array<{ topic: string; payload: string; corr?: string; copyOf?: string }> = [];
    const link = {
      connected: true,
      movedBroker: false,
      topics: topicsFor('casino', 't1'),
      connected$,
      publish(topic: string, payload: string, _r: boolean, corr?: string, done?: (err?: Error) => void, copyOf?: string) {
        sent.push({ topic, payload, ...(corr ? { corr } : {}), ...(copyOf ? { copyOf } : {}) });
        done?.();
      },
    };
    const acked: number[] = [];
    const sender = new OutboxSender(link, (seq) => acked.push(seq));
    sender.push({ seq: 1, topic: 'response/status', retain: false, payload: '{"seq":1}', alsoTopic: 'engines/e1/replies', alsoCorrelation: 'AQ==' });
    sender.push({ seq: 2, topic: 'response/status', retain: false, payload: '{"seq":2}', alsoTopic: 'casino/t1/response/status', alsoCorrelation: 'Ag==' });
    expect(sent).toEqual([
      { topic: 'engines/e1/replies', payload: '{"seq":1}', corr: 'AQ==', copyOf: 'casino/t1/response/status' },
      { topic: 'casino/t1/response/status', payload: '{"seq":1}' },
      // the engine named the answer's own topic: one message, not two with the same seq
      { topic: 'casino/t1/response/status', payload: '{"seq":2}', corr: 'Ag==' },
    ]);
    expect(acked).toEqual([1, 2]);
  });
});
