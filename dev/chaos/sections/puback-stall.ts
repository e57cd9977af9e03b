/**
 * A broker that stops acknowledging (issue 33, docs/FAULTS.md `broker-stalled`): the real gateway
 * process deals a simulated baccarat shoe into a real Mosquitto through dev/rig/puback-proxy.ts,
 * which swallows every PUBACK for a while (the connection and its keepalive up). A persistent
 * subscriber on the Mosquitto records everything. Must be 0: messages lost (a message the gateway
 * journaled as acknowledged that never reached the subscriber), new seqs out of order, seqs
 * reused with other content, a stall not detected within the timeout.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import mqtt from 'mqtt';
import { startMosquitto } from '../../rig/mosquitto.js';
import { startPubackProxy } from '../../rig/puback-proxy.js';
import { makeTempDir } from '../../rig/temp-dir.js';
import type { ChaosResult, ChaosSection } from '../section.js';
import { kill, runCli } from '../gateway-rig.js';

const T = 'pa-01';
const ACK_TIMEOUT_MS = 2_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const section: ChaosSection = {
  name: 'puback-stall',
  async run({ quick, log }): Promise<ChaosResult> {
    const dir = await makeTempDir('teg-chaos-pa-');
    const broker = await startMosquitto();
    const proxy = await startPubackProxy(broker.port);
    const dataDir = join(dir, 'data');
    const cfgFile = join(dir, 'gateway.json');
    writeFileSync(
      cfgFile,
      JSON.stringify({
        mqtt: { url: proxy.url, ackTimeoutMs: ACK_TIMEOUT_MS, reconnectMinMs: 200, reconnectMaxMs: 2_000 },
        dataDir,
        http: { enabled: false },
        health: { intervalMs: 0 },
        log: { level: 'warn' },
        tables: [
          {
            id: T,
            game: 'baccarat',
            devices: [{ id: 'shoe-1', kind: 'card-shoe', transport: { type: 'simulator', cardIntervalMs: 20, roundIntervalMs: 50, seed: 33 } }],
          },
        ],
      }),
    );
    const got: Array<{ text: string; payload: Record<string, unknown>; topic: string }> = [];
    const sub = await mqtt.connectAsync(broker.url, { clientId: 'chaos-pa-subscriber', clean: false, protocolVersion: 4, reconnectPeriod: 200 });
    sub.on('message', (topic, payload, packet) => {
      if (packet.retain) return;
      const text = payload.toString('utf8');
      try {
        got.push({ topic, text, payload: JSON.parse(text) as Record<string, unknown> });
      } catch {
        /* status clears */
      }
    });
    await sub.subscribeAsync(`casino/${T}/#`, { qos: 1 });
    const stalls = quick ? 1 : 3;
    const detections: number[] = [];
    const run = runCli(['start', '--config', cfgFile]);
    try {
      const waitFor = async (pred: () => boolean, ms: number, what: string) => {
        const end = Date.now() + ms;
        while (!pred()) {
          if (Date.now() > end) throw new Error(`timed out waiting for ${what}; gateway stderr: ${run.stderr().slice(-2000)}`);
          await sleep(20);
        }
      };
      const results = () => got.filter((m) => m.topic === `casino/${T}/result`).length;
      await waitFor(() => results() >= 2, 30_000, 'two results');
      for (let i = 0; i < stalls; i++) {
        const alertsBefore = got.filter((m) => m.payload.kind === 'broker-stalled').length;
        proxy.swallowing = true;
        const from = Date.now();
        log(`puback-stall: swallowing PUBACKs (stall ${i + 1} of ${stalls})`);
        await sleep(ACK_TIMEOUT_MS * 3);
        proxy.swallowing = false;
        await waitFor(() => got.filter((m) => m.payload.kind === 'broker-stalled').length > alertsBefore, 20_000, 'the broker-stalled alert');
        const alert = got.filter((m) => m.payload.kind === 'broker-stalled')[alertsBefore];
        // the alert's `ts` is when the stall was detected (its input's time)
        detections.push(Date.parse(String(alert.payload.ts)) - from);
        const r = results();
        await waitFor(() => results() >= r + 2, 30_000, 'results flowing again');
      }
      await sleep(1_000);
      await kill(run, 'SIGTERM');
      // what the gateway journaled as acknowledged by the broker must all have reached the subscriber
      const db = new Database(join(dataDir, 'gateway.db'), { readonly: true, fileMustExist: true });
      const acked = (db.prepare('SELECT seq FROM messages WHERE table_id = ? AND acked = 1 ORDER BY seq').all(T) as Array<{ seq: number }>).map((r) => r.seq);
      const unacked = (db.prepare('SELECT COUNT(*) AS n FROM messages WHERE table_id = ? AND acked = 0').get(T) as { n: number }).n;
      db.close();
      const seen = new Map<number, string>();
      let reused = 0;
      let outOfOrder = 0;
      let lastNew = 0;
      for (const m of got) {
        const seq = m.payload.seq;
        if (typeof seq !== 'number') continue;
        const prev = seen.get(seq);
        if (prev !== undefined) {
          if (prev !== m.text) reused++;
          continue;
        }
        if (seq < lastNew) outOfOrder++;
        lastNew = seq;
        seen.set(seq, m.text);
      }
      const lost = acked.filter((s) => !seen.has(s)).length;
      const late = detections.filter((d) => d > ACK_TIMEOUT_MS * 1.25 + 1_000).length;
      return {
        section: 'puback-stall',
        figures: {
          stalls,
          'PUBACKs swallowed': proxy.swallowed,
          'connections made': proxy.connections,
          'detection ms (max)': Math.max(...detections),
          'detected later than the timeout (+25%, +1 s)': late,
          'messages journaled as delivered': acked.length,
          'messages still in the outbox': unacked,
          'messages received (duplicates included)': got.filter((m) => typeof m.payload.seq === 'number').length,
          'messages lost': lost,
          'new seqs out of order': outOfOrder,
          'seqs reused with other content': reused,
        },
        zeroColumns: ['detected later than the timeout (+25%, +1 s)', 'messages lost', 'new seqs out of order', 'seqs reused with other content'],
        notes: [`ackTimeoutMs ${ACK_TIMEOUT_MS}; detections after ${detections.join(', ')} ms of swallowed PUBACKs`],
      };
    } finally {
      await kill(run, 'SIGTERM');
      await sub.endAsync();
      await proxy.close();
      await broker.stop();
    }
  },
};

export default section;
