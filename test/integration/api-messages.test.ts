/**
 * Every message a real simulator run publishes (the demo's baccarat table, fast mode, one shoe,
 * on the embedded broker) is valid against the schemas in src/mqtt/messages.ts.
 */
import { describe, expect, it } from 'vitest';
import { captureSimulatorMessages, type CapturedMessage } from '../../src/docs/capture.js';
import { validateMessage } from '../../src/mqtt/messages.js';

describe('MQTT messages of a simulated baccarat shoe', () => {
  let captured: CapturedMessage[] = [];

  it('are all valid against the message schemas', async () => {
    captured = await captureSimulatorMessages({ seed: 'messages-test' });
    expect(captured.length).toBeGreaterThan(300);
    const problems = captured.flatMap((m) => validateMessage(m.rel, m.payload).map((p) => `${p}\n    ${JSON.stringify(m.payload)}`));
    expect(problems.slice(0, 10)).toEqual([]);
  }, 90_000);

  it('include every kind of message a baccarat table publishes, with increasing seq', () => {
    const types = new Set(captured.map((m) => String(m.payload.type)));
    for (const t of ['status', 'device', 'event', 'round', 'result', 'shoe', 'health', 'response']) expect(types, t).toContain(t);
    // live messages (not the retained ones sent on subscribe) arrive in seq order
    const seqs = captured.filter((m) => !m.retain && m.payload.type !== 'status').map((m) => m.payload.seq as number);
    expect(seqs.length).toBeGreaterThan(300);
    expect(seqs.every((s, i) => i === 0 || s > seqs[i - 1])).toBe(true);
    const refused = captured.find((m) => m.rel === 'response/open-betting');
    expect(refused?.payload).toMatchObject({ status: 'error', transaction: 'tx-open-1' });
  });
});
