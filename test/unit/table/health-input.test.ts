/**
 * The `health` input goes through the table machine only to get its seq: it publishes one retained
 * `health` message and changes nothing but `seq` (docs/OPERATIONS.md "Health").
 */
import { describe, expect, it } from 'vitest';
import { validateMessage } from '../../../src/core/table/messages.js';
import type { HealthReport } from '../../../src/core/table/health.js';
import { TableHarness } from '../../helpers/table-harness.js';

const report = (over: Partial<HealthReport> = {}): HealthReport => ({
  mqtt: 'connected',
  uptimeSec: 12,
  outboxDepth: null,
  devices: { 'shoe-1': { frames: 40, rejected: 2, duplicates: 1 } },
  ...over,
});

describe('health input', () => {
  it('publishes one retained health message with the next seq and changes nothing else', () => {
    const h = new TableHarness();
    h.frame({ type: 'HB' });
    h.card('9H'); // a round in progress
    const before = structuredClone(h.state);
    const out = h.input({ type: 'health', at: h.tick(), report: report() });
    expect(out).toHaveLength(1);
    const o = out[0];
    expect(o.type).toBe('publish');
    if (o.type !== 'publish') return;
    expect(o).toMatchObject({ topic: 'health', retain: true });
    expect(o.payload).toMatchObject({
      type: 'health',
      table: 'bac-01',
      game: 'baccarat',
      seq: before.seq + 1,
      status: 'ok',
      problems: [],
      mqtt: 'connected',
      devices: { 'shoe-1': { kind: 'card-shoe', state: 'connected', frames: 40, rejected: 2, duplicates: 1 } },
    });
    expect(o.payload.roundId).toBeUndefined();
    expect(validateMessage('health', o.payload)).toEqual([]);
    expect({ ...h.state, seq: before.seq }).toEqual(before);
  });

  it("carries a serial port's low-latency mode and FTDI latency timer as the runtime reports them", () => {
    const h = new TableHarness();
    const serial = { lowLatency: false, reason: 'the driver refused: Inappropriate ioctl for device', latencyTimerMs: 16 };
    const out = h.input({ type: 'health', at: h.tick(), report: report({ devices: { 'shoe-1': { frames: 1, rejected: 0, duplicates: 0, serial } } }) });
    const p = (out[0] as Extract<(typeof out)[0], { type: 'publish' }>).payload as unknown as { devices: Record<string, Record<string, unknown>> };
    expect(p.devices['shoe-1']).toEqual({ kind: 'card-shoe', state: 'disconnected', frames: 1, rejected: 0, duplicates: 0, serial });
    expect(validateMessage('health', p)).toEqual([]);
    expect(validateMessage('health', { ...p, devices: { 'shoe-1': { ...p.devices['shoe-1'], serial: { lowLatency: 'yes' } } } })).not.toEqual([]);
  });

  it('is degraded, with reasons, when the broker connection or a device is down', () => {
    const h = new TableHarness();
    const out = h.input({ type: 'health', at: h.tick(), report: report({ mqtt: 'disconnected', devices: {} }) });
    const p = (out[0] as Extract<(typeof out)[0], { type: 'publish' }>).payload;
    expect(p.status).toBe('degraded');
    expect(p.problems).toEqual(['broker connection is down', 'device shoe-1 is disconnected']);
    expect(p.devices).toEqual({ 'shoe-1': { kind: 'card-shoe', state: 'disconnected', frames: 0, rejected: 0, duplicates: 0 } });
  });

  it('does not change the results: the same frames with health inputs in between give the same rounds', () => {
    const deal = (withHealth: boolean) => {
      const h = new TableHarness();
      for (const c of ['9H', 'KD', '9C', '2S', '2H', '3D', '3C', 'KS', '8D']) {
        h.card(c);
        if (withHealth) h.input({ type: 'health', at: h.tick(0), report: report() });
      }
      return h.outputs.flatMap((o) => (o.type === 'publish' && o.topic === 'result' ? [o.payload] : [])).map(({ seq: _s, ...rest }) => rest);
    };
    const plain = deal(false);
    expect(plain).toHaveLength(2);
    expect(deal(true)).toEqual(plain);
  });
});
