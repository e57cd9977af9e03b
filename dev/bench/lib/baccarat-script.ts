/**
 * A baccarat table for the pure-code benchmarks (dev/bench/engine.ts, dev/bench/cold-run.ts): its
 * settings as the config makes them, and the frames real 8-deck shoes send (LOADED, the cards
 * by the game's dealing order, CUT), shuffled from a fixed seed.
 */
import type { DeviceFrame } from '../../../src/core/vocabulary/frames.js';
import { seededRng } from '../../../simulators/rng.js';
import { validateConfig } from '../../../src/app/config/load-config.js';
import { initialTableState, step } from '../../../src/core/table/table-machine.js';
import { tableSettings } from '../../../src/core/table/table-settings.js';
import type { CardTableSettings, TableInput, TableState } from '../../../src/core/table/types.js';
import { dealShoe } from '../../../simulators/dealers/shoe-dealer.js';
import { validateMessage } from '../../../src/core/table/messages.js';

export function baccaratSettings(): CardTableSettings {
  const cfg = validateConfig({
    mqtt: { url: 'mqtt://127.0.0.1:1' },
    tables: [
      { id: 'bench-bac', game: 'baccarat', betting: 'none', devices: [{ id: 'shoe-1', kind: 'card-shoe', transport: { type: 'serial', path: '/dev/null' } }] },
    ],
  });
  return tableSettings(cfg.tables[0]) as CardTableSettings;
}

export interface Script {
  inputs: TableInput[];
  rounds: number;
}

/** the frames a real shoe would send for `shoes` 8-deck baccarat shoes (LOADED, cards, CUT) */
export function baccaratScript(settings: CardTableSettings, shoes: number): Script {
  const rng = seededRng('bench-step');
  const inputs: TableInput[] = [];
  let seq = 0;
  let at = Date.UTC(2026, 0, 1);
  let rounds = 0;
  const frame = (body: Record<string, unknown>) => {
    at += 100;
    inputs.push({ type: 'frame', at, deviceId: 'shoe-1', frame: { talker: 'SHOE', seq: seq++ & 0xffff, ...body } as DeviceFrame });
  };
  for (let i = 0; i < shoes; i++) {
    for (const a of dealShoe({ game: settings.game, decks: 8, burnPerRound: 0, engine: false, cutCardFromEnd: 70 }, rng)) {
      if (a.type === 'load') frame({ type: 'STATE', state: 'LOADED' });
      else if (a.type === 'card') frame({ type: 'CARD', card: a.card, rescan: false });
      else if (a.type === 'cut') frame({ type: 'CUT' });
      else if (a.type === 'round-end') rounds++;
    }
  }
  return { inputs, rounds };
}

export function startedState(settings: CardTableSettings): TableState {
  let s = initialTableState(settings, {});
  s = step(settings, s, { type: 'start', at: Date.UTC(2026, 0, 1) }).state;
  s = step(settings, s, { type: 'device-status', at: Date.UTC(2026, 0, 1), deviceId: 'shoe-1', state: 'connected' }).state;
  return s;
}

/**
 * cycles through the script, `n` inputs per `run(n)` (returns a sink so no work is dropped);
 * serialize: `json` adds JSON.stringify of every published envelope, `validate` also checks it against the topic map (as the runtime does)
 */
export function stepLoop(settings: CardTableSettings, script: Script, serialize: false | 'json' | 'validate') {
  let state = startedState(settings);
  let k = 0;
  const run = (n: number): number => {
    let sink = 0;
    const inputs = script.inputs;
    for (let i = 0; i < n; i++) {
      const r = step(settings, state, inputs[k]);
      state = r.state;
      if (++k === inputs.length) k = 0;
      if (serialize) {
        for (const o of r.outputs) {
          if (o.type !== 'publish') continue;
          if (serialize === 'validate') sink += validateMessage(o.topic, o.payload).length;
          sink += JSON.stringify(o.payload).length;
        }
      } else sink += r.outputs.length;
    }
    return sink;
  };
  return {
    run,
    get state() {
      return state;
    },
  };
}
