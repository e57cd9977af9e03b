import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { filter, firstValueFrom, timeout } from 'rxjs';
import { SerialTransport } from '../../drivers/transports/serial-transport.js';
import type { TransportState, TransportStatus } from '../../drivers/transports/transport.js';
import { createPtyPair, type PtyPair } from '../../dev/rig/pty-pair.js';
import { realIoOrSkip } from '../helpers/real-io.js';

const socat = realIoOrSkip('socat');

function waitForState(t: SerialTransport, state: TransportState, ms = 10_000): Promise<TransportStatus> {
  return firstValueFrom(
    t.status$.pipe(
      filter((s) => s.state === state),
      timeout({ first: ms, with: () => Promise.reject(new Error(`transport not ${state} within ${ms} ms`)) }),
    ),
  );
}

/** Collects data$ into a string; waitFor resolves when `text` has been seen. */
function collect(t: SerialTransport) {
  let text = '';
  const waiters = new Set<() => void>();
  const sub = t.data$.subscribe((b) => {
    text += b.toString('latin1');
    for (const w of [...waiters]) w();
  });
  return {
    get text() {
      return text;
    },
    waitFor(needle: string, ms = 10_000): Promise<void> {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (text.includes(needle)) {
            clearTimeout(timer);
            waiters.delete(check);
            resolve();
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`data$ did not deliver ${JSON.stringify(needle)} within ${ms} ms; got ${JSON.stringify(text)}`));
        }, ms);
        waiters.add(check);
        check();
      });
    },
    unsubscribe: () => sub.unsubscribe(),
  };
}

describe.skipIf(!socat.available)('SerialTransport over a socat pty pair', () => {
  let pty: PtyPair;
  let transport: SerialTransport | undefined;

  beforeEach(async () => {
    pty = await createPtyPair();
  });

  afterEach(async () => {
    await transport?.stop();
    transport = undefined;
    await pty.dispose();
  });

  it('describes itself and starts disconnected', () => {
    transport = new SerialTransport({ path: pty.gatewayPath, baudRate: 115200 });
    expect(transport.description).toBe(`serial ${pty.gatewayPath} @115200`);
    const statuses: TransportStatus[] = [];
    transport.status$.subscribe((s) => statuses.push(s)).unsubscribe();
    expect(statuses).toEqual([{ state: 'disconnected', detail: 'not started' }]);
  });

  it('delivers device bytes on data$ and writes reach the device', async () => {
    transport = new SerialTransport({ path: pty.gatewayPath });
    const rx = collect(transport);
    transport.start();
    await waitForState(transport, 'connected');

    await pty.write('\x02SHOE;CARD;AS\x03');
    await rx.waitFor('\x02SHOE;CARD;AS\x03');

    // binary-safe both ways
    const binary = Buffer.from([0x00, 0xff, 0x10, 0x0d, 0x0a, 0x7f, 0x80]);
    await pty.write(binary);
    await rx.waitFor(binary.toString('latin1'));

    transport.write('STATUS?\r\n');
    transport.write(Buffer.from([0x01, 0xfe]));
    await pty.waitForReceived('STATUS?\r\n');
    await pty.waitForReceived(Buffer.from([0x01, 0xfe]));
    rx.unsubscribe();
  });

  it('asks for low-latency mode on open; a pty refuses it, which is reported with the reason and the port works', async () => {
    transport = new SerialTransport({ path: pty.gatewayPath });
    expect(transport.latency).toBeUndefined();
    const rx = collect(transport);
    transport.start();
    await waitForState(transport, 'connected');
    expect(transport.latency).toEqual({ lowLatency: false, reason: expect.stringMatching(/^the driver refused: /) });
    await pty.write('ok\n');
    await rx.waitFor('ok\n');
    rx.unsubscribe();
  });

  it('lowLatency: false leaves the mode off without asking the driver', async () => {
    transport = new SerialTransport({ path: pty.gatewayPath, lowLatency: false });
    transport.start();
    await waitForState(transport, 'connected');
    expect(transport.latency).toEqual({ lowLatency: false, reason: 'turned off (lowLatency: false)' });
  });

  it('goes disconnected when socat dies, and reconnects by itself when it comes back', async () => {
    transport = new SerialTransport({ path: pty.gatewayPath, minBackoffMs: 50, maxBackoffMs: 400 });
    const statuses: TransportStatus[] = [];
    transport.status$.subscribe((s) => statuses.push(s));
    const rx = collect(transport);
    transport.start();
    await waitForState(transport, 'connected');
    await pty.write('before\n');
    await rx.waitFor('before\n');

    // Unplug: the gateway pty disappears.
    const unpluggedAt = Date.now();
    const disconnected = waitForState(transport, 'disconnected');
    await pty.close();
    const down = await disconnected;
    expect(Date.now() - unpluggedAt).toBeLessThan(5_000);
    expect(down.detail).toBeTruthy();
    expect(transport.isConnected).toBe(false);

    // Writes while unplugged are dropped, never thrown.
    expect(() => transport!.write('dropped\n')).not.toThrow();

    // Let it fail a few reopen attempts (ENOENT on the missing link) without crashing.
    await new Promise((r) => setTimeout(r, 600));
    expect(transport.isConnected).toBe(false);
    const attemptsWhileUnplugged = transport.openAttempts;
    expect(attemptsWhileUnplugged).toBeGreaterThan(1);
    const failures = statuses.filter((s) => s.state === 'disconnected' && s.detail !== 'not started' && s.detail !== 'opening');
    expect(failures.length).toBeGreaterThan(0);

    // Plug back in on the same paths; same transport object.
    await pty.reopen();
    await waitForState(transport, 'connected');
    await pty.write('after\n');
    await rx.waitFor('after\n');
    transport.write('ping\n');
    await pty.waitForReceived('ping\n');
    expect(pty.received().toString()).not.toContain('dropped');

    const states = statuses.map((s) => s.state);
    expect(states.indexOf('connected')).toBeLessThan(states.lastIndexOf('disconnected'));
    expect(states.at(-1)).toBe('connected');
    rx.unsubscribe();
  });

  it('keeps retrying with backoff while the device was never there, then connects', async () => {
    await pty.close();
    transport = new SerialTransport({ path: pty.gatewayPath, minBackoffMs: 20, maxBackoffMs: 200 });
    transport.start();
    const first = await firstValueFrom(transport.status$.pipe(filter((s) => s.detail !== 'opening')));
    expect(first.state).toBe('disconnected');
    expect(first.detail).toMatch(/ENOENT|No such file/i);
    await new Promise((r) => setTimeout(r, 700));
    // 20+40+80+160+200+200... ms: a handful of attempts, not hundreds.
    expect(transport.openAttempts).toBeGreaterThanOrEqual(3);
    expect(transport.openAttempts).toBeLessThan(12);
    await pty.reopen();
    await waitForState(transport, 'connected');
  });

  it('stop() completes the observables and is idempotent', async () => {
    transport = new SerialTransport({ path: pty.gatewayPath });
    let dataDone = false;
    let statusDone = false;
    let last: TransportStatus | undefined;
    transport.data$.subscribe({ complete: () => (dataDone = true) });
    transport.status$.subscribe({ next: (s) => (last = s), complete: () => (statusDone = true) });
    transport.start();
    await waitForState(transport, 'connected');
    await transport.stop();
    await transport.stop();
    expect(dataDone).toBe(true);
    expect(statusDone).toBe(true);
    expect(last).toEqual({ state: 'disconnected', detail: 'stopped' });
    expect(() => transport!.write('x')).not.toThrow();
    // the port is really closed: the gateway side can be opened again by someone else
    const again = new SerialTransport({ path: pty.gatewayPath });
    again.start();
    await waitForState(again, 'connected');
    await again.stop();
  });
});
