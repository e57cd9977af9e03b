/**
 * Drives the pure table machine of any table kind (cards, sic bo, keno) through `step()`, with
 * full device configs (RFID registries, shufflers, HID devices...). Time advances 100 ms per input.
 */
import type { DeviceFrame, DeviceFrameBody } from '../../drivers/codecs/frames.js';
import { validateMessage } from '../../src/mqtt/messages.js';
import { countersOf } from '../../src/table/table-machine.js';
import type { Envelope, TableCounters, TableOutput } from '../../src/table/types.js';
import { MachineHarness, settingsOf } from './table-harness.js';

export interface DeviceTableOptions {
  id?: string;
  game: string;
  betting?: 'engine' | 'none';
  table?: Record<string, unknown>;
  /** device configs; `transport` defaults to a serial port */
  devices: Array<Record<string, unknown> & { id: string; kind: string }>;
  persisted?: TableCounters;
}

/** any table kind (cards, sic bo, keno) with full device configs (RFID registries, shufflers, HID ...) */
export class DeviceTableHarness extends MachineHarness {
  constructor(o: DeviceTableOptions) {
    super(settingsOf({
      id: o.id ?? 'tbl-01', game: o.game, betting: o.betting ?? 'none', ...o.table,
      devices: o.devices.map((d) => ({ transport: { type: 'serial', path: `/dev/null-${d.id}` }, ...d })),
    }), o.persisted ?? {});
  }

  counters(): TableCounters {
    return countersOf(this.state);
  }

  frame(deviceId: string, talker: DeviceFrame['talker'], body: DeviceFrameBody): TableOutput[] {
    return this.deviceFrame(deviceId, talker, body);
  }

  status(deviceId: string, state: 'connected' | 'disconnected' | 'stale', detail?: string): TableOutput[] {
    return this.input({ type: 'device-status', at: this.tick(), deviceId, state, ...(detail ? { detail } : {}) });
  }

  lastRound(): Envelope | undefined {
    return this.published('round').at(-1);
  }

  /** every published message that does not match its MQTT API schema (src/mqtt/messages.ts), with why */
  invalidMessages(): string[] {
    const bad: string[] = [];
    for (const x of this.outputs) {
      if (x.type !== 'publish') continue;
      const problems = validateMessage(x.topic, x.payload);
      if (problems.length) bad.push(`${x.topic} ${JSON.stringify(x.payload)}: ${problems.join('; ')}`);
    }
    return bad;
  }
}
