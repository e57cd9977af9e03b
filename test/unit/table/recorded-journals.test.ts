/**
 * Journals recorded with the table machine as it was (test/fixtures/journals/, built by
 * build-journals.ts: every game, with faults, rescans, holds, frame gaps, shuffler states,
 * corrections and voids) replay through today's `step()` to the same outputs: every published
 * message byte for byte (its journaled text, `envelopeText`), every device command and timer, the
 * logs (their digest), and the final state's persisted forms (snapshot and counters).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJournals, runJournal, settingsFromJson } from '../../helpers/journal-fixtures.js';

const DIR = join(import.meta.dirname, '..', '..', 'fixtures', 'journals');
const FILES = readdirSync(DIR)
  .filter((f) => f.endsWith('.jsonl'))
  .sort();
const GAMES = ['baccarat', 'seven-up-baccarat', 'dragon-tiger', 'pok-deng', 'three-pictures', 'three-card-poker', 'blackjack', 'holdem', 'sic-bo', 'keno'];

it('there is a recorded journal file for every game', () => {
  expect(FILES.map((f) => f.replace(/\.jsonl$/, '')).sort()).toEqual([...GAMES].sort());
});

for (const file of FILES) {
  describe(file, () => {
    for (const j of readJournals(join(DIR, file))) {
      it(`${j.header.journal} (${j.steps.length} inputs)`, () => {
        expect(j.steps.length).toBeGreaterThan(0);
        const replay = runJournal(
          { ...j.header, settings: settingsFromJson(j.header.settings) },
          j.steps.map((s) => s.in),
        );
        for (let i = 0; i < j.steps.length; i++) {
          expect(replay.steps[i].out, `${j.header.journal}, input ${i}: ${JSON.stringify(j.steps[i].in)}`).toEqual(j.steps[i].out);
        }
        expect(replay.end.counters).toEqual(j.end.counters);
        expect(replay.end.state).toEqual(j.end.state);
        expect(replay.end.logs, 'the logs differ').toBe(j.end.logs);
      });
    }
  });
}
