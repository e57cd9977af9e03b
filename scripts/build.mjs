#!/usr/bin/env node
// `npm run build`: compiles src/, drivers/ and simulators/ with tsc into dist/ (docs/INSTALL.md,
// "Build and package"), then copies what tsc does not emit: plain-JS modules (the journal's
// writer thread, src/persistence/journal-writer-worker.mjs).
import { copyFileSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');
rmSync(DIST, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const r = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json')], { cwd: ROOT, stdio: 'inherit' });
if (r.status !== 0) process.exit(r.status ?? 1);

const copied = [];
function copyPlainJs(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) copyPlainJs(p);
    else if (name.endsWith('.mjs') || name.endsWith('.cjs')) {
      const out = join(DIST, relative(ROOT, p));
      mkdirSync(dirname(out), { recursive: true });
      copyFileSync(p, out);
      copied.push(relative(ROOT, p));
    }
  }
}
for (const d of ['src', 'drivers', 'simulators']) copyPlainJs(join(ROOT, d));
// the commit the build comes from: in the gateway's `info` message and the build_info metric
const git = spawnSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: ROOT, encoding: 'utf8' });
const commit = git.status === 0 ? git.stdout.trim() : undefined;
writeFileSync(join(DIST, 'src', 'build-info.json'), JSON.stringify({ commit }) + '\n');
console.log(`built dist/ (entry dist/src/cli/main.js; copied ${copied.join(', ') || 'no plain-JS modules'})`);
