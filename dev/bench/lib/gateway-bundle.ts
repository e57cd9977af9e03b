/**
 * The gateway under test as production runs it: dev/bench/gateway-child.ts bundled with the settings
 * of `npm run build` (scripts/bundle.mjs: rxjs's module build, zod tree-shaken, `debug` off, native
 * addons from node_modules/) into dev/bench/.dist/, built once per bench run. The sources under tsx
 * allocate and run differently (rxjs's CommonJS build, `debug` loggers that build their argument
 * arrays per call), so figures measured on them are not the product's.
 * `TEG_BENCH_GATEWAY=sources` runs the sources instead (e.g. to profile with source lines).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleInto } from '../../../scripts/bundle.mjs';

const BENCH_DIST = fileURLToPath(new URL('../.dist', import.meta.url));
const SOURCE_CHILD = fileURLToPath(new URL('../gateway-child.ts', import.meta.url));

export interface GatewayChildEntry {
  /** the script to fork */
  path: string;
  /** node flags it needs (tsx for the sources) */
  execArgv: string[];
  /** what the bench prints about it */
  what: string;
}

let built: Promise<GatewayChildEntry> | null = null;

/** the gateway child to fork: the bundle (built at the first call) unless TEG_BENCH_GATEWAY=sources */
export function gatewayChildEntry(): Promise<GatewayChildEntry> {
  if (process.env.TEG_BENCH_GATEWAY === 'sources') {
    return Promise.resolve({ path: SOURCE_CHILD, execArgv: ['--import', 'tsx'], what: 'the sources under tsx (TEG_BENCH_GATEWAY=sources)' });
  }
  built ??= (async () => {
    rmSync(BENCH_DIST, { recursive: true, force: true });
    await bundleInto(BENCH_DIST, [{ in: 'dev/bench/gateway-child.ts', out: 'src/dev/bench/gateway-child' }]);
    return { path: join(BENCH_DIST, 'src', 'dev', 'bench', 'gateway-child.js'), execArgv: [], what: 'bundled as dist/ is (dev/bench/.dist/)' };
  })();
  return built;
}
