/** A private Mosquitto for the benchmark, on a free loopback port, and an MQTT client helper. */
import { spawn } from 'node:child_process';
import { accessSync, constants, writeFileSync } from 'node:fs';
import net, { type Socket } from 'node:net';
import { join } from 'node:path';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => resolve(port));
    });
  });
}

export interface Broker {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

const MOSQUITTO = ['/usr/sbin/mosquitto', '/usr/bin/mosquitto', '/usr/local/sbin/mosquitto'];

export async function startBroker(dir: string): Promise<Broker> {
  const port = await freePort();
  const conf = join(dir, 'mosquitto.conf');
  // defaults but two: no persistence, and no cap on a subscriber's queue (a dropped message would
  // be a card the bench waits for forever; latency, not loss, is measured here)
  writeFileSync(
    conf,
    [
      `listener ${port} 127.0.0.1`,
      'allow_anonymous true',
      'persistence false',
      'log_dest stderr',
      'log_type error',
      'log_type warning',
      'max_queued_messages 0',
      '',
    ].join('\n'),
  );
  const bin = MOSQUITTO.find(isExecutable) ?? 'mosquitto';
  const child = spawn(bin, ['-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (c: Buffer) => {
    if (err.length < 20_000) err += c.toString();
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`mosquitto exited: ${err}`);
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`mosquitto not listening on ${port}: ${err}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return {
    url: `mqtt://127.0.0.1:${port}`,
    pid: child.pid!,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(t);
    },
  };
}

function isExecutable(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * An mqtt.js client with the gateway's socket options: MQTT 5, clean session, and Nagle switched
 * off on every (re)connect, exactly as src/adapters/mqtt/table-link.ts does.
 */
export async function connectClient(url: string, clientId: string, extra: IClientOptions = {}): Promise<MqttClient> {
  const client = mqtt.connect(url, { clientId, protocolVersion: 5, clean: true, keepalive: 30, reconnectPeriod: 1000, ...extra });
  client.on('connect', () => (client.stream as unknown as Socket | undefined)?.setNoDelay?.(true));
  client.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`cannot connect to ${url}`)), 10_000);
    client.once('connect', () => {
      clearTimeout(t);
      resolve();
    });
  });
  return client;
}
