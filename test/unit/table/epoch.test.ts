/**
 * The stream epoch in the pure machine (mqtt-api.md v1.2): taken from the settings, never made by
 * the machine; every envelope names it right after `game`; a restore's `restartAbove` starts the
 * table again above the given counters (src/adapters/store/backup.ts).
 */
import { describe, expect, it } from 'vitest';
import { countersOf, initialTableState, step } from '../../../src/core/table/table-machine.js';
import type { Envelope, TableInput } from '../../../src/core/table/types.js';
import { settingsOf } from '../../helpers/table-harness.js';

const base = settingsOf({
  id: 'sb-01',
  game: 'sic-bo',
  betting: 'none',
  devices: [{ id: 'dice-1', kind: 'dice-sensor', transport: { type: 'serial', path: '/dev/null-dice' } }],
});
const inputs: TableInput[] = [
  { type: 'start', at: 1_000 },
  { type: 'device-status', at: 2_000, deviceId: 'dice-1', state: 'connected' },
  { type: 'gateway-alert', at: 3_000, kind: 'new-epoch', detail: 'x' },
];

function published(epoch?: string): string[] {
  const settings = epoch === undefined ? base : { ...base, epoch };
  let state = initialTableState(settings, {});
  const out: string[] = [];
  for (const i of inputs) {
    const r = step(settings, state, i);
    state = r.state;
    for (const o of r.outputs) if (o.type === 'publish') out.push(JSON.stringify(o.payload));
  }
  return out;
}

describe('stream epoch', () => {
  it("every envelope carries the settings' epoch, after game; the same inputs give the same bytes", () => {
    const a = published('ep-1');
    expect(a.length).toBeGreaterThan(2);
    for (const text of a) {
      const e = JSON.parse(text) as Envelope;
      expect(e.epoch).toBe('ep-1');
      expect(Object.keys(e).slice(0, 6)).toEqual(['v', 'type', 'table', 'game', 'epoch', 'seq']);
    }
    expect(published('ep-1')).toEqual(a);
  });

  it('without an epoch in the settings, no envelope names one (a machine run without a journal)', () => {
    for (const text of published()) expect(JSON.parse(text)).not.toHaveProperty('epoch');
  });

  it('restartAbove starts the table again above the given counters, then publishes the alert above them', () => {
    const settings = { ...base, epoch: 'ep-1' };
    let state = initialTableState(settings, {});
    state = step(settings, state, inputs[0]).state;
    const before = countersOf(state);
    const r = step(settings, state, {
      type: 'gateway-alert',
      at: 5_000,
      kind: 'restored-from-backup',
      detail: 'gap',
      restartAbove: { seq: before.seq + 10_000, roundNo: 1_000 },
    });
    const alert = r.outputs.find((o) => o.type === 'publish' && o.payload.type === 'alert');
    expect(alert && alert.type === 'publish' && alert.payload).toMatchObject({ epoch: 'ep-1', seq: before.seq + 10_001, kind: 'restored-from-backup' });
    expect(countersOf(r.state)).toEqual({ seq: before.seq + 10_001, roundNo: 1_000 });
    // never down: a floor below the counters changes none of them
    const again = step(settings, r.state, {
      type: 'gateway-alert',
      at: 6_000,
      kind: 'restored-from-backup',
      detail: 'gap',
      restartAbove: { seq: 1, roundNo: 1 },
    });
    expect(countersOf(again.state)).toEqual({ seq: before.seq + 10_002, roundNo: 1_000 });
  });
});
