/**
 * SEQ at the driver (device-protocols.md §1): the baseline survives a port reopen and, seeded
 * from the store, a gateway restart; after a `REPEAT` the missing frames are passed on once, in
 * the device's order, and the re-sent frames already taken are dropped. The virtual shoe keeps a
 * ring of its last 64 frames and announces REPEAT in its VER.
 */
import { describe, expect, it } from 'vitest';
import { DeviceDriver, type DriverEvent } from '../../../drivers/device-driver.js';
import { LineCodec } from '../../../drivers/codecs/line-codec.js';
import { encodeLine } from '../../../drivers/codecs/nmea-line.js';
import { MemoryTransport } from '../../../drivers/transports/memory-transport.js';
import { VirtualCardShoe, NO_FAULTS } from '../../../simulators/devices/card-shoe-device.js';
import { seededRng } from '../../../simulators/rng.js';

function rig() {
  const transport = new MemoryTransport();
  let n = 0;
  const driver = new DeviceDriver({
    deviceId: 'shoe-1',
    transport,
    decoder: new LineCodec('SHOE'),
    staleAfterMs: 0,
    encodeCommand: (c) => encodeLine('GW', n++, c.split(',')[0], c.split(',').slice(1)),
  });
  const events: DriverEvent[] = [];
  driver.events$.subscribe((e) => events.push(e));
  const seqs: number[] = [];
  driver.onSeq = (s) => seqs.push(s);
  return { transport, driver, events, seqs };
}

const gaps = (ev: DriverEvent[]) => ev.filter((e) => e.kind === 'alert' && e.alert === 'frame-gap');
const cards = (ev: DriverEvent[]) => ev.flatMap((e) => (e.kind === 'frame' && e.frame.type === 'CARD' ? [`${e.frame.seq}:${e.frame.card}`] : []));

describe('SEQ baseline', () => {
  it('survives a port reopen: frames sent while the line was down are a gap', async () => {
    const { transport, driver, events } = rig();
    driver.start();
    transport.deliver(encodeLine('SHOE', 10, 'CARD', ['AS']));
    transport.setConnected(false, 'unplugged');
    transport.setConnected(true);
    transport.deliver(encodeLine('SHOE', 14, 'CARD', ['KD']));
    expect(gaps(events)).toHaveLength(1);
    expect((gaps(events)[0] as Extract<DriverEvent, { kind: 'alert' }>).data).toMatchObject({ missing: 3, fromSeq: 11, deviceSeq: 14 });
    await driver.stop();
  });

  it('seeded from the store (a gateway restart): the first frame is checked against it', async () => {
    const { transport, driver, events, seqs } = rig();
    driver.seedSeq(41);
    driver.start();
    transport.deliver(encodeLine('SHOE', 45, 'HB'));
    expect(gaps(events)).toHaveLength(1);
    expect(seqs).toEqual([45]); // heartbeats too: the runtime keeps it durable
    await driver.stop();
  });

  it('a device that restarted (SEQ 0) sets a fresh baseline', async () => {
    const { transport, driver, events } = rig();
    driver.seedSeq(41);
    driver.start();
    transport.deliver(encodeLine('SHOE', 0, 'VER', ['X', '1']));
    expect(gaps(events)).toHaveLength(0);
    expect(events.some((e) => e.kind === 'restart')).toBe(true);
    await driver.stop();
  });
});

describe('REPEAT with the virtual shoe', () => {
  it('announces REPEAT; re-sends its lost frames; the driver passes each once, drops the rest', async () => {
    const { transport, driver, events } = rig();
    const shoe = new VirtualCardShoe((b) => transport.deliver(b), seededRng(1), NO_FAULTS);
    transport.written$.subscribe((b) => shoe.onGatewayBytes(b));
    driver.start();
    shoe.powerUp();
    const ver = events.find((e) => e.kind === 'frame' && e.frame.type === 'VER');
    expect(ver && ver.kind === 'frame' && ver.frame.type === 'VER' && ver.frame.capabilities).toEqual(['REPEAT', 'LOCK', 'RESCAN']);
    shoe.card('AS'); // SEQ 1
    // SEQ 2, 3 lost on the line
    (shoe as unknown as { faults: { dropFrameRate: number } }).faults = { ...NO_FAULTS, dropFrameRate: 1 };
    shoe.card('2H');
    shoe.heartbeat();
    (shoe as unknown as { faults: unknown }).faults = NO_FAULTS;
    shoe.card('3C'); // SEQ 4: the gap
    expect(gaps(events)).toHaveLength(1);
    // the machine asks (a device command through the driver)
    expect(driver.send('REPEAT,2')).toBe(true);
    expect(shoe.framesRepeated).toBe(3); // 2, 3, 4
    shoe.card('4D'); // SEQ 5
    expect(cards(events)).toEqual(['1:AS', '4:3C', '2:2H', '5:4D']);
    // the re-sent heartbeat (SEQ 3) is passed too: it fills the gap
    expect(events.some((e) => e.kind === 'frame' && e.frame.type === 'HB' && e.frame.seq === 3)).toBe(true);
    expect(driver.duplicates).toBe(1); // SEQ 4 again
    await driver.stop();
  });

  it('keeps only its last 64 frames', () => {
    const lines: string[] = [];
    const shoe = new VirtualCardShoe((b) => lines.push(b.toString()), seededRng(1), NO_FAULTS);
    for (let i = 0; i < 100; i++) shoe.heartbeat();
    lines.length = 0;
    shoe.repeatFrom(10);
    expect(lines).toHaveLength(0);
    shoe.repeatFrom(90);
    expect(lines).toHaveLength(10);
    expect(lines[0]).toBe(encodeLine('SHOE', 90, 'HB'));
  });
});
