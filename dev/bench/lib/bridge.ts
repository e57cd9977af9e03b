/**
 * The plain bridge (dev/bench/plain-bridge.ts) under the latency bench: its own process on its own
 * pty, fed the same CARD lines as the gateway, its messages received by the same subscriber.
 * Latency = the last byte of the line written -> the subscriber has the message, as for the gateway.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeLine } from '../../../drivers/codecs/nmea-line.js';
import type { BenchPty } from './pty.js';

const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), '..', 'plain-bridge.ts');
const CARDS = ['AS', '7H', 'KD', 'TC', '2S', '9D', 'QH', '5C'];

export class PlainBridge {
  readonly latencies: number[] = [];
  private readonly sent = new Map<number, { t: number; rec: boolean }>();
  private seq = 0;

  private constructor(
    private readonly child: ChildProcess,
    private readonly pty: BenchPty,
  ) {}

  /** the bridge's process (its CPU is counted as the bench's own) */
  get pid(): number {
    return this.child.pid ?? 0;
  }

  static async start(pty: BenchPty, brokerUrl: string, topic: string, dbFile: string, payloadBytes: number): Promise<PlainBridge> {
    const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, pty.gatewayPath, brokerUrl, topic, dbFile, String(payloadBytes)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('the plain bridge did not get ready in 20 s')), 20_000);
      child.stdout!.on('data', (d: Buffer) => {
        if (d.toString().includes('ready')) {
          clearTimeout(t);
          resolve();
        }
      });
      child.once('exit', (code) => reject(new Error(`the plain bridge exited (${code})`)));
    });
    return new PlainBridge(child, pty);
  }

  /** writes one CARD line; its latency is kept when `record` */
  writeCard(record: boolean): void {
    const seq = this.seq;
    this.seq = (this.seq + 1) & 0xffff;
    const line = Buffer.from(encodeLine('SHOE', seq, 'CARD', [CARDS[seq % CARDS.length]]), 'latin1');
    this.pty.write(line);
    this.sent.set(seq, { t: performance.now(), rec: record });
  }

  onMessage(payload: Buffer, now: number): void {
    const text = payload.toString('latin1');
    const i = text.indexOf('"seq":');
    const seq = Number.parseInt(text.slice(i + 6, i + 12), 10);
    const s = this.sent.get(seq);
    if (!s) return;
    this.sent.delete(seq);
    if (s.rec) this.latencies.push(now - s.t);
  }

  get outstanding(): number {
    return this.sent.size;
  }

  async stop(): Promise<void> {
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
    this.child.kill('SIGKILL');
  }
}
