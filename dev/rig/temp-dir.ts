import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const created = new Set<string>();

/** Create a fresh directory under os.tmpdir(); removed by removeTempDir / cleanupTempDirs. */
export async function makeTempDir(prefix = 'teg-'): Promise<string> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), sanitize(prefix)));
  created.add(dir);
  return dir;
}

/** Synchronous variant, for use in describe() bodies. */
export function makeTempDirSync(prefix = 'teg-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), sanitize(prefix)));
  created.add(dir);
  return dir;
}

/** Remove one directory (recursively); never throws. */
export async function removeTempDir(dir: string): Promise<void> {
  created.delete(dir);
  await fs.promises.rm(dir, { recursive: true, force: true }).catch(() => {});
}

/** Remove every directory created by this module in this process. */
export async function cleanupTempDirs(): Promise<void> {
  await Promise.all([...created].map((d) => removeTempDir(d)));
}

function sanitize(prefix: string): string {
  return prefix.replace(/[^A-Za-z0-9._-]/g, '_');
}
