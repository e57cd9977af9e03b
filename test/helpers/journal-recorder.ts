/**
 * Records what the machine harness drives through `step()` (test/helpers/table-harness.ts) when
 * `TABLE_JOURNAL_RECORD` names a directory: per harness, its settings, persisted counters and every
 * input, one JSON line each, in `<dir>/<test file>.jsonl`. test/fixtures/journals/build-journals.ts
 * turns such a recording into the journal fixtures (test/unit/table/recorded-journals.test.ts).
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { expect } from 'vitest';
import type { TableCounters, TableInput, TableSettings } from '../../src/core/table/types.js';
import { plainSettings } from './journal-fixtures.js';

const DIR = process.env.TABLE_JOURNAL_RECORD;
const ids = new WeakMap<object, string>();
let next = 0;

function fileOf(): { file: string; test: string } {
  const st = expect.getState();
  return { file: join(DIR!, `${basename(st.testPath ?? 'unknown')}.jsonl`), test: st.currentTestName ?? '' };
}

export function recordHarness(harness: object, settings: TableSettings, persisted: TableCounters): void {
  if (!DIR) return;
  mkdirSync(DIR, { recursive: true });
  const { file, test } = fileOf();
  const id = `${basename(file, '.jsonl')}#${++next}`;
  ids.set(harness, id);
  appendFileSync(file, `${JSON.stringify({ journal: id, test, settings: plainSettings(settings), persisted })}\n`);
}

export function recordInput(harness: object, input: TableInput): void {
  const id = DIR ? ids.get(harness) : undefined;
  if (!id) return;
  appendFileSync(fileOf().file, `${JSON.stringify({ journal: id, input })}\n`);
}
