/**
 * The node flags production starts the gateway with: those of `ExecStart` in
 * deploy/tablegw.service, between `node` and the script. The bench starts every gateway it
 * measures with them, so its figures are those of the shipped unit (docs/PERFORMANCE.md).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const UNIT = fileURLToPath(new URL('../../deploy/tablegw.service', import.meta.url));

export function productionNodeFlags(unitText = readFileSync(UNIT, 'utf8')): string[] {
  const line = unitText.split('\n').find((l) => l.startsWith('ExecStart='));
  if (!line) throw new Error(`${UNIT}: no ExecStart line`);
  const words = line.slice('ExecStart='.length).trim().split(/\s+/);
  const script = words.findIndex((w) => w.endsWith('.js') || w.endsWith('.mjs'));
  if (script < 1) throw new Error(`${UNIT}: ExecStart does not run node with a script: ${line}`);
  return words.slice(1, script).filter((w) => w.startsWith('--'));
}
