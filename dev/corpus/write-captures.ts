/**
 * Writes the corpus captures and scripts to a directory: `<name>.capture` (the `tablegw-capture`
 * v1 file of the format's known deal with line faults) and `<name>.deal` (the technician's script),
 * for `tablegw profile check` and `tablegw profile learn` by hand.
 * Usage: npx tsx dev/corpus/write-captures.ts <dir>
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCapture, CORPUS } from './index.js';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: npx tsx dev/corpus/write-captures.ts <dir>');
  process.exit(2);
}
mkdirSync(dir, { recursive: true });
for (const e of CORPUS) {
  const c = buildCapture(e);
  writeFileSync(join(dir, `${e.name}.capture`), c.text);
  writeFileSync(join(dir, `${e.name}.deal`), `# ${e.name} (${e.kind}): ${e.modelledOn}\n${c.script}`);
  console.log(`${e.name}: ${join(dir, `${e.name}.capture`)}, ${join(dir, `${e.name}.deal`)} (profile ${e.profilePath})`);
}
