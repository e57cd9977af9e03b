/**
 * Builds the driver of a configured device: the transport its config names and the codec its
 * kind speaks. Simulator transports are wired to the built-in virtual devices by the gateway.
 */
import { DEVICE_KIND_FACTS } from '../core/vocabulary/device-kinds.js';
import { resolve } from 'node:path';
import type { DeviceConfig } from '../core/vocabulary/config-schema.js';
import type { DeviceFrame } from '../core/vocabulary/frames.js';
import { HID_DICE_SEQ_MODULUS } from '../../drivers/codecs/hid-dice.js';
import { LineCodec } from '../../drivers/codecs/line-codec.js';
import { compileProfile } from '../../drivers/profiles/profile-decoder.js';
import { loadProfileFile, type DeviceProfile } from '../../drivers/profiles/profile-schema.js';
import { encodeLine } from '../../drivers/codecs/nmea-line.js';
import { loadDeckRegistry, type DeckRegistry } from '../../drivers/deck-registry.js';
import { BarcodeScannerDecoder, HidDiceDecoder, SerialBarcodeDecoder } from '../../drivers/codecs/scanner-and-dice-decoders.js';
import { RfidCardMapper, ScannerRoleMapper } from '../../drivers/device-mappers.js';
import { createProfileEncoder, type DownlinkCommand } from '../../drivers/profiles/profile-encoder.js';
import { DeviceDriver } from '../../drivers/device-driver.js';
import { HidTransport } from '../../drivers/transports/hid-transport.js';
import { MemoryTransport } from '../../drivers/transports/memory-transport.js';
import { SerialTransport } from '../../drivers/transports/serial-transport.js';
import type { Transport } from '../../drivers/transports/transport.js';
import type { Probe } from '../core/vocabulary/probe.js';

export class UnsupportedDeviceError extends Error {}

export function createTransport(dev: DeviceConfig, probe?: Probe): Transport {
  const t = dev.transport;
  switch (t.type) {
    case 'serial': {
      // line settings: the device's own keys, else its profile's `line`, else the reference defaults
      const line = dev.profile !== undefined ? loadProfileFile(dev.profile).line : undefined;
      return new SerialTransport({
        path: t.path,
        baudRate: t.baudRate ?? line?.baudRate,
        dataBits: t.dataBits ?? line?.dataBits,
        parity: t.parity ?? line?.parity,
        stopBits: t.stopBits ?? line?.stopBits,
        rtscts: line?.rtscts,
        lowLatency: t.lowLatency,
        probe,
      });
    }
    case 'simulator':
      return new MemoryTransport({ name: dev.id });
    case 'hid':
      // any kind reads a HID device through a HID profile (its report layout); without one only the built-in protocols
      if (dev.kind !== 'barcode-scanner' && dev.kind !== 'dice-sensor' && dev.profile === undefined)
        throw new UnsupportedDeviceError(
          `device ${dev.id}: a ${dev.kind} has no built-in HID protocol (HID: barcode-scanner, dice-sensor, or any kind with a HID profile)`,
        );
      return new HidTransport({ vendorId: t.vendorId, productId: t.productId, serialNumber: t.serialNumber });
  }
}

/** the gateway's own command frames (talker `GW`, its own SEQ) */
function gatewayCommandEncoder(): (command: string) => string {
  let seq = 0;
  return (command) => {
    // a command with fields (`REPEAT,<seq>`): the type, then its fields
    const [type, ...fields] = command.split(',');
    const line = encodeLine('GW', seq, type, fields);
    seq = (seq + 1) & 0xffff;
    return line;
  };
}

export interface DriverExtras {
  /** rfid-shoe: the registry to use instead of loading `deckRegistry` (a simulator's generated one) */
  registry?: DeckRegistry;
  /** clock for RFID and dealing-scanner de-duplication (tests) */
  now?: () => number;
  /** marks of each chunk decoded (a measuring tool's; none by default) */
  probe?: Probe;
}

/** whether the device speaks 8-byte HID reports (its transport is HID, or a simulator in `hid` protocol) */
function speaksHid(dev: DeviceConfig): boolean {
  return (
    dev.transport.type === 'hid' ||
    (dev.transport.type === 'simulator' && (dev.kind === 'barcode-scanner' || (dev.kind === 'dice-sensor' && dev.transport.protocol === 'hid')))
  );
}

/** a gateway command (`RESCAN`, `REPEAT,<seq>`) through a profile's downlink templates; null = not sent */
function profileCommandEncoder(profile: DeviceProfile): (command: string) => Buffer | null {
  const encoder = createProfileEncoder(profile);
  return (command) => {
    const [type, from] = command.split(',');
    const name = type.toLowerCase() as DownlinkCommand;
    if (!(name in profile.downlink)) return null;
    return encoder.command(name, from !== undefined ? { from: Number(from) } : {});
  };
}

/**
 * What a profiled device's `VER` announces (device-protocols.md §1 capabilities): the commands its
 * profile has downlink templates for — the profile is the installer's word on what the device
 * takes. `REPEAT` (the table asks a device that announced it to re-send a gap), `LOCK` (lock and
 * unlock), `RESCAN`.
 */
function profileCapabilities(profile: DeviceProfile): string[] {
  const d = profile.downlink;
  return [...(d.repeat ? ['REPEAT'] : []), ...(d.lock && d.unlock ? ['LOCK'] : []), ...(d.rescan ? ['RESCAN'] : [])];
}

/** the RFID mapper of an rfid-shoe: the simulator's generated registry, or the configured CSV */
function rfidMapper(dev: DeviceConfig, extras: DriverExtras): RfidCardMapper {
  let registry = extras.registry;
  if (!registry) {
    if (!dev.deckRegistry) throw new UnsupportedDeviceError(`device ${dev.id}: an rfid-shoe needs a deckRegistry (CSV uid,card,deck)`);
    registry = loadDeckRegistry(resolve(dev.deckRegistry));
  }
  return new RfidCardMapper({ registry, dedupeMs: dev.dedupeMs, now: extras.now });
}

/** a barcode scanner's role (config: resolved by the loader; `rescan` when unset, today's behaviour) */
function scannerMapper(dev: DeviceConfig, extras: DriverExtras): ScannerRoleMapper {
  return new ScannerRoleMapper({ role: dev.role ?? 'rescan', dedupeMs: dev.dedupeMs, now: extras.now });
}

/**
 * A device with a `profile` (device-protocols.md §3; the config loader has checked it and points
 * `profile` at its file): the profile's decoder, SEQ checks only when the profile carries a SEQ,
 * the stale timer only when it has heartbeats, bad-frame counting as for every device. Commands
 * go through the profile's downlink templates; one with no template is not sent (`send` says
 * false), and the device's `VER` announces the ones it has (profileCapabilities). An rfid-shoe's TAGs become cards through its deck registry; a barcode scanner's cards
 * follow its role. A profile with `framing.idleMs` has the driver's idle timer end a frame after
 * that much silence; a HID profile (`input: hid-keyboard` / `hid-report`) reads a HID transport's
 * reports, its report SEQ counting to 255.
 */
function profiledDriver(dev: DeviceConfig & { profile: string }, transport: Transport, extras: DriverExtras): DeviceDriver {
  const profile = loadProfileFile(dev.profile);
  // the config loader checks this too (src/app/config/device-profiles.ts); a driver built without it must not misread
  const hidProfile = profile.input !== 'bytes';
  if (dev.transport.type !== 'simulator' && hidProfile !== (dev.transport.type === 'hid')) {
    throw new UnsupportedDeviceError(
      `device ${dev.id}: profile "${profile.name}" reads input ${profile.input}, which a ${dev.transport.type} transport does not deliver`,
    );
  }
  const decoder = compileProfile(profile);
  const mapper = dev.kind === 'rfid-shoe' ? rfidMapper(dev, extras) : dev.kind === 'barcode-scanner' ? scannerMapper(dev, extras) : null;
  const capabilities = profileCapabilities(profile);
  const announce = (f: DeviceFrame): DeviceFrame =>
    f.type === 'VER' && capabilities.length ? { ...f, capabilities: [...new Set([...(f.capabilities ?? []), ...capabilities])] } : f;
  return new DeviceDriver({
    deviceId: dev.id,
    transport,
    probe: extras.probe,
    decoder: { push: (chunk: Buffer) => decoder.push(chunk), flushIdle: () => decoder.flushIdle() },
    idleFlushMs: decoder.idleMs,
    staleAfterMs: profile.messages.some((m) => m.type === 'HB') || Object.values(profile.report?.type.map ?? {}).includes('HB') ? dev.staleAfterMs : 0,
    // a report's SEQ is one byte; a text SEQ goes to 65535
    // the profile's SEQ wraps at seq.wrap (a report's SEQ byte at 255)
    seqModulus: profile.input === 'hid-report' ? (profile.report?.seq ? 256 : 0) : profile.messages.some((m) => m.seq !== undefined) ? profile.seq.wrap + 1 : 0,
    encodeCommand: Object.keys(profile.downlink).length ? profileCommandEncoder(profile) : undefined,
    mapFrame: mapper ? (f) => mapper.map(announce(f)) : capabilities.length ? announce : undefined,
  });
}

export function createDriver(dev: DeviceConfig, transport: Transport, extras: DriverExtras = {}): DeviceDriver {
  if (dev.profile !== undefined) return profiledDriver({ ...dev, profile: dev.profile }, transport, extras);
  const facts = DEVICE_KIND_FACTS[dev.kind];
  // HID reports carry no heartbeat: presence is the HID transport's enumeration, not a stale timer
  const hid = speaksHid(dev);
  const staleAfterMs = facts.heartbeats && !hid ? dev.staleAfterMs : 0;
  if (dev.kind === 'barcode-scanner') {
    // a scanner is silent while idle and numbers nothing: no stale timer, no SEQ
    const mapper = scannerMapper(dev, extras);
    return new DeviceDriver({
      deviceId: dev.id,
      transport,
      probe: extras.probe,
      staleAfterMs,
      seqModulus: 0,
      decoder: hid ? new BarcodeScannerDecoder(dev.barcode ?? {}) : new SerialBarcodeDecoder(dev.barcode ?? {}),
      mapFrame: (f) => mapper.map(f),
    });
  }
  if (dev.kind === 'dice-sensor' && hid)
    return new DeviceDriver({
      deviceId: dev.id,
      transport,
      probe: extras.probe,
      decoder: new HidDiceDecoder(),
      staleAfterMs,
      seqModulus: HID_DICE_SEQ_MODULUS,
    });
  // the reference line protocol of the kind's talker (device-protocols.md §1)
  const mapper = dev.kind === 'rfid-shoe' ? rfidMapper(dev, extras) : null;
  return new DeviceDriver({
    deviceId: dev.id,
    transport,
    probe: extras.probe,
    decoder: new LineCodec(facts.talker),
    staleAfterMs,
    seqModulus: facts.numbersFrames ? 65536 : 0,
    encodeCommand: facts.takesCommands ? gatewayCommandEncoder() : undefined,
    mapFrame: mapper ? (f) => mapper.map(f) : undefined,
  });
}
