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
    const end = cpuWindow(() => []);
    const until = performance.now() + 300;
    let x = 0;
    while (performance.now() < until) x += Math.sqrt(x + 1);
    const w = end();
    expect(x).toBeGreaterThan(0);
    // this process spun for the whole window: up to one core of its own (less on a loaded machine)
    expect(w.ownPct).toBeGreaterThan(10);
    expect(w.stealPct).toBeGreaterThanOrEqual(0);
    expect(w.stealPct).toBeLessThanOrEqual(w.machineBusyPct);
    expect(w.foreignPct).toBeGreaterThanOrEqual(0);
    expect(w.loadAvg).toHaveLength(3);
  });
});
