/**
 * Finding external commands (socat, mosquitto, openssl) for the scenario runner and the tests.
 */
import fs from 'node:fs';
import path from 'node:path';

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
