/**
 * Runs the demo's simulated baccarat table (config/default.yaml) in fast mode in-process, on the
 * embedded broker on a free port, and records every message it publishes over MQTT — plus the
 * answers to two requests (a valid `status` and a refused `open-betting`). The API document's
 * examples come from here, and a test validates every captured message against the schemas.
 */
import { PROJECT_ROOT } from '../../src/runtime/paths.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { parse as parseYaml } from 'yaml';
import { validateConfig } from '../../src/app/config/load-config.js';
import { startGateway, type Gateway } from '../../src/app/gateway.js';
import { loadSimulators } from '../../simulators/load.js';
import { silentLogger } from '../../src/runtime/log.js';
import { startEmbeddedBroker } from '../../src/adapters/mqtt/embedded-broker.js';

const ROOT = PROJECT_ROOT;

export interface CapturedMessage {
  table: string;
  /** full MQTT topic */
  topic: string;
  /** table-relative topic (`result`, `devices/shoe-1`, `response/status`) */
  rel: string;
  retain: boolean;
  payload: Record<string, unknown>;
}

export interface CaptureOptions {
  /** seed of the virtual shoe (fixed: the same cards on every run) */
  seed?: string;
  shoes?: number;
  timeoutMs?: number;
  /** every table of the demo (baccarat, sic bo, keno, ...) instead of the baccarat table only */
  allTables?: boolean;
  /** with allTables: which of the demo's tables (default all) */
  tableFilter?: (t: { id: string; game: string; betting?: string }) => boolean;
}

export async function captureSimulatorMessages(o: CaptureOptions = {}): Promise<CapturedMessage[]> {
  const raw = parseYaml(readFileSync(join(ROOT, 'config', 'default.yaml'), 'utf8')) as Record<string, any>;
  const dataDir = mkdtempSync(join(tmpdir(), 'tablegw-capture-'));
  // our own embedded broker, so the recorder subscribes before the table's first message
  const broker = await startEmbeddedBroker('127.0.0.1', 0);
  raw.mqtt = { ...(raw.mqtt ?? {}), url: broker.url, protocolVersion: 4 };
  raw.dataDir = dataDir;
  raw.journal = { ...(raw.journal ?? {}), synchronous: 'normal' };
  raw.http = { enabled: false };
  raw.health = { intervalMs: 0 };
  // the baccarat table first: its link is the one the requests go to
  raw.tables = [
    raw.tables.find((t: { game: string }) => t.game === 'baccarat'),
    ...(o.allTables ? raw.tables.filter((t: { id: string; game: string }) => t.game !== 'baccarat' && (o.tableFilter?.(t) ?? true)) : []),
  ];
  for (const t of raw.tables) for (const d of t.devices) if (d.transport?.type === 'simulator') d.transport.seed = `${o.seed ?? 'asyncapi-examples'}:${t.id}`;
  const cfg = validateConfig(raw, 'config/default.yaml (capture)');
  const table = cfg.tables[0].id;
  const prefix = `${cfg.mqtt.topicPrefix}/`;
  const base = `${prefix}${table}/`;

  const captured: CapturedMessage[] = [];
  const client = mqtt.connect(broker.url, { protocolVersion: 4, clientId: `capture-${process.pid}`, reconnectPeriod: 200 });
  client.on('error', () => {});
  let gw: Gateway | null = null;
  try {
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`capture: no connection to ${broker.url}`)), 10_000);
      client.once('connect', () => {
        clearTimeout(t);
        resolve();
      });
    });
    client.on('message', (topic, buf, packet) => {
      const [, t, ...rest] = topic.split('/');
      // table topics only: not requests, not the gateway's own `<prefix>/gateway/<id>/info`
      if (!topic.startsWith(prefix) || rest[0] === 'request' || t === 'gateway') return;
      captured.push({ table: t, topic, rel: rest.join('/'), retain: packet.retain, payload: JSON.parse(buf.toString('utf8')) });
    });
    await client.subscribeAsync(`${prefix}#`, { qos: 1 });
    gw = await startGateway(cfg, { simulators: loadSimulators, logger: silentLogger, fast: true, simulatorShoes: o.shoes ?? 1 });
    const running = gw;
    // requests once the table's link is up and subscribed to them
    for (let i = 0; i < 200 && !captured.some((m) => m.rel === 'status' && m.payload.state === 'online'); i++) await new Promise((r) => setTimeout(r, 25));
    // (the link subscribes to requests right after it connects: ask until it answers)
    for (let i = 0; i < 50 && !captured.some((m) => m.rel === 'response/status'); i++) {
      await client.publishAsync(`${base}request/status`, JSON.stringify({ transaction: 'tx-status-1' }), { qos: 1 });
      await new Promise((r) => setTimeout(r, 100));
    }
    await client.publishAsync(`${base}request/open-betting`, JSON.stringify({ transaction: 'tx-open-1' }), { qos: 1 });
    // a simulator that gives up (e.g. its virtual engine timed out on a loaded machine) ends the capture of its table only
    const done = Promise.allSettled(running.simulators.map((s) => s.start()));
    await Promise.race([
      done,
      new Promise((_, reject) => setTimeout(() => reject(new Error('capture: the simulated shoe did not finish in time')), o.timeoutMs ?? 60_000).unref()),
    ]);
    await new Promise((r) => setTimeout(r, 300));
  } finally {
    await client.endAsync(true).catch(() => {});
    await gw?.stop();
    await broker.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return captured;
}
