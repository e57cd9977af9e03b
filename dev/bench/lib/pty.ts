/**
 * A socat pseudo-terminal pair for the benchmark: the gateway opens `gatewayPath` through its real
 * serial transport; the benchmark plays the shoe on `devicePath`, written with plain synchronous
 * write(2) calls so the time taken right after a write is the time its last byte was handed to
 * the kernel (a pty ignores baud rates: pacing is the writer's job).
 *
 * Unlike test/helpers/pty-pair.ts (SerialPort on the device side, a Promise per write) this keeps
 * nothing but a file descriptor per pair, so hundreds of pairs stay cheap.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export interface BenchPty {
  devicePath: string;
  gatewayPath: string;
  socatPid: number;
  /** writes the whole buffer now (throws on EAGAIN: the line is not being read) */
  write(buf: Buffer): void;
  close(): Promise<void>;
}

export async function openPty(dir: string, name: string, timeoutMs = 10_000): Promise<BenchPty> {
  const devicePath = path.join(dir, `${name}.dev`);
  const gatewayPath = path.join(dir, `${name}.gw`);
  const child: ChildProcess = spawn('socat', ['-d', '-d', `pty,raw,echo=0,link=${devicePath}`, `pty,raw,echo=0,link=${gatewayPath}`], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let out = '';
  let exited = false;
  const exitedP = new Promise<void>((resolve) => {
    child.once('exit', () => {
      exited = true;
      resolve();
    });
    child.once('error', (e) => {
      out += `spawn error: ${e.message}`;
      exited = true;
      resolve();
    });
  });
  child.stderr!.on('data', (c: Buffer) => {
    if (out.length < 16_000) out += c.toString();
  });
  const deadline = Date.now() + timeoutMs;
  while (!(out.includes('starting data transfer loop') && fs.existsSync(devicePath) && fs.existsSync(gatewayPath))) {
    if (exited) throw new Error(`socat exited: ${out}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`socat not ready within ${timeoutMs} ms: ${out}`);
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  const fd = fs.openSync(devicePath, fs.constants.O_RDWR | fs.constants.O_NOCTTY | fs.constants.O_NONBLOCK);
  let closed = false;
  return {
    devicePath,
    gatewayPath,
    socatPid: child.pid!,
    write(buf) {
      let off = 0;
      while (off < buf.length) off += fs.writeSync(fd, buf, off, buf.length - off);
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        fs.closeSync(fd);
      } catch {
        // already gone
      }
      if (!exited) {
        child.kill('SIGTERM');
        const t = setTimeout(() => child.kill('SIGKILL'), 3000);
        await exitedP;
        clearTimeout(t);
      }
      for (const p of [devicePath, gatewayPath]) fs.rmSync(p, { force: true });
    },
  };
}

/** opens `n` pairs, `parallel` at a time */
export async function openPtys(dir: string, prefix: string, n: number, parallel = 32): Promise<BenchPty[]> {
  const out: BenchPty[] = new Array(n);
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next++;
      out[i] = await openPty(dir, `${prefix}${i}`);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(parallel, n) }, worker));
  } catch (e) {
    await closePtys(out.filter(Boolean));
    throw e;
  }
  return out;
}

export async function closePtys(ptys: readonly BenchPty[]): Promise<void> {
  await Promise.all(ptys.map((p) => p.close()));
}
