import { describe, expect, it } from 'vitest';
import type { DeviceFrame } from '../../../src/core/vocabulary/frames.js';
import { LineCodec } from '../../../drivers/codecs/line-codec.js';
import type { DriverEvent } from '../../../drivers/device-driver.js';
import { createDriver, createTransport } from '../../../src/app/device-drivers.js';
import type { Transport } from '../../../drivers/transports/transport.js';
import { validateConfig } from '../../../src/app/config/load-config.js';
import { seededRng } from '../../../simulators/rng.js';
import { initialTableState, step } from '../../../src/core/table/table-machine.js';
import { tableSettings } from '../../../src/core/table/table-settings.js';
import type { Envelope, TableInput, TableState } from '../../../src/core/table/types.js';
import { VirtualBallReader } from '../../../simulators/devices/ball-reader-device.js';
import { VirtualDiceSensor } from '../../../simulators/devices/dice-sensor-device.js';
import { generateDeckRegistry, VirtualRfidShoe, NO_RFID_FAULTS } from '../../../simulators/devices/rfid-shoe-device.js';
import { NO_SHUFFLER_FAULTS, VirtualShuffler } from '../../../simulators/devices/shuffler-device.js';
import { createVirtualDevices } from '../../../simulators/index.js';
import { VirtualDiceTable } from '../../../simulators/virtual-dice-table.js';
import { VirtualKenoTable } from '../../../simulators/virtual-keno-table.js';

function decoder(talker: DeviceFrame['talker']) {
  const codec = new LineCodec(talker);
  const frames: DeviceFrame[] = [];
  return {
    frames,
    write: (b: string | Buffer) => {
      for (const f of codec.push(Buffer.from(b))) if (!('reason' in f)) frames.push(f);
    },
  };
}

describe('virtual devices on the wire', () => {
  it('dice table: every round ends with a valid ROLL; faults show as COCKED, NOREAD and void rolls', async () => {
    const d = decoder('DICE');
    const sensor = new VirtualDiceSensor(d.write, seededRng('x'), { garbageRate: 0, dropFrameRate: 0 });
    const sim = new VirtualDiceTable({
      sensor,
      seed: 's1',
      rng: seededRng('s1'),
      faults: { cockedRate: 0.2, noReadRate: 0.2, noBounceRate: 0.2 },
      minBounces: 2,
      stepMs: 0,
      roundIntervalMs: 0,
      rounds: 40,
    });
    await sim.start();
    const types = d.frames.map((f) => f.type);
    expect(types[0]).toBe('VER');
    const valid = d.frames.filter((f) => f.type === 'ROLL' && f.bounces >= 2);
    const voidRolls = d.frames.filter((f) => f.type === 'ROLL' && f.bounces < 2);
    expect(valid).toHaveLength(40);
    expect(types.filter((t) => t === 'COCKED').length).toBeGreaterThan(0);
    expect(types.filter((t) => t === 'NOREAD').length).toBeGreaterThan(0);
    expect(voidRolls.length).toBeGreaterThan(0);
    for (const f of valid) if (f.type === 'ROLL') expect(f.dice.every((x) => x >= 1 && x <= 6)).toBe(true);
  });

  it('dice sensor on the HID wire: 8-byte reports with an 8-bit seq', () => {
    const out: Buffer[] = [];
    const s = new VirtualDiceSensor((b) => out.push(Buffer.from(b)), seededRng('x'), { garbageRate: 0, dropFrameRate: 0 }, 'hid');
    s.powerUp();
    s.shake(); // no HID form
    s.roll([3, 4, 5], 2);
    s.cocked();
    s.noread();
    expect(out.map((b) => [...b])).toEqual([
      [1, 0, 3, 4, 5, 2, 0, 15],
      [1, 1, 0, 0, 0, 0, 1, 3],
      [1, 2, 0, 0, 0, 0, 2, 5],
    ]);
  });

  /** a keno table over `reader`, its rng seeded with `seed`, with the given faults always or never */
  const kenoTable = (
    reader: VirtualBallReader,
    seed: number,
    faults: Partial<Record<'duplicateBallRate' | 'outOfRangeBallRate' | 'earlyEndRate', number>> = {},
    rounds?: number,
  ) =>
    new VirtualKenoTable({
      reader,
      seed: 1,
      rng: seededRng(seed),
      faults: { duplicateBallRate: 0, outOfRangeBallRate: 0, earlyEndRate: 0, ...faults },
      ballIntervalMs: 0,
      roundIntervalMs: 0,
      ...(rounds === undefined ? {} : { rounds }),
    });

  it('keno draws: 20 distinct balls 1..80, or exactly one fault per draw', () => {
    const reader = new VirtualBallReader(() => {}, seededRng('x'), { garbageRate: 0, dropFrameRate: 0 });
    const clean = kenoTable(reader, 1);
    for (let i = 0; i < 50; i++) {
      const { balls, endAfter } = clean.drawBalls();
      expect(endAfter).toBe(20);
      expect(new Set(balls).size).toBe(20);
      expect(balls.every((b) => b >= 1 && b <= 80)).toBe(true);
    }
    expect(new Set(kenoTable(reader, 2, { duplicateBallRate: 1 }).drawBalls().balls).size).toBe(19);
    expect(kenoTable(reader, 3, { outOfRangeBallRate: 1 }).drawBalls().balls).toContain(81);
    expect(kenoTable(reader, 4, { earlyEndRate: 1 }).drawBalls().endAfter).toBeLessThan(20);
  });

  it('keno reader sends START, BALL x20, END', async () => {
    const d = decoder('BALL');
    const sim = kenoTable(new VirtualBallReader(d.write, seededRng('x'), { garbageRate: 0, dropFrameRate: 0 }), 1, {}, 1);
    await sim.start();
    expect(d.frames.map((f) => f.type)).toEqual(['VER', 'START', ...new Array(20).fill('BALL'), 'END']);
  });

  it('RFID shoe: a generated registry (one uid per card and deck), tags of registered cards, repeats and unknown tags', () => {
    const reg = generateDeckRegistry(2, 'seed');
    expect(reg.size).toBe(104);
    expect(generateDeckRegistry(2, 'seed')).toEqual(reg);
    const d = decoder('RFID');
    const shoe = new VirtualRfidShoe(d.write, seededRng('f'), { ...NO_RFID_FAULTS, repeatReadRate: 1, unknownTagRate: 1 }, reg);
    shoe.card('AS');
    shoe.card('AS');
    const tags = d.frames.filter((f) => f.type === 'TAG').map((f) => (f.type === 'TAG' ? f.uid : ''));
    const known = tags.filter((u) => reg.has(u));
    expect(tags.length - known.length).toBe(2); // one unknown tag before each card
    expect(known.every((u) => reg.get(u)!.card === 'AS')).toBe(true);
    expect(new Set(known).size).toBe(2); // the two copies of AS, each read 2-3 times
    expect(known.length).toBeGreaterThanOrEqual(4);
  });

  it('RFID shoe misread: MISREAD, then the re-read TAG; RESCAN commands are ignored', () => {
    const d = decoder('RFID');
    const reg = generateDeckRegistry(1, 'r');
    const shoe = new VirtualRfidShoe(d.write, seededRng('f'), { ...NO_RFID_FAULTS, misreadRate: 1 }, reg);
    expect(shoe.card('KD')).toBe(false);
    shoe.onGatewayBytes(Buffer.from('$GW,0,RESCAN*00\r\n'));
    expect(shoe.awaitingRescan).toBe(true);
    expect(shoe.rescan()).toBe(true);
    expect(d.frames.map((f) => f.type)).toEqual(['MISREAD', 'TAG']);
    expect(reg.get((d.frames[1] as Extract<DeviceFrame, { type: 'TAG' }>).uid)!.card).toBe('KD');
  });

  it('shuffler cycle: SHUFFLING, [DOOR_OPEN], [JAM], COUNT, READY', async () => {
    const d = decoder('SHUF');
    const ok = new VirtualShuffler(d.write, seededRng('s'), NO_SHUFFLER_FAULTS, 52);
    await ok.cycle(async () => {}, 0);
    const faulty = new VirtualShuffler(d.write, seededRng('s'), { ...NO_SHUFFLER_FAULTS, jamRate: 1, doorOpenRate: 1, countMismatchRate: 1 }, 52);
    await faulty.cycle(async () => {}, 0);
    const show = d.frames.map((f) => (f.type === 'SHUF_STATE' ? f.state : f.type === 'COUNT' ? `COUNT ${f.count}` : f.type));
    expect(show).toEqual(['SHUFFLING', 'COUNT 52', 'READY', 'SHUFFLING', 'DOOR_OPEN', 'SHUFFLING', 'JAM', 'SHUFFLING', 'COUNT 51', 'READY']);
  });
});

/** the gateway's wiring minus MQTT: config -> transports -> virtual devices -> drivers -> step() */
async function runSimulatedTable(raw: Record<string, unknown>, until: (s: { results: Envelope[]; published: Envelope[] }) => boolean, timeoutMs = 8000) {
  const cfg = validateConfig({ mqtt: { url: 'mqtt://127.0.0.1:1' }, tables: [raw] });
  const t = cfg.tables[0];
  const settings = tableSettings(t);
  const transports = new Map<string, Transport>(t.devices.map((d) => [d.id, createTransport(d)]));
  const sims = createVirtualDevices({ table: t, settings, transports, fast: true });
  const drivers = t.devices.map((d) => createDriver(d, transports.get(d.id)!, { registry: sims.registries.get(d.id) }));
  let state: TableState = initialTableState(settings, {});
  const published: Envelope[] = [];
  const statuses: string[] = [];
  const apply = (input: TableInput) => {
    const r = step(settings, state, input);
    state = r.state;
    for (const o of r.outputs) {
      if (o.type === 'publish') published.push(o.payload);
      if (o.type === 'device-command') drivers.find((x) => x.deviceId === o.deviceId)?.send(o.command);
    }
  };
  apply({ type: 'start', at: Date.now() });
  for (const d of drivers) {
    d.events$.subscribe((ev: DriverEvent) => {
      const at = Date.now();
      if (ev.kind === 'frame') apply({ type: 'frame', at, deviceId: d.deviceId, frame: ev.frame });
      else if (ev.kind === 'status') {
        statuses.push(`${d.deviceId}:${ev.state}`);
        apply({ type: 'device-status', at, deviceId: d.deviceId, state: ev.state, ...(ev.detail ? { detail: ev.detail } : {}) });
      } else if (ev.kind === 'alert')
        apply({ type: 'device-alert', at, deviceId: d.deviceId, kind: ev.alert, detail: ev.detail, ...(ev.data ? { data: ev.data } : {}) });
      else apply({ type: 'device-restart', at, deviceId: d.deviceId });
    });
    d.start();
  }
  for (const s of sims.devices) void s.start();
  const results = () => published.filter((p) => p.type === 'result');
  const deadline = Date.now() + timeoutMs;
  while (!until({ results: results(), published }) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  await Promise.all(sims.devices.map((s) => s.stop()));
  await Promise.all(drivers.map((d) => d.stop()));
  return { results: results(), published, statuses, alerts: published.filter((p) => p.type === 'alert'), descriptions: sims.descriptions };
}

describe('simulated tables end to end (no MQTT)', () => {
  it('sic bo over the HID wire with every fault: results complete, fault alerts raised', async () => {
    const r = await runSimulatedTable(
      {
        id: 'sb',
        game: 'sic-bo',
        devices: [
          {
            id: 'dice-1',
            kind: 'dice-sensor',
            transport: { type: 'simulator', seed: 7, protocol: 'hid', faults: { cockedRate: 0.2, noReadRate: 0.2, noBounceRate: 0.2 } },
          },
        ],
      },
      (s) => s.results.length >= 20,
    );
    expect(r.results.length).toBeGreaterThanOrEqual(20);
    expect(r.results.every((x) => x.status === 'complete' && Array.isArray(x.dice))).toBe(true);
    const kinds = new Set(r.alerts.map((a) => a.kind));
    expect(kinds).toEqual(new Set(['cocked-dice', 'dice-noread', 'dice-no-bounce']));
    expect(r.descriptions.get('dice-1')).toMatch(/hid wire, seed 7/);
  });

  it('keno with duplicate-ball and early-END faults: void draws with ball-invalid, the others complete', async () => {
    const r = await runSimulatedTable(
      {
        id: 'kn',
        game: 'keno',
        devices: [
          {
            id: 'balls-1',
            kind: 'ball-reader',
            transport: { type: 'simulator', seed: 3, faults: { duplicateBallRate: 0.2, earlyEndRate: 0.2, outOfRangeBallRate: 0.1 } },
          },
        ],
      },
      (s) => s.results.length >= 30,
    );
    const voids = r.results.filter((x) => x.status === 'void');
    const complete = r.results.filter((x) => x.status === 'complete');
    expect(voids.length).toBeGreaterThan(0);
    expect(complete.length).toBeGreaterThan(0);
    expect(voids.every((x) => x.reason === 'ball-invalid')).toBe(true);
    expect(complete.every((x) => (x.balls as number[]).length === 20)).toBe(true);
    expect(r.alerts.filter((a) => a.kind === 'ball-invalid')).toHaveLength(voids.length);
  });

  it('baccarat with a simulated RFID shoe, shuffler and barcode scanner: rounds complete, repeats deduped, misreads rescanned', async () => {
    const r = await runSimulatedTable(
      {
        id: 'rf',
        game: 'baccarat',
        devices: [
          {
            id: 'rfid-1',
            kind: 'rfid-shoe',
            dedupeMs: 1500,
            transport: { type: 'simulator', seed: 11, faults: { misreadRate: 0.02, repeatReadRate: 0.5, unknownTagRate: 0.02 } },
          },
          { id: 'shuf-1', kind: 'shuffler', transport: { type: 'simulator', seed: 12 } },
          { id: 'scan-1', kind: 'barcode-scanner', transport: { type: 'simulator', seed: 13 } },
        ],
      },
      (s) => s.results.length >= 25,
      15000,
    );
    expect(r.results.length).toBeGreaterThanOrEqual(25);
    expect(r.results.every((x) => x.status === 'complete')).toBe(true);
    const kinds = new Set(r.alerts.map((a) => a.kind));
    expect(kinds.has('foreign-card')).toBe(false);
    expect(kinds.has('out-of-order-card')).toBe(false);
    expect(kinds.has('unexpected-rescan')).toBe(false);
    expect(kinds.has('unknown-tag')).toBe(true);
    const rescans = r.published.filter((p) => p.type === 'event' && p.kind === 'rescan');
    expect(rescans.length).toBeGreaterThan(0);
    // misreads are rescanned by the hand scanner; an unknown tag (games.md Misread: the round waits
    // for that card's rescan) is answered by the RFID shoe's next tag
    expect(rescans.some((e) => e.deviceId === 'scan-1')).toBe(true);
    expect(rescans.every((e) => e.deviceId === 'scan-1' || e.deviceId === 'rfid-1')).toBe(true);
    expect(r.published.filter((p) => p.type === 'event' && p.kind === 'shuffler').map((e) => e.state ?? e.count)).toEqual(
      expect.arrayContaining(['SHUFFLING', 416, 'READY']),
    );
  }, 20000);

  it('unplug fault: the device goes disconnected, then connected, and rounds continue', async () => {
    const r = await runSimulatedTable(
      {
        id: 'sb',
        game: 'sic-bo',
        devices: [{ id: 'dice-1', kind: 'dice-sensor', transport: { type: 'simulator', seed: 5, unplugMs: 50, faults: { unplugRate: 0.3 } } }],
      },
      (s) => s.results.length >= 10,
    );
    expect(r.statuses.filter((s) => s === 'dice-1:disconnected').length).toBeGreaterThan(0);
    expect(r.statuses.at(-1)).toBe('dice-1:connected');
    expect(r.results.length).toBeGreaterThanOrEqual(10);
    const devMsgs = r.published.filter((p) => p.type === 'device').map((p) => p.state);
    expect(devMsgs).toEqual(expect.arrayContaining(['disconnected', 'connected']));
  });
});
