/**
 * What the chaos sections of this area share: a real gateway process (`tablegw start`) on a config
 * file, a real pty for its shoe, a real Mosquitto, and a persistent subscriber that keeps every
 * message by `seq` (to count reused seqs: one seq, two contents).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { startMosquitto, type MosquittoBroker } from '../rig/mosquitto.js';
import { createPtyPair, type PtyPair } from '../rig/pty-pair.js';
import { makeTempDir } from '../rig/temp-dir.js';
import { referenceLine } from '../../test/helpers/reference-shoe.js';

export const ROOT = join(import.meta.dirname, '..', '..');

export interface Msg {
  topic: string;
  raw: string;
  payload: any;
}

export { referenceLine };

/** a shoe written independently of the gateway's codec */
export class Shoe {
  seq = 0;
  constructor(private readonly pty: PtyPair) {}
  async send(...parts: string[]): Promise<void> {
    await this.pty.write(referenceLine(['SHOE', String(this.seq), ...parts].join(',')));
    this.seq = (this.seq + 1) % 65536;
  }
  async cards(...cards: string[]): Promise<void> {
    for (const c of cards) await this.send('CARD', c);
  }
  async raw(text: string): Promise<void> {
    await this.pty.write(text);
  }
}

export class Subscriber {
  readonly got: Msg[] = [];
  private constructor(readonly client: MqttClient) {}
  static async connect(url: string, clientId: string, filter = 'casino/#'): Promise<Subscriber> {
    const client = mqtt.connect(url, { clientId, clean: false, reconnectPeriod: 100, protocolVersion: 4 });
    const s = new Subscriber(client);
    client.on('message', (topic, payload) => {
      const raw = payload.toString('utf8');
      let p: unknown = null;
      try {
        p = JSON.parse(raw);
      } catch {
        /* keep raw */
      }
      s.got.push({ topic, raw, payload: p });
    });
    await new Promise<void>((resolve) => client.once('connect', () => resolve()));
    await client.subscribeAsync(filter, { qos: 1 });
    return s;
  }
  async waitFor(pred: (m: Msg) => boolean, ms = 15000, from = 0): Promise<Msg> {
    const end = Date.now() + ms;
    for (;;) {
      const m = this.got.slice(from).find(pred);
      if (m) return m;
      if (Date.now() > end)
        throw new Error(
          `timed out; ${this.got.length} messages, last: ${this.got
            .slice(-4)
            .map((x) => x.topic)
            .join(', ')}`,
        );
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  /** seqs of a table delivered with two different contents */
  reusedSeqs(table: string): number {
    const bySeq = new Map<number, string>();
    let reused = 0;
    for (const m of this.got) {
      if (!m.topic.startsWith(`casino/${table}/`) || m.topic.endsWith('/status') || typeof m.payload?.seq !== 'number') continue;
      const prev = bySeq.get(m.payload.seq);
      if (prev !== undefined && prev !== m.raw) reused++;
      bySeq.set(m.payload.seq, m.raw);
    }
    return reused;
  }
  maxSeq(table: string): number {
    let max = 0;
    for (const m of this.got) if (m.topic.startsWith(`casino/${table}/`) && typeof m.payload?.seq === 'number') max = Math.max(max, m.payload.seq);
    return max;
  }
}

export interface GatewayRun {
  child: ChildProcess;
  stderr: () => string;
  stdout: () => string;
  exit: Promise<number | null>;
}

/** runs `tablegw <args>`; `env` adds to the environment (e.g. TABLEGW_CLOCK_OFFSET_MS) */
export function runCli(args: string[], env: Record<string, string> = {}): GatewayRun {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/app/cli/main.ts', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LOG_FORMAT: 'json', ...env },
  });
  let err = '';
  let out = '';
  child.stderr!.on('data', (d) => {
    err += String(d);
  });
  child.stdout!.on('data', (d) => {
    out += String(d);
  });
  const exit = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, stderr: () => err, stdout: () => out, exit };
}

export interface Rig {
  broker: MosquittoBroker;
  pty: PtyPair;
  dir: string;
  dataDir: string;
  cfgFile: string;
  dispose(): Promise<void>;
}

export async function makeRig(tableId: string, table: Record<string, unknown> = {}, extraCfg: Record<string, unknown> = {}): Promise<Rig> {
  const broker = await startMosquitto();
  const pty = await createPtyPair();
  const dir = await makeTempDir(`teg-chaos-${tableId}-`);
  const dataDir = join(dir, 'data');
  const cfgFile = join(dir, 'gateway.json');
  writeFileSync(
    cfgFile,
    JSON.stringify({
      mqtt: { url: broker.url },
      dataDir,
      ...extraCfg,
      tables: [
        {
          id: tableId,
          game: 'baccarat',
          devices: [{ id: 'shoe-1', kind: 'card-shoe', staleAfterMs: 60000, transport: { type: 'serial', path: pty.gatewayPath } }],
          ...table,
        },
      ],
    }),
  );
  return {
    broker,
    pty,
    dir,
    dataDir,
    cfgFile,
    async dispose() {
      await pty.dispose();
      await broker.stop();
    },
  };
}

/** starts `tablegw start`; resolves once the shoe is connected, or with the exit code if it exits first */
export async function startGatewayProcess(
  rig: Rig,
  sub: Subscriber,
  tableId: string,
  ms = 20000,
  env: Record<string, string> = {},
): Promise<{ run: GatewayRun; exited: number | null | undefined }> {
  const from = sub.got.length;
  const run = runCli(['start', '--config', rig.cfgFile], env);
  const online = sub.waitFor((m) => m.topic === `casino/${tableId}/devices/shoe-1` && m.payload?.state === 'connected', ms, from).then(() => undefined);
  const r = await Promise.race([online, run.exit.then((c) => ({ code: c }))]);
  if (r && typeof r === 'object') return { run, exited: r.code };
  return { run, exited: undefined };
}

export async function kill(run: GatewayRun, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (run.child.exitCode !== null || run.child.signalCode !== null) return;
  run.child.kill(signal);
  await run.exit;
}
