/**
 * The Python example engine (examples/python-engine/engine.py, paho-mqtt), run as a child process
 * against the real gateway and a real Mosquitto, drives `betting: engine` simulated tables left to
 * it (`transport.engine: external`) for a bounded number of rounds, over MQTT 5 (a response topic
 * of its own, correlation data) and over MQTT 3.1.1 (answers matched by transaction). Its JSON
 * lines are checked against what the gateway published: every request exactly one answer, no gap,
 * every result signature-verified, every round settled from the published outcome's fields.
 *
 * Needs /usr/bin/python3 with paho-mqtt and cryptography (Debian: python3-paho-mqtt,
 * python3-cryptography): skipped with a message without them, a failure with REQUIRE_REAL_IO=1.
 */
import { spawn, spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/app/config/load-config.js';
import { startGateway, type Gateway } from '../../src/app/gateway.js';
import { loadSimulators } from '../../simulators/load.js';
import { silentLogger } from '../../src/runtime/log.js';
import { startMosquitto, type MosquittoBroker } from '../../dev/rig/mosquitto.js';
import { makeTempDir } from '../../dev/rig/temp-dir.js';
import { realIoOrSkip, requireRealIo } from '../helpers/real-io.js';
import { canonicalJson, signEnvelope } from '../../src/adapters/security/signing.js';
import mqtt, { type MqttClient } from 'mqtt';

const ENGINE = join(import.meta.dirname, '../../examples/python-engine/engine.py');
/** the system's interpreter: the one Debian's python3-paho-mqtt is installed for (not a pyenv shim) */
const PYTHON = '/usr/bin/python3';

function pythonOrSkip(): { available: boolean } {
  const mosquitto = realIoOrSkip(['mosquitto']);
  if (!mosquitto.available) return mosquitto;
  const probe = existsSync(PYTHON) ? spawnSync(PYTHON, ['-c', 'import paho.mqtt.client, cryptography'], { encoding: 'utf8' }) : null;
  if (probe?.status === 0) return { available: true };
  const reason = `${PYTHON} with paho-mqtt and cryptography is needed (install with: apt-get install -y python3-paho-mqtt python3-cryptography)${probe ? `: ${probe.stderr.trim().split('\n').at(-1)}` : ''}`;
  if (requireRealIo) throw new Error(`REQUIRE_REAL_IO=1 but ${reason}`);
  console.warn(`[real-io] skipping the Python engine: ${reason}`);
  return { available: false };
}

const io = pythonOrSkip();

const TABLES = [
  { id: 'py-bac-1', game: 'baccarat' },
  { id: 'py-dt-1', game: 'dragon-tiger' },
  { id: 'py-tcp-1', game: 'three-card-poker' },
  { id: 'py-pok-1', game: 'pok-deng' },
];
const RESPONSE_PREFIX = 'engines/py/';

type Line = Record<string, any> & { event: string };

/** runs the engine to its end; its stdout as JSON lines */
function runEngine(
  brokerPort: number,
  args: string[],
  onLine: (l: Line, stop: () => void) => void = () => {},
): Promise<{ code: number | null; lines: Line[]; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, [ENGINE, '--host', '127.0.0.1', '--port', String(brokerPort), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: Line[] = [];
    let partial = '';
    let stderr = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => {
      const parts = (partial + d).split('\n');
      partial = parts.pop()!;
      for (const l of parts.filter((x) => x.trim() !== '')) {
        lines.push(JSON.parse(l) as Line);
        onLine(lines.at(-1)!, () => child.kill('SIGKILL'));
      }
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 100_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (partial.trim() !== '') lines.push(JSON.parse(partial) as Line);
      resolve({ code, lines, stderr });
    });
  });
}

describe.skipIf(!io.available)('the Python example engine (paho-mqtt) against the real gateway and Mosquitto', () => {
  let broker: MosquittoBroker;
  let gw: Gateway;
  /** what the gateway publishes, as a plain MQTT 5 subscriber with a lasting session sees it: the reference the engine's report is checked against */
  const watched: Array<{ topic: string; payload: any; correlation?: Buffer }> = [];
  let watcher: MqttClient;
  let publicKeyFile: string;

  beforeAll(async () => {
    broker = await startMosquitto({ persistent: true });
    const dir = await makeTempDir('teg-py-engine-');
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const keyFile = join(dir, 'signing.key');
    writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    publicKeyFile = join(dir, 'signing.pub');
    writeFileSync(publicKeyFile, publicKey.export({ type: 'spki', format: 'pem' }));
    const cfg = validateConfig({
      gatewayId: 'py-it',
      mqtt: { url: broker.url, protocolVersion: 5 },
      dataDir: join(dir, 'data'),
      http: { enabled: false },
      health: { intervalMs: 0 },
      signing: { privateKeyFile: keyFile },
      requests: { responseTopicPrefixes: [RESPONSE_PREFIX] },
      tables: TABLES.map((t) => ({
        id: t.id,
        game: t.game,
        betting: 'engine',
        devices: [{ id: 'shoe-1', kind: 'card-shoe', transport: { type: 'simulator', seed: t.id, cardIntervalMs: 0, roundIntervalMs: 0, engine: 'external' } }],
      })),
    });
    watcher = await mqtt.connectAsync(broker.url, {
      clientId: 'py-it-watcher',
      protocolVersion: 5,
      clean: false,
      properties: { sessionExpiryInterval: 600 },
      reconnectPeriod: 200,
    });
    watcher.on('error', () => {});
    watcher.on('message', (topic, payload, packet) => {
      watched.push({ topic, payload: JSON.parse(payload.toString('utf8')), correlation: packet.properties?.correlationData });
    });
    await watcher.subscribeAsync(['casino/+/result', 'casino/+/response/+', `${RESPONSE_PREFIX}#`], { qos: 1 });
    gw = await startGateway(cfg, { simulators: loadSimulators, logger: silentLogger, fast: true });
  });

  afterAll(async () => {
    await watcher?.endAsync(true).catch(() => {});
    await gw?.stop().catch(() => {});
    await broker?.stop().catch(() => {});
  });

  /** the checks every run must pass, from its JSON lines and the gateway's own messages */
  function checkRun(lines: Line[], tables: typeof TABLES, rounds: number) {
    const summary = lines.find((l) => l.event === 'summary');
    expect(summary, 'the summary line').toBeDefined();
    expect(lines.filter((l) => l.event === 'error' || l.event === 'signature-failure' || l.event === 'invalid' || l.event === 'gap')).toEqual([]);
    expect(summary).toMatchObject({
      ok: true,
      roundsDriven: tables.length * rounds,
      exactlyOneAnswer: true,
      unanswered: [],
      executedTwice: [],
      gaps: 0,
      missing: {},
    });
    expect(summary!.requests).toBeGreaterThanOrEqual(tables.length * rounds * 2);
    expect(summary!.answered).toBe(summary!.requests);
    expect(summary!.signatureFailures).toBe(0);

    // discovery: the tables it found are the gateway's, with their games
    expect(lines.find((l) => l.event === 'tables')!.tables).toEqual(tables.map((t) => ({ id: t.id, game: t.game })).sort((a, b) => a.id.localeCompare(b.id)));

    // every request it sent (every attempt with the same transaction) got its one answer, and that answer is the gateway's
    const requests = lines.filter((l) => l.event === 'request');
    const answers = lines.filter((l) => l.event === 'answer');
    const transactions = new Set(requests.map((r) => r.transaction));
    expect(answers.map((a) => a.transaction).sort()).toEqual([...transactions].sort());
    for (const a of answers) {
      const published = watched.filter((m) => m.topic === `casino/${a.table}/response/${a.command}` && m.payload.transaction === a.transaction);
      // (counted by seq: a message may be delivered again after the broker's outage)
      expect(
        new Set(published.filter((m) => !m.payload.replayed).map((m) => m.payload.seq)).size,
        `${a.table} ${a.command} ${a.transaction}: executed once`,
      ).toBe(1);
      expect(published.map((m) => m.payload.seq)).toContain(a.seq);
    }
    const byTable = new Map<string, Line[]>();
    for (const r of requests.filter((x) => x.attempt === 1)) byTable.set(r.table, [...(byTable.get(r.table) ?? []), r]);
    for (const t of tables) {
      const commands = byTable.get(t.id)!.map((r) => r.command);
      expect(commands.filter((c) => c === 'open-betting').length, `${t.id} open-betting`).toBeGreaterThanOrEqual(rounds);
      if (t.game === 'three-card-poker') expect(commands.filter((c) => c === 'close-decisions').length, `${t.id} close-decisions`).toBeGreaterThanOrEqual(1);
    }

    // every round it drove was settled from the outcome the gateway published (and signed) for it
    const settled = lines.filter((l) => l.event === 'settled');
    expect(settled).toHaveLength(tables.length * rounds);
    for (const s of settled) {
      expect(s.roundId).toMatch(new RegExp(`^E${summary!.runId.slice(0, 8)}-\\d+$`));
      const published = watched.find((m) => m.topic === `casino/${s.table}/result` && m.payload.roundId === s.roundId);
      expect(published, `the result of ${s.roundId}`).toBeDefined();
      const result = published!.payload;
      expect(result.signature).toBeDefined();
      expect({ seq: s.seq, status: s.status }).toEqual({ seq: result.seq, status: result.status });
      if (result.status !== 'complete') {
        expect(s.bets).toEqual([]);
        continue;
      }
      const o = result.outcome;
      expect(s.net).toBeCloseTo(
        s.bets.reduce((n: number, b: { net: number }) => n + b.net, 0),
        6,
      );
      const net = (name: string) => s.bets.find((b: { bet: string }) => b.bet === name).net;
      if (s.game === 'baccarat') {
        expect(s.facts).toEqual({ winner: o.winner, playerPair: o.playerPair, bankerPair: o.bankerPair, size: o.size });
        expect(Math.sign(net('player'))).toBe(o.winner === 'player' ? 1 : o.winner === 'tie' ? 0 : -1);
        expect(net('tie') > 0).toBe(o.winner === 'tie');
        expect(net('player-pair') > 0).toBe(o.playerPair);
      } else if (s.game === 'dragon-tiger') {
        expect(s.facts).toEqual({ winner: o.winner, suitedTie: o.suitedTie, dragonColor: o.dragonColor });
        expect(net('dragon') > 0).toBe(o.winner === 'dragon');
        expect(net('dragon-red') > 0).toBe(o.dragonColor === 'red');
      } else if (s.game === 'three-card-poker') {
        expect(s.facts).toMatchObject({
          winner: o.winner,
          dealerQualifies: o.dealerQualifies,
          anteBonus: o.anteBonus,
          pairPlus: o.pairPlus,
          sixCardBonus: o.sixCardBonus,
        });
        expect(net('pair-plus') > 0).toBe(o.pairPlus !== null);
        if (!s.facts.played) expect(net('ante')).toBeLessThan(0);
      } else if (s.game === 'pok-deng') {
        for (const [box, f] of Object.entries(s.facts as Record<string, { outcome: string; multiplier: number }>)) {
          expect(f).toEqual({ outcome: o.positions[box].outcome, multiplier: o.positions[box].multiplier });
          expect(net(box)).toBe((f.outcome === 'win' ? 1 : f.outcome === 'lose' ? -1 : 0) * f.multiplier * 10);
        }
      }
    }
    // every result it settled passed its signature check (and the retained ones it found on subscribing too)
    expect(summary!.signaturesVerified).toBeGreaterThanOrEqual(settled.length);
    return summary!;
  }

  it('MQTT 5, through a broker outage mid-round: its own response topic and correlation data, copies deduped, retries answered once', async () => {
    const rounds = 5;
    let settled = 0;
    let outage: Promise<void> | null = null;
    const run = await runEngine(
      broker.port,
      [
        '--gateway',
        'py-it',
        '--rounds',
        String(rounds),
        '--betting-ms',
        '2000',
        '--timeout',
        '1',
        '--response-prefix',
        RESPONSE_PREFIX,
        '--public-key',
        publicKeyFile,
      ],
      (l) => {
        if (l.event === 'settled') settled++;
        // once every table has settled a round: the broker goes down for 6 s while betting is open on a table,
        // so that table's close-betting waits in the engine's client, is sent again (the same transaction) after
        // its timeout, and both attempts reach the gateway when the broker is back: one execution, the retry's
        // answer a replay. The broker keeps its sessions (persistence): nothing published meanwhile is lost.
        if (!outage && settled >= TABLES.length && l.event === 'answer' && l.command === 'open-betting' && l.status === 'ok') {
          outage = (async () => {
            await broker.pause();
            await new Promise((r) => setTimeout(r, 6_000));
            await broker.resume();
          })();
        }
      },
    );
    expect(outage, 'the broker went down during the run').not.toBeNull();
    await outage;
    expect(run.stderr).toBe('');
    expect(run.code, JSON.stringify(run.lines.at(-1))).toBe(0);
    const summary = checkRun(run.lines, TABLES, rounds);
    // presence: the gateway never stopped: after the outage (the broker may deliver the table's will, `connection-lost`,
    // on its restart) every table says `online`, `reconnect`: the same run, nothing lost
    for (const t of TABLES) {
      const status = run.lines.filter((l) => l.event === 'status' && l.table === t.id).map((l) => `${l.state}/${l.reason}`);
      expect(status[0], t.id).toBe('online/start');
      expect(status.at(-1), t.id).toBe('online/reconnect');
      for (const v of status.slice(1)) expect(['offline/connection-lost', 'online/reconnect'], t.id).toContain(v);
    }
    // the engine's session outlived the outage
    expect(run.lines.filter((l) => l.event === 'connection' && l.state === 'connected').map((l) => l.sessionPresent)).toEqual([false, true]);
    // the retry policy: requests sent while the broker was down were sent again with the same transaction and
    // executed once (checkRun: one fresh answer per transaction); the retries' answers are replays
    expect(summary.retries).toBeGreaterThanOrEqual(1);
    expect(summary.replayed).toBeGreaterThanOrEqual(1);
    expect(summary.sends).toBe(summary.requests + summary.retries);
    // the answers came on its response topic with its correlation data, and as the table's own response/<command>:
    // one answer each under the dedupe rule
    // (each answer, fresh or a replay, is taken once: by the correlation data of its copy, or by its transaction
    // when the table's own response/<command> happens to arrive first)
    expect(summary.matchedByCorrelation + summary.matchedByTransaction).toBe(summary.requests + summary.replayed);
    expect(summary.matchedByCorrelation).toBeGreaterThan(summary.requests / 2);
    expect(summary.copies).toBeGreaterThanOrEqual(summary.requests);
    expect(summary.duplicates).toBeGreaterThanOrEqual(summary.copies);
    const copies = watched.filter((m) => m.topic.startsWith(`${RESPONSE_PREFIX}py-engine-${summary.runId}/`));
    expect(new Set(copies.map((m) => `${m.payload.table}:${m.payload.seq}`)).size).toBe(summary.requests + summary.replayed);
    expect(copies.every((m) => m.correlation !== undefined && m.correlation.length === 16)).toBe(true);
  }, 120_000);

  it('MQTT 3.1.1: answers on response/<command>, matched by transaction', async () => {
    const tables = TABLES.slice(0, 2);
    const rounds = 2;
    const run = await runEngine(broker.port, [
      '--protocol',
      '3.1.1',
      '--tables',
      tables.map((t) => t.id).join(','),
      '--rounds',
      String(rounds),
      '--betting-ms',
      '0',
      '--timeout',
      '3',
      '--public-key',
      publicKeyFile,
    ]);
    expect(run.stderr).toBe('');
    expect(run.code, JSON.stringify(run.lines.at(-1))).toBe(0);
    const summary = checkRun(run.lines, tables, rounds);
    expect(summary).toMatchObject({ protocol: '3.1.1', matchedByCorrelation: 0, copies: 0 });
    expect(summary.matchedByTransaction).toBe(summary.requests);
  });

  it("its signature check agrees with the gateway's signing on any JSON: numbers, escapes, non-ASCII keys, a named key", async () => {
    const dir = await makeTempDir('teg-py-canon-');
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const pub = join(dir, 'k.pub');
    writeFileSync(pub, publicKey.export({ type: 'spki', format: 'pem' }));
    const base = { v: 1, type: 'result', table: 't-1', game: 'baccarat', seq: 7, ts: '2026-01-01T00:00:00.000Z' };
    const odd = [
      { n: [0, -0, 1, -1, 0.1, 4.5, 1e21, 1e20, 123456789012345680000, 1e-7, 1.5e-7, 0.000001, 2 ** 53, -1e-300, 1.7976931348623157e308] },
      { s: 'quote " backslash \\ nl \n tab \t ctl \u0001 \u001f del \u007f é 漢 😀 \u2028' },
      { é: 1, z: 2, a: { Z: [], a: {}, '😀': null, ﬀ: true, '\u00e0': false } },
      { outcome: { winner: 'player', signature: { keep: 'a member named signature deeper in the message stays' } } },
    ];
    const signed = odd.map((extra, i) => signEnvelope({ ...base, seq: i + 1, ...extra }, privateKey));
    const named = signEnvelope({ ...base, seq: 99 }, privateKey, 'casino-a-2026');
    const tampered = { ...signed[0], n: [...(signed[0].n as number[]).slice(0, -1), 1.7976931348623155e308] };
    const relabelled = { ...signed[1], signature: { ...(signed[1].signature as object), keyId: 'casino-a-2026' } };
    const lines = [...signed, named, tampered, relabelled];
    writeFileSync(join(dir, 'msgs.jsonl'), lines.map((m) => JSON.stringify(m)).join('\n'));
    // the canonical text, as Python writes it, must be the gateway's byte for byte
    const script = [
      'import json, sys',
      `sys.path.insert(0, ${JSON.stringify(join(import.meta.dirname, '../../examples/python-engine'))})`,
      'import engine',
      `v = engine.Verifier([${JSON.stringify(pub)}, "casino-a-2026=" + ${JSON.stringify(pub)}])`,
      `for line in open(${JSON.stringify(join(dir, 'msgs.jsonl'))}, encoding="utf-8"):`,
      '    m = json.loads(line)',
      '    c = dict(m); c["signature"] = {k: x for k, x in m["signature"].items() if k != "sig"}',
      '    print(json.dumps({"verdict": v.check(m), "canonical": engine.canonical_json(c)}))',
    ].join('\n');
    const r = spawnSync(PYTHON, ['-B', '-c', script], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    const out = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { verdict: string | null; canonical: string });
    expect(out).toHaveLength(lines.length);
    for (let i = 0; i < lines.length; i++) {
      const { sig: _sig, ...covered } = lines[i].signature as Record<string, unknown>;
      expect(out[i].canonical, `message ${i}`).toBe(canonicalJson({ ...lines[i], signature: covered }));
    }
    expect(out.slice(0, signed.length + 1).map((o) => o.verdict)).toEqual(new Array(signed.length + 1).fill(null));
    expect(out[signed.length + 1].verdict).toMatch(/^signature does not match/);
    expect(out[signed.length + 2].verdict).toMatch(/^signature does not match/);
  });

  it('an engine stopped in the middle of a round: the next run closes the round it left open, then drives its own', async () => {
    const table = 'py-bac-1';
    let stopped: string | null = null;
    const first = await runEngine(broker.port, ['--tables', table, '--rounds', '3', '--betting-ms', '5000', '--public-key', publicKeyFile], (l, stop) => {
      if (!stopped && l.event === 'answer' && l.command === 'open-betting' && l.status === 'ok') {
        stopped = l.transaction;
        stop(); // killed while betting is open on its round
      }
    });
    expect(first.code).toBeNull(); // killed
    const left = first.lines.find((l) => l.event === 'request' && l.transaction === stopped)!.args.roundId as string;
    const second = await runEngine(broker.port, ['--tables', table, '--rounds', '1', '--betting-ms', '0', '--public-key', publicKeyFile]);
    expect(second.stderr).toBe('');
    expect(second.code, JSON.stringify(second.lines.at(-1))).toBe(0);
    expect(second.lines.filter((l) => l.event === 'stray-round')).toEqual([{ event: 'stray-round', table, roundId: left, phase: 'betting' }]);
    const closed = second.lines.find((l) => l.event === 'answer' && l.command === 'close-betting')!;
    expect(closed).toMatchObject({ table, status: 'ok' });
    // the round it left open has its result, then the new run's own round, settled
    expect(watched.some((m) => m.topic === `casino/${table}/result` && m.payload.roundId === left)).toBe(true);
    checkRun(second.lines, [TABLES[0]], 1);
  });
});
