/**
 * THE machine test harness: drives the pure table machine (`step()`) with inputs and keeps every
 * output, for unit tests of the rules. Frames are built as the codec would deliver them; time
 * advances `stepMs` (100 ms unless told) per input. Every published message is checked against the
 * topic map. `MachineHarness` is the common part; `TableHarness` the short form for card tables,
 * `DeviceTableHarness` any table kind with full device configs, `GameMachine` a card game played
 * by a virtual dealer's actions.
 */
import type { DeviceFrame, DeviceFrameBody } from '../../src/core/vocabulary/frames.js';
import { validateConfig } from '../../src/app/config/load-config.js';
import { validateMessage } from '../../src/core/table/messages.js';
import { countersOf, initialTableState, step } from '../../src/core/table/table-machine.js';
import { tableSettings } from '../../src/core/table/table-settings.js';
import type { DealerAction } from '../../simulators/dealers/shoe-dealer.js';
import type { Envelope, TableCounters, TableInput, TableOutput, TableSettings, TableState } from '../../src/core/table/types.js';
import { recordHarness, recordInput } from './journal-recorder.js';

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

  /** `stepMs`: how far the clock moves per input */
  constructor(
    readonly settings: TableSettings,
    persisted: TableCounters = {},
    protected readonly stepMs = 100,
  ) {
    recordHarness(this, settings, persisted);
    this.state = initialTableState(settings, persisted);
    this.input({ type: 'start', at: this.now });
  }

  input(i: TableInput): TableOutput[] {
    recordInput(this, i);
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

  tick(ms = this.stepMs): number {
    this.now += ms;
    return this.now;
  }

  /** a valid frame from a device, with the device's next SEQ */
  deviceFrame(deviceId: string, talker: DeviceFrame['talker'], body: DeviceFrameBody): TableOutput[] {
    const seq = (this.seqByDevice[deviceId] ?? -1) + 1;
    this.seqByDevice[deviceId] = seq;
    return this.input({ type: 'frame', at: this.tick(), deviceId, frame: { talker, seq, ...body } as DeviceFrame });
  }

  /**
   * A request as the runtime's edge hands it to the machine. `signer`: the configured name of the key
   * whose signature the edge verified (privileged requests, docs/SECURITY.md): the machine never sees
   * the signature itself, so its tests pass the verified signer.
   */
  request(command: string, payload: Record<string, unknown> | string = {}, signer?: string): Envelope {
    const out = this.input({
      type: 'request',
      at: this.tick(),
      command,
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
      ...(signer !== undefined ? { signer } : {}),
    });
    const resp = out.find((o) => o.type === 'publish' && o.topic === `response/${command}`);
    if (resp?.type !== 'publish') throw new Error(`no response to ${command}`);
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
    return this.outputs
      .filter((o): o is Extract<TableOutput, { type: 'device-command' }> => o.type === 'device-command')
      .map((o) => ({ deviceId: o.deviceId, command: o.command }));
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
  /** the table id (`bac-01` unless told) */
  id?: string;
  game?: string;
  betting?: 'engine' | 'none';
  decks?: number;
  table?: Record<string, unknown>;
  devices?: Array<{ id: string; kind: string }>;
  /** how far the clock moves per input (100 ms unless told) */
  stepMs?: number;
}

/** a card table (baccarat unless told) whose devices are serial ports, driven by shoe frames */
export class TableHarness extends MachineHarness {
  constructor(o: HarnessOptions = {}) {
    const devices = o.devices ?? [{ id: 'shoe-1', kind: 'card-shoe' }];
    super(
      settingsOf({
        id: o.id ?? 'bac-01',
        game: o.game ?? 'baccarat',
        betting: o.betting ?? 'none',
        ...(o.decks ? { decks: o.decks } : {}),
        ...o.table,
        devices: devices.map((d) => ({ id: d.id, kind: d.kind, transport: { type: 'serial', path: `/dev/null-${d.id}` } })),
      }),
      {},
      o.stepMs,
    );
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
    super(
      settingsOf({
        id: o.id ?? 'tbl-01',
        game: o.game,
        betting: o.betting ?? 'none',
        ...o.table,
        devices: o.devices.map((d) => ({ transport: { type: 'serial', path: `/dev/null-${d.id}` }, ...d })),
      }),
      o.persisted ?? {},
    );
  }

  counters(): TableCounters {
    return countersOf(this.state);
  }

  // a device frame with the device's talker (the short form of `deviceFrame`)
  frame(deviceId: string, talker: DeviceFrame['talker'], body: DeviceFrameBody): TableOutput[] {
    return this.deviceFrame(deviceId, talker, body);
  }

  status(deviceId: string, state: 'connected' | 'disconnected' | 'stale', detail?: string): TableOutput[] {
    return this.input({ type: 'device-status', at: this.tick(), deviceId, state, ...(detail ? { detail } : {}) });
  }

  lastRound(): Envelope | undefined {
    return this.published('round').at(-1);
  }

  /** every published message that does not match its MQTT API schema (src/core/table/messages.ts), with why */
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

/** a card game (one shoe, `game-01`, 50 ms per input) played by a virtual dealer's actions, for the game tests */
export class GameMachine extends TableHarness {
  constructor(game: string, betting: 'engine' | 'none', gameOptions: Record<string, unknown> = {}) {
    super({ id: 'game-01', game, betting, table: { gameOptions }, stepMs: 50 });
  }

  /** plays a virtual dealer's action into the machine, as the virtual table and engine would */
  act(a: DealerAction): void {
    if (a.type === 'load') this.frame({ type: 'STATE', state: 'LOADED' });
    else if (a.type === 'card') this.card(a.card);
    else if (a.type === 'cut') this.frame({ type: 'CUT' });
    else if (a.type === 'request') {
      const r = this.request(a.command, a.args ?? {});
      if (r.status !== 'ok') throw new Error(`${a.command} ${JSON.stringify(a.args ?? {})} refused: ${String(r.error)}`);
    }
  }
}
