/**
 * Every message a real simulator run publishes (every table of the demo config — baccarat, sic
 * bo, keno, ... — in fast mode, one shoe / ten rounds each, on the embedded broker) is valid
 * against the schemas in src/core/table/messages.ts.
 */
import { describe, expect, it } from 'vitest';
import { captureSimulatorMessages, type CapturedMessage } from '../../dev/docs/capture.js';
import { validateMessage } from '../../src/core/table/messages.js';

describe('MQTT messages of the simulated demo tables', () => {
  let captured: CapturedMessage[] = [];

  it('are all valid against the message schemas', async () => {
    // the tables without an engine: the virtual engines' request timeouts make the others flaky on a loaded machine
    captured = await captureSimulatorMessages({ seed: 'messages-test', allTables: true, tableFilter: (t) => t.betting !== 'engine' });
    expect(captured.length).toBeGreaterThan(300);
    expect([...new Set(captured.map((m) => m.payload.game))]).toEqual(expect.arrayContaining(['baccarat', 'sic-bo', 'keno']));
    const problems = captured.flatMap((m) => validateMessage(m.rel, m.payload).map((p) => `${p}\n    ${JSON.stringify(m.payload)}`));
    expect(problems.slice(0, 10)).toEqual([]);
  }, 90_000);

  it('include every kind of message a baccarat table publishes, with increasing seq per table', () => {
    const bac = captured.filter((m) => m.payload.game === 'baccarat');
    const types = new Set(bac.map((m) => String(m.payload.type)));
    for (const t of ['status', 'device', 'event', 'round', 'result', 'shoe', 'health', 'response']) expect(types, t).toContain(t);
    for (const table of new Set(captured.map((m) => m.table))) {
      const seqs = captured.filter((m) => m.table === table && m.payload.type !== 'status').map((m) => m.payload.seq as number);
      expect(
        seqs.every((s, i) => i === 0 || s > seqs[i - 1]),
        table,
      ).toBe(true);
    }
    const refused = captured.find((m) => m.rel === 'response/open-betting' && m.payload.transaction === 'tx-open-1');
    expect(refused?.payload).toMatchObject({ status: 'error', transaction: 'tx-open-1' });
  });
});
