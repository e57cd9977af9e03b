/**
 * A private 3-node nats-server cluster on loopback ports, with JetStream and the MQTT listener on
 * every node (docs/SCALING.md "The clustered tier"): the clustered broker tier of a floor, for the
 * integration tests and the floor bench. Each node has its own store directory in a temp dir; a
 * node can be killed (SIGKILL: no goodbye to its clients or its routes) and started again on the
 * same ports with the same store.
 *
 * NATS's MQTT listener speaks MQTT 3.1.1 only, and needs JetStream. `stream_replicas: 3` puts the
 * MQTT session / retained / QoS 1 streams on all three nodes: with fewer replicas the loss of one
 * node can stall them.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { spawnSupervised, terminate, type SupervisedProcess } from './child-process.js';
import { commandPath } from './commands.js';
import { freePort } from './free-port.js';
import { makeTempDir, removeTempDir } from './temp-dir.js';

export interface NatsNode {
  name: string;
  /** mqtt://127.0.0.1:<port> (the MQTT listener) */
  mqttUrl: string;
  mqttPort: number;
  clientPort: number;
  clusterPort: number;
  /** false after kill()/stop() until start() */
  readonly running: boolean;
  log(): string;
  /** SIGKILL and wait for the exit */
  kill(): Promise<void>;
  /** SIGTERM (lame-duck is not used) and wait */
  stop(): Promise<void>;
  /** start again on the same ports and store (after kill/stop) */
  start(): Promise<void>;
}

export interface NatsCluster {
  nodes: NatsNode[];
  /** the MQTT URLs of every node, in node order */
  mqttUrls: string[];
  dir: string;
  /** stops every node and removes the temp dir; idempotent */
  stop(): Promise<void>;
}

export interface NatsClusterOptions {
  size?: number;
  /** how long a node may take to listen on its MQTT port (default 15 s) */
  startTimeoutMs?: number;
  /** MQTT stream replicas (default: the cluster size) */
  streamReplicas?: number;
}

export async function startNatsCluster(opts: NatsClusterOptions = {}): Promise<NatsCluster> {
  const size = opts.size ?? 3;
  const timeoutMs = opts.startTimeoutMs ?? 15_000;
  const dir = await makeTempDir('teg-nats-');
  const ports = [];
  const taken = new Set<number>();
  const port = async (): Promise<number> => {
    for (;;) {
      const p = await freePort();
      if (!taken.has(p)) {
        taken.add(p);
        return p;
      }
    }
  };
  for (let i = 0; i < size; i++) ports.push({ client: await port(), cluster: await port(), mqtt: await port() });
  const routes = ports.map((p) => `nats-route://127.0.0.1:${p.cluster}`).join(', ');
  const nodes: NatsNode[] = [];
  for (let i = 0; i < size; i++) {
    const name = `n${i + 1}`;
    const store = path.join(dir, name);
    fs.mkdirSync(store, { recursive: true });
    const conf = path.join(dir, `${name}.conf`);
    fs.writeFileSync(
      conf,
      [
        `server_name: ${name}`,
        `listen: 127.0.0.1:${ports[i].client}`,
        `jetstream { store_dir: "${store}" }`,
        `cluster { name: floor, listen: 127.0.0.1:${ports[i].cluster}, routes: [${routes}] }`,
        `mqtt { listen: 127.0.0.1:${ports[i].mqtt}, stream_replicas: ${opts.streamReplicas ?? size} }`,
        '',
      ].join('\n'),
    );
    nodes.push(makeNode(name, conf, ports[i], timeoutMs));
  }
  let stopped = false;
  try {
    await Promise.all(nodes.map((n) => n.start()));
  } catch (e) {
    await Promise.all(nodes.map((n) => n.stop()));
    await removeTempDir(dir);
    throw e;
  }
  return {
    nodes,
    mqttUrls: nodes.map((n) => n.mqttUrl),
    dir,
    async stop() {
      if (stopped) return;
      stopped = true;
      await Promise.all(nodes.map((n) => n.stop()));
      await removeTempDir(dir);
    },
  };
}

function makeNode(name: string, conf: string, ports: { client: number; cluster: number; mqtt: number }, timeoutMs: number): NatsNode {
  let proc: SupervisedProcess | undefined;
  let lastOutput = { text: '' };
  const node: NatsNode = {
    name,
    mqttUrl: `mqtt://127.0.0.1:${ports.mqtt}`,
    mqttPort: ports.mqtt,
    clientPort: ports.client,
    clusterPort: ports.cluster,
    get running() {
      return proc !== undefined && proc.exitInfo() === undefined;
    },
    log: () => lastOutput.text,
    async kill() {
      const p = proc;
      proc = undefined;
      if (!p || p.exitInfo() !== undefined) return;
      p.child.kill('SIGKILL');
      await p.exited;
    },
    async stop() {
      const p = proc;
      proc = undefined;
      if (p) await terminate(p);
    },
    async start() {
      if (proc && proc.exitInfo() === undefined) return;
      const p = spawnSupervised(commandPath('nats-server'), ['-c', conf], { stdout: true, stderr: true });
      proc = p;
      lastOutput = p.output;
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (p.exitInfo() !== undefined) throw new Error(`nats-server ${name} ${p.exitInfo()}; output:\n${p.output.text}`);
        if (/Listening for MQTT clients/.test(p.output.text) && (await canConnect(ports.mqtt))) return;
        if (Date.now() > deadline) {
          await terminate(p);
          throw new Error(`nats-server ${name} did not listen for MQTT on ${ports.mqtt} within ${timeoutMs} ms; output:\n${p.output.text}`);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
  return node;
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port });
    const done = (ok: boolean): void => {
      s.removeAllListeners();
      s.on('error', () => {});
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(500, () => done(false));
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
  });
}
