/**
 * SIGINT and SIGTERM for `tablegw start`: held while the gateway starts (the default action would
 * end the process with the journal's writer and the tables mid-start), then handed to the
 * graceful stop.
 *
 * One listener per signal for the whole run, its action switched once the gateway is up. Removing
 * the last listener of a signal closes Node's signal handle, and a signal that libuv has caught
 * but not yet dispatched to that handle is dropped: with a hold listener swapped for a stop
 * listener, a SIGTERM at the moment the start ended was lost and the gateway ran on until the
 * service manager killed it (found measuring the cold start; test/unit/cli/stop-signals.test.ts
 * sends a real signal into that moment).
 */
export type StopSignal = 'SIGINT' | 'SIGTERM';

export interface StopSignals {
  /** the first signal that came while held, if any */
  held(): StopSignal | null;
  /** from now on every signal (and one already caught, not yet dispatched) goes to `stop` */
  handTo(stop: (signal: StopSignal) => void): void;
}

export function holdStopSignals(): StopSignals {
  let first: StopSignal | null = null;
  let action = (signal: StopSignal): void => {
    first ??= signal;
  };
  process.on('SIGINT', () => action('SIGINT'));
  process.on('SIGTERM', () => action('SIGTERM'));
  return {
    held: () => first,
    handTo: (stop) => {
      action = stop;
    },
  };
}
