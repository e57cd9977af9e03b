/**
 * Runs a scenario against the REAL gateway: every device of the scenario's table is a serial line
 * (a socat pseudo-terminal pair) opened by the real serialport bindings, the broker is a real
 * Mosquitto (or the embedded one), and the expectations are checked on what a subscriber receives.
 * Frames are written in each device's format: the reference protocol, or the device's `profile`
 * (through the profile encoder, the simulators' wire: simulators/devices/wire.ts); a barcode
 * scanner without a profile gets one barcode a line.
 */
import { DEVICE_KIND_FACTS, type DeviceKind } from '../../src/core/vocabulary/device-kinds.js';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { signRequest } from '../../src/adapters/security/request-signing.js';
import { PRIVILEGED_COMMANDS } from '../../src/core/vocabulary/requests.js';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { validateConfig } from '../../src/app/config/load-config.js';
import { startGateway, type Gateway } from '../../src/app/gateway.js';
import { loadSimulators } from '../../simulators/load.js';
import { hasCommand } from '../rig/commands.js';
import { freePort } from '../rig/free-port.js';
import { startMosquitto, type MosquittoBroker } from '../rig/mosquitto.js';
import { recordMqtt, type MqttRecorder, type RecordedMessage } from '../rig/mqtt-recorder.js';
import { createPtyPair, type PtyPair } from '../rig/pty-pair.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';
import { silentLogger, type Logger } from '../../src/runtime/log.js';
import { startEmbeddedBroker, type EmbeddedBroker } from '../../src/adapters/mqtt/embedded-broker.js';
import { scenarioSchema, type Scenario, type ScenarioStep } from './scenario-schema.js';
import type { Talker } from '../../src/core/vocabulary/frames.js';
import { loadProfileFile, type DeviceProfile } from '../../drivers/profiles/profile-schema.js';
import { damagedFrame, profileWire, type FrameWire } from '../../simulators/devices/wire.js';
import { profileFile } from '../../src/app/config/device-profiles.js';

export interface StepReport {
  index: number;
  step: string;
  ok: boolean;
  error?: string;
}

export interface ScenarioReport {
  name: string;
  file?: string;
  passed: boolean;
  steps: StepReport[];
  durationMs: number;
  /** set when the scenario could not run at all (bad file, missing socat) */
  error?: string;
}

export interface RunOptions {
  /** an MQTT broker to use; default: a private Mosquitto if installed, else the embedded broker */
  brokerUrl?: string;
  logger?: Logger;
}

export function loadScenarioFile(file: string): Scenario {
  const text = readFileSync(file, 'utf8');
  const raw = file.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  const r = scenarioSchema.safeParse(raw);
  if (!r.success) {
    throw new Error(`invalid scenario ${file}:\n  - ${r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('\n  - ')}`);
  }
  return r.data;
}

/** deep partial match: every key of `expected` must match; arrays element by element, same length */
export function matches(actual: unknown, expected: unknown): boolean {
  if (expected === null || typeof expected !== 'object') return actual === expected;
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && actual.length === expected.length && expected.every((e, i) => matches(actual[i], e));
  }
  if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false;
  return Object.entries(expected as Record<string, unknown>).every(([k, v]) => matches((actual as Record<string, unknown>)[k], v));
}

function line(body: string): string {
  let cs = 0;
  for (const b of Buffer.from(body, 'utf8')) cs ^= b;
  return `$${body}*${cs.toString(16).toUpperCase().padStart(2, '0')}\r\n`;
}

function substitute(v: unknown, dir: string): unknown {
  if (typeof v === 'string') return v.replaceAll('{{dir}}', dir);
  if (Array.isArray(v)) return v.map((x) => substitute(x, dir));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, substitute(x, dir)]));
  return v;
}

function describeStep(s: ScenarioStep): string {
  const [k, v] = Object.entries(s)[0];
  return `${k} ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`;
}

class ScenarioRun {
  private readonly ptys = new Map<string, PtyPair>();
  private readonly seq = new Map<string, number>();
  /** devices with a `profile`: their profile and its wire */
  private readonly profiled = new Map<string, { profile: DeviceProfile; wire: FrameWire }>();
  private readonly consumed = new Set<RecordedMessage>();
  private rec!: MqttRecorder;
  private gw: Gateway | null = null;
  private tx = 0;
  private tableId = '';
  /** the pit keys the scenario's requests are signed with (`signedBy`), by name */
  private readonly pitKeys = new Map<string, KeyObject>();

  constructor(
    private readonly sc: Scenario,
    private readonly dir: string,
  ) {}

  private topic(t: string): string {
    return `casino/${this.tableId}/${t}`;
  }

  async start(brokerUrl: string, logger: Logger): Promise<void> {
    for (const [name, content] of Object.entries(this.sc.files)) writeFileSync(join(this.dir, name), content);
    const table = substitute(structuredClone(this.sc.table), this.dir) as Record<string, unknown> & { id: string; devices: Array<Record<string, unknown>> };
    this.tableId = table.id;
    for (const d of table.devices ?? []) {
      const pty = await createPtyPair();
      this.ptys.set(String(d.id), pty);
      this.seq.set(String(d.id), 0);
      d.transport = { type: 'serial', path: pty.gatewayPath };
      if (typeof d.profile === 'string') {
        // a bad profile is the config loader's to report (below); here only the ones that load
        try {
          const profile = loadProfileFile(profileFile(d.profile));
          this.profiled.set(String(d.id), { profile, wire: profileWire(profile) });
        } catch {
          /* reported by validateConfig */
        }
      }
      d.staleAfterMs ??= 60_000;
    }
    const names = new Set(this.sc.steps.flatMap((s) => ('request' in s && s.request.signedBy ? [s.request.signedBy] : [])));
    if (names.size) {
      const keys = [...names].map((name) => {
        const pair = generateKeyPairSync('ed25519');
        this.pitKeys.set(name, pair.privateKey);
        return { name, publicKey: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(), commands: [...PRIVILEGED_COMMANDS] };
      });
      table.requests = { privileged: { keys } };
    }
    const cfg = validateConfig({ mqtt: { url: brokerUrl }, dataDir: join(this.dir, 'data'), tables: [table] }, `scenario ${this.sc.name}`);
    this.rec = await recordMqtt(brokerUrl, `casino/${this.tableId}/#`);
    this.gw = await startGateway(cfg, { simulators: loadSimulators, logger });
    for (const id of this.ptys.keys()) {
      await this.rec.waitFor((m) => m.topic === this.topic(`devices/${id}`) && m.payload?.state === 'connected', 10_000);
    }
    // every scenario's table starts on a fresh journal: its `new-epoch` alert is the stream's start,
    // not a step's outcome (docs/SCENARIOS.md)
    this.consumed.add(await this.rec.waitFor((m) => m.topic === this.topic('alerts') && m.payload?.kind === 'new-epoch', 10_000));
  }

  private pty(device: string): PtyPair {
    const p = this.ptys.get(device);
    if (!p) throw new Error(`no device "${device}" in the scenario's table`);
    return p;
  }

  private kindOf(device: string): string {
    const d = (this.sc.table.devices as Array<Record<string, unknown>>).find((x) => x.id === device);
    return String(d?.kind ?? '');
  }

  /** one frame (reference body `TYPE[,FIELD...]`) in the device's format, with its next SEQ */
  private encodeFrame(device: string, body: string, seq: number): string | Buffer {
    const kind = this.kindOf(device);
    const talker = Object.hasOwn(DEVICE_KIND_FACTS, kind) ? DEVICE_KIND_FACTS[kind as DeviceKind].talker : 'SHOE';
    const p = this.profiled.get(device);
    if (p) {
      const [type, ...fields] = body.split(',');
      const bytes = p.wire.encode(p.profile.talker as Talker, seq, type, fields);
      if (bytes === null) throw new Error(`profile ${p.profile.name} of ${device} has no message that says "${body}"`);
      return bytes;
    }
    // a barcode scanner in serial mode: the card's barcode, one a line
    if (this.kindOf(device) === 'barcode-scanner' && body.startsWith('CARD,')) return `${body.split(',')[1]}\r\n`;
    return line(`${talker},${seq},${body}`);
  }

  private async sendFrame(device: string, body: string): Promise<void> {
    const seq = this.seq.get(device) ?? 0;
    await this.pty(device).write(this.encodeFrame(device, body, seq));
    this.seq.set(device, (seq + 1) % 65536);
  }

  /** a line fault in the device's format; the damaged frame takes no SEQ (the device sends it again) */
  private async lineFault(device: string, how: 'noise' | 'bad-check' | 'truncated', body?: string): Promise<void> {
    const p = this.profiled.get(device);
    if (how === 'noise') {
      await this.pty(device).write(p ? p.wire.noise() : Buffer.from([0x00, 0xff, 0x23]));
      return;
    }
    const frame = this.encodeFrame(device, body ?? 'HB', this.seq.get(device) ?? 0);
    await this.pty(device).write(damagedFrame(frame, how, p?.profile));
  }

  /**
   * Sends the frames, then waits until the device's driver has read them all: a frame read by the
   * driver has gone through the table machine, so a request in the next step cannot overtake it
   * (frames travel over the pty, requests over MQTT).
   */
  private async sendFrames(device: string, bodies: readonly string[]): Promise<void> {
    const driver = this.gw?.tables.flatMap((t) => t.drivers).find((d) => d.deviceId === device);
    const before = driver?.framesTotal ?? 0;
    for (const b of bodies) await this.sendFrame(device, b);
    if (!driver) return;
    const end = Date.now() + 5000;
    while (driver.framesTotal < before + bodies.length) {
      if (Date.now() > end)
        throw new Error(`the gateway read ${driver.framesTotal - before} of the ${bodies.length} frame(s) sent to ${device} within 5000 ms`);
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  private find(topic: string, match: Record<string, unknown>): RecordedMessage | undefined {
    const full = this.topic(topic);
    return this.rec.messages.find((m) => m.topic === full && !this.consumed.has(m) && matches(m.payload, match));
  }

  private recent(topic: string): string {
    const full = this.topic(topic);
    const last = this.rec.messages
      .filter((m) => m.topic === full)
      .slice(-4)
      .map((m) => m.raw);
    return last.length ? `\n    last on ${topic}:\n      ${last.join('\n      ')}` : `\n    nothing received on ${topic}`;
  }

  async step(s: ScenarioStep): Promise<void> {
    if ('note' in s) return;
    if ('frames' in s) return this.sendFrames(s.frames.device, s.frames.send);
    if ('cards' in s)
      return this.sendFrames(
        s.cards.device,
        s.cards.cards.map((c) => `CARD,${c}`),
      );
    if ('raw' in s) return this.pty(s.raw.device).write(s.raw.text);
    if ('noise' in s) return this.lineFault(s.noise, 'noise');
    if ('badChecksum' in s) return this.lineFault(s.badChecksum.device, 'bad-check', s.badChecksum.frame);
    if ('truncated' in s) return this.lineFault(s.truncated.device, 'truncated', s.truncated.frame);
    if ('skipSeq' in s) {
      this.seq.set(s.skipSeq.device, ((this.seq.get(s.skipSeq.device) ?? 0) + s.skipSeq.count) % 65536);
      return;
    }
    if ('restartDevice' in s) {
      this.seq.set(s.restartDevice, 0);
      return;
    }
    if ('request' in s) {
      const transaction = `scn-${++this.tx}`;
      const signer = s.request.signedBy;
      const body = typeof s.request.payload === 'string' ? null : { transaction, ...s.request.payload };
      const payload =
        body === null
          ? String(s.request.payload)
          : JSON.stringify(
              signer ? signRequest({ table: this.tableId, command: s.request.command, body, privateKey: this.pitKeys.get(signer)!, keyId: signer }) : body,
            );
      await this.rec.client.publishAsync(this.topic(`request/${s.request.command}`), payload, { qos: 1 });
      if (s.request.expectStatus) {
        const resp = await this.rec.waitFor(
          (m) =>
            m.topic === this.topic(`response/${s.request.command}`) &&
            !this.consumed.has(m) &&
            (typeof s.request.payload === 'string' || m.payload?.transaction === transaction),
          5000,
        );
        this.consumed.add(resp);
        if (resp.payload?.status !== s.request.expectStatus) {
          throw new Error(
            `response to ${s.request.command} was ${resp.payload?.status}${resp.payload?.error ? ` (${resp.payload.error})` : ''}, expected ${s.request.expectStatus}`,
          );
        }
      }
      return;
    }
    if ('wait' in s) return new Promise((r) => setTimeout(r, s.wait));
    if ('unplug' in s || 'replug' in s) {
      // only a device message that arrives after this step counts (not the start-up disconnected / connected)
      const before = new Set(this.rec.messages);
      const [device, state] = 'unplug' in s ? [s.unplug, 'disconnected'] : [s.replug, 'connected'];
      if ('unplug' in s) await this.pty(device).close();
      else await this.pty(device).reopen();
      await this.rec
        .waitFor((m) => m.topic === this.topic(`devices/${device}`) && m.payload?.state === state && !before.has(m) && !this.consumed.has(m), 10_000)
        .then((m) => this.consumed.add(m));
      return;
    }
    if ('expect' in s) {
      const { topic, match, within, count } = s.expect;
      for (let i = 0; i < count; i++) {
        const end = Date.now() + within;
        let m = this.find(topic, match);
        while (!m && Date.now() < end) {
          await new Promise((r) => setTimeout(r, 10));
          m = this.find(topic, match);
        }
        if (!m) throw new Error(`no message on ${topic} matching ${JSON.stringify(match)} within ${within} ms (${i} of ${count} found)${this.recent(topic)}`);
        this.consumed.add(m);
      }
      return;
    }
    if ('expectNone' in s) {
      const { topic, match } = s.expectNone;
      const end = Date.now() + s.expectNone.for;
      do {
        const m = this.find(topic, match);
        if (m) throw new Error(`unexpected message on ${topic} matching ${JSON.stringify(match)}: ${m.raw}`);
        await new Promise((r) => setTimeout(r, 10));
      } while (Date.now() < end);
      return;
    }
    if ('expectCommand' in s) {
      await this.pty(s.expectCommand.device).waitForReceived(s.expectCommand.text, s.expectCommand.within);
      return;
    }
    if ('commandCount' in s) {
      // one command a line, or one a frame for a profiled device (its end delimiter)
      const end = this.profiled.get(s.commandCount.device)?.profile.framing.end || '\n';
      const lines = this.pty(s.commandCount.device).received().toString('latin1').split(end);
      const n = lines.filter((l) => l.includes(s.commandCount.text)).length;
      if (n !== s.commandCount.count)
        throw new Error(`${s.commandCount.device} received ${n} command lines containing "${s.commandCount.text}", expected ${s.commandCount.count}`);
      return;
    }
  }

  async stop(): Promise<void> {
    await this.gw?.stop().catch(() => undefined);
    await this.rec?.close().catch(() => undefined);
    for (const p of this.ptys.values()) await p.dispose().catch(() => undefined);
  }
}

/** Runs one scenario; never throws: every problem is in the report. */
export async function runScenario(sc: Scenario, opts: RunOptions = {}, file?: string): Promise<ScenarioReport> {
  const t0 = Date.now();
  const report: ScenarioReport = { name: sc.name, file, passed: false, steps: [], durationMs: 0 };
  if (!hasCommand('socat')) {
    report.error = 'socat is not installed (apt-get install socat): scenarios drive the gateway over pseudo-terminals';
    return report;
  }
  const dir = await makeTempDir('scenario-');
  mkdirSync(join(dir, 'data'), { recursive: true });
  let ownBroker: MosquittoBroker | EmbeddedBroker | null = null;
  const run = new ScenarioRun(sc, dir);
  try {
    let url = opts.brokerUrl;
    if (!url) {
      ownBroker = hasCommand('mosquitto') ? await startMosquitto() : await startEmbeddedBroker('127.0.0.1', await freePort());
      url = ownBroker.url;
    }
    await run.start(url, opts.logger ?? silentLogger);
    for (let i = 0; i < sc.steps.length; i++) {
      const s = sc.steps[i];
      try {
        await run.step(s);
        report.steps.push({ index: i + 1, step: describeStep(s), ok: true });
      } catch (e) {
        report.steps.push({ index: i + 1, step: describeStep(s), ok: false, error: (e as Error).message });
        break;
      }
    }
    report.passed = report.steps.length === sc.steps.length && report.steps.every((s) => s.ok);
  } catch (e) {
    report.error = (e as Error).message;
  } finally {
    await run.stop();
    if (ownBroker) {
      if ('stop' in ownBroker) await ownBroker.stop();
      else await ownBroker.close();
    }
    await removeTempDir(dir).catch(() => undefined);
    report.durationMs = Date.now() - t0;
  }
  return report;
}

export function formatReport(r: ScenarioReport): string {
  const head = `${r.passed ? 'PASS' : 'FAIL'} ${r.name}${r.file ? ` (${r.file})` : ''} ${r.durationMs} ms`;
  const lines = [head];
  if (r.error) lines.push(`  error: ${r.error}`);
  for (const s of r.steps) if (!s.ok) lines.push(`  step ${s.index} failed: ${s.step}\n    ${s.error}`);
  if (!r.passed && !r.error && r.steps.every((s) => s.ok)) lines.push('  (stopped early)');
  return lines.join('\n');
}
