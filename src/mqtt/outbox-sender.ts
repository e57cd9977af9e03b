/**
 * Hands a table's stored messages to its MQTT connection in `seq` order, at most `window` at a
 * time, and only while connected: messages wait in the outbox (on disk, and in this queue) while
 * the broker is away, instead of piling up in mqtt.js's memory. Each PUBACK is reported so the
 * store can mark the message delivered. mqtt.js itself resends the in-flight window after a
 * reconnect, so delivery is at-least-once, in order.
 */
import type { StoredMessage } from '../persistence/gateway-store.js';
import type { TableLink } from './table-link.js';

export class OutboxSender {
  private readonly queue: StoredMessage[] = [];
  private head = 0;
  private inflight = 0;

  constructor(
    private readonly link: TableLink,
    private readonly onAcked: (seq: number) => void,
    private readonly window = 64,
  ) {
    link.connected$.subscribe((up) => {
      if (up) this.pump();
    });
  }

  /** messages waiting (not yet acknowledged by the broker) */
  get depth(): number {
    return this.queue.length - this.head + this.inflight;
  }

  push(m: StoredMessage): void {
    this.queue.push(m);
    this.pump();
  }

  private pump(): void {
    while (this.link.connected && this.inflight < this.window && this.head < this.queue.length) {
      const m = this.queue[this.head++];
      this.inflight++;
      if (m.alsoTopic) this.link.publish(m.alsoTopic, m.payload, false, m.alsoCorrelation);
      this.link.publish(this.link.topics.full(m.topic), m.payload, m.retain, undefined, (err) => {
        this.inflight--;
        if (err) {
          // not delivered: put it back first in line; the next connect sends it again
          this.queue.splice(this.head, 0, m);
        } else this.onAcked(m.seq);
        this.pump();
      });
    }
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
  }
}
