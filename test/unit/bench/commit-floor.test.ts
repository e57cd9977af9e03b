import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startCommitFloor } from '../../../dev/bench/commit-floor.js';

describe('the bench\'s commit floor on its own thread', () => {
  it('times one commit per call from the series, and a paced run, then removes its database', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'floor-'));
    const floor = await startCommitFloor({ dataDir, payloadBytes: 300, synchronous: 'full' }, 'test');
    expect(readdirSync(dataDir)).toHaveLength(1); // its database, beside nothing else
    for (let i = 0; i < 7; i++) floor.commit();
    await floor.paced(5, 2);
    const r = await floor.finish();
    expect(r.n).toBe(12);
    expect(r.p50Ms).toBeGreaterThan(0);
    expect(r.maxMs).toBeGreaterThanOrEqual(r.p99Ms);
    expect(readdirSync(dataDir)).toEqual([]);
    expect(existsSync(dataDir)).toBe(true);
  });
});
