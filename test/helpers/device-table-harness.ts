/**
 * Drives the pure table machine of any table kind (cards, sic bo, keno) through `step()`, with
 * full device configs (RFID registries, shufflers, HID devices...). Time advances 100 ms per input.
 */
import type { DeviceFrame, DeviceFrameBody } from '../../drivers/codecs/frames.js';
import { validateConfig } from '../../src/config/load-config.js';
import { validateMessage } from '../../src/mqtt/messages.js';
import { countersOf, initialTableState, step } from '../../src/table/table-machine.js';
import { tableSettings } from '../../src/table/table-settings.js';
import type { Envelope, TableCounters, TableInput, TableOutput, TableSettings, TableState } from '../../src/table/types.js';

export interface DeviceTableOptions {
  id?: string;
  game: string;
  betting?: 'engine' | 'none';
  table?: Record<string, unknown>;
  /** device configs; `transport` defaults to a serial port */
  devices: Array<Record<string, unknown> & { id: string; kind: string }>;
  persisted?: TableCounters;
}

export class DeviceTableHarness {
  readonly settings: TableSettings;
  state: TableState;
  readonly outputs: TableOutput[] = [];
  now = Date.UTC(2026, 10, 30, 12, 0, 0);
  private seqByDevice: Record<string, number> = {};

  constructor(o: DeviceTableOptions) {
    const cfg = validateConfig({
      mqtt: { url: 'mqtt://127.0.0.1:1' },
      tables: [{
        id: o.id ?? 'tbl-01', game: o.game, betting: o.betting ?? 'none', ...o.table,
        devices: o.devices.map((d) => ({ transport: { type: 'serial', path: `/dev/null-${d.id}` }, ...d })),
      }],
    });
    this.settings = tableSettings(cfg.tables[0]);
    this.state = initialTableState(this.settings, o.persisted ?? {});
    this.input({ type: 'start', at: this.now });
  }

  input(i: TableInput): TableOutput[] {
    const r = step(this.settings, this.state, i);
    this.state = r.state;
    this.outputs.push(...r.outputs);
    return r.outputs;
  }

  counters(): TableCounters {
    return countersOf(this.state);
  }

  tick(ms = 100): number {
    this.now += ms;
    return this.now;
  }

  frame(deviceId: string, talker: DeviceFrame['talker'], body: DeviceFrameBody): TableOutput[] {
    const seq = (this.seqByDevice[deviceId] = (this.seqByDevice[deviceId] ?? -1) + 1);
    return this.input({ type: 'frame', at: this.tick(), deviceId, frame: { talker, seq, ...body } as DeviceFrame });
  }

  status(deviceId: string, state: 'connected' | 'disconnected' | 'stale', detail?: string): TableOutput[] {
    return this.input({ type: 'device-status', at: this.tick(), deviceId, state, ...(detail ? { detail } : {}) });
  }

  request(command: string, payload: Record<string, unknown> = {}): Envelope {
    const out = this.input({ type: 'request', at: this.tick(), command, payload: JSON.stringify(payload) });
    const resp = out.find((x) => x.type === 'publish' && x.topic === `response/${command}`);
    if (!resp || resp.type !== 'publish') throw new Error(`no response to ${command}`);
    return resp.payload;
  }

  published(topic?: string): Envelope[] {
    const out: Envelope[] = [];
    for (const x of this.outputs) if (x.type === 'publish' && (!topic || x.topic === topic)) out.push(x.payload);
    return out;
  }

  results(): Envelope[] {
    return this.published('result');
  }

  lastResult(): Envelope | undefined {
    return this.results().at(-1);
  }

  lastRound(): Envelope | undefined {
    return this.published('round').at(-1);
  }

  alerts(kind?: string): Envelope[] {
    return this.published('alerts').filter((a) => !kind || a.kind === kind);
  }

  events(kind?: string): Envelope[] {
    return this.published('events').filter((e) => !kind || e.kind === kind);
  }

  commands(): Array<{ deviceId: string; command: string }> {
    return this.outputs.filter((x): x is Extract<TableOutput, { type: 'device-command' }> => x.type === 'device-command').map((x) => ({ deviceId: x.deviceId, command: x.command }));
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

  /** forget outputs so far */
  clear(): void {
    this.outputs.length = 0;
  }
}
