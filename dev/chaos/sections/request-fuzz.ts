/**
 * Request fuzz: random engine requests over a real Mosquitto (MQTT 5) into the real gateway —
 * known and inherited command names, random names, valid and broken JSON, empty, arrays,
 * oversized payloads, `__proto__` keys, response topics with wildcards, empty levels or on the
 * table's own topics, some retained. Every request must be answered exactly once on
 * `response/<command>`, every error answer must carry a known `code`, the link must stay up,
 * and after a restart the retained copies the broker hands out must not be executed.
 */
import mqtt from 'mqtt';
import { validateConfig } from '../../../src/app/config/load-config.js';
import { startGateway, type Gateway } from '../../../src/app/gateway.js';
import { loadSimulators } from '../../../simulators/load.js';
import { startMosquitto } from '../../rig/mosquitto.js';
import { recordMqtt } from '../../rig/mqtt-recorder.js';
import { createPtyPair } from '../../rig/pty-pair.js';
import { makeTempDir, removeTempDir } from '../../rig/temp-dir.js';
import { createLogger } from '../../../src/runtime/log.js';
import { REQUEST_ERROR_CODES } from '../../../src/core/vocabulary/requests.js';
import { prng } from '../prng.js';
import type { ChaosSection } from '../section.js';

const T = 'fz-01';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const COMMANDS = [
  'open-betting',
  'close-betting',
  'decision',
  'close-decisions',
  'void-round',
  'new-shoe',
  'end-shoe',
  'correction',
  'status',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'prototype',
  'x',
  'STATUS',
  'ünïcødé',
  'a'.repeat(200),
];

interface Sent {
  command: string;
  transaction: string | null;
  retain: boolean;
}

const section: ChaosSection = {
  name: 'request-fuzz',
  async run({ quick, log }) {
    const total = quick ? 400 : 3000;
    const rand = prng(12);
    const pick = <X>(xs: readonly X[]): X => xs[Math.floor(rand() * xs.length)];
    const dataDir = await makeTempDir('teg-chaos-rq-');
    const broker = await startMosquitto();
    const pty = await createPtyPair();
    const rec = await recordMqtt(broker.url, [`casino/${T}/#`, 'x/#', 'engines/#']);
    const engine = await mqtt.connectAsync(broker.url, { protocolVersion: 5, clientId: 'chaos-engine' });
    const logLines: string[] = [];
    const cfg = validateConfig({
      mqtt: { url: broker.url },
      dataDir,
      http: { enabled: false },
      health: { intervalMs: 0 },
      tables: [
        {
          id: T,
          game: 'baccarat',
          betting: 'engine',
          devices: [{ id: 'shoe-1', kind: 'card-shoe', staleAfterMs: 600_000, transport: { type: 'serial', path: pty.gatewayPath } }],
        },
      ],
    });
    const logger = () => createLogger({ json: true, write: (l) => logLines.push(l) });
    let gw: Gateway | undefined = await startGateway(cfg, { simulators: loadSimulators, logger: logger() });
    const retainedTopics = new Set<string>();
    try {
      await rec.waitFor((m) => m.topic === `casino/${T}/status` && m.payload?.state === 'online', 10_000);
      await sleep(500);
      const sent: Sent[] = [];
      for (let i = 0; i < total; i++) {
        const command = pick(COMMANDS);
        const transaction = `t${i}`;
        let payload: string;
        let carriesTx = true;
        switch (Math.floor(rand() * 10)) {
          case 0:
            payload = '';
            carriesTx = false;
            break;
          case 1:
            payload = '{"transaction":"' + transaction + '",';
            carriesTx = false;
            break; // broken JSON
          case 2:
            payload = pick(['[]', '1', 'null', '"s"', 'true']);
            carriesTx = false;
            break;
          case 3:
            payload = JSON.stringify({ transaction, pad: 'x'.repeat(20_000) });
            carriesTx = false;
            break; // over the size cap
          case 4:
            payload = `{"transaction":"${transaction}","__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}`;
            break;
          case 5:
            payload = JSON.stringify({
              transaction,
              roundId: pick(['E-1', 'E-2', `${T}-s0001-r0001`, '', 'bad id']),
              reason: 'fuzz',
              seat: 'seat1',
              action: pick(['hit', 'fly']),
            });
            break;
          case 6:
            payload = JSON.stringify({ transaction, [String.fromCharCode(65 + Math.floor(rand() * 26))]: rand() });
            break;
          default:
            payload = JSON.stringify({ transaction });
            break;
        }
        const responseTopic =
          rand() < 0.3
            ? pick(['x/#', 'x/+/y', 'a//b', `casino/${T}/result`, `casino/${T}/request/void-round`, `casino/${T}/response/mine`, 'engines/none/r'])
            : undefined;
        const retain = rand() < 0.05;
        const topic = `casino/${T}/request/${command}`;
        if (retain) retainedTopics.add(topic);
        await engine.publishAsync(topic, payload, {
          qos: 1,
          retain,
          ...(responseTopic ? { properties: { responseTopic, correlationData: Buffer.from(String(i)) } } : {}),
        });
        sent.push({ command, transaction: carriesTx ? transaction : null, retain });
        if (i % 50 === 49) await sleep(300); // ~150 requests/s: inside the default rate, so every request must be answered
      }
      const deadline = Date.now() + 15_000;
      const answers = () => rec.messages.filter((m) => m.topic.startsWith(`casino/${T}/response/`) && m.topic !== `casino/${T}/response/mine`);
      while (answers().length < sent.length && Date.now() < deadline) await sleep(200);
      await sleep(1000);
      // match answers to requests: by transaction when the request could carry one, else by count per command
      const expected = new Map<string, number>();
      for (const s of sent) {
        const key = `${s.command}|${s.transaction}`;
        expected.set(key, (expected.get(key) ?? 0) + 1);
      }
      const got = new Map<string, number>();
      let withoutCode = 0;
      let unknownCode = 0;
      for (const a of answers()) {
        const command = a.topic.slice(`casino/${T}/response/`.length);
        const key = `${command}|${a.payload?.transaction ?? null}`;
        got.set(key, (got.get(key) ?? 0) + 1);
        if (a.payload?.status === 'error') {
          if (typeof a.payload.code !== 'string') withoutCode++;
          else if (!REQUEST_ERROR_CODES.includes(a.payload.code)) unknownCode++;
        }
      }
      let unanswered = 0;
      let twice = 0;
      let unexpected = 0;
      for (const [k, n] of expected) {
        const g = got.get(k) ?? 0;
        if (g < n) unanswered += n - g;
        if (g > n) twice += g - n;
      }
      for (const [k, g] of got) if (!expected.has(k)) unexpected += g;
      const offline = rec.messages.filter((m) => m.topic === `casino/${T}/status` && m.payload?.state === 'offline').length;
      const wildcardPublishes = rec.messages.filter((m) => m.topic.startsWith('x/')).length;
      const deputyResults = rec.messages.filter(
        (m) => (m.topic === `casino/${T}/result` || m.topic.startsWith(`casino/${T}/request/`)) && m.payload?.type === 'response',
      ).length;
      const answerCount = answers().length;
      log(`${sent.length} requests, ${answerCount} answers`);
      for (const m of rec.messages.filter(
        (m) => (m.topic === `casino/${T}/result` || m.topic.startsWith(`casino/${T}/request/`)) && m.payload?.type === 'response',
      ))
        log(`deputy: ${m.topic} ${JSON.stringify(m.payload).slice(0, 300)}`);
      for (const [k, g] of got) if ((expected.get(k) ?? 0) < g) log(`answered more than asked: ${k.slice(0, 80)} ${g} > ${expected.get(k) ?? 0}`);

      // restart: the broker hands the retained requests out again; none may be executed
      await gw.stop();
      gw = undefined;
      rec.clear();
      gw = await startGateway(cfg, { simulators: loadSimulators, logger: logger() });
      await rec.waitFor((m) => m.topic === `casino/${T}/status` && m.payload?.state === 'online', 10_000);
      await sleep(1500);
      const retainedExecuted = rec.messages.filter((m) => m.topic.startsWith(`casino/${T}/response/`)).length;
      await engine.publishAsync(`casino/${T}/request/status`, JSON.stringify({ transaction: 'final' }), { qos: 1 });
      let ready = 0;
      try {
        await rec.waitFor((m) => m.topic === `casino/${T}/response/status` && m.payload?.transaction === 'final' && m.payload?.status === 'ok', 5000);
        ready = 1;
      } catch {
        /* counted below */
      }
      const stackTraces = logLines.filter((l) => /\\n\s+at |TypeError|ReferenceError/.test(l)).length;
      return {
        section: 'request-fuzz',
        figures: {
          requests: sent.length,
          answers: answerCount,
          unanswered,
          'answered-twice': twice,
          'answers-unmatched': unexpected,
          'errors-without-code': withoutCode,
          'errors-unknown-code': unknownCode,
          'gateway-offline': offline,
          'wildcard-publishes': wildcardPublishes,
          'deputy-publishes': deputyResults,
          'retained-executed-on-resubscribe': retainedExecuted,
          'stack-traces': stackTraces,
          'not-ready-at-end': 1 - ready,
        },
        zeroColumns: [
          'unanswered',
          'answered-twice',
          'answers-unmatched',
          'errors-without-code',
          'errors-unknown-code',
          'gateway-offline',
          'wildcard-publishes',
          'deputy-publishes',
          'retained-executed-on-resubscribe',
          'stack-traces',
          'not-ready-at-end',
        ],
        notes: [`${retainedTopics.size} retained request topics left on the broker before the restart`],
      };
    } finally {
      for (const t of retainedTopics) await engine.publishAsync(t, '', { qos: 1, retain: true }).catch(() => {});
      await gw?.stop();
      await engine.endAsync(true);
      await rec.close();
      await pty.dispose();
      await broker.stop();
      await removeTempDir(dataDir);
    }
  },
};

export default section;
