/**
 * Builds the driver of a configured device: the transport its config names and the codec its
 * kind speaks. Simulator transports are wired to the built-in virtual devices by the gateway.
 */
import type { DeviceConfig } from '../src/config/schema.js';
import { LineCodec } from './codecs/line-codec.js';
import { encodeLine } from './codecs/nmea-line.js';
import { DeviceDriver } from './device-driver.js';
import { MemoryTransport } from './transports/memory-transport.js';
import { SerialTransport } from './transports/serial-transport.js';
import type { Transport } from './transports/transport.js';

export class UnsupportedDeviceError extends Error {}

export function createTransport(dev: DeviceConfig): Transport {
  const t = dev.transport;
  switch (t.type) {
    case 'serial':
      return new SerialTransport({ path: t.path, baudRate: t.baudRate, dataBits: t.dataBits, parity: t.parity, stopBits: t.stopBits });
    case 'simulator':
      return new MemoryTransport({ name: dev.id });
    case 'hid':
      throw new UnsupportedDeviceError(`device ${dev.id}: HID transport is not supported yet`);
  }
}

/** the gateway's own command frames (talker `GW`, its own SEQ) */
function gatewayCommandEncoder(): (command: string) => string {
  let seq = 0;
  return (command) => {
    const line = encodeLine('GW', seq, command);
    seq = (seq + 1) & 0xffff;
    return line;
  };
}

export function createDriver(dev: DeviceConfig, transport: Transport): DeviceDriver {
  switch (dev.kind) {
    case 'card-shoe':
      return new DeviceDriver({
        deviceId: dev.id, transport, decoder: new LineCodec('SHOE'), staleAfterMs: dev.staleAfterMs,
        encodeCommand: gatewayCommandEncoder(),
      });
    default:
      throw new UnsupportedDeviceError(`device ${dev.id}: kind ${dev.kind} is not supported yet`);
  }
}
