/**
 * Drives the pure table machine with inputs and keeps every output, for unit tests of the rules.
 * Frames are built as the codec would deliver them; time advances 100 ms per input unless told.
 * `MachineHarness` is the common part; `TableHarness` is the short form for card tables.
 */
import type { DeviceFrame, DeviceFrameBody } from '../../drivers/codecs/frames.js';
import { validateConfig } from '../../src/config/load-config.js';
import { validateMessage } from '../../src/mqtt/messages.js';
import { initialTableState, step } from '../../src/table/table-machine.js';
import { tableSettings } from '../../src/table/table-settings.js';
import type { Envelope, TableCounters, TableInput, TableOutput, TableSettings, TableState } from '../../src/table/types.js';

/** validates one table entry as the config loader does and returns its machine settings */
export function settingsOf(table: Record<string, unknown>): TableSettings {
  const cfg = validateConfig({ mqtt: { url: 'mqtt://127.0.0.1:1' }, tables: [table] });
  return tableSettings(cfg.tables[0]);
}

export class MachineHarness {
  state: TableState;
  readonly outputs: TableOutput[] = [];
  now = Date.UTC(2026, 10, 30, 12, 0, 0);
  protected seqByDevice: Record<string, number> = {};

  constructor(readonly settings: TableSettings, persisted: TableCounters = {}) {
    this.state = initialTableState(settings, persisted);
    this.input({ type: 'start', at: this.now });
  }

  input(i: TableInput): TableOutput[] {
    const r = step(this.settings, this.state, i);
    this.state = r.state;
    // every message the machine publishes must pass the topic map, as the runtime checks before
    // the outbox (a failing one would be quarantined there, never delivered)
    for (const o of r.outputs) {
      if (o.type !== 'publish') continue;
      const problems = validateMessage(o.topic, o.payload);
      if (problems.length) throw new Error(`the machine published a message the topic map refuses: ${problems.join('; ')}\n${JSON.stringify(o.payload)}`);
    }
    this.outputs.push(...r.outputs);
    return r.outputs;
  }

  tick(ms = 100): number {
    this.now += ms;
    return this.now;
  }

  /** a valid frame from a device, with the device's next SEQ */
  deviceFrame(deviceId: string, talker: DeviceFrame['talker'], body: DeviceFrameBody): TableOutput[] {
    const seq = (this.seqByDevice[deviceId] = (this.seqByDevice[deviceId] ?? -1) + 1);
    return this.input({ type: 'frame', at: this.tick(), deviceId, frame: { talker, seq, ...body } as DeviceFrame });
  }

  request(command: string, payload: Record<string, unknown> | string = {}): Envelope {
    const out = this.input({ type: 'request', at: this.tick(), command, payload: typeof payload === 'string' ? payload : JSON.stringify(payload) });
    const resp = out.find((o) => o.type === 'publish' && o.topic === `response/${command}`);
    if (!resp || resp.type !== 'publish') throw new Error(`no response to ${command}`);
    return resp.payload;
  }

  /** published envelopes, optionally only those on `topic` */
  published(topic?: string): Envelope[] {
    const out: Envelope[] = [];
    for (const o of this.outputs) if (o.type === 'publish' && (!topic || o.topic === topic)) out.push(o.payload);
    return out;
  }

  results(): Envelope[] {
    return this.published('result');
  }

  lastResult(): Envelope | undefined {
    return this.results().at(-1);
  }

  alerts(kind?: string): Envelope[] {
    return this.published('alerts').filter((a) => !kind || a.kind === kind);
  }

  events(kind?: string): Envelope[] {
    return this.published('events').filter((e) => !kind || e.kind === kind);
  }

  commands(): Array<{ deviceId: string; command: string }> {
    return this.outputs.filter((o): o is Extract<TableOutput, { type: 'device-command' }> => o.type === 'device-command').map((o) => ({ deviceId: o.deviceId, command: o.command }));
  }

  timers(): Array<{ name: string; at: number }> {
    return this.outputs.filter((o): o is Extract<TableOutput, { type: 'set-timer' }> => o.type === 'set-timer').map((o) => ({ name: o.name, at: o.at }));
  }

  /** forget outputs so far */
  clear(): void {
    this.outputs.length = 0;
  }
}

export interface HarnessOptions {
  game?: string;
  betting?: 'engine' | 'none';
  decks?: number;
  table?: Record<string, unknown>;
  devices?: Array<{ id: string; kind: string }>;
}

/** a card table (baccarat unless told) whose devices are serial ports, driven by shoe frames */
export class TableHarness extends MachineHarness {
  constructor(o: HarnessOptions = {}) {
    const devices = o.devices ?? [{ id: 'shoe-1', kind: 'card-shoe' }];
    super(settingsOf({
      id: 'bac-01', game: o.game ?? 'baccarat', betting: o.betting ?? 'none', ...(o.decks ? { decks: o.decks } : {}), ...o.table,
      devices: devices.map((d) => ({ id: d.id, kind: d.kind, transport: { type: 'serial', path: `/dev/null-${d.id}` } })),
    }));
  }

  frame(body: DeviceFrameBody, deviceId = 'shoe-1', talker: DeviceFrame['talker'] = 'SHOE'): TableOutput[] {
    return this.deviceFrame(deviceId, talker, body);
  }

  card(card: string, rescan = false): TableOutput[] {
    return this.frame({ type: 'CARD', card, rescan });
  }

  cards(...cards: string[]): void {
    for (const c of cards) this.card(c);
  }

  /** a new shoe: LOADED, the reveal card and as many burns as it says (burn cards given) */
  newShoe(reveal: string, burns: string[]): void {
    this.frame({ type: 'STATE', state: 'LOADED' });
    this.card(reveal);
    this.cards(...burns);
  }
}
