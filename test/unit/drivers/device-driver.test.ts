/**
 * The device driver in process, on the memory transport with fake timers (no pty, no broker):
 * SEQ gap, duplicate and restart, the bad-frame window (one alert at once, then at most one a
 * window with the count), the stale timer and what ends a stale period.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LineCodec } from '../../../drivers/codecs/line-codec.js';
import { encodeLine } from '../../../drivers/codecs/nmea-line.js';
import { DeviceDriver, type DriverEvent } from '../../../drivers/device-driver.js';
import { MemoryTransport } from '../../../drivers/transports/memory-transport.js';

function shoeDriver(staleAfterMs = 500, badFrameWindowMs = 1000) {
  const transport = new MemoryTransport({ name: 'shoe-1' });
  const driver = new DeviceDriver({ deviceId: 'shoe-1', transport, decoder: new LineCodec('SHOE'), staleAfterMs, badFrameWindowMs });
  const events: DriverEvent[] = [];
  driver.events$.subscribe((e) => events.push(e));
  driver.start();
  const send = (seq: number, type: string, fields: string[] = []) => transport.deliver(encodeLine('SHOE', seq, type, fields));
  return { transport, driver, events, send };
}

const of = <K extends DriverEvent['kind']>(events: DriverEvent[], kind: K) => events.filter((e): e is Extract<DriverEvent, { kind: K }> => e.kind === kind);
const alerts = (events: DriverEvent[], alert: string) => of(events, 'alert').filter((e) => e.alert === alert);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('DeviceDriver: SEQ', () => {
  it('a gap is one frame-gap alert naming the missing frames; the frame that revealed it still passes', () => {
    const { events, send } = shoeDriver();
    send(0, 'CARD', ['AS']);
    send(1, 'CARD', ['KD']);
    send(4, 'CARD', ['9C']);
    const gaps = alerts(events, 'frame-gap');
    expect(gaps).toHaveLength(1);
    expect(gaps[0].data).toMatchObject({ missing: 2, fromSeq: 2, deviceSeq: 4, modulus: 65536 });
    expect(of(events, 'frame').map((e) => e.frame.seq)).toEqual([0, 1, 4]);
  });

  it('a repeated SEQ is a retransmission: dropped and counted, no alert', () => {
    const { driver, events, send } = shoeDriver();
    send(7, 'CARD', ['AS']);
    send(7, 'CARD', ['AS']);
    expect(of(events, 'frame')).toHaveLength(1);
    expect(driver.duplicates).toBe(1);
    expect(of(events, 'alert')).toEqual([]);
  });

  it('SEQ 0 after anything but 65535 is a device restart, not a gap', () => {
    const { events, send } = shoeDriver();
    send(40, 'CARD', ['AS']);
    send(0, 'HB');
    expect(of(events, 'restart')).toHaveLength(1);
    expect(alerts(events, 'frame-gap')).toEqual([]);
    send(1, 'CARD', ['KD']);
    expect(alerts(events, 'frame-gap')).toEqual([]);
  });

  it('a baseline seeded from the store makes the first frame after a gateway restart a gap', () => {
    const { driver, events, send } = shoeDriver();
    driver.seedSeq(99);
    send(103, 'CARD', ['AS']);
    expect(alerts(events, 'frame-gap')[0]?.data).toMatchObject({ missing: 3, fromSeq: 100 });
  });
});

describe('DeviceDriver: the bad-frame window', () => {
  it('alerts the first bad frame at once, then the rest of the window as one alert with the count', () => {
    const { driver, events, transport, send } = shoeDriver(0, 1000);
    transport.deliver('$SHOE,1,CARD,AS*00\r\n'); // wrong checksum
    expect(alerts(events, 'bad-frame')).toHaveLength(1);
    expect(alerts(events, 'bad-frame')[0].data).toMatchObject({ count: 1 });
    transport.deliver('garbage without a start\r\n');
    transport.deliver('$SHOE,2,CARD,AS*00\r\n');
    send(3, 'CARD', ['KD']); // a good frame in between passes at once
    expect(of(events, 'frame')).toHaveLength(1);
    vi.advanceTimersByTime(999);
    expect(alerts(events, 'bad-frame')).toHaveLength(1);
    vi.advanceTimersByTime(1);
    const second = alerts(events, 'bad-frame');
    expect(second).toHaveLength(2);
    expect(second[1].data).toMatchObject({ count: 2 });
    expect(driver.rejectedTotal).toBe(3);
    // a quiet window ends it: the next bad frame is alerted at once again
    vi.advanceTimersByTime(1000);
    transport.deliver('$SHOE,4,CARD,AS*00\r\n');
    expect(alerts(events, 'bad-frame')).toHaveLength(3);
  });

  it('never carries a card value in its sample', () => {
    const { events, transport } = shoeDriver(0);
    transport.deliver('$SHOE,1,CARD,QH*00\r\n');
    const sample = String(alerts(events, 'bad-frame')[0].data?.sample);
    expect(sample).not.toContain('QH');
  });
});

describe('DeviceDriver: stale', () => {
  it('goes stale staleAfterMs after the last valid frame; the next frame (even a heartbeat) ends it', () => {
    const { events, send } = shoeDriver(500);
    send(0, 'HB');
    expect(of(events, 'frame')).toEqual([]); // an ordinary heartbeat does not reach the table
    vi.advanceTimersByTime(499);
    expect(of(events, 'status').map((e) => e.state)).toEqual(['connected']);
    vi.advanceTimersByTime(1);
    expect(of(events, 'status').map((e) => e.state)).toEqual(['connected', 'stale']);
    vi.advanceTimersByTime(5000);
    expect(of(events, 'status').filter((e) => e.state === 'stale')).toHaveLength(1); // once
    send(1, 'HB');
    expect(of(events, 'frame').map((e) => e.frame.type)).toEqual(['HB']);
  });

  it('valid frames keep it fresh; a bad frame does not', () => {
    const { events, send, transport } = shoeDriver(500);
    for (let i = 0; i < 5; i++) {
      vi.advanceTimersByTime(400);
      send(i, 'HB');
    }
    expect(of(events, 'status').map((e) => e.state)).toEqual(['connected']);
    vi.advanceTimersByTime(400);
    transport.deliver('garbage\r\n');
    vi.advanceTimersByTime(100);
    expect(of(events, 'status').map((e) => e.state)).toEqual(['connected', 'stale']);
  });

  it('a disconnected line is disconnected, not stale; the timer starts again on reconnect', () => {
    const { events, transport } = shoeDriver(500);
    transport.setConnected(false, 'unplugged');
    vi.advanceTimersByTime(2000);
    expect(of(events, 'status').map((e) => e.state)).toEqual(['connected', 'disconnected']);
    transport.setConnected(true);
    vi.advanceTimersByTime(500);
    expect(of(events, 'status').map((e) => e.state)).toEqual(['connected', 'disconnected', 'connected', 'stale']);
  });
});
