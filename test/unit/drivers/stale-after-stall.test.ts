/**
 * The stale timer after an event-loop stall (issue 33, point 5): a device that kept sending
 * while the gateway's event loop was held up has its frames waiting unread in the OS; when the
 * loop runs again, timers run before reads, so a stale check that decides at once would call a
 * talking device stale. Real timers and a real pipe from a child process (the device): the
 * frame is written while the loop is stalled, and the driver must read it before deciding.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { BehaviorSubject, ReplaySubject } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { LineCodec } from '../../../drivers/codecs/line-codec.js';
import { encodeLine } from '../../../drivers/codecs/nmea-line.js';
import { DeviceDriver, type DriverEvent } from '../../../drivers/device-driver.js';
import type { Transport, TransportStatus } from '../../../drivers/transports/transport.js';

/** a device process: writes frame 1 at once, and frame 2 100 ms after each line on its stdin */
function device(): ChildProcessWithoutNullStreams {
  const f1 = encodeLine('SHOE', 1, 'CARD', ['AS']);
  const f2 = encodeLine('SHOE', 2, 'CARD', ['KD']);
  const code = `process.stdout.write(${JSON.stringify(f1)}); process.stdin.on('data', () => setTimeout(() => process.stdout.write(${JSON.stringify(f2)}), 100));`;
  return spawn(process.execPath, ['-e', code]);
}

/** the child's stdout as a transport (what came before the driver subscribed is replayed to it) */
function pipeTransport(child: ChildProcessWithoutNullStreams): Transport {
  const data$ = new ReplaySubject<Buffer>();
  child.stdout.on('data', (b: Buffer) => data$.next(b));
  return {
    description: 'pipe',
    data$,
    status$: new BehaviorSubject<TransportStatus>({ state: 'connected' }),
    start() {},
    write() {},
    async stop() {},
  };
}

/** holds the event loop (as a long synchronous task or a SIGSTOP would) */
function stall(ms: number): number {
  const end = performance.now() + ms;
  let spins = 0;
  while (performance.now() < end) spins++;
  return spins;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let child: ChildProcessWithoutNullStreams | undefined;
afterEach(() => {
  child?.kill();
  child = undefined;
});

describe('DeviceDriver: stale after a stalled event loop', () => {
  it('frames written during the stall are read before the stale decision: no false device-stale', async () => {
    child = device();
    const staleAfterMs = 200;
    const transport = pipeTransport(child);
    // the device process is up once it has written frame 1 (its start-up is not the driver's business)
    await new Promise((r) => child?.stdout.once('data', r));
    const driver = new DeviceDriver({ deviceId: 'shoe-1', transport, decoder: new LineCodec('SHOE'), staleAfterMs });
    const events: DriverEvent[] = [];
    driver.events$.subscribe((e) => events.push(e));
    driver.start();
    const label = (e: DriverEvent) => (e.kind === 'frame' ? `frame ${e.frame.seq}` : e.kind === 'status' ? e.state : e.kind);
    // frame 1 arrives (the stale timer is armed by it)
    for (let i = 0; i < 100 && !events.some((e) => e.kind === 'frame'); i++) await sleep(20);
    expect(events.map(label)).toEqual(['connected', 'frame 1']);

    // the device writes frame 2 100 ms from now; the loop is held for 3x the stale time meanwhile
    child.stdin.write('go\n');
    stall(3 * staleAfterMs);
    // frame 2 waits in the pipe, the stale timer is overdue: it must not fire before frame 2 is read
    await sleep(50);
    expect(events.map(label)).toEqual(['connected', 'frame 1', 'frame 2']);

    // and real silence is still stale, staleAfterMs after frame 2
    for (let i = 0; i < 100 && !events.some((e) => e.kind === 'status' && e.state === 'stale'); i++) await sleep(20);
    expect(events.map(label)).toEqual(['connected', 'frame 1', 'frame 2', 'stale']);
    await driver.stop();
  });
});
