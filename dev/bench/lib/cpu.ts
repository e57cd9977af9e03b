/**
 * CPU accounting from /proc (Linux): the CPU time of given processes, and how busy the whole
 * machine was — so a phase can report how much CPU went to processes that are not the bench's
 * own (other work sharing the machine distorts every figure; the bench says how much there was).
 */
import { loadavg } from 'node:os';
import { readFileSync } from 'node:fs';

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** utime + stime of a process in ms (NaN when it is gone) */
export function processCpuMs(pid: number): number {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // fields[0] is the state (field 3); utime and stime are fields 14 and 15
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return NaN;
  }
}

/**
 * busy and total CPU ms of the whole machine since boot (all cores). `steal` (part of `busy`) is
 * time a virtual machine's vCPUs wanted to run while the host ran something else: the host's
 * other guests, which no process list in the guest shows.
 */
export function machineCpuMs(): { busy: number; total: number; steal: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0];
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = v;
  const busy = user + nice + system + irq + softirq + steal;
  return { busy: busy * TICK_MS, total: (busy + idle + iowait) * TICK_MS, steal: (steal || 0) * TICK_MS };
}

export interface CpuWindow {
  /** whole machine busy, in % of ONE core (200 = both cores busy) */
  machineBusyPct: number;
  /** CPU of the bench's own processes (bench, gateway, broker, socat), % of one core */
  ownPct: number;
  /** the rest: other processes sharing the machine, and the host's steal, % of one core */
  foreignPct: number;
  /** of `foreignPct`: the host's steal (a VM's vCPUs kept waiting by other guests), % of one core */
  stealPct: number;
  /** the machine's load average (1 / 5 / 15 min) at the end of the window */
  loadAvg: number[];
}

/** `foreign CPU x%`, with the host's steal in it when there was any: how a phase's line says what else took the machine */
export function foreignCpuText(cpu: Partial<CpuWindow> | undefined): string {
  return `foreign CPU ${cpu?.foreignPct}%${cpu?.stealPct ? ` (host steal ${cpu.stealPct}%)` : ''}`;
}

/** starts a window over the bench's processes; `pids()` is read at both ends */
export function cpuWindow(pids: () => number[]): () => CpuWindow {
  const t0 = performance.now();
  const m0 = machineCpuMs();
  const own0 = new Map<number, number>();
  for (const p of pids()) own0.set(p, processCpuMs(p));
  const self0 = process.cpuUsage();
  return () => {
    const wall = performance.now() - t0;
    const m1 = machineCpuMs();
    let own = 0;
    for (const p of pids()) {
      const a = own0.get(p);
      const b = processCpuMs(p);
      if (a !== undefined && Number.isFinite(a) && Number.isFinite(b)) own += b - a;
    }
    const self = process.cpuUsage(self0);
    own += (self.user + self.system) / 1000;
    const busy = m1.busy - m0.busy;
    const pct = (ms: number) => Math.round((ms / wall) * 1000) / 10;
    return {
      machineBusyPct: pct(busy),
      ownPct: pct(own),
      foreignPct: pct(Math.max(0, busy - own)),
      stealPct: pct(m1.steal - m0.steal),
      loadAvg: loadavg().map((x) => Math.round(x * 100) / 100),
    };
  };
}

/** how busy the machine is right now, over `ms`, in % of one core */
export async function machineBusyNow(ms = 1000): Promise<number> {
  const a = machineCpuMs();
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, ms));
  const b = machineCpuMs();
  return Math.round(((b.busy - a.busy) / (performance.now() - t0)) * 1000) / 10;
}
