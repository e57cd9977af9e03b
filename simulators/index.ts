/**
 * The built-in virtual devices behind `transport: { type: simulator }` (docs/DEVICES.md), one set
 * per table, wired to the gateway's in-memory transports:
 * - card tables: the first simulated shoe (optical `card-shoe` or `rfid-shoe`) is dealt by the
 *   virtual dealer (VirtualTable). A simulated `shuffler` on the same table shuffles before every
 *   new shoe/deck (for single-deck games its READY after COUNT is the new deck); a simulated
 *   `barcode-scanner` is the dealer's rescan reader when the shoe does not re-read by itself.
 *   Without a simulated shoe, a scanner in `role: dealer` is the table's dealing reader: the
 *   virtual dealer scans every card, and asks for each new shoe with a `new-shoe` request (a
 *   scanner cannot say LOADED). Otherwise a shuffler cycles on its own every few rounds' time and a
 *   scanner idles.
 * - a device with `profile:` writes that profile's format (wire.ts: the same virtual device, its
 *   frames through the profile encoder), faults included; without one, the reference protocol.
 * - sic bo: the first simulated `dice-sensor` rolls rounds (VirtualDiceTable), line or HID wire.
 * - keno: the first simulated `ball-reader` runs draws (VirtualKenoTable).
 * Any further simulated device of a table only powers up and sends heartbeats.
 * With `betting: engine` the driving simulator asks a virtual engine to open and close betting.
 */
import { resolve } from 'node:path';
import type { DeckRegistry } from '../drivers/deck-registry.js';
import { DEFAULT_DEDUPE_MS } from '../drivers/device-mappers.js';
import { loadProfileFile } from '../drivers/profiles/profile-schema.js';
import { loadDeckRegistry } from '../drivers/deck-registry.js';
import { MemoryTransport } from '../drivers/transports/memory-transport.js';
import type { DeviceConfig, SimulatorTransportConfig } from '../src/core/vocabulary/config-schema.js';
import { randomSeed, seededRng } from './rng.js';
import type { SimulatedDevicesContext, SimulatedDevicesSetup } from '../src/runtime/simulators.js';
import { VirtualBallReader } from './devices/ball-reader-device.js';
import { VirtualBarcodeScanner } from './devices/barcode-scanner-device.js';
import { VirtualCardShoe } from './devices/card-shoe-device.js';
import { ScannerDealingReader } from './devices/scanner-dealing-reader.js';
import { profileWire, referenceWire, type FrameWire } from './devices/wire.js';
import { VirtualDiceSensor } from './devices/dice-sensor-device.js';
import { LineDevice } from './devices/line-device.js';
import { generateDeckRegistry, VirtualRfidShoe } from './devices/rfid-shoe-device.js';
import { VirtualShuffler } from './devices/shuffler-device.js';
import { VirtualDiceTable } from './virtual-dice-table.js';
import { VirtualKenoTable } from './virtual-keno-table.js';
import { LoopRunner, type VirtualDevice } from './virtual-runner.js';
import { VirtualTable } from './virtual-table.js';
import { shoeCheckpointStore } from './shoe-checkpoint.js';

export type { VirtualDevice } from './virtual-runner.js';

/** what the gateway hands over and takes back (src/runtime/simulators.ts) */
export type VirtualDevicesContext = SimulatedDevicesContext;
export type VirtualDevicesSetup = SimulatedDevicesSetup;

type SimDevice = DeviceConfig & { transport: SimulatorTransportConfig };

function isSim(d: DeviceConfig): d is SimDevice {
  return d.transport.type === 'simulator';
}

/** a simulated device that only powers up and sends heartbeats */
class PassiveDevice implements VirtualDevice {
  constructor(
    readonly seed: string | number,
    private readonly line: LineDevice | null,
    private readonly model: string,
    private readonly extra?: () => void,
  ) {}
  async start(): Promise<void> {
    this.line?.powerUp(this.model);
    this.extra?.();
    this.line?.startHeartbeat();
  }
  async stop(): Promise<void> {
    this.line?.stopHeartbeat();
  }
}

/** a shuffler with no simulated shoe on its table: a shuffle cycle every `everyMs` */
class StandaloneShuffler extends LoopRunner {
  constructor(
    seed: string | number,
    private readonly shuffler: VirtualShuffler,
    private readonly everyMs: number,
    private readonly stepMs: number,
    private readonly cycles: number | undefined,
    unplug: ConstructorParameters<typeof LoopRunner>[2],
  ) {
    super(seed, seededRng(`${seed}:unplug`), unplug);
  }
  protected onPowerUp(): void {
    this.shuffler.powerUp();
    this.shuffler.line.startHeartbeat();
  }
  protected override onStopped(): void {
    this.shuffler.line.stopHeartbeat();
  }
  protected async run(): Promise<void> {
    for (let n = 0; this.running && (this.cycles === undefined || n < this.cycles); n++) {
      await this.maybeUnplug();
      if (!this.running) return;
      await this.shuffler.cycle((ms) => this.pause(ms), this.stepMs);
      await this.pause(this.everyMs);
      this.shuffler.state('IDLE');
    }
  }
}

export function createVirtualDevices(ctx: VirtualDevicesContext): VirtualDevicesSetup {
  const { table: t, settings } = ctx;
  const devices: VirtualDevice[] = [];
  const registries = new Map<string, DeckRegistry>();
  const descriptions = new Map<string, string>();
  const sims = t.devices.filter(isSim).filter((d) => ctx.transports.get(d.id) instanceof MemoryTransport);
  const transportOf = (d: DeviceConfig) => ctx.transports.get(d.id) as MemoryTransport;
  /** a simulated shoe keeps its shoe across a gateway restart (shoe-checkpoint.ts): with no seed configured, its seed too */
  const checkpoints = new Map(
    ctx.stateDir ? sims.filter((d) => d.kind === 'card-shoe' || d.kind === 'rfid-shoe').map((d) => [d.id, shoeCheckpointStore(ctx.stateDir!, d.id)]) : [],
  );
  const seedOf = new Map(sims.map((d) => [d.id, d.transport.seed ?? checkpoints.get(d.id)?.load()?.seed ?? randomSeed()]));
  const pace = (ms: number) => (ctx.fast ? 0 : ms);
  const unplugOf = (d: SimDevice) => ({ transport: transportOf(d), rate: d.transport.faults.unplugRate, ms: d.transport.unplugMs });
  const lineFaults = (d: SimDevice) => ({ garbageRate: d.transport.faults.garbageRate, dropFrameRate: d.transport.faults.dropFrameRate });
  const deliver = (d: DeviceConfig) => (b: string | Buffer) => transportOf(d).deliver(b);
  const engine = t.betting === 'engine' ? ctx.engine : undefined;
  /** an engine of your own drives the table: the dealer's requests go to a follower of it (src/runtime/external-engine.ts) */
  const external = !!engine && t.devices.some((d) => d.transport.type === 'simulator' && d.transport.engine === 'external');
  const wires = new Map<string, FrameWire>();
  /** the device's wire format: its profile's (the loader pointed `profile` at the file), else the reference protocol */
  const wireOf = (d: DeviceConfig): FrameWire => {
    let w = wires.get(d.id);
    if (!w) {
      w = d.profile ? profileWire(loadProfileFile(d.profile)) : referenceWire;
      wires.set(d.id, w);
    }
    return w;
  };
  const driving = new Set<string>();

  if (settings.kind === 'card') {
    const shoe = sims.find((d) => d.kind === 'card-shoe' || d.kind === 'rfid-shoe');
    const shufDev = sims.find((d) => d.kind === 'shuffler');
    const scanDev = sims.find((d) => d.kind === 'barcode-scanner');
    const deckSize = settings.expectedDeckSize ?? 52 * settings.decks;
    const shuffler = shufDev
      ? new VirtualShuffler(
          deliver(shufDev),
          seededRng(`${seedOf.get(shufDev.id)}:faults`),
          { ...lineFaults(shufDev), ...shufDev.transport.faults },
          deckSize,
          wireOf(shufDev),
        )
      : null;
    const scanner = scanDev
      ? new VirtualBarcodeScanner(
          deliver(scanDev),
          seededRng(`${seedOf.get(scanDev.id)}:faults`),
          scanDev.transport.faults,
          scanDev.profile ? wireOf(scanDev) : undefined,
        )
      : null;
    const shufUnplug = shufDev ? unplugOf(shufDev) : null;
    /** a shuffle before each new shoe; true when its READY is the new deck (single-deck games) */
    const shuffleBeforeLoad = (seed: string | number) => {
      if (!shuffler) return undefined;
      const shufRng = seededRng(`${shufDev ? seedOf.get(shufDev.id) : seed}:unplug`);
      return async (): Promise<boolean> => {
        if (shufUnplug && shufUnplug.rate > 0 && shufRng() < shufUnplug.rate) {
          shufUnplug.transport.setConnected(false, 'simulated unplug');
          await new Promise((r) => setTimeout(r, shufUnplug.ms));
          shufUnplug.transport.setConnected(true);
          shuffler.powerUp();
        }
        await shuffler.cycle((ms) => new Promise((r) => setTimeout(r, ms)), pace(200));
        // single-deck games: READY after COUNT is the fresh deck; shoe games still announce the shoe
        return settings.game.defaults.singleDeck;
      };
    };
    const dealingScanner = !shoe && scanDev && scanner && scanDev.role === 'dealer' ? scanDev : undefined;
    if (shoe) {
      const sim = shoe.transport;
      const seed = seedOf.get(shoe.id)!;
      let createShoe: ConstructorParameters<typeof VirtualTable>[0]['createShoe'];
      if (shoe.kind === 'rfid-shoe') {
        let registry: DeckRegistry;
        if (shoe.deckRegistry) registry = loadDeckRegistry(resolve(shoe.deckRegistry));
        else {
          registry = generateDeckRegistry(settings.decks, seed);
          registries.set(shoe.id, registry);
        }
        createShoe = (w) => new VirtualRfidShoe(w, seededRng(`${seed}:faults`), { ...lineFaults(shoe), ...sim.faults }, registry, wireOf(shoe));
      } else if (shoe.profile) {
        createShoe = (w) => new VirtualCardShoe(w, seededRng(`${seed}:faults`), sim.faults, 'SHOE', wireOf(shoe));
      }
      let vt: VirtualTable;
      const transport = transportOf(shoe);
      vt = new VirtualTable({
        game: settings.game,
        decks: settings.decks,
        burnPerRound: settings.burnPerRound,
        engine: settings.engine,
        cardIntervalMs: pace(sim.cardIntervalMs),
        roundIntervalMs: pace(sim.roundIntervalMs),
        cutCardFromEnd: sim.cutCardFromEnd,
        seed,
        faults: sim.faults,
        shoes: ctx.shoes,
        gameOptions: settings.gameOptions,
        write: (b) => transport.deliver(b),
        request: engine ? engine() : undefined,
        createShoe,
        onLoad: shuffleBeforeLoad(seed),
        unplug: unplugOf(shoe),
        resume:
          checkpoints.has(shoe.id) && ctx.tableView
            ? {
                store: checkpoints.get(shoe.id)!,
                view: ctx.tableView,
                onResume: (detail) => ctx.log?.info(`device ${shoe.id}: ${detail}`),
                claim: external,
              }
            : undefined,
        manualRescan: scanner
          ? () => {
              const card = (vt.shoe as Partial<VirtualRfidShoe>).takePending?.();
              if (!card) return false;
              scanner.scanCard(card);
              return true;
            }
          : undefined,
      });
      transport.written$.subscribe((b) => vt.onGatewayBytes(b));
      devices.push(vt);
      driving.add(shoe.id);
      descriptions.set(shoe.id, `virtual ${shoe.kind} dealt by a virtual dealer (seed ${seed}${shoe.profile ? `, profile ${wireOf(shoe).format}` : ''})`);
    } else if (dealingScanner && scanner) {
      const sim = dealingScanner.transport;
      const seed = seedOf.get(dealingScanner.id)!;
      // one virtual engine for the betting requests and the pit's new-shoe (one MQTT client id per table)
      const pit = ctx.engine?.();
      const shuffle = shuffleBeforeLoad(seed);
      const vt = new VirtualTable({
        game: settings.game,
        decks: settings.decks,
        burnPerRound: settings.burnPerRound,
        engine: settings.engine,
        cardIntervalMs: pace(sim.cardIntervalMs),
        roundIntervalMs: pace(sim.roundIntervalMs),
        cutCardFromEnd: sim.cutCardFromEnd,
        seed,
        faults: sim.faults,
        gameOptions: settings.gameOptions,
        // without a way to ask for a new shoe, one shoe only
        shoes: pit ? ctx.shoes : 1,
        write: (b) => transportOf(dealingScanner).deliver(b),
        request: engine ? pit : undefined,
        createShoe: () => new ScannerDealingReader(scanner, dealingScanner.dedupeMs ?? DEFAULT_DEDUPE_MS),
        // a scanner cannot say LOADED: the pit's `new-shoe` request starts each shoe (unless the shuffler's READY did)
        onLoad: async () => {
          if (!(await shuffle?.())) await pit?.('new-shoe');
          return true;
        },
        unplug: unplugOf(dealingScanner),
      });
      devices.push(vt);
      driving.add(dealingScanner.id);
      descriptions.set(
        dealingScanner.id,
        `virtual barcode scanner, the dealing reader: a virtual dealer scans every card (seed ${seed}${dealingScanner.profile ? `, profile ${wireOf(dealingScanner).format}` : ''})`,
      );
    }
    if (shufDev && shuffler) {
      const seed = seedOf.get(shufDev.id)!;
      driving.add(shufDev.id);
      if (shoe) {
        devices.push(
          new PassiveDevice(seed, null, 'VSHUF-1', () => {
            shuffler.powerUp();
            shuffler.line.startHeartbeat();
          }),
        );
        descriptions.set(shufDev.id, `virtual shuffler, shuffling before each shoe of ${shoe.id} (seed ${seed})`);
      } else {
        const every = pace(shufDev.transport.roundIntervalMs * 5);
        devices.push(new StandaloneShuffler(seed, shuffler, every, pace(200), ctx.shoes, unplugOf(shufDev)));
        descriptions.set(shufDev.id, `virtual shuffler cycling every ${every} ms (seed ${seed})`);
      }
    }
    if (scanDev && scanner && !dealingScanner) {
      driving.add(scanDev.id);
      devices.push(new PassiveDevice(seedOf.get(scanDev.id)!, null, ''));
      descriptions.set(
        scanDev.id,
        shoe ? `virtual barcode scanner, the dealer's rescan reader for ${shoe.id}` : 'virtual barcode scanner (idle: no simulated shoe to rescan for)',
      );
    }
  } else if (settings.kind === 'sic-bo') {
    const dev = sims.find((d) => d.kind === 'dice-sensor');
    if (dev) {
      const seed = seedOf.get(dev.id)!;
      const sensor = new VirtualDiceSensor(deliver(dev), seededRng(`${seed}:line`), lineFaults(dev), dev.transport.protocol, wireOf(dev));
      devices.push(
        new VirtualDiceTable({
          sensor,
          seed,
          rng: seededRng(seed),
          faults: dev.transport.faults,
          minBounces: settings.minBounces,
          stepMs: pace(dev.transport.cardIntervalMs),
          roundIntervalMs: pace(dev.transport.roundIntervalMs),
          rounds: ctx.shoes !== undefined ? ctx.shoes * 10 : undefined,
          request: engine?.(),
          unplug: unplugOf(dev),
        }),
      );
      driving.add(dev.id);
      descriptions.set(dev.id, `virtual dice sensor (${dev.transport.protocol} wire, seed ${seed})`);
    }
  } else if (settings.kind === 'keno') {
    const dev = sims.find((d) => d.kind === 'ball-reader');
    if (dev) {
      const seed = seedOf.get(dev.id)!;
      const reader = new VirtualBallReader(deliver(dev), seededRng(`${seed}:line`), lineFaults(dev), wireOf(dev));
      devices.push(
        new VirtualKenoTable({
          reader,
          seed,
          rng: seededRng(seed),
          faults: dev.transport.faults,
          ballIntervalMs: pace(dev.transport.cardIntervalMs),
          roundIntervalMs: pace(dev.transport.roundIntervalMs),
          rounds: ctx.shoes !== undefined ? ctx.shoes * 10 : undefined,
          request: engine?.(),
          unplug: unplugOf(dev),
          view: ctx.tableView,
          claimResumed: external,
        }),
      );
      driving.add(dev.id);
      descriptions.set(dev.id, `virtual keno ball reader (seed ${seed})`);
    }
  }

  // everything else only powers up and sends heartbeats
  for (const d of sims) {
    if (driving.has(d.id)) continue;
    const seed = seedOf.get(d.id)!;
    const talker = ({ 'card-shoe': 'SHOE', 'rfid-shoe': 'RFID', shuffler: 'SHUF', 'dice-sensor': 'DICE', 'ball-reader': 'BALL' } as const)[
      d.kind as Exclude<typeof d.kind, 'barcode-scanner'>
    ];
    const hid = d.kind === 'barcode-scanner' || (d.kind === 'dice-sensor' && d.transport.protocol === 'hid');
    const line = talker && !hid ? new LineDevice(talker, deliver(d), seededRng(seed), lineFaults(d), wireOf(d)) : null;
    if (d.kind === 'rfid-shoe' && !d.deckRegistry) registries.set(d.id, generateDeckRegistry(settings.kind === 'card' ? settings.decks : 1, seed));
    devices.push(new PassiveDevice(seed, line, `V${talker ?? 'HID'}-1`));
    descriptions.set(d.id, `virtual ${d.kind} (idle: heartbeats only)`);
  }
  return { devices, registries, descriptions };
}
