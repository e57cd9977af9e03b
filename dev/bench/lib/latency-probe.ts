/**
 * The bench's `Probe` (src/core/vocabulary/probe.ts): per-stage timestamps of a card's way through
 * the gateway, for the latency bench (dev/bench/latency.ts; docs/PERFORMANCE.md). The bench's
 * gateway process (dev/bench/gateway-child.ts) plugs it in with `startGateway(cfg, { probe })` when
 * it was started with `TEG_LATENCY_PROBE=1`; the product itself runs with `NO_PROBE`.
 *
 * Times are `process.hrtime` (CLOCK_MONOTONIC) in milliseconds: the same clock in every process
 * and thread of the machine, so the bench can put its own write and receive times beside them.
 *
 * The stamps of the serial read and of the codec are "the last chunk read / decoded": the
 * runtime takes them when the frame's input reaches the machine. The latency bench runs one table
 * on one line, so they belong to the card being measured (a chunk holding several lines gives
 * them all the same stamps, which is what happened to them).
 */

import type { Probe } from '../../../src/core/vocabulary/probe.js';

/** now on the machine-wide monotonic clock, in ms */
export function probeNow(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** one card event's stamps, in the order the card passes them (NaN: not reached) */
export interface CardProbe {
  /** the envelope `seq` of the card's `events` message */
  seq: number;
  tableId: string;
  /** the serial transport emitted the chunk */
  read: number;
  /** the codec returned the frame */
  decoded: number;
  /** the input reached TableRuntime.apply (driver checks and rxjs between) */
  apply: number;
  /** step() returned */
  stepped: number;
  /** the outputs were serialised (their topic-map check runs later, beside the commit) */
  serialised: number;
  /** the store handed the batch holding the step to the writer thread */
  flushed: number;
  /** the writer thread began the batch's transaction */
  commitStart: number;
  /** the writer thread's commit (and fsync) returned */
  commitEnd: number;
  /** the main thread ran the step's effects after the commit */
  effects: number;
  /** the outbox handed the message to mqtt.js */
  published: number;
}

/** the most records kept between two reads (the bench reads them after every series) */
const MAX_RECORDS = 50_000;

export class LatencyProbe implements Probe {
  readonly on = true;
  lastReadAt = Number.NaN;
  lastDecodedAt = Number.NaN;
  /** the stamps of the batch whose effects are being run */
  lastFlushedAt = Number.NaN;
  lastCommitStart = Number.NaN;
  lastCommitEnd = Number.NaN;
  private records: CardProbe[] = [];
  /** message object -> its record, until the outbox publishes it */
  private readonly waitingPublish = new WeakMap<object, CardProbe>();

  now(): number {
    return probeNow();
  }

  chunkRead(): void {
    this.lastReadAt = probeNow();
  }

  frameDecoded(): void {
    this.lastDecodedAt = probeNow();
  }

  batchCommitted(flushedAt: number, commitStart: number, commitEnd: number): void {
    this.lastFlushedAt = flushedAt;
    this.lastCommitStart = commitStart;
    this.lastCommitEnd = commitEnd;
  }

  cardStepped(tableId: string, seq: number, message: object, applyAt: number, steppedAt: number): void {
    const r = this.begin(tableId, seq, applyAt);
    r.stepped = steppedAt;
    r.serialised = probeNow();
    this.awaitPublish(message, r);
  }

  effectsRun(message: object): void {
    const r = this.waitingPublish.get(message);
    if (!r) return;
    r.flushed = this.lastFlushedAt;
    r.commitStart = this.lastCommitStart;
    r.commitEnd = this.lastCommitEnd;
    r.effects = probeNow();
  }

  begin(tableId: string, seq: number, applyAt: number): CardProbe {
    const r: CardProbe = {
      seq,
      tableId,
      read: this.lastReadAt,
      decoded: this.lastDecodedAt,
      apply: applyAt,
      stepped: Number.NaN,
      serialised: Number.NaN,
      flushed: Number.NaN,
      commitStart: Number.NaN,
      commitEnd: Number.NaN,
      effects: Number.NaN,
      published: Number.NaN,
    };
    if (this.records.length < MAX_RECORDS) this.records.push(r);
    return r;
  }

  /** the record waits for `message` to be handed to mqtt.js */
  awaitPublish(message: object, r: CardProbe): void {
    this.waitingPublish.set(message, r);
  }

  published(message: object): void {
    const r = this.waitingPublish.get(message);
    if (!r) return;
    this.waitingPublish.delete(message);
    r.published = probeNow();
  }

  /** the records so far, and forget them */
  take(): CardProbe[] {
    const out = this.records;
    this.records = [];
    return out;
  }
}

/** the one probe of a bench gateway process */
export const latencyProbe = new LatencyProbe();
