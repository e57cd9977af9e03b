/**
 * Runs chaos sections of this directory by hand, before (or besides) `npm run chaos`:
 * `npx tsx dev/chaos/try-section.ts <section> [--full] [--case <name>]`.
 */
const args = process.argv.slice(2);
const name = args[0];
const full = args.includes('--full');
async function main(): Promise<void> {
  const mod = await import(`./sections/${name}.ts`);
  const r = await mod.default.run({ quick: !full, log: (l: string) => console.log(l) });
  console.log(JSON.stringify(r, null, 2));
  const bad = r.zeroColumns.filter((c: string) => r.figures[c] !== 0);
  process.exit(bad.length ? 1 : 0);
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
