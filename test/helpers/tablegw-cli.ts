import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');

/** runs `tablegw <args>` from the sources in its own process: its exit code and what it printed */
export function tablegw(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'app', 'cli', 'main.ts'), ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (b: Buffer) => {
    stdout += b.toString();
  });
  child.stderr.on('data', (b: Buffer) => {
    stderr += b.toString();
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** a command started and left running: what it printed so far, its stdin, its exit */
export interface RunningCommand {
  child: ChildProcess;
  /** stdout and stderr together, as printed so far */
  out(): string;
  /** a line typed on its stdin */
  type(line: string): void;
  exited: Promise<number | null>;
}

const started = new Set<ChildProcess>();

/** starts `node <argv>` from the repository root (`env` added to this process's) */
export function startNode(argv: string[], env: Record<string, string> = {}): RunningCommand {
  const child = spawn(process.execPath, argv, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  started.add(child);
  let out = '';
  child.stdout!.on('data', (b: Buffer) => {
    out += b.toString();
  });
  child.stderr!.on('data', (b: Buffer) => {
    out += b.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, out: () => out, type: (line) => child.stdin!.write(`${line}\n`), exited };
}

/** starts `tablegw <args>` from the sources and leaves it running */
export function startTablegw(args: string[], env: Record<string, string> = {}): RunningCommand {
  return startNode(['--import', 'tsx', join(ROOT, 'src', 'app', 'cli', 'main.ts'), ...args], env);
}

/** kills what is still running of the commands started here (afterEach: a failed test must not leave one holding a port or a pty) */
export function killStartedCommands(): void {
  for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  started.clear();
}
