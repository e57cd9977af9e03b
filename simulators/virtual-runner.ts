/**
 * The shape of every built-in virtual device the gateway starts for `transport: simulator`, and a
 * base for the ones that run their own loop (dice table, keno draw machine, standalone shuffler).
 */
import { setImmediate as yieldToLoop, setTimeout as sleep } from 'node:timers/promises';
import type { MemoryTransport } from '../drivers/transports/memory-transport.js';
import type { Rng } from './rng.js';

export interface VirtualDevice {
  /** the seed its randomness came from (logged, so a run can be repeated) */
  readonly seed: string | number;
  /** runs the simulation; resolves when it has done its configured amount of work (or was stopped) */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface UnplugFault {
  transport: MemoryTransport;
  /** probability per round / cycle */
  rate: number;
  ms: number;
}

export abstract class LoopRunner implements VirtualDevice {
  protected running = false;
  private done: Promise<void> | null = null;
  /** aborts the pauses in progress: stop() returns at once instead of after the current wait */
  private readonly halt = new AbortController();

  constructor(
    readonly seed: string | number,
    protected readonly rng: Rng,
    private readonly unplug?: UnplugFault,
  ) {}

  start(): Promise<void> {
    if (this.done) return this.done;
    this.running = true;
    this.onPowerUp();
    this.done = this.run().finally(() => {
      this.running = false;
      this.onStopped();
    });
    return this.done;
  }

  async stop(): Promise<void> {
    this.running = false;
    this.halt.abort();
    await this.done?.catch(() => undefined);
  }

  protected abstract run(): Promise<void>;
  protected abstract onPowerUp(): void;
  protected onStopped(): void {}

  protected async pause(ms: number): Promise<void> {
    if (ms <= 0) await yieldToLoop();
    else await sleep(ms, undefined, { signal: this.halt.signal }).catch(() => undefined);
  }

  /**
   * An engine request that survives a lost message (e.g. the very first one, sent before the
   * table's MQTT subscription is in place): retried a few times, never throws.
   */
  protected async ask(request: EngineRequest, command: string, args?: Record<string, unknown>): Promise<void> {
    for (let i = 0; i < 5 && this.running; i++) {
      try {
        await request(command, args, 2000);
        return;
      } catch {
        // no answer: ask again
      }
    }
  }

  /** the cable is pulled now and then (faults.unplugRate): down for `ms`, then the device powers up again */
  protected async maybeUnplug(): Promise<void> {
    const u = this.unplug;
    if (!u || u.rate <= 0 || this.rng() >= u.rate) return;
    u.transport.setConnected(false, 'simulated unplug');
    await sleep(u.ms, undefined, { signal: this.halt.signal }).catch(() => undefined);
    u.transport.setConnected(true);
    if (this.running) this.onPowerUp();
  }
}

/** an engine request function (the virtual engine), or none for `betting: none` */
export type EngineRequest = (command: string, args?: Record<string, unknown>, timeoutMs?: number) => Promise<unknown>;
