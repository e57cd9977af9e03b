/** Drives the pure table machine (`step`) for the game tests: frames, requests, every output kept. */
import type { DeviceFrame, DeviceFrameBody } from '../../../drivers/codecs/frames.js';
import { validateConfig } from '../../../src/config/load-config.js';
import { initialTableState, step } from '../../../src/table/table-machine.js';
import { tableSettings } from '../../../src/table/table-settings.js';
import type { Envelope, TableInput, TableOutput, TableSettings, TableState } from '../../../src/table/types.js';
import type { DealerAction } from '../../../simulators/dealers/shoe-dealer.js';

export class Machine {
  readonly settings: TableSettings;
  state: TableState;
  readonly outputs: TableOutput[] = [];
  private at = Date.UTC(2026, 10, 30, 12, 0, 0);
  private seq = 0;

  constructor(game: string, betting: 'engine' | 'none', gameOptions: Record<string, unknown> = {}) {
    const cfg = validateConfig({
      mqtt: { url: 'mqtt://127.0.0.1:1' },
      tables: [{
        id: 'game-01', game, betting, gameOptions,
        devices: [{ id: 'shoe-1', kind: 'card-shoe', transport: { type: 'serial', path: '/dev/null-shoe' } }],
      }],
    });
    this.settings = tableSettings(cfg.tables[0]);
    this.state = initialTableState(this.settings, {});
    this.input({ type: 'start', at: this.at });
  }

  input(i: TableInput): TableOutput[] {
    const r = step(this.settings, this.state, i);
    this.state = r.state;
    this.outputs.push(...r.outputs);
    return r.outputs;
  }

  frame(body: DeviceFrameBody): TableOutput[] {
    this.at += 50;
    return this.input({ type: 'frame', at: this.at, deviceId: 'shoe-1', frame: { talker: 'SHOE', seq: this.seq++ & 0xffff, ...body } as DeviceFrame });
  }

  card(card: string): TableOutput[] {
    return this.frame({ type: 'CARD', card, rescan: false });
  }

  request(command: string, args: Record<string, unknown> = {}): Envelope {
    this.at += 50;
    const out = this.input({ type: 'request', at: this.at, command, payload: JSON.stringify(args) });
    const resp = out.find((o) => o.type === 'publish' && o.topic === `response/${command}`);
    if (!resp || resp.type !== 'publish') throw new Error(`no response to ${command}`);
    return resp.payload;
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

  /** every published envelope (optionally of one topic) */
  published(topic?: string): Envelope[] {
    const out: Envelope[] = [];
    for (const o of this.outputs) if (o.type === 'publish' && (!topic || o.topic === topic)) out.push(o.payload);
    return out;
  }
}
