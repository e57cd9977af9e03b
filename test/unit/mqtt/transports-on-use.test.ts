/**
 * The bundle's stand-ins for parts of mqtt.js (scripts/build-stubs/mqtt-*.cjs, put in place by
 * scripts/bundle.mjs: its WebSocket and SOCKS transports, its browser timers) load the real
 * modules from node_modules and hand each call on: run here as the bundle runs them, against real
 * sockets; and `debug` with DEBUG set is the real one.
 * The built gateway over a real Mosquitto's ws:// listener is in test/integration/built-gateway.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const require = createRequire(join(ROOT, 'scripts', 'build-stubs', 'x.cjs'));

describe('parts of mqtt.js loaded on use', () => {
  it("SOCKS: the stand-in opens a real proxy connection through mqtt.js's own code", async () => {
    const socks = require('./mqtt-socks-transport.cjs') as { __esModule: boolean; default: (...a: unknown[]) => NodeJS.ReadWriteStream };
    expect(socks.__esModule).toBe(true); // mqtt's tcp.js takes `.default` through __importDefault
    // a "proxy" that records the SOCKS5 greeting it is sent, then hangs up
    let greeting: Buffer | null = null;
    const proxy = createServer((s) =>
      s.once('data', (b) => {
        greeting = b;
        s.destroy();
      }),
    );
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const { port } = proxy.address() as { port: number };
    try {
      const stream = socks.default('127.0.0.1', 1883, `socks5://127.0.0.1:${port}`, { timeout: 5000 });
      const err = await new Promise<Error>((r) => stream.on('error', r));
      expect(err).toBeInstanceOf(Error);
      expect(greeting![0]).toBe(5); // SOCKS version 5: the real client spoke to the proxy
    } finally {
      proxy.close();
    }
  });

  it("WebSocket: the stand-in hands the connect to mqtt.js's ws transport (an HTTP upgrade on the wire)", async () => {
    const ws = require('./mqtt-ws-transport.cjs') as { streamBuilder: (client: unknown, opts: Record<string, unknown>) => NodeJS.ReadWriteStream };
    let request = '';
    const server = createServer((s) =>
      s.once('data', (b) => {
        request = b.toString();
        s.destroy();
      }),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    try {
      const client = { options: {} };
      const stream = ws.streamBuilder(client, {
        protocol: 'ws',
        hostname: '127.0.0.1',
        port,
        path: '/mqtt',
        protocolId: 'MQTT',
        protocolVersion: 4,
        wsOptions: {},
      });
      await new Promise((r) => stream.on('error', r).on('close', r));
      expect(request).toMatch(/^GET \/mqtt HTTP\/1\.1\r\n/);
      expect(request).toMatch(/\r\nUpgrade: websocket\r\n/i);
      expect(request).toMatch(/\r\nSec-WebSocket-Protocol: mqtt\r\n/i);
    } finally {
      server.close();
    }
  });

  it('browser timers: the stand-in calls the real worker-timers (which needs a web Worker: on Node it says so)', () => {
    const timers = require('./mqtt-worker-timers.cjs') as Record<string, (...a: unknown[]) => unknown>;
    const real = require('worker-timers') as Record<string, (...a: unknown[]) => unknown>;
    let expected: unknown;
    try {
      real.setInterval(() => {}, 10);
    } catch (e) {
      expected = (e as Error).message;
    }
    expect(expected).toMatch(/Worker/);
    for (const f of ['setInterval', 'setTimeout']) expect(() => timers[f](() => {}, 10)).toThrow(String(expected));
  });

  it('debug: with DEBUG set at start the stand-in is the real debug, else one no-op logger', () => {
    const run = (env: Record<string, string>) =>
      spawnSync(
        process.execPath,
        [
          '-e',
          `const d = require(${JSON.stringify(join(ROOT, 'scripts', 'build-stubs', 'debug.cjs'))})('mqttjs:test'); d('hello %s', 'there'); console.log(d.enabled)`,
        ],
        { cwd: ROOT, encoding: 'utf8', env: { ...process.env, DEBUG: '', ...env } },
      );
    const on = run({ DEBUG: 'mqttjs:*' });
    expect(on.stdout.trim()).toBe('true');
    expect(on.stderr).toContain('mqttjs:test hello there');
    const off = run({});
    expect(off.stdout.trim()).toBe('false');
    expect(off.stderr).toBe('');
  });
});
