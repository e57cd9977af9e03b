#!/usr/bin/env node
// `npm run build`: bundles the gateway with esbuild into dist/ (docs/INSTALL.md, "Build and
// package"): the entry dist/src/cli/main.js, and what is loaded with a dynamic import() (the
// embedded broker, the simulators, the status page server, the subcommands, ...) as chunks in
// dist/src/chunks/, so a start reads a few files instead of ~730 modules. Native modules stay
// external (loaded from node_modules/). Then copies what is not bundled: plain-JS modules (the
// journal's writer thread, src/persistence/journal-writer-worker.mjs, started as a Worker from
// its path). tsc is the typecheck (`npm run typecheck`), not the build.
import { copyFileSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');
rmSync(DIST, { recursive: true, force: true });

const result = await build({
  absWorkingDir: ROOT,
  entryPoints: ['src/cli/main.ts'],
  outdir: 'dist',
  outbase: '.',
  // chunks beside dist/src/cli/: `import.meta.url`-relative lookups (`../build-info.json`,
  // `../persistence/journal-writer-worker.mjs`) resolve the same from the entry and any chunk
  chunkNames: 'src/chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'external',
  legalComments: 'linked',
  logLevel: 'warning',
  metafile: true,
  // native addons (.node binaries, found by path at run time)
  external: ['better-sqlite3', 'serialport', '@serialport/*', 'node-hid'],
  // rxjs's package exports give Node its CommonJS build, which esbuild cannot tree-shake (all
  // of rxjs, 378 KB, parsed at every start): bundle its ES2015 module build instead
  plugins: [{
    name: 'rxjs-esm',
    setup(b) {
      b.onResolve({ filter: /^rxjs$/ }, () => ({ path: join(ROOT, 'node_modules', 'rxjs', 'dist', 'esm', 'index.js') }));
    },
  }, {
    // prom-client's one use of the OpenTelemetry API is for exemplars, never enabled here
    name: 'no-opentelemetry',
    setup(b) {
      b.onResolve({ filter: /^@opentelemetry\/api$/ }, () => ({ path: join(ROOT, 'scripts', 'build-stubs', 'opentelemetry-api.cjs') }));
    },
  }, {
    // `debug` off (no DEBUG at start): one shared no-op logger instead of loggers that build an
    // argument array per call even when off (the stub loads the real one when DEBUG is set)
    name: 'debug-off',
    setup(b) {
      b.onResolve({ filter: /^debug$/ }, () => ({ path: join(ROOT, 'scripts', 'build-stubs', 'debug.cjs') }));
    },
  }],
  // CommonJS dependencies bundled into ESM require Node's built-ins
  banner: { js: "import { createRequire as __tablegwCreateRequire } from 'node:module'; const require = __tablegwCreateRequire(import.meta.url);" },
});

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
const outputs = Object.keys(result.metafile.outputs).filter((f) => f.endsWith('.js'));
console.log(`built dist/ (entry dist/src/cli/main.js and ${outputs.length - 1} chunks; copied ${copied.join(', ') || 'no plain-JS modules'})`);
