/**
 * The gateway's logger, on pino: JSON lines when stdout is not a terminal (or LOG_FORMAT=json) —
 * what journald and log shippers want — and readable coloured lines in a terminal (pino-pretty).
 * Context (`table`, `device`, ...) comes from `child()`.
 *
 * Secrets never reach the output: keys named like a secret (password, key, cert, token, ...) are
 * redacted at any depth up to three levels, credentials in URLs (`mqtt://user:pw@host`) are masked
 * in messages, and values registered with `registerSecret()` (the MQTT password, the contents of
 * a password file) are masked wherever they appear in a line.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pino, type Logger as PinoLogger } from 'pino';
import type PinoPretty from 'pino-pretty';

/** pino-pretty, loaded on the first logger that prints readable lines (a service logs JSON and never loads it) */
let prettyModule: typeof PinoPretty | null = null;
function loadPinoPretty(): typeof PinoPretty {
  prettyModule ??= createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
  return prettyModule;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  debug(msg: string, data?: Record<string, unknown>): void;
  info(msg: string, data?: Record<string, unknown>): void;
  warn(msg: string, data?: Record<string, unknown>): void;
  error(msg: string, data?: Record<string, unknown>): void;
  child(context: Record<string, unknown>): Logger;
}

export interface LoggerOptions {
  level?: LogLevel;
  json?: boolean;
  /** where finished lines go (without the trailing newline); default stdout */
  write?: (line: string) => void;
}

/** key names whose values are never logged */
export const REDACTED_KEYS = [
  'password',
  'passwd',
  'passwordFileContents',
  'secret',
  'token',
  'authorization',
  'key',
  'cert',
  'ca',
  'privateKey',
  'passphrase',
];
const CENSOR = '[redacted]';
const redactPaths = REDACTED_KEYS.flatMap((k) => [k, `*.${k}`, `*.*.${k}`, `*.*.*.${k}`]);

const secrets = new Set<string>();

/** Masks `value` wherever it would appear in a log line from now on (e.g. the MQTT password). */
export function registerSecret(value: string | undefined | null): void {
  if (value && value.length >= 3) secrets.add(value);
}

/** Masks the contents of a secret file (e.g. `mqtt.passwordFile`); a missing file is ignored. */
export function registerSecretFile(path: string | undefined | null): void {
  if (!path) return;
  try {
    registerSecret(readFileSync(path, 'utf8').trim());
  } catch {
    // the link reports an unreadable file itself
  }
}

const URL_CREDENTIALS = /([a-z][a-z0-9+.-]*:\/\/)([^/\s:@]+):([^/\s@]+)@/gi;

/** masks URL credentials and registered secret values in a finished line */
function scrub(line: string): string {
  let out = line.replace(URL_CREDENTIALS, `$1$2:${CENSOR}@`);
  for (const s of secrets) {
    if (out.includes(s)) out = out.split(s).join(CENSOR);
    const j = JSON.stringify(s).slice(1, -1); // the value as it appears inside a JSON string
    if (j !== s && out.includes(j)) out = out.split(j).join(CENSOR);
  }
  return out;
}

function wrap(p: PinoLogger): Logger {
  const emit = (level: LogLevel) => (msg: string, data?: Record<string, unknown>) => {
    if (data && Object.keys(data).length) p[level](data, msg);
    else p[level](msg);
  };
  return {
    debug: emit('debug'),
    info: emit('info'),
    warn: emit('warn'),
    error: emit('error'),
    child: (c) => wrap(p.child(c)),
  };
}

export function createLogger(opts: LoggerOptions = {}, context: Record<string, unknown> = {}): Logger {
  const json = opts.json ?? (process.env.LOG_FORMAT === 'json' || !process.stdout.isTTY);
  const write = opts.write ?? ((line: string) => process.stdout.write(line + '\n'));
  const pinoPretty = json ? null : loadPinoPretty();
  const pretty = !pinoPretty
    ? null
    : pinoPretty.prettyFactory({
        colorize: opts.write ? false : pinoPretty.isColorSupported,
        translateTime: 'SYS:HH:MM:ss.l',
        ignore: 'pid,hostname,table,device',
        messageFormat: (log, messageKey) => {
          const ctx = [log.table, log.device].filter((x) => x !== undefined).join(' ');
          return `${ctx ? `[${ctx}] ` : ''}${String(log[messageKey] ?? '')}`;
        },
        singleLine: true,
      });
  const destination = {
    write(chunk: string) {
      const line = chunk.endsWith('\n') ? chunk.slice(0, -1) : chunk;
      const text = pretty ? pretty(line).replace(/\n$/, '') : line;
      write(scrub(text));
    },
  };
  const p = pino(
    {
      level: opts.level ?? 'info',
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: redactPaths, censor: CENSOR },
    },
    destination,
  );
  return wrap(Object.keys(context).length ? p.child(context) : p);
}

export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  child() {
    return silentLogger;
  },
};

/**
 * `start --table a,b`: the terminal shows only those tables' lines (and the gateway's own);
 * another table's errors still show. The child loggers carry the table in their context.
 */
export function filterTables(logger: Logger, tables: ReadonlySet<string>, inherited?: string): Logger {
  const shown = inherited === undefined || tables.has(inherited);
  const pass = (level: LogLevel) => (msg: string, data?: Record<string, unknown>) => {
    if (shown || level === 'error') logger[level](msg, data);
  };
  return {
    debug: pass('debug'),
    info: pass('info'),
    warn: pass('warn'),
    error: pass('error'),
    child: (c) => filterTables(logger.child(c), tables, typeof c.table === 'string' ? c.table : inherited),
  };
}
