/**
 * The load generator and the measuring subscriber, both in the bench process (one clock:
 * performance.now()).
 *
 * - `TableFeed`: one table's shoe on its pty; `writeCard()` writes the frames up to and including
 *   the next CARD, each with its own write(2), and stamps the card right after its last byte.
 * - `Meter`: one MQTT subscriber on `<prefix>/+/events` and `<prefix>/+/result`; matches each
 *   `card` event to the oldest card written on that table (FIFO: one event per CARD line, in
 *   order) and each `result` to the last card of the round.
 * - `Baseline`: a bare mqtt.js publisher (same socket options) sending payloads of the same size
 *   to the same broker and the same subscriber.
 * - `pace()`: calls `fire(k)` at t0 + k * interval (timers; slots due together fire together).
 */
import type { MqttClient } from 'mqtt';
import type { BenchPty } from './pty.js';
import { ShoeScript } from './shoe-script.js';

/** the machine-wide monotonic clock in ms (the gateway's latency probe uses the same) */
export const hrNow = (): number => Number(process.hrtime.bigint()) / 1e6;

/** one measured card: its event's seq, when its last byte was written and its event received (hrNow) */
export interface CardTrace {
  tableId: string;
  seq: number;
  writtenHr: number;
  receivedHr: number;
}

interface Pending {
  t: number;
  /** the write time on hrNow's clock */
  h: number;
  card: string;
  last: boolean;
  rec: boolean;
}

export class TableFeed {
  readonly script: ShoeScript;
  readonly pendingCards: Pending[] = [];
  pendingCardsHead = 0;
  readonly pendingResults: Array<{ t: number; rec: boolean }> = [];
  pendingResultsHead = 0;
  written = 0;

  constructor(
    readonly id: string,
    readonly pty: BenchPty,
    seed: string,
  ) {
    this.script = new ShoeScript(seed);
  }

  /** writes the non-card frames before the next card, then the card; returns the write time */
  writeCard(record: boolean): number {
    for (;;) {
      const f = this.script.next();
      this.pty.write(f.line);
      if (f.card === null) continue;
      const t = performance.now();
      this.pendingCards.push({ t, h: hrNow(), card: f.card, last: f.lastOfRound, rec: record });
      this.written++;
      return t;
    }
  }

  get outstanding(): number {
    return this.pendingCards.length - this.pendingCardsHead + (this.pendingResults.length - this.pendingResultsHead);
  }
}

export class Meter {
  readonly cardLatencies: number[] = [];
  readonly resultLatencies: number[] = [];
  readonly payloadSizes: number[] = [];
  /** the measured cards, for the per-stage breakdown (dev/bench/lib/stages.ts) */
  readonly cardTraces: CardTrace[] = [];
  readonly tables = new Map<string, TableFeed>();
  mismatches = 0;
  unexpected = 0;
  received = 0;
  private baseline: Baseline | null = null;
  private bridge: { onMessage(payload: Buffer, now: number): void; readonly outstanding: number } | null = null;

  constructor(
    readonly client: MqttClient,
    readonly prefix: string,
  ) {
    client.on('message', (topic, payload) => this.onMessage(topic, payload));
  }

  async subscribe(): Promise<void> {
    await this.client.subscribeAsync([`${this.prefix}/+/events`, `${this.prefix}/+/result`], { qos: 1 });
  }

  attachBaseline(b: Baseline): void {
    this.baseline = b;
  }

  /** the plain bridge's messages (`<prefix>/bridge/events`, dev/bench/lib/bridge.ts) */
  attachBridge(b: { onMessage(payload: Buffer, now: number): void; readonly outstanding: number }): void {
    this.bridge = b;
  }

  add(feed: TableFeed): void {
    this.tables.set(feed.id, feed);
  }

  get outstanding(): number {
    let n = 0;
    for (const t of this.tables.values()) n += t.outstanding;
    return n + (this.baseline?.outstanding ?? 0) + (this.bridge?.outstanding ?? 0);
  }

  async drain(timeoutMs: number): Promise<number> {
    const deadline = performance.now() + timeoutMs;
    while (this.outstanding > 0 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    return this.outstanding;
  }

  private onMessage(topic: string, payload: Buffer): void {
    const now = performance.now();
    const nowHr = hrNow();
    this.received++;
    const a = topic.indexOf('/', this.prefix.length + 1);
    const tableId = topic.slice(this.prefix.length + 1, a);
    const kind = topic.slice(a + 1);
    if (tableId === 'baseline') {
      this.baseline?.onMessage(payload, now);
      return;
    }
    if (tableId === 'bridge') {
      this.bridge?.onMessage(payload, now);
      return;
    }
    const feed = this.tables.get(tableId);
    if (!feed) return;
    const msg = JSON.parse(payload.toString('utf8')) as { kind?: string; card?: string | null; status?: string; seq?: number };
    if (kind === 'events') {
      if (msg.kind !== 'card') return;
      const p = feed.pendingCards[feed.pendingCardsHead];
      if (!p) {
        this.unexpected++;
        return;
      }
      feed.pendingCards[feed.pendingCardsHead++] = undefined as unknown as Pending;
      if (feed.pendingCardsHead > 4096) {
        feed.pendingCards.splice(0, feed.pendingCardsHead);
        feed.pendingCardsHead = 0;
      }
      if (msg.card != null && msg.card !== p.card) this.mismatches++;
      if (p.rec) {
        this.cardLatencies.push(now - p.t);
        if (typeof msg.seq === 'number') this.cardTraces.push({ tableId, seq: msg.seq, writtenHr: p.h, receivedHr: nowHr });
        if (this.payloadSizes.length < 10_000) this.payloadSizes.push(payload.length);
      }
      if (p.last) feed.pendingResults.push({ t: p.t, rec: p.rec });
    } else if (kind === 'result') {
      const p = feed.pendingResults[feed.pendingResultsHead];
      if (!p) {
        this.unexpected++;
        return;
      }
      feed.pendingResultsHead++;
      if (msg.status !== 'complete') this.mismatches++;
      if (p.rec) this.resultLatencies.push(now - p.t);
    }
  }

  resetSamples(): void {
    this.cardLatencies.length = 0;
    this.resultLatencies.length = 0;
    this.cardTraces.length = 0;
  }
}

/** the bare mqtt.js path: publish() -> broker -> the same subscriber */
export class Baseline {
  readonly latencies: number[] = [];
  private readonly sent = new Map<number, { t: number; rec: boolean }>();
  private nextId = 0;
  private payloadTemplate = '';

  constructor(
    readonly client: MqttClient,
    readonly topic: string,
  ) {}

  /** payloads will be `size` bytes, like the gateway's card events */
  setSize(size: number): void {
    const head = '{"v":1,"type":"event","kind":"baseline","id":';
    // the id takes up to 9 digits; pad the rest
    this.payloadTemplate = ',"pad":"' + 'x'.repeat(Math.max(0, size - head.length - 9 - 10)) + '"}';
    this.head = head;
  }

  private head = '';

  send(record: boolean): void {
    const id = this.nextId++;
    const payload = this.head + String(id).padStart(9, '0') + this.payloadTemplate;
    const t = performance.now();
    this.sent.set(id, { t, rec: record });
    this.client.publish(this.topic, payload, { qos: 1 });
  }

  onMessage(payload: Buffer, now: number): void {
    const text = payload.toString('latin1');
    const i = text.indexOf('"id":');
    const id = Number(text.slice(i + 5, i + 14));
    const s = this.sent.get(id);
    if (!s) return;
    this.sent.delete(id);
    if (s.rec) this.latencies.push(now - s.t);
  }

  get outstanding(): number {
    return this.sent.size;
  }
}

export interface PaceStats {
  slots: number;
  /** how late slots fired after their due time (timer granularity), ms */
  lateP50Ms: number;
  lateP99Ms: number;
  seconds: number;
}

/** calls fire(k) for k = 0..count-1 at t0 + k * intervalMs */
export function pace(count: number, intervalMs: number, fire: (k: number) => void): Promise<PaceStats> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now() + 2;
    const late: number[] = [];
    let k = 0;
    const tick = () => {
      try {
        const now = performance.now();
        while (k < count && t0 + k * intervalMs <= now) {
          late.push(now - (t0 + k * intervalMs));
          fire(k++);
        }
      } catch (e) {
        reject(e);
        return;
      }
      if (k >= count) {
        late.sort((a, b) => a - b);
        resolve({
          slots: count,
          lateP50Ms: Math.round(late[Math.floor(late.length * 0.5)] * 1000) / 1000,
          lateP99Ms: Math.round(late[Math.min(late.length - 1, Math.floor(late.length * 0.99))] * 1000) / 1000,
          seconds: Math.round((performance.now() - t0) / 10) / 100,
        });
        return;
      }
      setTimeout(tick, Math.max(0, t0 + k * intervalMs - performance.now()));
    };
    tick();
  });
}

/** resolves when every table has published `devices/shoe-1` = connected (its serial line is open) */
export async function waitDevicesConnected(client: MqttClient, prefix: string, ids: readonly string[], timeoutMs: number): Promise<void> {
  const want = new Set(ids);
  const onMsg = (topic: string, payload: Buffer) => {
    if (!topic.startsWith(prefix + '/') || !topic.endsWith('/devices/shoe-1')) return;
    try {
      if ((JSON.parse(payload.toString()) as { state?: string }).state === 'connected') want.delete(topic.split('/')[1]);
    } catch {
      // not ours
    }
  };
  client.on('message', onMsg);
  await client.subscribeAsync(`${prefix}/+/devices/+`, { qos: 1 });
  const deadline = performance.now() + timeoutMs;
  try {
    while (want.size > 0) {
      if (performance.now() > deadline) throw new Error(`${want.size} table(s) never reported their device connected: ${[...want].slice(0, 5).join(', ')}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    client.off('message', onMsg);
    await client.unsubscribeAsync(`${prefix}/+/devices/+`);
  }
}
