import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cpuWindow, machineCpuMs } from '../../../dev/bench/lib/cpu.js';

describe("the bench's CPU accounting from /proc", () => {
  it("reads the machine's busy, total and steal time, steal being part of busy", () => {
    const m = machineCpuMs();
    for (const v of [m.busy, m.total, m.steal]) expect(Number.isFinite(v)).toBe(true);
    expect(m.steal).toBeGreaterThanOrEqual(0);
    expect(m.busy).toBeGreaterThanOrEqual(m.steal);
    expect(m.total).toBeGreaterThan(m.busy);
  });

  it("a window counts the bench's own CPU, and splits the host's steal out of the rest", () => {
    // this process's CPU from /proc/self/stat (utime + stime, in clock ticks of 10 ms): an account independent of the window's
    const selfTicks = (): number => {
      const f = readFileSync('/proc/self/stat', 'utf8');
      const rest = f.slice(f.lastIndexOf(')') + 2).split(' ');
      return Number(rest[11]) + Number(rest[12]);
    };
    const t0 = performance.now();
    const ticks0 = selfTicks();
    const end = cpuWindow(() => []);
    const until = performance.now() + 400;
    let x = 0;
    while (performance.now() < until) x += Math.sqrt(x + 1);
    const w = end();
    const procPct = ((selfTicks() - ticks0) * 10 * 100) / (performance.now() - t0);
    expect(x).toBeGreaterThan(0);
    // this process spun for the whole window: its share of a core is whatever the machine's load left it,
    // and the window counts the same as the kernel's account (within the 10 ms ticks' resolution)
    expect(w.ownPct).toBeGreaterThan(0);
    expect(w.ownPct).toBeLessThanOrEqual(110);
    expect(Math.abs(w.ownPct - procPct)).toBeLessThan(15);
    expect(w.stealPct).toBeGreaterThanOrEqual(0);
    expect(w.stealPct).toBeLessThanOrEqual(w.machineBusyPct);
    expect(w.foreignPct).toBeGreaterThanOrEqual(0);
    expect(w.loadAvg).toHaveLength(3);
  });
});
