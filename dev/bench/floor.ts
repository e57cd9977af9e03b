/**
 * `npm run bench -- --floor`: the floor figures of docs/SCALING.md, side by side in one run.
 * P gateway processes with T simulated baccarat tables each, dealing in real time (default 4 x 10
 * tables, one card per 100 ms each), first into one Mosquitto, then into a 3-node NATS cluster (MQTT
 * 3.1.1, the gateway's URL list = the three nodes); a central subscriber on another node measures
 * card latency (receipt - the card event's `ts`), and the gateways' CPU per table. Then the
 * failover cost on the cluster: the node the tables are on is SIGKILLed; time until the first new
 * result, and how many results were delayed. A benchmark, not a test (nothing is asserted).
 *
 *   npm run bench -- --floor [--processes 4] [--tables 10] [--card-ms 100] [--seconds 15]
 *
 * Every process is a separate `dev/bench/gateway-child.ts` (its CPU is read from it over IPC), with its
 * own data dir and its own table ids, as on a floor of table PCs.
 */
import { parseArgs } from 'node:util';
import { startGatewayProc, type GatewayProc } from './lib/gateway-proc.js';
import { startMosquitto } from '../rig/mosquitto.js';
import { startNatsCluster } from '../rig/nats-cluster.js';
import { makeTempDir } from '../rig/temp-dir.js';
import mqtt from 'mqtt';

const { values: a } = parseArgs({
  options: {
    floor: { type: 'boolean' },
    processes: { type: 'string', default: '4' },
    tables: { type: 'string', default: '10' },
    'card-ms': { type: 'string', default: '100' },
    seconds: { type: 'string', default: '15' },
  },
  strict: false,
});
const PROCESSES = Number(a.processes);
const TABLES = Number(a.tables);
const CARD_MS = Number(a['card-ms']);
const SECONDS = Number(a.seconds);

function pct(xs: number[], p: number): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

async function listen(url: string, id: string): Promise<{ lat: number[]; results: Array<{ at: number; seq: number; table: string }>; close(): void }> {
  const lat: number[] = [];
  const results: Array<{ at: number; seq: number; table: string }> = [];
  const c = mqtt.connect(url, { clientId: id, clean: false, protocolVersion: 4, reconnectPeriod: 200 });
  c.on('error', () => {});
  c.on('message', (topic, buf, pkt) => {
    if (pkt.retain) return;
    const now = Date.now();
    const m = JSON.parse(buf.toString());
    if (topic.endsWith('/events') && m.kind === 'card') lat.push(now - Date.parse(m.ts));
    if (topic.endsWith('/result')) results.push({ at: now, seq: m.seq, table: m.table });
  });
  await new Promise<void>((r) => c.once('connect', () => r()));
  for (;;) {
    try {
      await c.subscribeAsync(['casino/+/events', 'casino/+/result'], { qos: 1 });
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  return { lat, results, close: () => c.end(true) };
}

async function run(
  label: string,
  urls: string[],
  subUrl: string,
  after?: (r: { results: Array<{ at: number; seq: number; table: string }> }) => Promise<Record<string, unknown>>,
) {
  const sub = await listen(subUrl, `floor-bench-${label}`);
  const dir = await makeTempDir('teg-floor-bench-');
  const gws: GatewayProc[] = [];
  for (let p = 0; p < PROCESSES; p++) {
    const tables = Array.from({ length: TABLES }, (_, i) => `fl-${p + 1}-${String(i + 1).padStart(3, '0')}`);
    const config = {
      gatewayId: `floor-${label}-${p + 1}`,
      mqtt: {
        url: urls,
        protocolVersion: 4,
        clientIdPrefix: `tablegw-${p + 1}-`,
        reconnectMinMs: 200,
        reconnectMaxMs: 2000,
        connectTimeoutMs: 3000,
        failbackCheckMs: 0,
      },
      dataDir: `${dir}/data-${p + 1}`,
      http: { enabled: false },
      health: { intervalMs: 0 },
      tables: tables.map((id) => ({
        id,
        game: 'baccarat',
        devices: [{ id: 'shoe-1', kind: 'card-shoe', transport: { type: 'simulator', seed: id, cardIntervalMs: CARD_MS, roundIntervalMs: 0 } }],
      })),
    };
    gws.push(await startGatewayProc({ config, dir, name: `floor-${label}-${p + 1}`, timeoutMs: 60_000 }));
  }
  await new Promise((r) => setTimeout(r, 2000)); // connected, dealing
  sub.lat.length = 0;
  const u0 = await Promise.all(gws.map((g) => g.usage()));
  const t0 = Date.now();
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  const u1 = await Promise.all(gws.map((g) => g.usage()));
  const cpuMs = u1.reduce((sum, u, i) => sum + (u.cpu.user - u0[i].cpu.user + u.cpu.system - u0[i].cpu.system) / 1000, 0);
  const wall = Date.now() - t0;
  const out: Record<string, unknown> = {
    tier: label,
    processes: PROCESSES,
    tablesPerProcess: TABLES,
    cardsPerSecPerTable: 1000 / CARD_MS,
    cards: sub.lat.length,
    p50Ms: pct(sub.lat, 50),
    p99Ms: pct(sub.lat, 99),
    maxMs: Math.max(...sub.lat),
    cpuPercentPerTable: +(((cpuMs / wall) * 100) / (TABLES * PROCESSES)).toFixed(2),
  };
  if (after) Object.assign(out, await after(sub));
  await Promise.all(gws.map((g) => g.stop()));
  sub.close();
  return out;
}

const rows: Array<Record<string, unknown>> = [];
const mosq = await startMosquitto();
try {
  rows.push(await run('mosquitto', [mosq.url], mosq.url));
} finally {
  await mosq.stop();
}
const cluster = await startNatsCluster();
try {
  rows.push(
    await run('nats-3-nodes', cluster.mqttUrls, cluster.nodes[2].mqttUrl, async (sub) => {
      const before = new Map<string, number>();
      for (const r of sub.results) before.set(r.table, Math.max(before.get(r.table) ?? 0, r.seq));
      const killed = Date.now();
      await cluster.nodes[0].kill();
      const deadline = killed + 60_000;
      while (!sub.results.some((r) => r.at > killed && r.seq > (before.get(r.table) ?? 0)) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      const first = sub.results.find((r) => r.at > killed && r.seq > (before.get(r.table) ?? 0));
      await new Promise((r) => setTimeout(r, 5000));
      const firstAt = first ? first.at - killed : null;
      const delayed = sub.results.filter((r) => r.at > killed && first && r.at - killed <= firstAt! + 1000).length;
      return { failoverFirstResultMs: firstAt, resultsDelayedByFailover: delayed };
    }),
  );
} finally {
  await cluster.stop();
}
console.log(JSON.stringify(rows, null, 2));
console.table(rows);
process.exit(0);
