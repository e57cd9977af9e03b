import mqtt, { type MqttClient } from 'mqtt';

export interface RecordedMessage {
  topic: string;
  /** JSON-parsed payload; the raw string if it is not JSON; null for an empty payload. */
  payload: any;
  retain: boolean;
  qos: 0 | 1 | 2;
  /** Payload as UTF-8 text. */
  raw: string;
  /** Date.now() at arrival. */
  receivedAt: number;
}

export type MessagePredicate = (m: RecordedMessage) => boolean;

export interface MqttRecorder {
  /** Every message received since start (or the last clear()), in arrival order. */
  readonly messages: RecordedMessage[];
  /** First message (already received or future) matching pred. */
  waitFor(pred: MessagePredicate, timeoutMs?: number): Promise<RecordedMessage>;
  /** Resolves with the first n matching messages once n have arrived (counting already received ones). */
  waitForCount(pred: MessagePredicate, n: number, timeoutMs?: number): Promise<RecordedMessage[]>;
  /** Forget received messages (waitFor then only sees newer ones). */
  clear(): void;
  /** The underlying client (e.g. to publish from a test). */
  readonly client: MqttClient;
  close(): Promise<void>;
}

interface Waiter {
  check(): void;
  fail(err: Error): void;
}

/**
 * Subscribe to `topicFilter` on `url` and record everything. Resolves after the SUBACK,
 * so retained messages and anything published afterwards are captured. `account`: the broker user
 * to connect as (a broker with a password file).
 */
export async function recordMqtt(url: string, topicFilter: string | string[] = '#', account?: { username: string; password: string }): Promise<MqttRecorder> {
  const client = mqtt.connect(url, {
    ...account,
    clientId: `recorder-${process.pid}-${Math.random().toString(16).slice(2, 10)}`,
    reconnectPeriod: 200,
    connectTimeout: 5_000,
    clean: true,
  });
  client.on('connect', () => (client.stream as any)?.setNoDelay?.(true));
  // Errors are reported through waitFor timeouts; never let them be uncaught.
  client.on('error', () => {});

  const messages: RecordedMessage[] = [];
  const waiters = new Set<Waiter>();

  client.on('message', (topic, payloadBuf, packet) => {
    const raw = payloadBuf.toString('utf8');
    let payload: any = null;
    if (raw.length > 0) {
      try {
        payload = JSON.parse(raw);
      } catch {
        payload = raw;
      }
    }
    messages.push({
      topic,
      payload,
      retain: packet.retain,
      qos: packet.qos,
      raw,
      receivedAt: Date.now(),
    });
    for (const w of [...waiters]) w.check();
  });

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      client.end(true);
      reject(new Error(`recordMqtt: could not connect to ${url} within 10 s`));
    }, 10_000);
    client.once('connect', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  await client.subscribeAsync(topicFilter, { qos: 1 });

  const describeRecent = (): string => {
    const recent = messages.slice(-20).map((m) => m.topic);
    return recent.length ? `last ${recent.length} topics received:\n  ${recent.join('\n  ')}` : 'no messages received';
  };

  const waitForCount = (pred: MessagePredicate, n: number, timeoutMs = 10_000): Promise<RecordedMessage[]> =>
    new Promise((resolve, reject) => {
      const waiter: Waiter = {
        check() {
          const matching = messages.filter(pred);
          if (matching.length >= n) {
            clearTimeout(timer);
            waiters.delete(waiter);
            resolve(matching.slice(0, n));
          }
        },
        fail(err) {
          clearTimeout(timer);
          waiters.delete(waiter);
          reject(err);
        },
      };
      const timer = setTimeout(() => {
        const have = messages.filter(pred).length;
        waiter.fail(new Error(`timed out after ${timeoutMs} ms waiting for ${n} matching MQTT message(s) (have ${have}); ${describeRecent()}`));
      }, timeoutMs);
      waiters.add(waiter);
      waiter.check();
    });

  return {
    messages,
    client,
    waitFor: async (pred, timeoutMs = 10_000) => (await waitForCount(pred, 1, timeoutMs))[0]!,
    waitForCount,
    clear() {
      messages.length = 0;
    },
    async close() {
      for (const w of [...waiters]) w.fail(new Error('mqtt recorder closed'));
      await client.endAsync(true).catch(() => {});
    },
  };
}
