/**
 * The attack suite: `npm run chaos` (bounded to a few minutes) or `npm run chaos -- --quick` (CI).
 * Runs every section of dev/chaos/sections/ in name order against the real gateway, prints one
 * table of figures, and exits 1 when any figure a section names in `zeroColumns` is not 0 (or a
 * section fails to run).
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ChaosResult, ChaosSection } from './section.js';

const here = dirname(fileURLToPath(import.meta.url));
const quick = process.argv.includes('--quick');
const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const log = (line: string) => process.stdout.write(`  ${line}\n`);

async function loadSections(): Promise<ChaosSection[]> {
  const dir = join(here, 'sections');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .sort();
  const sections: ChaosSection[] = [];
  for (const f of files) {
    const mod = (await import(pathToFileURL(join(dir, f)).href)) as { default?: ChaosSection };
    if (!mod.default || typeof mod.default.run !== 'function') throw new Error(`${f}: no default export ChaosSection`);
    sections.push(mod.default);
  }
  return sections.sort((a, b) => a.name.localeCompare(b.name));
}

function table(results: ChaosResult[]): string {
  const rows: string[][] = [['section', 'figure', 'value', 'must be 0']];
  for (const r of results) {
    for (const [k, v] of Object.entries(r.figures)) rows.push([r.section, k, String(v), r.zeroColumns.includes(k) ? (v === 0 ? 'yes: ok' : 'yes: FAIL') : '']);
    for (const z of r.zeroColumns) if (!(z in r.figures)) rows.push([r.section, z, 'missing', 'yes: FAIL']);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  return rows
    .map((row) =>
      row
        .map((c, i) => (i === 2 ? c.padStart(widths[i]) : c.padEnd(widths[i])))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

async function main(): Promise<void> {
  const started = Date.now();
  const sections = (await loadSections()).filter((s) => only.length === 0 || only.includes(s.name));
  const results: ChaosResult[] = [];
  let failed = false;
  for (const s of sections) {
    const t0 = Date.now();
    process.stdout.write(`== ${s.name}${quick ? ' (quick)' : ''}\n`);
    try {
      const r = await s.run({ quick, log });
      results.push(r);
      for (const n of r.notes ?? []) log(`note: ${n}`);
      log(`done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    } catch (e) {
      failed = true;
      results.push({ section: s.name, figures: { 'section-failed': 1 }, zeroColumns: ['section-failed'], notes: [String((e as Error).stack ?? e)] });
      log(`FAILED: ${(e as Error).stack ?? e}`);
    }
  }
  process.stdout.write(`\n== chaos figures (${quick ? 'quick' : 'full'}, ${((Date.now() - started) / 1000).toFixed(0)} s)\n${table(results)}\n`);
  const bad = results.flatMap((r) => r.zeroColumns.filter((z) => r.figures[z] !== 0).map((z) => `${r.section}.${z}`));
  if (bad.length || failed) {
    process.stdout.write(`\nnot 0: ${bad.join(', ')}\n`);
    process.exit(1);
  }
  process.exit(0);
}

main().catch((e) => {
  process.stderr.write(`${(e as Error).stack ?? e}\n`);
  process.exit(1);
});
