/**
 * The data dir's lock (src/adapters/store/data-dir-lock.ts) within one process: a second lock on
 * the same dir is refused naming the holder's pid, a released lock can be taken again, and two
 * data dirs lock independently. Across processes (and SIGKILL): test/integration/data-dir-lock.test.ts.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirInUseError, lockDataDir, PID_FILE, type DataDirLock } from '../../../src/adapters/store/data-dir-lock.js';
import { makeTempDir } from '../../../dev/rig/temp-dir.js';

describe('data dir lock', () => {
  const locks: DataDirLock[] = [];
  afterEach(() => {
    for (const l of locks.splice(0)) l.release();
  });

  it('refuses a second lock on the same dir, naming the pid that holds it', async () => {
    const dir = join(await makeTempDir('teg-lock-'), 'data');
    locks.push(lockDataDir(dir));
    expect(existsSync(dir)).toBe(true);
    expect(readFileSync(join(dir, PID_FILE), 'utf8').trim()).toBe(String(process.pid));
    let err: unknown;
    try {
      locks.push(lockDataDir(dir));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DataDirInUseError);
    expect((err as DataDirInUseError).code).toBe('data-dir-in-use');
    expect((err as Error).message).toContain(`data dir ${dir} is in use by pid ${process.pid}`);
  });

  it('a released lock can be taken again; another dir is independent', async () => {
    const base = await makeTempDir('teg-lock-');
    const a = lockDataDir(join(base, 'a'));
    locks.push(lockDataDir(join(base, 'b')));
    a.release();
    a.release(); // twice is harmless
    locks.push(lockDataDir(join(base, 'a')));
    expect(() => lockDataDir(join(base, 'b'))).toThrow(DataDirInUseError);
  });

  it('a stale pid file does not stop a start: only the lock decides', async () => {
    const dir = await makeTempDir('teg-lock-');
    writeFileSync(join(dir, PID_FILE), '999999\n');
    locks.push(lockDataDir(dir));
    expect(readFileSync(join(dir, PID_FILE), 'utf8').trim()).toBe(String(process.pid));
  });
});
