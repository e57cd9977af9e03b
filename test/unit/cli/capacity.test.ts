/**
 * The table count against the machine's measured capacity (docs/SCALING.md "Sizing": 300 tables per
 * 2 cores): `check-config` and the start warn beyond it and refuse more than 4 times it unless told to.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { capacityOf, checkCapacity } from '../../../src/app/config/capacity.js';
import { startGateway } from '../../../src/app/gateway.js';
import { validateConfig } from '../../../src/app/config/load-config.js';
import { makeTempDirSync, removeTempDir } from '../../../dev/rig/temp-dir.js';
import { capturingLogger } from '../../helpers/floor.js';

const dir = makeTempDirSync('teg-capacity-');
afterAll(() => removeTempDir(dir));

function config(tables: number, extra: Record<string, unknown> = {}) {
  return {
    dataDir: join(dir, 'data'),
    http: { enabled: false },
    ...extra,
    // /dev/null: a path check-config can open (it checks every serial path; the capacity is what is tested)
    tables: Array.from({ length: tables }, (_, i) => ({
      id: `t-${i}`,
      game: 'baccarat',
      devices: [{ id: 'shoe-1', kind: 'card-shoe', transport: { type: 'serial', path: '/dev/null' } }],
    })),
  };
}

function checkConfig(cfg: unknown, ...flags: string[]) {
  const file = join(dir, `cfg-${Math.random().toString(16).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(cfg));
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/app/cli/main.ts', 'check-config', ...flags, file], { encoding: 'utf8' });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('capacity', () => {
  it('is 300 tables per 2 cores, scaled with the cores', () => {
    expect(capacityOf(2)).toBe(300);
    expect(capacityOf(8)).toBe(1_200);
    expect(capacityOf(1)).toBe(150);
    expect(checkCapacity(300, { cores: 2 }).level).toBe('ok');
    expect(checkCapacity(301, { cores: 2 }).level).toBe('warn');
    expect(checkCapacity(1_200, { cores: 2 }).level).toBe('warn');
    expect(checkCapacity(1_201, { cores: 2 }).level).toBe('refuse');
    expect(checkCapacity(1_201, { cores: 2, allowFarBeyond: true }).level).toBe('warn');
    expect(checkCapacity(10_000, { cores: 2 }).message).toMatch(/10000 tables exceed the measured capacity of this machine \(300 tables for 2 core\(s\)/);
  });

  it('check-config warns beyond the capacity, refuses far beyond it unless --over-capacity or capacity.allowFarBeyond', () => {
    const cap = capacityOf(availableParallelism());
    const warn = checkConfig(config(cap + 1));
    expect(warn.code).toBe(0);
    expect(warn.out).toMatch(/warning: tables: \d+ tables exceed the measured capacity/);
    const ok = checkConfig(config(2));
    expect(ok.code).toBe(0);
    expect(ok.out).not.toMatch(/exceed the measured capacity/);
    const far = checkConfig(config(cap * 4 + 1));
    expect(far.code).toBe(1);
    expect(far.out).toMatch(/tables: \d+ tables exceed .* more than 4 times over: refused/);
    expect(checkConfig(config(cap * 4 + 1), '--over-capacity').code).toBe(0);
    expect(checkConfig(config(cap * 4 + 1, { capacity: { allowFarBeyond: true } })).code).toBe(0);
  }, 60_000);

  it('the start refuses far beyond the capacity before anything starts', async () => {
    const cap = capacityOf(availableParallelism());
    const { log } = capturingLogger();
    await expect(startGateway(validateConfig(config(cap * 4 + 1)), { logger: log })).rejects.toThrow(/more than 4 times over: refused/);
  }, 30_000);
});
