import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { OutboxSender } from '../../../src/mqtt/outbox-sender.js';
import type { TableLink } from '../../../src/mqtt/table-link.js';
import { topicsFor } from '../../../src/domain/topics.js';

/** a link whose broker refuses (synchronously, like a closed client) until told otherwise */
function fakeLink() {
  const connected$ = new Subject<boolean>();
  const sent: number[] = [];
  const link = {
    connected: true,
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
    const sender = new OutboxSender(link as unknown as TableLink, (seq) => acked.push(seq));
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
      connected: false, topics: topicsFor('casino', 't1'), connected$,
      publish(_t: string, _p: string, _r: boolean, _c?: string, done?: (err?: Error) => void) { pending.push(() => done?.()); },
    };
    const sender = new OutboxSender(link as unknown as TableLink, () => {}, 4);
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
      connected: true, topics: topicsFor('casino', 't1'), connected$,
      publish(_t: string, payload: string, _r: boolean, _c?: string, done?: (err?: Error) => void) {
        const seq = JSON.parse(payload).seq as number;
        sent.push(seq);
        if (seq === 2) return done?.(Object.assign(new Error('Publish error: Not authorized'), { code: 135 }));
        done?.();
      },
    };
    const acked: number[] = [];
    const quarantined: Array<{ seq: number; reason: string }> = [];
    const sender = new OutboxSender(link as unknown as TableLink, (seq) => acked.push(seq), 64, (m, reason) => quarantined.push({ seq: m.seq, reason }));
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
      connected: true, topics: topicsFor('casino', 't1'), connected$,
      publish(topic: string, _p: string, _r: boolean, _c?: string, done?: (err?: Error) => void) { topics.push(topic); done?.(); },
    };
    const acked: number[] = [];
    const quarantined: number[] = [];
    const sender = new OutboxSender(link as unknown as TableLink, (seq) => acked.push(seq), 64, (m) => quarantined.push(m.seq));
    // e.g. stored by an older version: a response to `x/#`
    sender.push({ seq: 1, topic: 'response/status', retain: false, payload: '{}', alsoTopic: 'x/#' });
    sender.push({ seq: 2, topic: 'response/a#b', retain: false, payload: '{}' });
    sender.push({ seq: 3, topic: 'events', retain: false, payload: '{}' });
    await Promise.resolve();
    expect(topics).toEqual(['casino/t1/response/status', 'casino/t1/events']);
    expect(quarantined).toEqual([2]);
    expect(acked.sort()).toEqual([1, 2, 3]);
    expect(sender.depth).toBe(0);
  });
});
