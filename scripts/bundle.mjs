// The esbuild settings of the production bundle, shared by `npm run build` (scripts/build.mjs:
// dist/) and the bench (bench/lib/gateway-bundle.ts: the gateway under test built the same way,
// so the bench measures what production runs). `bundleInto(outDir, entryPoints)` writes the
// entries under `<outDir>/src/...` with their chunks in `<outDir>/src/chunks/`, and copies the
// plain-JS modules that are loaded by path (the journal's writer thread), so `import.meta.url`-
// relative lookups (`../build-info.json`, `../persistence/journal-writer-worker.mjs`) resolve the
// same from any entry one folder below `src/`.
import { copyFileSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * `entryPoints`: esbuild's `{ in, out }` pairs, `out` relative to `outDir` without the extension
 * (e.g. `{ in: 'src/cli/main.ts', out: 'src/cli/main' }`). Returns esbuild's result (metafile on)
 * and the plain-JS modules copied.
 */
export async function bundleInto(outDir, entryPoints) {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints,
    outdir: outDir,
    // chunks beside <outDir>/src/cli/, see above
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
    }, {
      // mqtt.js's WebSocket and SOCKS transports load from node_modules when a connect uses them
      // (scripts/build-stubs/mqtt-*-transport.cjs): ~320 KB less to compile at every start
      name: 'mqtt-transports-on-use',
      setup(b) {
        const stubs = { ws: 'mqtt-ws-transport.cjs', socks: 'mqtt-socks-transport.cjs' };
        b.onResolve({ filter: /^\.\/(ws|socks)$/ }, (a) => {
          if (!/[\\/]node_modules[\\/]mqtt[\\/]build[\\/]lib[\\/]connect$/.test(a.resolveDir)) return undefined;
          return { path: join(ROOT, 'scripts', 'build-stubs', stubs[a.path.slice(2)]) };
        });
        b.onResolve({ filter: /^mqtt\/lib\/connect\/(ws|socks)$/ }, (a) => ({ path: a.path, external: true }));
      },
    }],
    // CommonJS dependencies bundled into ESM require Node's built-ins
    banner: { js: "import { createRequire as __tablegwCreateRequire } from 'node:module'; const require = __tablegwCreateRequire(import.meta.url);" },
  });
  const copied = [];
  const copyPlainJs = (dir) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) copyPlainJs(p);
      else if (name.endsWith('.mjs') || name.endsWith('.cjs')) {
        const out = join(outDir, relative(ROOT, p));
        mkdirSync(dirname(out), { recursive: true });
        copyFileSync(p, out);
        copied.push(relative(ROOT, p));
      }
    }
  };
  for (const d of ['src', 'drivers', 'simulators']) copyPlainJs(join(ROOT, d));
  return { result, copied };
}
