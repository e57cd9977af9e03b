/**
 * A real journal (gateway.db in a temp data dir) of simulated rounds: the recorded fixture
 * journals' inputs and the messages today's machine published for them (test/fixtures/journals),
 * committed through GatewayStore as the runtime commits them.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GatewayStore } from '../../src/adapters/store/gateway-store.js';
import type { StoredMessage } from '../../src/runtime/ports.js';
import { readJournals } from './journal-fixtures.js';

export interface BuiltJournal {
  dir: string;
  /** the inputs and messages committed, per table */
  inputs: number;
  messages: number;
  /** `result` messages (rounds) committed */
  rounds: number;
  firstAt: number;
  lastAt: number;
}

/** commits the fixture journals of `games` (file names without .jsonl), each as table `<game>-1`, into a new data dir */
export function buildJournal(games: readonly string[], o: { steps?: number; dir?: string } = {}): BuiltJournal {
  const dir = o.dir ?? mkdtempSync(join(tmpdir(), 'export-journal-'));
  const store = new GatewayStore(dir, { synchronous: 'normal', retentionDays: 3650, writer: 'inline' });
  let inputs = 0;
  let messages = 0;
  let rounds = 0;
  let firstAt = Number.POSITIVE_INFINITY;
  let lastAt = 0;
  try {
    for (const game of games) {
      const [j] = readJournals(join(import.meta.dirname, '..', 'fixtures', 'journals', `${game}.jsonl`));
      const tableId = `${game}-1`;
      store.registerTable(tableId, j.header.settings, () => ({}));
      const steps = o.steps === undefined ? j.steps : j.steps.slice(0, o.steps);
      for (const s of steps) {
        const msgs: StoredMessage[] = [];
        for (const out of s.out) {
          if (!Array.isArray(out)) continue;
          const [topic, retain, text] = out;
          const seq = (JSON.parse(text) as { seq: number }).seq;
          msgs.push({ seq, topic, retain, payload: text });
          if (topic === 'result') rounds++;
        }
        const at = (s.in as { at?: number }).at ?? 0;
        firstAt = Math.min(firstAt, at);
        lastAt = Math.max(lastAt, at);
        store.enqueue({ tableId, input: s.in, messages: msgs }, () => {});
        store.flush();
        inputs++;
        messages += msgs.length;
      }
    }
  } finally {
    store.close();
  }
  return { dir, inputs, messages, rounds, firstAt, lastAt };
}
