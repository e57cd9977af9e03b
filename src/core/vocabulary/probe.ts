/**
 * The `Probe` port: marks of a card's way through the gateway, for a measuring tool that plugs
 * one in (the bench plugs its own into `startGateway`). The product runs with `NO_PROBE`: every
 * call site tests `on` before it reads a clock, so an unmeasured gateway pays one predictable
 * branch per stage and allocates nothing. The interface is pure; the clock is the probe's own.
 */
export interface Probe {
  /** false: nobody measures (call sites skip their clock reads) */
  readonly on: boolean;
  /** the probe's clock: the machine-wide monotonic clock in ms (process.hrtime), which the journal's writer thread stamps its commits with too */
  now(): number;
  /** a transport emitted a chunk of bytes */
  chunkRead(): void;
  /** a codec returned a frame */
  frameDecoded(): void;
  /** the journal committed the batch whose effects run next: handed over, commit began, commit ended */
  batchCommitted(flushedAt: number, commitStart: number, commitEnd: number): void;
  /** a CARD frame's `card` event was stepped (`applyAt`, `steppedAt`) and serialised (now) */
  cardStepped(tableId: string, seq: number, message: object, applyAt: number, steppedAt: number): void;
  /** the step holding `message` was committed and its effects run */
  effectsRun(message: object): void;
  /** the outbox handed `message` to the MQTT client */
  published(message: object): void;
}

const nothing = (): void => {};

/** the product's probe: measures nothing */
export const NO_PROBE: Probe = {
  on: false,
  now: () => 0,
  chunkRead: nothing,
  frameDecoded: nothing,
  batchCommitted: nothing,
  cardStepped: nothing,
  effectsRun: nothing,
  published: nothing,
};
