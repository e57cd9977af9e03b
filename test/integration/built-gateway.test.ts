/**
 * The production start (docs/INSTALL.md): `npm run build` bundles the gateway into dist/ with
 * esbuild (scripts/build.mjs), and `node dist/src/app/cli/main.js start` runs it without tsx. Built
 * here, then started as an operator would: the demo's tables come online and deal through the
 * bundle (the journal's writer thread and the lazily loaded chunks included), Ctrl-C stops it with
 * exit 0, and `replay` from dist/ reproduces every published message byte for byte. mqtt.js's
 * WebSocket transport is not in the bundle (scripts/bundle.mjs loads it from node_modules on use):
 * the built gateway reaches a real Mosquitto over ws:// all the same.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../dev/rig/free-port.js';
import { startMosquitto } from '../../dev/rig/mosquitto.js';
import { recordMqtt } from '../../dev/rig/mqtt-recorder.js';
import { cleanupTempDirs, makeTempDir } from '../../dev/rig/temp-dir.js';
import { loadProfileFile } from '../../drivers/profiles/profile-schema.js';
import { dealCapture, shuffledDeck } from '../../simulators/devices/deal-capture.js';
import { captureText } from '../helpers/capture-text.js';
import { demoConfig } from '../helpers/demo-config.js';
import { realIoOrSkip } from '../helpers/real-io.js';
import { killStartedCommands, type RunningCommand, startNode } from '../helpers/tablegw-cli.js';

afterAll(cleanupTempDirs);

const ROOT = join(import.meta.dirname, '..', '..');
const MAIN = join(ROOT, 'dist', 'src', 'app', 'cli', 'main.js');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

type Run = RunningCommand;
afterEach(killStartedCommands);
const built = (args: string[]): Run => startNode([MAIN, ...args], { LOG_FORMAT: 'json' });

beforeAll(() => {
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm run build failed:\n${r.stdout}\n${r.stderr}`);
}, 180_000);

describe('the built gateway (dist/)', () => {
  it('is a bundle: one entry, lazily loaded chunks, the writer thread beside it', () => {
    expect(existsSync(MAIN)).toBe(true);
    expect(readdirSync(join(ROOT, 'dist', 'src', 'app', 'chunks')).filter((f) => f.endsWith('.js')).length).toBeGreaterThan(0);
    expect(existsSync(join(ROOT, 'dist', 'src', 'adapters', 'store', 'journal-writer-worker.mjs'))).toBe(true);
    expect(existsSync(join(ROOT, 'dist', 'src', 'adapters', 'store', 'hwm-slots.mjs'))).toBe(true);
    // the scheduled export's thread: its module, bundled as an entry of its own, and the starter
    expect(existsSync(join(ROOT, 'dist', 'src', 'adapters', 'store', 'export-worker.js'))).toBe(true);
    expect(existsSync(join(ROOT, 'dist', 'src', 'adapters', 'store', 'worker-boot.mjs'))).toBe(true);
    // no TypeScript sources are needed at run time: the entry does not import any .ts file
    expect(readFileSync(MAIN, 'utf8')).not.toMatch(/from ["'][^"']+\.ts["']/);
    // mqtt.js's WebSocket and SOCKS transports and its browser timers load from node_modules when
    // used, not at every start (scripts/bundle.mjs): no chunk holds ws, socks or worker-timers
    const chunks = readdirSync(join(ROOT, 'dist', 'src', 'app', 'chunks'))
      .filter((f) => f.endsWith('.js'))
      .map((f) => readFileSync(join(ROOT, 'dist', 'src', 'app', 'chunks', f), 'utf8'));
    expect(chunks.filter((c) => /permessage-deflate|SocksClient|generateUniqueNumber/.test(c))).toEqual([]);
  });

  it("decodes device profiles as the sources do (each profile shape's own copy of the streaming code, made in the bundle)", async () => {
    const dir = await makeTempDir('teg-built-profiles-');
    // text and binary, stuffed and length-prefixed: profiles of different shapes
    const profiles = [
      'drivers/profiles/shipped/stx-etx-bcc-shoe',
      'drivers/profiles/shipped/reference-shoe',
      'dev/corpus/profiles/dle-crc16-shoe',
      'dev/corpus/profiles/length-le-shoe',
    ];
    for (const [k, path] of profiles.entries()) {
      const name = `p${k}`;
      const profile = join(ROOT, `${path}.yaml`);
      const cap = dealCapture(loadProfileFile(profile), ['LOADED', ...shuffledDeck(3)], { seed: 4 });
      const file = join(dir, `${name}.jsonl`);
      writeFileSync(file, captureText(cap.chunks));
      const r = built(['profile', 'check', profile, file]);
      expect(await r.exited, r.out()).toBe(0);
      expect(r.out()).toContain('frames by type: CARD 52,');
      expect(r.out()).toContain('re-chunked (1-byte chunks, random cuts, the whole capture at once): the same frames and rejects');
    }
  }, 60_000);

  it('starts the demo, deals, stops on Ctrl-C, and its journal replays byte for byte', async () => {
    const v = built(['--version']);
    expect(await v.exited).toBe(0);
    // the version and the commit the build wrote into dist/src/build-info.json
    const { commit } = JSON.parse(readFileSync(join(ROOT, 'dist', 'src', 'build-info.json'), 'utf8')) as { commit: string };
    expect(commit).toMatch(/^[0-9a-f]{12}$/);
    expect(v.out().trim()).toBe(`${VERSION} (commit ${commit})`);

    // the writer thread (the default, set here all the same): its worker file (and hwm-slots.mjs)
    // must be found from the bundle
    const { file, brokerPort, cfg } = await demoConfig('gw-dist', (c) => {
      c.journal = { ...(c.journal ?? {}), writer: 'thread' };
    });

    const r = built(['start', '--config', file, '--fast']);
    try {
      const end = Date.now() + 30_000;
      while (!r.out().includes('status page on')) {
        if (Date.now() > end) throw new Error(`no start; output:\n${r.out().slice(-3000)}`);
        await new Promise((res) => setTimeout(res, 50));
      }
      const rec = await recordMqtt(`mqtt://127.0.0.1:${brokerPort}`, 'casino/#');
      await rec.waitForCount((m) => m.topic.endsWith('/status') && m.payload?.state === 'online', cfg.tables.length, 20_000);
      await rec.waitForCount((m) => m.topic.endsWith('/events') && m.payload?.kind === 'card', 20, 30_000);
      const result = await rec.waitFor((m) => m.topic.endsWith('/result'), 30_000);
      expect(result.payload.type).toBe('result');
      const http = /status page on (http:\/\/[^/\s]+)\//.exec(r.out())![1];
      expect((await fetch(`${http}/`)).status).toBe(200);
      // prom-client is loaded a second after the start (metrics.ts): the rounds before it are counted
      await new Promise((res) => setTimeout(res, 1_200));
      const metrics = await fetch(`${http}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toMatch(/^tablegw_rounds_total\{table="[^"]+",game="[^"]+",status="complete"\} [1-9]/m);
      r.child.kill('SIGINT');
      const code = await r.exited;
      expect(code, r.out().slice(-3000)).toBe(0);
      // a normal stop logs no error (a simulated dealer waiting for its engine just stops)
      expect(
        r
          .out()
          .split('\n')
          .filter((l) => l.includes('"level":"error"')),
      ).toEqual([]);
      await rec.close();
    } finally {
      r.child.kill('SIGKILL');
    }

    const replay = built(['replay', cfg.dataDir]);
    const replayed = await replay.exited;
    // every table of the demo: `<table>: N inputs from #1, M messages (K results) reproduced byte for byte`
    for (const t of cfg.tables as Array<{ id: string }>) {
      expect(replay.out()).toMatch(new RegExp(`${t.id}: \\d+ inputs from #\\d+, [1-9]\\d* messages \\(\\d+ results\\) reproduced byte for byte`));
    }
    expect(replayed, replay.out().slice(-2000)).toBe(0);
  }, 120_000);
});

const io = realIoOrSkip(['mosquitto']);

describe.skipIf(!io.available)('the built gateway over ws://', () => {
  it("reaches a real Mosquitto through mqtt.js's WebSocket transport, loaded on use", async () => {
    const wsPort = await freePort();
    const broker = await startMosquitto({ extraConfig: `listener ${wsPort} 127.0.0.1\nprotocol websockets` });
    const { file, cfg } = await demoConfig('gw-ws', (c) => {
      c.mqtt = { ...(c.mqtt ?? {}), url: `ws://127.0.0.1:${wsPort}` };
      c.tables = c.tables.slice(0, 1);
    });
    const rec = await recordMqtt(broker.url, 'casino/#'); // over plain MQTT: what the gateway published over ws://
    const r = built(['start', '--config', file, '--fast']);
    try {
      const table = (cfg.tables[0] as { id: string }).id;
      await rec.waitFor((m) => m.topic === `casino/${table}/status` && m.payload?.state === 'online', 30_000);
      await rec.waitFor((m) => m.topic === `casino/${table}/result`, 30_000);
      expect(broker.log()).toMatch(/New client connected .* as tablegw-/);
      r.child.kill('SIGINT');
      expect(await r.exited, r.out().slice(-3000)).toBe(0);
      expect(
        r
          .out()
          .split('\n')
          .filter((l) => l.includes('"level":"error"')),
      ).toEqual([]);
    } finally {
      r.child.kill('SIGKILL');
      await rec.close();
      await broker.stop();
    }
  }, 90_000);
});
