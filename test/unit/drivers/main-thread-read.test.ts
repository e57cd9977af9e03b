/**
 * The serial read on the event loop (drivers/transports/main-thread-read.ts), on a real
 * non-blocking fd (a FIFO) with a stand-in for the bindings' poller: what it reads, and that a
 * read after a short one waits for the poller instead of trying a read that finds nothing.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readOnLoop } from '../../../drivers/transports/main-thread-read.js';

/** the poller's part used by the read: `once('readable')`, fired by the test */
class TestPoller {
  waits = 0;
  private waiting: Array<(err: Error | null) => void> = [];
  once(_event: 'readable', callback: (err: Error | null) => void): this {
    this.waits++;
    this.waiting.push(callback);
    return this;
  }
  fire(err: Error | null = null): void {
    const w = this.waiting;
    this.waiting = [];
    for (const cb of w) cb(err);
  }
  get pending(): number {
    return this.waiting.length;
  }
}

type Port = Parameters<typeof readOnLoop>[0];

describe('serial read on the event loop', () => {
  let dir: string;
  let readFd: number;
  let writeFd: number;
  let poller: TestPoller;
  let port: Port;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'teg-read-'));
    const fifo = join(dir, 'line');
    execFileSync('mkfifo', [fifo]);
    readFd = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    writeFd = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
    poller = new TestPoller();
    port = { fd: readFd, isOpen: true, poller, read: () => Promise.reject(new Error('not used')) } as unknown as Port;
  });
  afterEach(() => {
    closeSync(writeFd);
    closeSync(readFd);
    rmSync(dir, { recursive: true, force: true });
  });

  const tick = () => new Promise((r) => setImmediate(r));

  it('reads what is there at once, without waiting for the poller', async () => {
    writeSync(writeFd, 'CARD QH\r\n');
    const buf = Buffer.alloc(64);
    const r = await readOnLoop(port, buf, 0, 64);
    expect(buf.subarray(0, r.bytesRead).toString()).toBe('CARD QH\r\n');
    expect(poller.waits).toBe(0);
  });

  it('waits for the poller when nothing is there (EAGAIN), then reads', async () => {
    const buf = Buffer.alloc(64);
    const read = readOnLoop(port, buf, 0, 64);
    await tick();
    expect(poller.pending).toBe(1);
    writeSync(writeFd, 'CARD 9S\r\n');
    poller.fire();
    const r = await read;
    expect(buf.subarray(0, r.bytesRead).toString()).toBe('CARD 9S\r\n');
  });

  it('after a short read, the next read waits for the poller first even if bytes came meanwhile', async () => {
    writeSync(writeFd, 'CARD 2D\r\n');
    const buf = Buffer.alloc(64);
    const first = await readOnLoop(port, buf, 0, 64);
    expect(first.bytesRead).toBe(9);
    writeSync(writeFd, 'CARD 3D\r\n');
    const second = readOnLoop(port, buf, 0, 64);
    await tick();
    // it did not read yet: it waits for the poller (which, level-triggered, fires for these bytes)
    expect(poller.pending).toBe(1);
    poller.fire();
    const r = await second;
    expect(buf.subarray(0, r.bytesRead).toString()).toBe('CARD 3D\r\n');
  });

  it('after a read that filled the buffer, the next read tries at once (more may be queued)', async () => {
    writeSync(writeFd, 'ABCDEFGHIJ');
    const buf = Buffer.alloc(4);
    const a = await readOnLoop(port, buf, 0, 4);
    expect(buf.subarray(0, a.bytesRead).toString()).toBe('ABCD');
    const b = await readOnLoop(port, buf, 0, 4);
    expect(buf.subarray(0, b.bytesRead).toString()).toBe('EFGH');
    expect(poller.waits).toBe(0);
  });

  it('a port closed while it waits ends the read as canceled', async () => {
    writeSync(writeFd, 'X');
    await readOnLoop(port, Buffer.alloc(8), 0, 8);
    const pending = readOnLoop(port, Buffer.alloc(8), 0, 8);
    await tick();
    (port as { isOpen: boolean }).isOpen = false;
    poller.fire(Object.assign(new Error('Canceled'), { canceled: true }));
    await expect(pending).rejects.toMatchObject({ canceled: true });
  });
});
