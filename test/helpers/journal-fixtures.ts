/**
 * Journal fixtures (test/fixtures/journals/*.jsonl): sequences of table-machine inputs and what
 * today's `step()` made of them, recorded before a change so that the change can be checked to
 * reproduce them byte for byte (test/unit/table/recorded-journals.test.ts).
 *
 * One JSON value a line. A journal is a header `{ journal, source, settings, persisted }`, then one
 * `{ in, out }` per input, then `{ end }`. `out` lists the step's outputs other than logs, in order:
 * a published message as `[topic, retain, text]` (`text`: `envelopeText`, the runtime's journaled
 * form; a 4th item for a response's `alsoTo`), any other output as itself. `end` holds the final
 * state's persisted forms (the snapshot the runtime stores and the counters) and a SHA-256 of
 * every log output of the journal.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cardGame } from '../../src/core/games/registry.js';
import { envelopeText } from '../../src/core/vocabulary/envelope-text.js';
import { countersOf, initialTableState, step } from '../../src/core/table/table-machine.js';
import type { TableCounters, TableInput, TableOutput, TableSettings, TableState } from '../../src/core/table/types.js';

export type RecordedOutput = [string, boolean, string] | [string, boolean, string, unknown] | Exclude<TableOutput, { type: 'publish' | 'log' }>;

export interface JournalHeader {
  journal: string;
  /** where its inputs come from: a unit test's harness or the fault generator */
  source: string;
  /** the machine settings as JSON: a card table's game module by its id */
  settings: Record<string, unknown>;
  persisted: TableCounters;
}

export interface JournalEnd {
  counters: TableCounters;
  state: unknown;
  logs: string;
}

export interface Journal {
  header: JournalHeader;
  steps: Array<{ in: TableInput; out: RecordedOutput[] }>;
  end: JournalEnd;
}

/** settings as JSON (a card table's game module named by its id) */
export function plainSettings(settings: TableSettings): Record<string, unknown> {
  return settings.kind === 'card' ? { ...settings, game: settings.game.id } : { ...settings };
}

/** the machine settings a journal header names */
export function settingsFromJson(json: Record<string, unknown>): TableSettings {
  if (json.kind !== 'card') return json as unknown as TableSettings;
  const game = cardGame(String(json.game));
  if (!game) throw new Error(`no card game ${String(json.game)}`);
  return { ...json, game } as unknown as TableSettings;
}

export function recordOutputs(outputs: readonly TableOutput[]): { out: RecordedOutput[]; logs: string[] } {
  const out: RecordedOutput[] = [];
  const logs: string[] = [];
  for (const o of outputs) {
    if (o.type === 'log') logs.push(JSON.stringify(o));
    else if (o.type === 'publish') out.push(o.alsoTo ? [o.topic, o.retain, envelopeText(o.payload), o.alsoTo] : [o.topic, o.retain, envelopeText(o.payload)]);
    else out.push(o);
  }
  return { out, logs };
}

/** the state as the runtime persists it (its snapshot is this JSON) */
export function persistedState(state: TableState): unknown {
  return JSON.parse(JSON.stringify(state));
}

/** runs `inputs` through `step()` from a fresh state: the journal as today's machine makes it */
export function runJournal(header: Omit<JournalHeader, 'settings'> & { settings: TableSettings }, inputs: readonly TableInput[]): Journal {
  const settings = header.settings;
  let state = initialTableState(settings, header.persisted);
  const steps: Journal['steps'] = [];
  const hash = createHash('sha256');
  for (const input of inputs) {
    const r = step(settings, state, input);
    state = r.state;
    const { out, logs } = recordOutputs(r.outputs);
    for (const l of logs) hash.update(`${l}\n`);
    steps.push({ in: input, out });
  }
  return {
    header: { journal: header.journal, source: header.source, settings: plainSettings(settings), persisted: header.persisted },
    steps,
    end: { counters: countersOf(state), state: persistedState(state), logs: hash.digest('hex') },
  };
}

export function journalLines(j: Journal): string {
  return `${[JSON.stringify(j.header), ...j.steps.map((s) => JSON.stringify(s)), JSON.stringify({ end: j.end })].join('\n')}\n`;
}

export function readJournals(file: string): Journal[] {
  const out: Journal[] = [];
  let cur: Journal | null = null;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    const v = JSON.parse(line) as Record<string, unknown>;
    if ('journal' in v) {
      cur = { header: v as unknown as JournalHeader, steps: [], end: { counters: {}, state: null, logs: '' } };
      out.push(cur);
    } else if (!cur) throw new Error(`${file}: a line before the first journal header`);
    else if ('end' in v) cur.end = v.end as JournalEnd;
    else cur.steps.push(v as unknown as Journal['steps'][number]);
  }
  return out;
}
