import { afterEach } from 'vitest';

/**
 * What a test starts (brokers, gateways, clients), stopped after each test of the calling
 * `describe`, last started first; a stop that fails does not keep the others from running.
 */
export function stopsAfterEach(): Array<() => Promise<unknown> | unknown> {
  const stops: Array<() => Promise<unknown> | unknown> = [];
  afterEach(async () => {
    for (const stop of stops.reverse())
      await Promise.resolve()
        .then(stop)
        .catch(() => {});
    stops.length = 0;
  });
  return stops;
}
