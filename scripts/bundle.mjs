// The esbuild settings of the production bundle, shared by `npm run build` (scripts/build.mjs:
// dist/) and the bench (dev/bench/lib/gateway-bundle.ts: the gateway under test built the same way,
// so the bench measures what production runs). `bundleInto(outDir, entryPoints)` writes the
// entries under `<outDir>/src/...` with their chunks in `<outDir>/src/app/chunks/`, and copies the
// plain-JS modules that are loaded by path (the journal's writer thread), so `import.meta.url`-
// relative lookups (`../../build-info.json`, `../../adapters/store/journal-writer-worker.mjs`) resolve the
// same from any entry two folders below `src/`.
import { copyFileSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * `entryPoints`: esbuild's `{ in, out }` pairs, `out` relative to `outDir` without the extension
 * (e.g. `{ in: 'src/app/cli/main.ts', out: 'src/app/cli/main' }`). Returns esbuild's result (metafile on)
 * and the plain-JS modules copied.
 */
export async function bundleInto(outDir, entryPoints) {
  const result = await build({
    absWorkingDir: ROOT,
    // the export's thread (src/adapters/store/scheduled-export.ts) starts its module by path, beside the journal writer's
    entryPoints: [...entryPoints, { in: 'src/adapters/store/export-worker.ts', out: 'src/adapters/store/export-worker' }],
    outdir: outDir,
    // chunks beside <outDir>/src/app/cli/, see above
    chunkNames: 'src/app/chunks/[name]-[hash]',
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
    plugins: [
      {
        name: 'rxjs-esm',
        setup(b) {
          b.onResolve({ filter: /^rxjs$/ }, () => ({ path: join(ROOT, 'node_modules', 'rxjs', 'dist', 'esm', 'index.js') }));
        },
      },
      {
        // prom-client's one use of the OpenTelemetry API is for exemplars, never enabled here
        name: 'no-opentelemetry',
        setup(b) {
          b.onResolve({ filter: /^@opentelemetry\/api$/ }, () => ({ path: join(ROOT, 'scripts', 'build-stubs', 'opentelemetry-api.cjs') }));
        },
      },
      {
        // `debug` off (no DEBUG at start): one shared no-op logger instead of loggers that build an
        // argument array per call even when off (the stub loads the real one when DEBUG is set)
        name: 'debug-off',
        setup(b) {
          b.onResolve({ filter: /^debug$/ }, () => ({ path: join(ROOT, 'scripts', 'build-stubs', 'debug.cjs') }));
          // the real one, from node_modules when DEBUG is set, not bundled (~15 KB less to compile)
          b.onResolve({ filter: /^debug\/src\/index\.js$/ }, (a) => ({ path: a.path, external: true }));
        },
      },
      {
        // parts of mqtt.js the gateway seldom or never uses load from node_modules when first used
        // (scripts/build-stubs/mqtt-*.cjs): its WebSocket and SOCKS transports and its browser
        // timers, ~390 KB less to compile at every start. (Not its `lru-cache`: a broker that offers
        // MQTT 5 topic aliases, as Mosquitto does, makes mqtt.js build one at every connect.)
        name: 'mqtt-parts-on-use',
        setup(b) {
          const connect = /[\\/]node_modules[\\/]mqtt[\\/]build[\\/]lib[\\/]connect$/;
          const lib = /[\\/]node_modules[\\/]mqtt[\\/]build[\\/]lib$/;
          const stubs = [
            { spec: './ws', from: connect, stub: 'mqtt-ws-transport.cjs' },
            { spec: './socks', from: connect, stub: 'mqtt-socks-transport.cjs' },
            { spec: 'worker-timers', from: lib, stub: 'mqtt-worker-timers.cjs' },
          ];
          b.onResolve({ filter: /^(\.\/ws|\.\/socks|worker-timers)$/ }, (a) => {
            const s = stubs.find((x) => x.spec === a.path && x.from.test(a.resolveDir));
            return s ? { path: join(ROOT, 'scripts', 'build-stubs', s.stub) } : undefined;
          });
          // what the stand-ins load at run time stays outside the bundle
          b.onResolve({ filter: /^(mqtt\/lib\/connect\/(ws|socks)|worker-timers)$/ }, (a) =>
            /[\\/]scripts[\\/]build-stubs$/.test(a.resolveDir) ? { path: a.path, external: true } : undefined,
          );
        },
      },
    ],
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
