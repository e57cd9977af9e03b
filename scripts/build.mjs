#!/usr/bin/env node
// `npm run build`: bundles the gateway with esbuild into dist/ (docs/INSTALL.md, "Build and
// package"): the entry dist/src/app/cli/main.js, and what is loaded with a dynamic import() (the
// embedded broker, the simulators, the status page server, the subcommands, ...) as chunks in
// dist/src/app/chunks/, so a start reads a few files instead of ~730 modules. Native modules stay
// external (loaded from node_modules/). Then copies what is not bundled: plain-JS modules (the
// journal's writer thread, src/adapters/store/journal-writer-worker.mjs, started as a Worker from
// its path). tsc is the typecheck (`npm run typecheck`), not the build.
import { rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { bundleInto, ROOT } from './bundle.mjs';

const DIST = join(ROOT, 'dist');
rmSync(DIST, { recursive: true, force: true });

// the settings (and why each) are in scripts/bundle.mjs, shared with the bench's gateway
const { result, copied } = await bundleInto(DIST, [{ in: 'src/app/cli/main.ts', out: 'src/app/cli/main' }]);
// the commit the build comes from: in the gateway's `info` message and the build_info metric
const git = spawnSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: ROOT, encoding: 'utf8' });
const commit = git.status === 0 ? git.stdout.trim() : undefined;
writeFileSync(join(DIST, 'src', 'build-info.json'), JSON.stringify({ commit }) + '\n');
const outputs = Object.keys(result.metafile.outputs).filter((f) => f.endsWith('.js'));
console.log(`built dist/ (entry dist/src/app/cli/main.js and ${outputs.length - 1} chunks; copied ${copied.join(', ') || 'no plain-JS modules'})`);
