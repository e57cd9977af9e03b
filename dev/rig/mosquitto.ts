import { spawnSupervised, terminate, type SupervisedProcess } from './child-process.js';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { freePort } from './free-port.js';
import { commandPath } from './commands.js';
import { makeTempDir, removeTempDir } from './temp-dir.js';

export interface MosquittoOptions {
  /** Appended verbatim to the generated mosquitto.conf. */
  extraConfig?: string;
  /** Keep sessions and retained messages across a restart of this broker (persistence in its temp dir, saved every second). */
  persistent?: boolean;
  /** Use this port instead of a free one. */
  port?: number;
  /** How long to wait for the listener (default 10 s). */
  startTimeoutMs?: number;
  /**
   * Broker accounts, user name -> password: written with `mosquitto_passwd` into a password file
   * in the broker's temp dir; anonymous clients are then refused (`allow_anonymous false`).
   */
  users?: Record<string, string>;
  /** The text of an ACL file (`user <name>` / `topic read|write|readwrite <filter>` lines), written beside the config. */
  acl?: string;
}

export interface MosquittoBroker {
  /** mqtt://127.0.0.1:<port> */
  url: string;
  port: number;
  /** Directory holding mosquitto.conf. */
  dir: string;
  /** Everything mosquitto wrote to stderr/stdout since the last (re)start. */
  log(): string;
  /** SIGTERM and wait for exit (SIGKILL after 5 s). Removes the temp dir. Idempotent. */
  stop(): Promise<void>;
  /** Stop and start again on the SAME port (e.g. to test client reconnection). */
  restart(): Promise<void>;
  /** Stop the broker but keep its config and port, for an outage of any length; `resume()` ends it. */
  pause(): Promise<void>;
  /** Start a paused broker again on the same port with the same config. */
  resume(): Promise<void>;
}

type Running = SupervisedProcess;

/** Start a private mosquitto on 127.0.0.1 with a free port and a temp config. */
export async function startMosquitto(opts: MosquittoOptions = {}): Promise<MosquittoBroker> {
  const dir = await makeTempDir('teg-mosquitto-');
  const timeoutMs = opts.startTimeoutMs ?? 10_000;
  const confPath = path.join(dir, 'mosquitto.conf');
  const accounts: string[] = [];
  // mosquitto started as root drops to its own user before it reads these files
  if (opts.users || opts.acl !== undefined) fs.chmodSync(dir, 0o755);
  // and writes its persistence file as that user: a directory of its own it may write to
  const persistDir = path.join(dir, 'persist');
  if (opts.persistent) {
    fs.chmodSync(dir, 0o755);
    fs.mkdirSync(persistDir);
    fs.chmodSync(persistDir, 0o777);
  }
  if (opts.users) {
    const passwd = path.join(dir, 'passwd');
    let first = true;
    for (const [user, password] of Object.entries(opts.users)) {
      execFileSync(commandPath('mosquitto_passwd'), ['-b', ...(first ? ['-c'] : []), passwd, user, password], { stdio: 'ignore' });
      first = false;
    }
    fs.chmodSync(passwd, 0o644);
    accounts.push(`password_file ${passwd}`);
  }
  if (opts.acl !== undefined) {
    const acl = path.join(dir, 'acl');
    fs.writeFileSync(acl, opts.acl.endsWith('\n') ? opts.acl : `${opts.acl}\n`, { mode: 0o644 });
    accounts.push(`acl_file ${acl}`);
  }

  const writeConfig = (port: number): void => {
    const lines = [
      `listener ${port} 127.0.0.1`,
      `allow_anonymous ${opts.users ? 'false' : 'true'}`,
      ...accounts,
      'persistence false',
      'log_dest stderr',
      'log_type error',
      'log_type warning',
      'log_type notice',
      'log_type information',
      'connection_messages true',
    ];
    if (opts.persistent) lines.push('persistence true', `persistence_location ${persistDir}/`, 'autosave_interval 1');
    if (opts.extraConfig) lines.push(opts.extraConfig);
    fs.writeFileSync(confPath, lines.join('\n') + '\n');
  };

  let port = opts.port ?? (await freePort());
  let running: Running | undefined;
  let lastOutput = { text: '' };
  let stopped = false;

  // A free port can be grabbed by someone else between freePort() and mosquitto's bind:
  // on the first start only, retry with a new port.
  for (let attempt = 1; ; attempt++) {
    writeConfig(port);
    try {
      running = await launch(confPath, port, timeoutMs);
      lastOutput = running.output;
      break;
    } catch (err) {
      const portTaken = /address already in use/i.test(String((err as Error)?.message));
      if (opts.port !== undefined || attempt >= 3 || !portTaken) {
        await removeTempDir(dir);
        throw err;
      }
      port = await freePort();
    }
  }

  const stopRunning = async (): Promise<void> => {
    const r = running;
    running = undefined;
    if (r) await terminate(r);
  };

  return {
    url: `mqtt://127.0.0.1:${port}`,
    port,
    dir,
    log: () => lastOutput.text,
    async stop() {
      if (stopped) return;
      stopped = true;
      await stopRunning();
      await removeTempDir(dir);
    },
    async restart() {
      if (stopped) throw new Error('mosquitto helper: restart() after stop()');
      await stopRunning();
      running = await launch(confPath, port, timeoutMs);
      lastOutput = running.output;
    },
    async pause() {
      if (stopped) throw new Error('mosquitto helper: pause() after stop()');
      await stopRunning();
    },
    async resume() {
      if (stopped) throw new Error('mosquitto helper: resume() after stop()');
      if (running) return;
      running = await launch(confPath, port, timeoutMs);
      lastOutput = running.output;
    },
  };
}

async function launch(confPath: string, port: number, timeoutMs: number): Promise<Running> {
  const running = spawnSupervised(commandPath('mosquitto'), ['-c', confPath], { stdout: true, stderr: true });
  const { output } = running;
  const startedAt = Date.now();
  const deadline = startedAt + timeoutMs;
  for (;;) {
    if (running.exitInfo() !== undefined) {
      throw new Error(`mosquitto on port ${port} ${running.exitInfo()}; output:\n${output.text}`);
    }
    // "running" is logged after every listener is bound; the TCP probe alone could hit
    // someone else's listener on a port that was grabbed in the meantime. If extraConfig
    // redirected the log, fall back to "accepts connections and stayed alive for 1.5 s".
    const logsRunning = /mosquitto version \S+ running/.test(output.text);
    const settled = Date.now() - startedAt > 1_500;
    if ((logsRunning || settled) && (await canConnect(port)) && running.exitInfo() === undefined) {
      return running;
    }
    if (Date.now() > deadline) {
      await terminate(running);
      throw new Error(`mosquitto did not accept connections on 127.0.0.1:${port} within ${timeoutMs} ms; output:\n${output.text}`);
    }
    await sleep(25);
  }
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const done = (ok: boolean): void => {
      socket.removeAllListeners();
      socket.on('error', () => {});
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
