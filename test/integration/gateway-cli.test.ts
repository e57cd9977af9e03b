import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startMosquitto } from '../../dev/rig/mosquitto.js';
import { recordMqtt, type RecordedMessage } from '../../dev/rig/mqtt-recorder.js';
import { demoConfig as demoConfigFile } from '../helpers/demo-config.js';
import { realIoOrSkip } from '../helpers/real-io.js';
import { killStartedCommands, type RunningCommand, startTablegw } from '../helpers/tablegw-cli.js';
import { cleanupTempDirs } from '../../dev/rig/temp-dir.js';

afterAll(cleanupTempDirs);

const ROOT = join(import.meta.dirname, '..', '..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

type Run = RunningCommand;
afterEach(killStartedCommands);
const cli = (args: string[]): Run => startTablegw(args, { LOG_FORMAT: 'json' });

async function waitForOutput(r: Run, text: string, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!r.out().includes(text)) {
    if (Date.now() > end) throw new Error(`timed out waiting for "${text}"; output:\n${r.out().slice(-3000)}`);
    await new Promise((res) => setTimeout(res, 50));
  }
}

const demoConfig = (patch?: (c: Record<string, any>) => void) => demoConfigFile('gw-test', patch);

describe('tablegw on the command line', () => {
  it('--version prints the version; the help describes every command', async () => {
    const v = cli(['--version']);
    expect(await v.exited).toBe(0);
    // the version, then the commit: from the sources, the checkout's
    expect(v.out().trim()).toMatch(new RegExp(`^${VERSION.replace(/\./g, '\\.')} \\(commit [0-9a-f]{12}, sources\\)$`));
    const h = cli(['--help']);
    expect(await h.exited).toBe(0);
    const lines = h
      .out()
      .split('\n')
      .filter((l) => /^ {2}[a-z-]+ {2,}\S/.test(l));
    const names = lines.map((l) => l.trim().split(/\s+/)[0]);
    expect(names).toEqual(expect.arrayContaining(['start', 'check-config', 'tail', 'simulate', 'replay', 'devices', 'capture', 'profile', 'verify', 'keygen']));
    for (const l of lines) expect(l.trim().split(/\s{2,}/)[1]?.length ?? 0).toBeGreaterThan(10);
  }, 60_000);

  it('tail takes the table as --table, and refuses two different ones', async () => {
    const r = cli(['tail', 'sim-bac-01', '--table', 'sim-keno-01']);
    expect(await r.exited).toBe(2);
    expect(r.out()).toContain('two tables given');
    const bad = cli(['tail', '--table', 'Not A Table']);
    expect(await bad.exited).toBe(2);
    expect(bad.out()).toContain('is not a table id');
  }, 60_000);

  it('start --table refuses a table that is not in the config', async () => {
    const { file } = await demoConfig();
    const r = cli(['start', '--config', file, '--table', 'nope-01']);
    expect(await r.exited).toBe(2);
    expect(r.out()).toContain('--table: no table "nope-01"');
  }, 60_000);

  it('a taken broker port is answered with the fix, exit 1', async () => {
    const blocker = createServer();
    const port = await new Promise<number>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve((blocker.address() as { port: number }).port)));
    try {
      const { file } = await demoConfig((c) => {
        c.embeddedBroker.port = port;
      });
      const r = cli(['start', '--config', file]);
      expect(await r.exited).toBe(1);
      expect(r.out()).toContain('BROKER_PORT_IN_USE');
      expect(r.out()).toContain(`127.0.0.1:${port}`);
      expect(r.out()).toContain('systemctl disable --now mosquitto');
      expect(r.out()).toContain('--broker-port');
    } finally {
      blocker.close();
    }
  }, 60_000);

  it('a SIGTERM during the start is held until the gateway is up, then stops it gracefully (exit 0)', async () => {
    const { file } = await demoConfig();
    const r = cli(['start', '--config', file]);
    try {
      await waitForOutput(r, 'starting with');
      r.child.kill('SIGTERM');
      // without the held signal the process ends by it (code null) before the tables are up
      expect(await r.exited, r.out().slice(-3000)).toBe(0);
      expect(r.out()).toMatch(/SIGTERM( during the start)?: stopping/);
      expect(r.out()).toContain('stopped in');
      console.log(/SIGTERM during the start/.test(r.out()) ? '[sigterm] held during the start' : '[sigterm] came after the start');
    } finally {
      r.child.kill('SIGKILL');
    }
  }, 60_000);

  it('the demo stops cleanly on Ctrl-C: exit 0, every table offline, no stale device during the shutdown', async () => {
    const { file, brokerPort, cfg } = await demoConfig();
    const r = cli(['start', '--config', file, '--summary-every', '1']);
    try {
      await waitForOutput(r, 'status page on');
      const rec = await recordMqtt(`mqtt://127.0.0.1:${brokerPort}`, 'casino/#');
      // every table online and the gateway's info retained
      await rec.waitForCount((m) => m.topic.endsWith('/status') && m.payload?.state === 'online', cfg.tables.length, 20_000);
      const info = await rec.waitFor((m) => m.topic === 'casino/gateway/gw-test/info' && m.payload?.type === 'info', 10_000);
      expect(info.payload.tables.map((t: { id: string }) => t.id)).toEqual(cfg.tables.map((t: { id: string }) => t.id));
      await waitForOutput(r, 'summary, last 1 s:');
      // the same info on /api/info and as the build_info metric
      const http = /status page on (http:\/\/[^/\s]+)\//.exec(r.out())![1];
      const api = (await (await fetch(`${http}/api/info`)).json()) as Record<string, unknown>;
      // (the MQTT copy adds its presence: state online and why)
      const { state, reason, ...document } = info.payload;
      expect({ state, reason }).toEqual({ state: 'online', reason: 'start' });
      expect(api).toEqual(document);
      const metrics = await (await fetch(`${http}/metrics`)).text();
      expect(metrics).toMatch(
        new RegExp(
          `tablegw_build_info\\{version="${VERSION.replace(/\./g, '\\.')}",commit="[^"]+",node="${process.version.replace(/\./g, '\\.')}",gateway_id="gw-test"\\} 1`,
        ),
      );
      await new Promise((res) => setTimeout(res, 1500));
      const before = rec.messages.length;
      const t0 = performance.now();
      r.child.kill('SIGINT');
      const code = await r.exited;
      const ms = performance.now() - t0;
      console.log(`Ctrl-C to exit: ${ms.toFixed(0)} ms`);
      expect(code).toBe(0);
      const after: RecordedMessage[] = rec.messages.slice(before);
      for (const t of cfg.tables as Array<{ id: string }>) {
        const last = after.filter((m) => m.topic === `casino/${t.id}/status`).at(-1);
        expect(last?.payload, `${t.id} status`).toMatchObject({ state: 'offline', reason: 'stopped' });
      }
      expect(after.filter((m) => m.topic.includes('/devices/') && m.payload?.state !== 'connected')).toEqual([]);
      expect(after.filter((m) => m.topic.endsWith('/alerts') && m.payload?.kind === 'device-stale')).toEqual([]);
      expect(after.filter((m) => m.topic === 'casino/gateway/gw-test/info').at(-1)?.payload).toEqual({
        state: 'offline',
        reason: 'stopped',
        gatewayId: 'gw-test',
        startedAt: expect.any(String),
      });
      expect(r.out()).not.toContain('device-stale');
      expect(ms).toBeLessThan(5000); // generous: the figure is printed above (typically well under 1 s)
      await rec.close();
    } finally {
      r.child.kill('SIGKILL');
    }
  }, 90_000);
});

const io = realIoOrSkip(['mosquitto']);

describe.skipIf(!io.available)('the gateway info topic on a real Mosquitto', () => {
  it('is retained with version, tables and devices, and its last will says offline', async () => {
    const broker = await startMosquitto();
    const { file } = await demoConfig((c) => {
      c.mqtt = { url: broker.url, protocolVersion: 4, topicPrefix: 'casino' };
      c.tables = c.tables.slice(0, 2);
    });
    const r = cli(['start', '--config', file]);
    try {
      await waitForOutput(r, 'status page on');
      // a subscriber that comes later still gets it: retained
      const info = await (async () => {
        for (let i = 0; i < 100; i++) {
          const rec = await recordMqtt(broker.url, 'casino/gateway/+/info');
          try {
            const m = await rec.waitFor((x) => x.payload?.type === 'info' && x.retain, 500).catch(() => null);
            if (m) return m;
          } finally {
            await rec.close();
          }
        }
        throw new Error('no retained info');
      })();
      expect(info.retain).toBe(true);
      expect(info.topic).toBe('casino/gateway/gw-test/info');
      expect(info.payload).toMatchObject({
        v: 1,
        type: 'info',
        gatewayId: 'gw-test',
        version: VERSION,
        node: process.version,
        state: 'online',
        reason: 'start',
        tables: [
          { id: 'sim-bac-01', game: 'baccarat', betting: 'none', devices: [{ id: 'shoe-1', kind: 'card-shoe', transport: 'simulator' }] },
          { id: 'sim-sicbo-01', game: 'sic-bo', betting: 'none', devices: [{ id: 'dice-1', kind: 'dice-sensor', transport: 'simulator' }] },
        ],
      });
      expect(Date.parse(info.payload.startedAt)).toBeGreaterThan(Date.now() - 120_000);
      // killed without a goodbye: the broker publishes the last will, retained
      const rec = await recordMqtt(broker.url, 'casino/gateway/+/info');
      r.child.kill('SIGKILL');
      await r.exited;
      const will = await rec.waitFor((m) => m.payload?.state === 'offline', 10_000);
      // the last will names its reason and the run it is about: a lost gateway, not a clean stop
      expect(will.payload).toEqual({ state: 'offline', reason: 'connection-lost', gatewayId: 'gw-test', startedAt: info.payload.startedAt });
      await rec.close();
      const later = await recordMqtt(broker.url, 'casino/gateway/+/info');
      const retained = await later.waitFor(() => true, 5000);
      expect(retained.retain).toBe(true);
      expect(retained.payload).toMatchObject({ state: 'offline', reason: 'connection-lost' });
      await later.close();
    } finally {
      r.child.kill('SIGKILL');
      await broker.stop();
    }
  }, 90_000);

  it("start --broker runs the demo on Mosquitto in MQTT 5: an engine's response topic gets its answer, with its correlation data", async () => {
    const broker = await startMosquitto();
    const { file } = await demoConfig((c) => {
      c.tables = c.tables.slice(0, 1);
    });
    const r = cli(['start', '--config', file, '--broker', broker.url, '--http-port', '0', '--summary-every', '0']);
    try {
      await waitForOutput(r, `(broker ${broker.url})`);
      const mqtt = (await import('mqtt')).default;
      const engine = mqtt.connect(broker.url, { protocolVersion: 5, clientId: 'cli-engine', clean: true });
      await new Promise<void>((resolve) => engine.once('connect', () => resolve()));
      await engine.subscribeAsync('casino/sim-bac-01/response/engine-1', { qos: 1 });
      const got = new Promise<{ payload: any; props: any }>((resolve) =>
        engine.on('message', (_t, p, packet) => resolve({ payload: JSON.parse(p.toString()), props: packet.properties })),
      );
      // the table subscribes to requests right after it connects: ask until it answers
      let answer: { payload: any; props: any } | null = null;
      for (let i = 0; i < 40 && !answer; i++) {
        await engine.publishAsync('casino/sim-bac-01/request/status', JSON.stringify({ transaction: `cli-${i}` }), {
          qos: 1,
          properties: { responseTopic: 'casino/sim-bac-01/response/engine-1', correlationData: Buffer.from('corr-1') },
        });
        answer = await Promise.race([got, new Promise<null>((res) => setTimeout(() => res(null), 250))]);
      }
      expect(answer?.payload).toMatchObject({ type: 'response', table: 'sim-bac-01', command: 'status', status: 'ok' });
      expect(Buffer.from(answer!.props.correlationData).toString()).toBe('corr-1');
      expect(answer!.props.userProperties).toEqual({ 'copy-of': 'casino/sim-bac-01/response/status' });
      await engine.endAsync(true);
    } finally {
      r.child.kill('SIGKILL');
      await broker.stop();
    }
  }, 90_000);

  it('start --broker refuses what is not a broker URL', async () => {
    const r = cli(['start', '--broker', 'localhost:1883']);
    expect(await r.exited).not.toBe(0);
    expect(r.out()).toContain('--broker must be a broker URL');
  }, 30_000);
});
