import fs from 'node:fs';
import path from 'node:path';

/** When set (CI), a missing external tool fails the test run instead of skipping. */
export const requireRealIo = process.env.REQUIRE_REAL_IO === '1';

const EXTRA_DIRS = ['/usr/sbin', '/sbin', '/usr/local/sbin', '/usr/local/bin'];

function isExecutableFile(p: string): boolean {
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

/**
 * Absolute path of a command found on PATH (plus the sbin dirs, where Debian puts
 * mosquitto and which a non-root PATH may lack), or undefined.
 */
export function resolveCommand(name: string): string | undefined {
  if (name.includes('/')) return isExecutableFile(name) ? name : undefined;
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  for (const extra of EXTRA_DIRS) if (!dirs.includes(extra)) dirs.push(extra);
  for (const d of dirs) {
    const p = path.join(d, name);
    if (isExecutableFile(p)) return p;
  }
  return undefined;
}

/** Whether an executable named `name` can be found (see resolveCommand). */
export function hasCommand(name: string): boolean {
  return resolveCommand(name) !== undefined;
}

/** resolveCommand(name) or the bare name (spawn then reports ENOENT itself). */
export function commandPath(name: string): string {
  return resolveCommand(name) ?? name;
}

/**
 * Decide whether tests needing external commands can run.
 * - all present: { available: true }
 * - missing and REQUIRE_REAL_IO=1: throws (the test file fails instead of silently skipping)
 * - missing otherwise: { available: false, reason } and a console.warn, for describe.skipIf(!x.available)
 */
export function realIoOrSkip(command: string | string[]): { available: boolean; reason?: string } {
  const commands = Array.isArray(command) ? command : [command];
  const missing = commands.filter((c) => !hasCommand(c));
  if (missing.length === 0) return { available: true };
  const reason = `missing command(s): ${missing.join(', ')} (install with: apt-get install -y ${missing.join(' ')})`;
  if (requireRealIo) {
    throw new Error(`REQUIRE_REAL_IO=1 but ${reason}`);
  }
  console.warn(`[real-io] skipping: ${reason}`);
  return { available: false, reason };
}
