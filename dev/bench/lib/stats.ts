/** Small statistics helpers for the benchmark (no dependencies). */
import { readFileSync } from 'node:fs';

export interface LatencySummary {
  n: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  meanMs: number;
}

/** nearest-rank percentile of an ascending array (p in 0..100) */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

export function summarize(samples: readonly number[]): LatencySummary {
  const s = [...samples].sort((a, b) => a - b);
  const sum = s.reduce((a, b) => a + b, 0);
  return {
    n: s.length,
    p50Ms: round3(percentile(s, 50)),
    p90Ms: round3(percentile(s, 90)),
    p99Ms: round3(percentile(s, 99)),
    maxMs: round3(s.length ? s[s.length - 1] : NaN),
    meanMs: round3(s.length ? sum / s.length : NaN),
  };
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export const round3 = (x: number): number => Math.round(x * 1000) / 1000;
export const round1 = (x: number): number => Math.round(x * 10) / 10;
export const mb = (bytes: number): number => round1(bytes / (1024 * 1024));

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** RSS of another process from /proc (Linux), in bytes; NaN when it cannot be read */
export function rssOfPid(pid: number): number {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /VmRSS:\s+(\d+) kB/.exec(text);
    return m ? Number(m[1]) * 1024 : NaN;
  } catch {
    return NaN;
  }
}
