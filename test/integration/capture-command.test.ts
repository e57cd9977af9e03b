import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { parseCapture } from '../../src/app/tools/capture-file.js';
import { createPtyPair, type PtyPair } from '../../dev/rig/pty-pair.js';
import { realIoOrSkip } from '../helpers/real-io.js';
import { killStartedCommands, type RunningCommand, startTablegw } from '../helpers/tablegw-cli.js';
import { cleanupTempDirs, makeTempDir } from '../../dev/rig/temp-dir.js';

afterAll(cleanupTempDirs);

const io = realIoOrSkip('socat');

// a failed test must not leave a capture holding the pty (it opens the port exclusively)
afterEach(killStartedCommands);
const cli = (args: string[]): RunningCommand => startTablegw(args);

async function waitUntil(what: string, ok: () => boolean, log?: () => string, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${log ? `; output:\n${log()}` : ''}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const chunkLines = (file: string): string[] => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(1).filter(Boolean) : []);

describe.skipIf(!io.available)('tablegw capture over a real pty', () => {
  let pty: PtyPair | undefined;
  afterAll(async () => {
    await pty?.dispose();
  });

  it('records every chunk in order with increasing timestamps; Ctrl-C stops it with exit 0', async () => {
    pty = await createPtyPair();
    const out = join(await makeTempDir('teg-capture-'), 'shoe.capture.jsonl');
    const r = cli(['capture', pty.gatewayPath, '--out', out, '--baud', '19200']);
    await waitUntil('the recording to start', () => r.out().includes('recording '), r.out);
    expect(r.out()).toContain(`recording ${pty.gatewayPath} @19200 8N1 -> ${out}`);
    const sent = ['\x021,C,S_K*37\x03', 'noise\r\n', Buffer.from([0x00, 0xff, 0x80, 0x0a]), '\x022,HB*', '41\x03'];
    const recorded = (): Buffer[] => (chunkLines(out).length > 0 ? parseCapture(readFileSync(out, 'utf8'), out).chunks.map((c) => c.bytes) : []);
    // each write's bytes are in the file before the next write, so no chunk spans two writes
    // (a busy OS may still hand one write over in more than one read)
    const boundaries: number[] = [];
    let total = 0;
    for (const [i, s] of sent.entries()) {
      await pty.write(s);
      total += s.length;
      boundaries.push(total);
      await waitUntil(`write ${i + 1} in the file`, () => Buffer.concat(recorded()).length === total);
    }
    const chunks = chunkLines(out).length;
    await waitUntil('the live byte count', () => r.out().includes(`${total} byte(s) in ${chunks} chunk(s)`));
    r.child.kill('SIGINT');
    expect(await r.exited).toBe(0);
    expect(r.out()).toContain(`stopped (SIGINT): ${total} byte(s) in ${chunks} chunk(s) written to ${out}`);

    const cap = parseCapture(readFileSync(out, 'utf8'), out);
    expect(cap.header).toMatchObject({
      format: 'tablegw-capture',
      version: 1,
      transport: 'serial',
      port: pty.gatewayPath,
      settings: { baudRate: 19200, dataBits: 8, parity: 'none', stopBits: 1 },
    });
    expect(cap.header.tool).toMatch(/^tablegw \d+\.\d+\.\d+/);
    expect(Number.isNaN(Date.parse(cap.header.startedAt))).toBe(false);
    expect(Buffer.concat(cap.chunks.map((c) => c.bytes))).toEqual(Buffer.concat(sent.map((s) => (typeof s === 'string' ? Buffer.from(s, 'latin1') : s))));
    const ends = cap.chunks.map((_, i) => cap.chunks.slice(0, i + 1).reduce((n, c) => n + c.bytes.length, 0));
    for (const b of boundaries) expect(ends).toContain(b);
    for (let i = 1; i < cap.chunks.length; i++) expect(cap.chunks[i].t).toBeGreaterThan(cap.chunks[i - 1].t);
  }, 90_000);

  it('--seconds stops it by itself with exit 0; an absent port is exit 1 naming it', async () => {
    pty ??= await createPtyPair();
    const out = join(await makeTempDir('teg-capture-'), 'timed.jsonl');
    const r = cli(['capture', pty.gatewayPath, '--out', out, '--seconds', '1.5']);
    await waitUntil('the recording to start', () => r.out().includes('recording '), r.out);
    await pty.write('C1010,1B\r');
    expect(await r.exited).toBe(0);
    expect(r.out()).toContain('stopped (1.5 s elapsed)');
    expect(
      parseCapture(readFileSync(out, 'utf8'))
        .chunks.map((c) => c.bytes.toString('latin1'))
        .join(''),
    ).toBe('C1010,1B\r');

    const missing = cli(['capture', '/dev/tablegw-no-such-port', '--out', join(await makeTempDir('teg-capture-'), 'x.jsonl')]);
    expect(await missing.exited).toBe(1);
    expect(missing.out()).toMatch(/cannot open \/dev\/tablegw-no-such-port/);
  }, 90_000);

  it('a device that goes away during the capture ends it with exit 1, keeping what arrived', async () => {
    const own = await createPtyPair();
    try {
      const out = join(await makeTempDir('teg-capture-'), 'unplugged.jsonl');
      const r = cli(['capture', own.gatewayPath, '--out', out]);
      await waitUntil('the recording to start', () => r.out().includes('recording '), r.out);
      await own.write('*0;V#C2\r\n');
      // the OS may hand the 9 bytes over in more than one read on a busy machine: all of them, in whatever chunks
      const arrived = (): string =>
        parseCapture(readFileSync(out, 'utf8'))
          .chunks.map((c) => c.bytes.toString('latin1'))
          .join('');
      await waitUntil('the bytes in the file', () => chunkLines(out).length > 0 && arrived() === '*0;V#C2\r\n', r.out);
      await own.close(); // the cable is pulled: socat and the pty go away
      expect(await r.exited).toBe(1);
      const chunks = chunkLines(out).length;
      expect(r.out()).toContain(`stopped (${own.gatewayPath} closed (device unplugged?)): 9 byte(s) in ${chunks} chunk(s) written to ${out}`);
      expect(arrived()).toBe('*0;V#C2\r\n');
    } finally {
      await own.dispose();
    }
  }, 90_000);

  it('refuses bad options with exit 2 and says why; a HID device it cannot reach is exit 1', async () => {
    const r = cli(['capture', 'hid:zz:1', '--seconds', '1']);
    expect(await r.exited).toBe(2);
    expect(r.out()).toContain('a HID device is hid:VID:PID[:serial]');
    // HID through the real node-hid: here either its native library is missing or no such device is attached
    const hid = cli(['capture', 'hid:0c2e:0b61', '--seconds', '1', '--out', join(await makeTempDir('teg-capture-'), 'hid.jsonl')]);
    expect(await hid.exited).toBe(1);
    expect(hid.out()).toMatch(/tablegw capture: (HID cannot be used on this machine: node-hid|no HID device hid:0c2e:0b61 attached)/);
    const b = cli(['capture', '/dev/ttyUSB0', '--parity', 'maybe']);
    expect(await b.exited).toBe(2);
    expect(b.out()).toContain('--parity must be one of none, even, odd, mark, space');
  }, 60_000);
});
