/**
 * Every scenario in test/scenarios/ runs against the real gateway over pseudo-terminals and a real
 * Mosquitto (one broker for all; each scenario has its own table, ptys and data dir).
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatReport, loadScenarioFile, runScenario } from '../../dev/scenario/scenario-runner.js';
import { startMosquitto, type MosquittoBroker } from '../../dev/rig/mosquitto.js';
import { realIoOrSkip } from '../helpers/real-io.js';

const ROOT = join(import.meta.dirname, '..', 'scenarios');
const io = realIoOrSkip(['socat', 'mosquitto']);

function scenarioFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...scenarioFiles(p));
    else if (/\.(ya?ml|json)$/.test(name)) out.push(p);
  }
  return out;
}

describe.skipIf(!io.available)('scenarios over real I/O', () => {
  let broker: MosquittoBroker;
  beforeAll(async () => {
    broker = await startMosquitto();
  });
  afterAll(async () => {
    await broker?.stop();
  });

  const files = scenarioFiles(ROOT);
  it('there are scenarios to run', () => {
    expect(files.length).toBeGreaterThan(0);
  });
  it('every scenario has its own table id (the broker is shared: retained messages must not leak between them)', () => {
    const ids = files.map((f) => String(loadScenarioFile(f).table.id));
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });
  for (const file of files) {
    it(relative(ROOT, file), async () => {
      const report = await runScenario(loadScenarioFile(file), { brokerUrl: broker.url }, relative(ROOT, file));
      expect(report.passed, formatReport(report)).toBe(true);
    }, 60_000);
  }
});
