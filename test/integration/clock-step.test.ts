/**
 * A step of the wall clock while the gateway runs (docs/DURABILITY.md "Retention and the clock"):
 * the gateway compares the wall clock with the monotonic clock every second, and a step of more
 * than 1 s is journaled on every table as a `clock-step` alert, so a subscriber sees why `ts` went
 * backwards, before the first message stamped with the stepped clock. The wall clock is stepped in-process (Date.now), the
 * monotonic clock is left alone, as an NTP step or `date -s` would.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startGateway, type Gateway } from '../../src/app/gateway.js';
import { loadSimulators } from '../../simulators/load.js';
import { startMosquitto } from '../../dev/rig/mosquitto.js';
import { makeTempDir } from '../../dev/rig/temp-dir.js';
import { realIoOrSkip } from '../helpers/real-io.js';
import { capturingLogger, floorConfig, resultsOf, subscriber, until } from '../helpers/floor.js';

const io = realIoOrSkip('mosquitto');
const T = 'clk-02';

describe.skipIf(!io.available)('a step of the wall clock while the gateway runs', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    vi.restoreAllMocks();
    for (const c of cleanup.reverse()) await c().catch(() => {});
    cleanup.length = 0;
  });

  it('is journaled as a clock-step alert on the table before the messages whose ts went back', async () => {
    const broker = await startMosquitto();
    cleanup.push(() => broker.stop());
    const sub = await subscriber(broker.url, 'clk-sub');
    cleanup.push(() => sub.close());
    const { log, lines } = capturingLogger();
    const gw: Gateway = await startGateway(floorConfig({ url: broker.url, dataDir: await makeTempDir('teg-clk-'), tables: [T], cardIntervalMs: 50 }), {
      simulators: loadSimulators,
      logger: log,
    });
    cleanup.push(() => gw.stop());
    await until(() => resultsOf(sub.got, T).length >= 1, 30_000, 'a result');
    // the wall clock steps back 10 minutes (the monotonic clock does not): noticed at the first reading after the step
    const realNow = Date.now.bind(Date);
    const stepAt = realNow();
    vi.spyOn(Date, 'now').mockImplementation(() => realNow() - 600_000);
    const alert = await sub.waitFor((m) => m.topic === `casino/${T}/alerts` && m.payload?.kind === 'clock-step', 5_000, 'the clock-step alert');
    expect(alert.payload.severity).toBe('warning');
    expect(alert.payload.stepMs).toBeLessThan(-599_000);
    expect(alert.payload.stepMs).toBeGreaterThan(-601_500);
    expect(Date.parse(alert.payload.wallAfter)).toBeLessThan(stepAt - 590_000);
    expect(alert.payload.detail).toMatch(/stepped back by \d+ ms/);
    // its seq comes before the messages stamped with the stepped clock, after those stamped before it
    const seqd = sub.got.filter((m) => m.topic.startsWith(`casino/${T}/`) && typeof m.payload?.seq === 'number' && !m.retain);
    const before = seqd.filter((m) => m.payload.seq < alert.payload.seq);
    expect(Date.parse(before.at(-1)!.payload.ts)).toBeGreaterThan(Date.parse(alert.payload.ts) + 590_000);
    await sub.waitFor((m) => m.topic === `casino/${T}/events` && m.payload.seq > alert.payload.seq, 5_000, 'an event after the step');
    for (const m of sub.got.filter((x) => x.payload?.seq > alert.payload.seq && !x.retain)) expect(Date.parse(m.payload.ts)).toBeLessThan(stepAt - 590_000);
    expect(lines.some((l) => l.includes('the wall clock stepped back'))).toBe(true);
  }, 60_000);
});
