/**
 * A small structured logger: JSON lines when stdout is not a terminal (or LOG_FORMAT=json),
 * readable lines in a terminal. Secrets never reach it: callers log ids and states, not credentials.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

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
  write?: (line: string) => void;
}

export function createLogger(opts: LoggerOptions = {}, context: Record<string, unknown> = {}): Logger {
  const min = ORDER[opts.level ?? 'info'];
  const json = opts.json ?? (process.env.LOG_FORMAT === 'json' || !process.stdout.isTTY);
  const write = opts.write ?? ((line: string) => process.stdout.write(line + '\n'));
  const emit = (level: LogLevel, msg: string, data?: Record<string, unknown>) => {
    if (ORDER[level] < min) return;
    if (json) {
      write(JSON.stringify({ time: new Date().toISOString(), level, ...context, msg, ...(data ?? {}) }));
    } else {
      const ctx = Object.values(context).join(' ');
      const extra = data && Object.keys(data).length ? ' ' + JSON.stringify(data) : '';
      write(`${new Date().toISOString().slice(11, 23)} ${level.toUpperCase().padEnd(5)} ${ctx ? `[${ctx}] ` : ''}${msg}${extra}`);
    }
  };
  return {
    debug: (m, d) => emit('debug', m, d),
    info: (m, d) => emit('info', m, d),
    warn: (m, d) => emit('warn', m, d),
    error: (m, d) => emit('error', m, d),
    child: (c) => createLogger(opts, { ...context, ...c }),
  };
}

export const silentLogger: Logger = {
  debug() {}, info() {}, warn() {}, error() {}, child() { return silentLogger; },
};
