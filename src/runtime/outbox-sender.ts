/**
 * Hands a table's stored messages to its MQTT connection in `seq` order, at most `window` at a
 * time, and only while connected: messages wait in the outbox (on disk, and in this queue) while
 * the broker is away, instead of piling up in mqtt.js's memory. Each PUBACK is reported so the
 * store can mark the message delivered. On every (re)connect — to the same broker or the next of
 * a failover list — every message not yet acknowledged is sent again, in order; when mqtt.js gives
 * a message up (an error), the same happens a second later or at the next connect. Delivery is
 * at-least-once, in order, each message always under its own `seq`.
 *
 * On a move to another broker (a failover, or back to the first URL) the broker the table lands
 * on may hold older retained messages of the table (an independent broker kept what it had when
 * the table left it): the latest acknowledged message of each retained topic (`round`, `result`,
 * `shoe`, `devices/<id>`) is sent again first, the same bytes under the same `seq`, so a client
 * that subscribes there reads the table's current state. A consumer sees them as identical
 * re-deliveries.
 *
 * A broker that stops acknowledging (keepalive and connection up, no PUBACK) is noticed
 * (`watchAcks`): when messages are in flight and no acknowledgement came for `ackTimeoutMs`, the
 * stall is reported (docs/FAULTS.md "Broker stalled"); the caller drops the connection and makes it
 * again, and everything unacknowledged is sent again in order as on every connect. The stall lasts
 * until the next acknowledgement. Times are on the monotonic clock: a step of the wall clock is
 * neither a stall nor hides one.
 */
import { Subject } from 'rxjs';
import { topicNameProblem } from '../core/vocabulary/topics.js';
import { NO_PROBE, type Probe } from '../core/vocabulary/probe.js';
import type { Publisher, StoredMessage } from './ports.js';

/**
 * A message the broker refused (an MQTT 5 PUBACK reason code of 0x80 or more: not authorized,
 * topic name invalid, quota exceeded, ...): sending it again would be refused again, so it must
 * not hold the messages behind it. Errors without a reason code (a lost connection) are resent.
 */
function brokerRefusal(err: Error): string | null {
  const code = (err as Error & { code?: unknown }).code;
  return typeof code === 'number' && code >= 0x80 ? `the broker refused it (reason code 0x${code.toString(16)}: ${err.message})` : null;
}

/**
 * what an acknowledged message's slot in the queue holds until the queue is compacted: the message
 * itself is let go at once, so it dies young instead of being promoted to the old generation and
 * left for a full collection (dev/bench/notes/performance-history.md "Garbage collection")
 */
const TOPIC_CACHE_MAX = 1024;

const RELEASED: StoredMessage = Object.freeze({ seq: -1, topic: '', retain: false, payload: '' });

/** the broker stopped acknowledging: what was in flight, for how long */
export interface BrokerStall {
  /** messages handed to the connection and not acknowledged */
  inFlight: number;
  /** messages waiting in the outbox (in flight included) */
  depth: number;
  /** ms since the last acknowledgement (or since the first of these was sent) */
  sinceMs: number;
  /** the timeout that was passed */
  timeoutMs: number;
  /** the oldest unacknowledged `seq` */
  oldestSeq: number;
}

export interface AckWatch {
  timeoutMs: number;
  /** a stall was detected on the current connection; `first`: the first of this stall (no acknowledgement since) */
  onStall(stall: BrokerStall, first: boolean): void;
  /** the first acknowledgement after a stall: the broker moves again */
  onMoving(stall: BrokerStall, stalledMs: number): void;
}

export class OutboxSender {
  /** messages not acknowledged yet, in seq order, from `base` (before it: RELEASED); [base, next) are handed over */
  private queue: StoredMessage[] = [];
  private base = 0;
  private next = 0;
  private inflight = 0;
  private readonly acked = new Set<number>();
  /** a publish failed: hand nothing over until the retry or the next connect */
  private blocked = false;
  private retry: NodeJS.Timeout | null = null;
  /** relative topic -> its full topic and its problem as a topic name (fullTopic) */
  private readonly topicCache = new Map<string, { topic: string; invalid: string | null }>();
  /** the latest message of each retained topic (by topic), for a move to another broker */
  private readonly latestRetained = new Map<string, StoredMessage>();
  /** monotonic ms of the last acknowledgement, or of the hand-over that put the first message in flight */
  private lastProgressAt = 0;
  private watch: AckWatch | null = null;
  private watchTimer: NodeJS.Timeout | null = null;
  /** the stall under way (until the next acknowledgement), and when it was first detected */
  private stallNow: { stall: BrokerStall; at: number } | null = null;
  /** a stall was already reported on the current connection */
  private stallReportedOnConnection = false;
  /** the stall began (a BrokerStall) or ended (null) */
  readonly stall$ = new Subject<BrokerStall | null>();

  constructor(
    private readonly link: Publisher,
    private readonly onAcked: (seq: number) => void,
    private readonly window = 64,
    /**
     * a message that can never be delivered (its topic is not a valid topic name, or the broker
     * refused it): it is counted as done, so it cannot block the outbox, and reported here
     */
    private readonly onQuarantined: (m: StoredMessage, reason: string) => void = () => {},
    /** marks each hand-over to the MQTT client (a measuring tool's; none by default) */
    private readonly probe: Probe = NO_PROBE,
  ) {
    link.connected$.subscribe((up) => {
      if (!up) return;
      // every connection is a new client (table-link.ts): what the last one had in flight is
      // resent, in order; its late callbacks never come
      this.blocked = false;
      this.inflight = 0;
      this.next = this.base;
      this.stallReportedOnConnection = false;
      if (link.movedBroker) this.refreshRetained();
      this.pump();
    });
  }

  /** the latest acknowledged message of each retained topic, again, in seq order (the unacknowledged ones follow) */
  private refreshRetained(): void {
    const firstUnacked = this.base < this.queue.length ? this.queue[this.base].seq : Number.POSITIVE_INFINITY;
    const again = [...this.latestRetained.values()].filter((m) => m.seq < firstUnacked).sort((a, b) => a.seq - b.seq);
    for (const m of again) {
      const { topic, invalid } = this.fullTopic(m.topic);
      if (!invalid) this.link.publish(topic, m.payload, true);
    }
  }

  /**
   * watches the acknowledgements: with messages in flight on a connection and none acknowledged
   * for `timeoutMs`, `onStall`; at the next acknowledgement, `onMoving`. Checked every quarter of
   * the timeout (at most every second).
   */
  watchAcks(watch: AckWatch): void {
    this.watch = watch;
    if (this.watchTimer) clearInterval(this.watchTimer);
    this.watchTimer = setInterval(() => this.checkAcks(), Math.max(50, Math.min(1_000, Math.floor(watch.timeoutMs / 4))));
    this.watchTimer.unref?.();
  }

  /** the stall under way, or null */
  get stall(): BrokerStall | null {
    return this.stallNow?.stall ?? null;
  }

  /** stops watching the acknowledgements */
  stop(): void {
    if (this.watchTimer) clearInterval(this.watchTimer);
    this.watchTimer = null;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
  }

  private checkAcks(now = performance.now()): void {
    const w = this.watch;
    if (!w || this.stallReportedOnConnection || this.blocked || !this.link.connected || this.inflight === 0) return;
    const sinceMs = now - this.lastProgressAt;
    if (sinceMs < w.timeoutMs) return;
    const stall: BrokerStall = {
      inFlight: this.inflight,
      depth: this.depth,
      sinceMs: Math.round(sinceMs),
      timeoutMs: w.timeoutMs,
      oldestSeq: this.base < this.queue.length ? this.queue[this.base].seq : -1,
    };
    this.stallReportedOnConnection = true;
    const first = this.stallNow === null;
    if (first) {
      this.stallNow = { stall, at: now };
      this.stall$.next(stall);
    }
    w.onStall(stall, first);
  }

  /** messages waiting (not yet acknowledged by the broker) */
  get depth(): number {
    return this.queue.length - this.base;
  }

  push(m: StoredMessage): void {
    if (m.retain) this.latestRetained.set(m.topic, m);
    this.queue.push(m);
    this.pump();
  }

  private pump(): void {
    while (!this.blocked && this.link.connected && this.inflight < this.window && this.next < this.queue.length) {
      const m = this.queue[this.next++];
      if (this.inflight++ === 0) this.lastProgressAt = performance.now();
      const { topic, invalid } = this.fullTopic(m.topic);
      if (invalid) {
        // a broker disconnects a client that publishes on such a topic: never send it
        queueMicrotask(() => this.settled(m, undefined, `its topic "${topic.slice(0, 200)}" is not a valid topic name: ${invalid}`));
        continue;
      }
      // an answer's copy on the request's MQTT 5 response topic: the same message (same seq), marked
      // as a copy of the one on its own topic; none when that topic is the answer's own
      if (m.alsoTopic && m.alsoTopic !== topic && !topicNameProblem(m.alsoTopic))
        this.link.publish(m.alsoTopic, m.payload, false, m.alsoCorrelation, undefined, topic);
      if (this.probe.on) this.probe.published(m);
      // (a response topic that is the answer's own: the answer itself carries the correlation data)
      this.link.publish(topic, m.payload, m.retain, m.alsoTopic === topic ? m.alsoCorrelation : undefined, (err) => this.settled(m, err));
    }
  }

  /**
   * the full topic of a table-relative one and what is wrong with it as a topic name (null: a
   * valid one), computed once per relative topic (a table publishes on a few dozen) instead of
   * per message; past TOPIC_CACHE_MAX distinct ones, computed each time
   */
  private fullTopic(relative: string): { topic: string; invalid: string | null } {
    let t = this.topicCache.get(relative);
    if (!t) {
      const topic = this.link.topics.full(relative);
      t = { topic, invalid: topicNameProblem(topic) };
      if (this.topicCache.size < TOPIC_CACHE_MAX) this.topicCache.set(relative, t);
    }
    return t;
  }

  /** an acknowledgement came: the broker moves (again) */
  private progressed(): void {
    this.lastProgressAt = performance.now();
    const s = this.stallNow;
    if (!s) return;
    this.stallNow = null;
    this.stall$.next(null);
    this.watch?.onMoving(s.stall, Math.round(this.lastProgressAt - s.at + s.stall.sinceMs));
  }

  private settled(m: StoredMessage, err?: Error, quarantine?: string): void {
    const refusal = quarantine ?? (err ? brokerRefusal(err) : null);
    // a PUBACK, a refusal (also an answer of the broker) or a message never sent: progress
    if (!err || refusal) this.progressed();
    if (refusal) {
      err = undefined;
      this.onQuarantined(m, refusal);
      if (this.latestRetained.get(m.topic) === m) this.latestRetained.delete(m.topic);
    }
    if (err) {
      if (this.blocked) return;
      // mqtt.js gave this message up: send everything unacknowledged again, in order
      this.blocked = true;
      this.inflight = 0;
      this.next = this.base;
      this.retry ??= setTimeout(() => {
        this.retry = null;
        this.blocked = false;
        this.pump();
      }, 1000);
      this.retry.unref?.();
      return;
    }
    if (this.inflight > 0) this.inflight--;
    // a second PUBACK for a message resent after a reconnect: already counted
    if (this.base >= this.queue.length || m.seq < this.queue[this.base].seq || this.acked.has(m.seq)) {
      this.pump();
      return;
    }
    if (this.acked.size === 0 && m.seq === this.queue[this.base].seq) {
      // the usual case, acks in order: `acked` is not touched (a long-lived Set that is emptied
      // again allocates a new table in the old generation each time)
      this.queue[this.base++] = RELEASED;
    } else {
      this.acked.add(m.seq);
      while (this.base < this.queue.length && this.acked.has(this.queue[this.base].seq)) {
        this.acked.delete(this.queue[this.base].seq);
        this.queue[this.base++] = RELEASED;
      }
    }
    if (this.next < this.base) this.next = this.base;
    if (this.base > 1024 && this.base * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.base);
      this.next -= this.base;
      this.base = 0;
    }
    this.onAcked(m.seq);
    this.pump();
  }
}
