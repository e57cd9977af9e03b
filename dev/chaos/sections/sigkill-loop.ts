/**
 * SIGKILL loop: the real gateway process (`tablegw start`), dealing a simulated baccarat shoe as
 * fast as it can, is killed with SIGKILL again and again while a persistent MQTT session
 * (clean: false, QoS 1) records everything. After the last restart has drained its outbox:
 * 0 seqs lost, 0 new seqs out of order, 0 seqs reused with other content, and 0 wrong results
 * (every complete result's cards are exactly the card events of its round).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { spawnSupervised, terminate } from '../../rig/child-process.js';
import { startMosquitto } from '../../rig/mosquitto.js';
import { makeTempDir, removeTempDir } from '../../rig/temp-dir.js';
import type { ChaosSection } from '../section.js';

const T = 'sk-01';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Received {
  topic: string;
  text: string;
  payload: Record<string, unknown>;
}

const section: ChaosSection = {
  name: 'sigkill-loop',
  async run({ quick, log }) {
    const kills = quick ? 3 : 11;
    const dataDir = await makeTempDir('teg-chaos-sk-');
    const broker = await startMosquitto();
    const configFile = join(dataDir, 'gateway.json');
    writeFileSync(
      configFile,
      JSON.stringify({
        mqtt: { url: broker.url },
        dataDir: join(dataDir, 'data'),
        http: { enabled: false },
        health: { intervalMs: 0 },
        log: { level: 'warn' },
        tables: [
          {
            id: T,
            game: 'baccarat',
            devices: [{ id: 'shoe-1', kind: 'card-shoe', transport: { type: 'simulator', cardIntervalMs: 5, roundIntervalMs: 20, seed: 42 } }],
          },
        ],
      }),
    );
    const got: Received[] = [];
    const sub = await mqtt.connectAsync(broker.url, { clientId: 'chaos-persistent-subscriber', clean: false, protocolVersion: 4, reconnectPeriod: 200 });
    sub.on('message', (topic, payload, packet) => {
      if (packet.retain) return; // retained copies are replays of what was already received live
      const text = payload.toString('utf8');
      try {
        got.push({ topic, text, payload: JSON.parse(text) as Record<string, unknown> });
      } catch {
        /* status clears */
      }
    });
    await sub.subscribeAsync(`casino/${T}/#`, { qos: 1 });
    const startGateway = () =>
      spawnSupervised(process.execPath, ['--import', 'tsx', 'src/app/cli/main.ts', 'start', '--config', configFile], { stdout: true, stderr: true });
    let exitCodes: string[] = [];
    try {
      for (let k = 0; k < kills; k++) {
        const p = startGateway();
        const before = got.length;
        // let it deal under load for a while (a random moment: mid-round, mid-commit)
        const deadline = Date.now() + 15_000;
        while (got.length < before + 40 && Date.now() < deadline) await sleep(50);
        await sleep(200 + Math.floor(Math.random() * 800));
        p.child.kill('SIGKILL');
        await terminate(p);
        exitCodes.push(String(p.exitInfo()));
      }
      // the last run: deliver what is left, then stop cleanly
      const p = startGateway();
      await sleep(quick ? 4000 : 6000);
      p.child.kill('SIGTERM');
      await terminate(p);
      await sleep(500);
      const seqMsgs = got.filter((m) => typeof m.payload.seq === 'number');
      const bySeq = new Map<number, string>();
      let reused = 0;
      let reordered = 0;
      let maxSeen = 0;
      for (const m of seqMsgs) {
        const seq = m.payload.seq as number;
        const prior = bySeq.get(seq);
        if (prior === undefined) {
          if (seq < maxSeen) reordered++;
          maxSeen = Math.max(maxSeen, seq);
          bySeq.set(seq, m.text);
        } else if (prior !== m.text) reused++;
      }
      let lost = 0;
      for (let s = 1; s <= maxSeen; s++) if (!bySeq.has(s)) lost++;
      // results against the card events of their rounds
      const firstOf = [...bySeq.values()].map((t) => JSON.parse(t) as Record<string, unknown>);
      const cardsOfRound = new Map<string, string[]>();
      for (const e of firstOf) {
        if (e.type === 'event' && e.kind === 'card' && typeof e.roundId === 'string' && e.role !== 'burn' && e.role !== 'reveal' && e.card) {
          const list = cardsOfRound.get(e.roundId) ?? [];
          list.push(`${String(e.role)}:${String(e.card)}`);
          cardsOfRound.set(e.roundId, list);
        }
      }
      let results = 0;
      let wrong = 0;
      for (const r of firstOf) {
        if (r.type !== 'result' || r.status !== 'complete') continue;
        results++;
        const cards = r.cards as Record<string, string[]> | undefined;
        const inResult = Object.entries(cards ?? {})
          .flatMap(([pos, cs]) => cs.map((c) => `${pos}:${c}`))
          .sort();
        const inEvents = (cardsOfRound.get(String(r.roundId)) ?? []).sort();
        if (JSON.stringify(inResult) !== JSON.stringify(inEvents)) wrong++;
      }
      log(
        `${kills} SIGKILLs (${exitCodes.join(', ')}); ${seqMsgs.length} messages received, ${bySeq.size} distinct seqs up to ${maxSeen}, ${results} complete results`,
      );
      return {
        section: 'sigkill-loop',
        figures: {
          sigkills: kills,
          messages: seqMsgs.length,
          'distinct-seqs': bySeq.size,
          results,
          lost,
          reordered,
          'seq-reused': reused,
          'wrong-results': wrong,
        },
        zeroColumns: ['lost', 'reordered', 'seq-reused', 'wrong-results'],
      };
    } finally {
      exitCodes = [];
      await sub.endAsync(true);
      await broker.stop();
      await removeTempDir(dataDir);
    }
  },
};

export default section;
