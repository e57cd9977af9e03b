/**
 * A virtual game engine: sends requests to a table over MQTT (`request/<command>` with a
 * transaction id) and waits for the gateway's answer, the way a real engine drives betting windows
 * and player decisions.
 */
import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import mqtt, { type MqttClient } from 'mqtt';
import type { SimulatedEngine } from '../src/runtime/simulators.js';
import type { Logger } from '../src/runtime/log.js';

export class VirtualEngine implements SimulatedEngine {
  private client: MqttClient | null = null;
  private n = 0;
  /** transactions are unique across the engine's restarts: the table remembers answered ones (idempotent requests) */
  private readonly run = randomBytes(4).toString('hex');
  /** requests in flight by transaction: their answer, and giving up when the engine closes (its simulator is stopping) */
  private readonly waiting = new Map<string, { answer: (payload: Record<string, unknown>) => void; giveUp: () => void }>();

  constructor(
    private readonly url: string,
    private readonly prefix: string,
    private readonly tableId: string,
    private readonly log: Logger,
  ) {}

  async connect(): Promise<void> {
    const client = mqtt.connect(this.url, { clientId: `virtual-engine-${this.tableId}-${process.pid}`, reconnectPeriod: 1000 });
    this.client = client;
    client.on('connect', () => (client.stream as unknown as Socket | undefined)?.setNoDelay?.(true));
    client.on('message', (_topic, payload) => {
      try {
        const msg = JSON.parse(payload.toString('utf8')) as Record<string, unknown>;
        const tx = msg.transaction as string | undefined;
        const request = tx ? this.waiting.get(tx) : undefined;
        if (request) {
          this.waiting.delete(tx!);
          request.answer(msg);
        }
      } catch {
        /* not ours */
      }
    });
    await new Promise<void>((resolve) => client.once('connect', () => resolve()));
    await client.subscribeAsync(`${this.prefix}/${this.tableId}/response/+`, { qos: 1 });
  }

  /**
   * sends a request and resolves with the gateway's response envelope; a request refused by the
   * gateway's rate limit is sent again after a pause, as a well-behaved engine does
   */
  async request(command: string, args: Record<string, unknown> = {}, timeoutMs = 10_000): Promise<Record<string, unknown>> {
    for (let attempt = 0; ; attempt++) {
      const msg = await this.requestOnce(command, args, timeoutMs);
      if (msg.status === 'ok' || attempt >= 50 || !String(msg.error ?? '').startsWith('rate limited')) return msg;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  private requestOnce(command: string, args: Record<string, unknown>, timeoutMs: number): Promise<Record<string, unknown>> {
    const client = this.client;
    if (!client) return Promise.reject(new Error('virtual engine not connected'));
    const transaction = `ve-${this.run}-${++this.n}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(transaction);
        reject(new Error(`no response to ${command} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiting.set(transaction, {
        answer: (msg) => {
          clearTimeout(timer);
          if (msg.status !== 'ok' && !String(msg.error ?? '').startsWith('rate limited'))
            this.log.warn(`virtual engine: ${command} refused: ${String(msg.error)}`);
          resolve(msg);
        },
        giveUp: () => {
          clearTimeout(timer);
          reject(new Error(`virtual engine closed before the response to ${command}`));
        },
      });
      client.publish(`${this.prefix}/${this.tableId}/request/${command}`, JSON.stringify({ transaction, ...args }), { qos: 1 });
    });
  }

  async close(): Promise<void> {
    const c = this.client;
    this.client = null;
    // a simulated dealer waiting for an answer stops now, not when its timeout fires
    const inFlight = [...this.waiting.values()];
    this.waiting.clear();
    for (const r of inFlight) r.giveUp();
    if (c) await c.endAsync();
  }
}
