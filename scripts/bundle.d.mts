import type { BuildResult } from 'esbuild';
export declare const ROOT: string;
/** bundles `entryPoints` (`{ in, out }`, `out` relative to `outDir`) as `npm run build` does */
export declare function bundleInto(
  outDir: string,
  entryPoints: Array<{ in: string; out: string }>,
): Promise<{ result: BuildResult<{ metafile: true }>; copied: string[] }>;
