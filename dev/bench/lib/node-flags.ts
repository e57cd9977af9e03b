/**
 * The node flags the bench starts gateways with.
 *
 * - `productionNodeFlags()`: those of `ExecStart` in deploy/tablegw.service, between `node` and
 *   the script — every gateway the bench starts gets them, so its figures are the shipped unit's.
 * - `MANY_TABLES_NODE_FLAGS`: what deploy/tablegw.default gives a PC of many tables (its
 *   `NODE_OPTIONS` line); the throughput ramp runs with them as well (docs/PERFORMANCE.md,
 *   "Garbage collection"). A test checks that the two files agree.
 * - `benchExtraNodeFlags()`: `TEG_BENCH_NODE_FLAGS`, added to every gateway the bench starts (the
 *   latency, throughput and start-up ones), e.g. `--cpu-prof --cpu-prof-dir=/tmp/p` or
 *   `--perf-basic-prof`.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const UNIT = fileURLToPath(new URL('../../../deploy/tablegw.service', import.meta.url));
const DEFAULTS = fileURLToPath(new URL('../../../deploy/tablegw.default', import.meta.url));

export const MANY_TABLES_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=64', '--initial-old-space-size=256'];

export function productionNodeFlags(unitText = readFileSync(UNIT, 'utf8')): string[] {
  const line = unitText.split('\n').find((l) => l.startsWith('ExecStart='));
  if (!line) throw new Error(`${UNIT}: no ExecStart line`);
  const words = line.slice('ExecStart='.length).trim().split(/\s+/);
  const script = words.findIndex((w) => w.endsWith('.js') || w.endsWith('.mjs'));
  if (script < 1) throw new Error(`${UNIT}: ExecStart does not run node with a script: ${line}`);
  return words.slice(1, script).filter((w) => w.startsWith('--'));
}

/** the flags of the (commented) `NODE_OPTIONS=` line of deploy/tablegw.default */
export function manyTablesDefaultsFlags(text = readFileSync(DEFAULTS, 'utf8')): string[] {
  const line = text.split('\n').find((l) => /^#?NODE_OPTIONS=/.test(l));
  if (!line) throw new Error(`${DEFAULTS}: no NODE_OPTIONS line`);
  return line
    .replace(/^#?NODE_OPTIONS=/, '')
    .trim()
    .split(/\s+/)
    .filter(Boolean);
}

/** the words of TEG_BENCH_NODE_FLAGS (none when unset or blank) */
export function benchExtraNodeFlags(value = process.env.TEG_BENCH_NODE_FLAGS): string[] {
  return (value ?? '').split(/\s+/).filter(Boolean);
}
