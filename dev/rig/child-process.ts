/**
 * A helper process (mosquitto, socat) under supervision: its output is kept (the last ~32-64 KB)
 * for error messages, its exit is observed, and it can be stopped (SIGTERM, SIGKILL after 5 s).
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface SupervisedProcess {
  child: ChildProcess;
  /** resolves when the process has exited (or failed to spawn) */
  exited: Promise<void>;
  /** what it wrote on the captured streams */
  output: { text: string };
  /** `exited with code …` / `failed to spawn: …`, or undefined while it runs */
  exitInfo(): string | undefined;
}

export function spawnSupervised(command: string, args: string[], capture: { stdout: boolean; stderr: boolean }): SupervisedProcess {
  const child = spawn(command, args, { stdio: ['ignore', capture.stdout ? 'pipe' : 'ignore', capture.stderr ? 'pipe' : 'ignore'] });
  const output = { text: '' };
  const append = (chunk: Buffer): void => {
    output.text += chunk.toString();
    if (output.text.length > 64_000) output.text = output.text.slice(-32_000);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  let info: string | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      info = `exited with code ${code} signal ${signal}`;
      resolve();
    });
    child.once('error', (err) => {
      info = `failed to spawn: ${err.message}`;
      resolve();
    });
  });
  return { child, exited, output, exitInfo: () => info };
}

/** SIGTERM, then SIGKILL after 5 s; resolves when it has exited */
export async function terminate(p: SupervisedProcess): Promise<void> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  p.child.kill('SIGTERM');
  const killTimer = setTimeout(() => p.child.kill('SIGKILL'), 5_000);
  await p.exited;
  clearTimeout(killTimer);
}
