/**
 * Where the project's files are (config/default.yaml, docs/, package.json), whether the code runs
 * from src/ through tsx or from the build in dist/: the nearest folder upwards with a package.json.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find the project folder (no package.json above the code)');
    dir = up;
  }
}

export const PROJECT_ROOT = findRoot();

interface PackageInfo {
  name: string;
  version: string;
}
let pkg: PackageInfo | null = null;

/** name and version from package.json */
export function packageInfo(): PackageInfo {
  pkg ??= JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as PackageInfo;
  return pkg;
}

/** the gateway's version (package.json) */
export function gatewayVersion(): string {
  return packageInfo().version;
}
