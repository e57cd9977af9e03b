/**
 * Summarises a V8 `.cpuprofile` (from `node --cpu-prof`): where the time goes, by function (self
 * and inclusive time) and by source area (project file or npm package, node internals, GC, idle).
 *
 *   npx tsx dev/bench/cpuprofile-summary.ts dev/bench/<file>.cpuprofile [--top 30]
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface ProfileSummary {
  totalMs: number;
  byArea: Array<{ area: string; selfMs: number; pct: number }>;
  bySelf: Array<{ fn: string; selfMs: number; pct: number }>;
  byInclusive: Array<{ fn: string; inclMs: number; pct: number }>;
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function areaOf(cf: CallFrame): string {
  const url = cf.url;
  if (!url) {
    if (cf.functionName === '(garbage collector)') return '(gc)';
    if (cf.functionName === '(idle)') return '(idle)';
    if (cf.functionName === '(program)') return '(program)';
    return '(native)';
  }
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/')[0];
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  const nm = path.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = path.slice(nm + 14).split('/');
    return 'npm:' + (rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]);
  }
  return path.startsWith(ROOT) ? path.slice(ROOT.length) : path;
}

function fnName(cf: CallFrame): string {
  const area = areaOf(cf);
  return `${cf.functionName || '(anonymous)'} ${area}${cf.url ? `:${cf.lineNumber + 1}` : ''}`;
}

export function summarizeProfile(p: Profile, top = 25): ProfileSummary {
  const byId = new Map<number, ProfileNode>();
  for (const n of p.nodes) byId.set(n.id, n);
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map<number, number>();
  for (let i = 0; i < p.samples.length; i++) {
    const dt = p.timeDeltas[i + 1] ?? 0;
    selfUs.set(p.samples[i], (selfUs.get(p.samples[i]) ?? 0) + dt);
  }
  let total = 0;
  const area = new Map<string, number>();
  const self = new Map<string, number>();
  const incl = new Map<string, number>();
  for (const [id, us] of selfUs) {
    total += us;
    const n = byId.get(id)!;
    area.set(areaOf(n.callFrame), (area.get(areaOf(n.callFrame)) ?? 0) + us);
    self.set(fnName(n.callFrame), (self.get(fnName(n.callFrame)) ?? 0) + us);
    // inclusive: every distinct function on the stack of this sample gets the time once
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const name = fnName(byId.get(cur)!.callFrame);
      if (seen.has(name)) continue;
      seen.add(name);
      incl.set(name, (incl.get(name) ?? 0) + us);
    }
  }
  const pct = (us: number) => Math.round((us / total) * 1000) / 10;
  const ms = (us: number) => Math.round(us / 100) / 10;
  const sorted = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]);
  return {
    totalMs: ms(total),
    byArea: sorted(area)
      .slice(0, top)
      .map(([a, us]) => ({ area: a, selfMs: ms(us), pct: pct(us) })),
    bySelf: sorted(self)
      .slice(0, top)
      .map(([f, us]) => ({ fn: f, selfMs: ms(us), pct: pct(us) })),
    byInclusive: sorted(incl)
      .filter(([f]) => !f.startsWith('(root)') && !f.startsWith('(program)'))
      .slice(0, top)
      .map(([f, us]) => ({ fn: f, inclMs: ms(us), pct: pct(us) })),
  };
}

export function summarizeProfileFile(file: string, top = 25): ProfileSummary {
  return summarizeProfile(JSON.parse(readFileSync(file, 'utf8')) as Profile, top);
}

export function formatSummary(s: ProfileSummary): string {
  const lines = [`total sampled: ${s.totalMs} ms`, '', 'self time by area:'];
  for (const a of s.byArea) lines.push(`  ${String(a.pct).padStart(5)}%  ${String(a.selfMs).padStart(8)} ms  ${a.area}`);
  lines.push('', 'self time by function:');
  for (const f of s.bySelf) lines.push(`  ${String(f.pct).padStart(5)}%  ${String(f.selfMs).padStart(8)} ms  ${f.fn}`);
  lines.push('', 'inclusive time by function:');
  for (const f of s.byInclusive) lines.push(`  ${String(f.pct).padStart(5)}%  ${String(f.inclMs).padStart(8)} ms  ${f.fn}`);
  return lines.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: tsx dev/bench/cpuprofile-summary.ts <file.cpuprofile> [--top N]');
    process.exit(2);
  }
  const ti = process.argv.indexOf('--top');
  console.log(formatSummary(summarizeProfileFile(file, ti > 0 ? Number(process.argv[ti + 1]) : 25)));
}
