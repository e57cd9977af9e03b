/**
 * Shared pieces of the floor tests (broker failover, the NATS cluster, the edge bridge, shared
 * subscriptions): a subscriber that records everything, checks of `seq` order and gaps, a
 * simulated-table gateway config, and a log capture.
 */
import mqtt, { type MqttClient } from 'mqtt';
import { expect } from 'vitest';
import { validateConfig } from '../../src/app/config/load-config.js';
import { createLogger, type Logger } from '../../src/runtime/log.js';

export interface Received {
  topic: string;
  raw: string;
  payload: any;
  retain: boolean;
  at: number /** MQTT 5 correlation data, as text */;
  correlation?: string;
}

export interface Subscriber {
  client: MqttClient;
  got: Received[];
  waitFor(pred: (m: Received) => boolean, ms?: number, what?: string): Promise<Received>;
  close(): Promise<void>;
}

/** a QoS 1 subscriber; `clean: false` keeps its session (and its messages) on the broker while it is away */
export async function subscriber(
  url: string,
  clientId: string,
  filter: string | string[] = 'casino/#',
  o: { clean?: boolean; protocolVersion?: 4 | 5 } = {},
): Promise<Subscriber> {
  const got: Received[] = [];
  const client = mqtt.connect(url, { clientId, clean: o.clean ?? false, reconnectPeriod: 200, protocolVersion: o.protocolVersion ?? 4, connectTimeout: 5_000 });
  client.on('error', () => {});
  client.on('message', (topic, payload, packet) => {
    const raw = payload.toString('utf8');
    let p: unknown = null;
    try {
      p = JSON.parse(raw);
    } catch {
      /* keep raw */
    }
    const cd = packet.properties?.correlationData;
    got.push({ topic, raw, payload: p, retain: packet.retain, at: Date.now(), ...(cd ? { correlation: Buffer.from(cd).toString('utf8') } : {}) });
  });
  await new Promise<void>((resolve, reject) => {
    // a NATS cluster that just lost a node may not take new MQTT sessions for a while (JetStream,
    // which keeps them, is recovering): seconds on an idle machine, longer on a loaded one
    const t = setTimeout(() => reject(new Error(`subscriber ${clientId} could not connect to ${url}`)), 40_000);
    client.once('connect', () => {
      clearTimeout(t);
      resolve();
    });
  });
  // a cluster that just lost a node may refuse a SUBACK for a while (docs/SCALING.md): retry
  for (let attempt = 1; ; attempt++) {
    try {
      await client.subscribeAsync(filter, { qos: 1 });
      break;
    } catch (e) {
      if (attempt >= 8) throw e;
      await new Promise((r) => setTimeout(r, 1_000));
    }
  }
  const waitFor = async (pred: (m: Received) => boolean, ms = 20_000, what = 'a message') => {
    const end = Date.now() + ms;
    for (;;) {
      const m = got.find(pred);
      if (m) return m;
      if (Date.now() > end)
        throw new Error(
          `timed out waiting for ${what}; got ${got.length} messages, last: ${got
            .slice(-5)
            .map((x) => x.topic)
            .join(', ')}`,
        );
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return { client, got, waitFor, close: () => new Promise<void>((r) => client.end(true, {}, () => r())) };
}

export async function until(pred: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * A table's seq'd messages as one subscriber (or several, merged) saw them: the same content when
 * a seq is seen twice (an identical re-delivery), first deliveries in seq order, no gap from the
 * first seq seen. Returns the distinct seqs, sorted.
 */
export function checkSeq(got: Received[], table: string, o: { retainedBaseline?: boolean; gaps?: boolean } = {}): number[] {
  const bySeq = new Map<number, string>();
  let lastFirst = -1;
  for (const m of got) {
    if (!m.topic.startsWith(`casino/${table}/`) || m.topic.endsWith('/status') || typeof m.payload?.seq !== 'number') continue;
    if (m.retain && o.retainedBaseline !== false) continue; // a retained copy handed over on (re)subscribe
    const seq = m.payload.seq as number;
    const prev = bySeq.get(seq);
    if (prev !== undefined) {
      expect(m.raw, `seq ${seq} delivered twice with different content`).toBe(prev);
      continue;
    }
    expect(seq, `seq ${seq} arrived after seq ${lastFirst}`).toBeGreaterThan(lastFirst);
    lastFirst = seq;
    bySeq.set(seq, m.raw);
  }
  const seqs = [...bySeq.keys()].sort((a, b) => a - b);
  if (o.gaps !== false) for (let i = 1; i < seqs.length; i++) expect(seqs[i], `gap after seq ${seqs[i - 1]}`).toBe(seqs[i - 1] + 1);
  return seqs;
}

/** the distinct results of a table, by seq */
export function resultsOf(got: Received[], table: string): any[] {
  const seen = new Map<number, any>();
  for (const m of got) if (m.topic === `casino/${table}/result` && !m.retain) seen.set(m.payload.seq, m.payload);
  return [...seen.values()].sort((a, b) => a.seq - b.seq);
}

/** a gateway with simulated baccarat tables dealing in real time (cardIntervalMs per card) */
export function floorConfig(o: {
  url: string | string[];
  dataDir: string;
  tables: string[];
  protocolVersion?: 4 | 5;
  cardIntervalMs?: number;
  decks?: number;
  mqtt?: Record<string, unknown>;
}) {
  return validateConfig({
    mqtt: {
      url: o.url,
      ...(o.protocolVersion ? { protocolVersion: o.protocolVersion } : {}),
      reconnectMinMs: 200,
      reconnectMaxMs: 2_000,
      connectTimeoutMs: 3_000,
      failbackCheckMs: 500,
      ...o.mqtt,
    },
    dataDir: o.dataDir,
    http: { enabled: false },
    health: { intervalMs: 0 },
    tables: o.tables.map((id) => ({
      id,
      game: 'baccarat',
      decks: o.decks ?? 2,
      devices: [
        { id: 'shoe-1', kind: 'card-shoe', transport: { type: 'simulator', seed: `floor-${id}`, cardIntervalMs: o.cardIntervalMs ?? 25, roundIntervalMs: 0 } },
      ],
    })),
  });
}

export function capturingLogger(): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  return { log: createLogger({ json: false, level: 'info', write: (l) => lines.push(l) }), lines };
}
