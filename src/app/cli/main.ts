#!/usr/bin/env node
/**
 * The `tablegw` command line. `npm start` runs `start` with config/default.yaml (the demo).
 */
import { PROJECT_ROOT } from '../../runtime/paths.js';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { configFileProblems, describeConfig, maskUrl } from '../config/check-config.js';
import { checkCapacity } from '../config/capacity.js';
import { freeBytesAt, journalSizeLine } from '../config/journal-size.js';
import { ConfigError, loadConfigFile } from '../config/load-config.js';
import { startGateway } from '../gateway.js';
import { loadSimulators } from '../../../simulators/load.js';
import { createLogger, filterTables } from '../../runtime/log.js';
import { gatewayVersion } from '../../runtime/paths.js';
import { buildCommit } from '../../adapters/mqtt/gateway-info.js';
import { startSystemdWatchdog } from '../../adapters/systemd/watchdog.js';
import { COMMANDS } from './commands/index.js';
import { holdStopSignals } from './stop-signals.js';
import { JOURNAL_EXIT_CODE, JournalDamagedError } from '../../adapters/store/journal-integrity.js';
import { JournalNewerError } from '../../adapters/store/journal-schema.js';
import { DATA_DIR_IN_USE_EXIT_CODE, DataDirInUseError } from '../../adapters/store/data-dir-lock.js';

const ROOT = PROJECT_ROOT;
const DEFAULT_CONFIG = join(ROOT, 'config', 'default.yaml');

const HELP: Record<string, string> = {
  start: `Usage: tablegw start [--config <file.yaml>] [--table <id>[,<id>...]] [--fast] [--shoes <n>] [options]

Runs the gateway. Without --config it runs the demo (config/default.yaml): an embedded MQTT
broker on 127.0.0.1:1883, one simulated table of every game (10 tables: baccarat, sic bo, keno,
7 Up, Dragon Tiger, Pok Deng, 3 Pictures, Three Card Poker, blackjack, Hold'em) publishing on
casino/<table>/#, the gateway's info on casino/gateway/<gatewayId>/info, and the status page
on http://127.0.0.1:8080/. One line per round, one summary line a minute; Ctrl-C stops it.
  --config <file>     configuration file (YAML or JSON), validated before anything starts
  --table <ids>       the terminal shows only these tables' lines (comma-separated; errors of
                      other tables still show); the gateway runs every table either way
  --fast              simulated tables deal as fast as possible instead of in real time
  --shoes <n>         simulated tables stop after n shoes (default: deal forever)
  --broker <url>      use this broker instead of the config's mqtt.url, e.g. mqtt://127.0.0.1:1883
                      (a Mosquitto: MQTT 5, so engines get response topics and correlation data;
                      the embedded broker speaks MQTT 3.1.1 only, docs/ENGINES.md)
  --broker-port <n>   the embedded broker's port (config embeddedBroker.port; default 1883)
  --http-port <n>     the status page's port (config http.port; default 8080; 0 = any free port)
  --summary-every <s> seconds between two summary lines (default 60; 0 = none)
  --log-level         debug | info | warn | error (default from the config, else info)
  --over-capacity     start even with more than 4 times the tables this machine was measured
                      to carry (docs/SCALING.md "Sizing"; config capacity.allowFarBeyond)`,
  'check-config': `Usage: tablegw check-config [--over-capacity] <file.yaml>

Validates a configuration file and prints what it would run; exits 1 naming every bad key.
Warns when the tables exceed the machine's measured capacity (300 per 2 cores, docs/SCALING.md
"Sizing") and refuses more than 4 times that unless --over-capacity or capacity.allowFarBeyond.`,
};

/** the top-level help: every command with its one-line summary (each command module exports `summary`) */
async function usage(): Promise<string> {
  const rows: Array<[string, string]> = [
    ['start', 'run the gateway (the demo without --config)'],
    ['check-config', 'validate a configuration file and print what it would run'],
  ];
  for (const [name, load] of Object.entries(COMMANDS)) {
    const summary = await load().then(
      (c) => c.summary,
      () => '(cannot be loaded)',
    );
    rows.push([name, summary]);
  }
  const width = Math.max(...rows.map(([n]) => n.length)) + 2;
  return `Usage: tablegw <command> [options]      (tablegw ${gatewayVersion()})

Commands:
${rows.map(([n, s]) => `  ${n.padEnd(width)}${s}`).join('\n')}

Options:
  --version, -V   print the version and the commit it was built from
  --help, -h      this help

Run "tablegw <command> --help" for a command's options. npm start runs the demo.`;
}

/**
 * `tablegw --version`: the version and the commit it was built from (dist/src/build-info.json),
 * or, run from the sources, the checkout's commit; e.g. `0.2.0 (commit 4882f99a1b2c)`
 */
function versionLine(): string {
  let commit = buildCommit();
  let from = '';
  if (!commit) {
    const git = spawnSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: ROOT, encoding: 'utf8' });
    commit = git.status === 0 ? git.stdout.trim() : undefined;
    from = commit ? ', sources' : '';
  }
  return `${gatewayVersion()} (commit ${commit ?? 'unknown'}${from})`;
}

/** a bad command-line option: exit 2 */
class UsageError extends Error {}

async function cmdStart(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      config: { type: 'string' },
      fast: { type: 'boolean' },
      shoes: { type: 'string' },
      table: { type: 'string' },
      broker: { type: 'string' },
      'broker-port': { type: 'string' },
      'http-port': { type: 'string' },
      'summary-every': { type: 'string' },
      'log-level': { type: 'string' },
      'over-capacity': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(HELP.start);
    return 0;
  }
  const file = values.config ?? DEFAULT_CONFIG;
  const cfg = loadConfigFile(file);
  const port = (name: string, v: string | undefined): number | undefined => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0 || n > 65535) throw new UsageError(`--${name} must be a port number 0-65535 (got "${v}")`);
    return n;
  };
  if (values.broker !== undefined) {
    if (!/^(mqtt|mqtts|tcp|tls|ws|wss):\/\/.+/.test(values.broker))
      throw new UsageError(`--broker must be a broker URL such as mqtt://127.0.0.1:1883 (got "${values.broker}")`);
    cfg.mqtt.url = values.broker;
  }
  const brokerPort = port('broker-port', values['broker-port']);
  if (brokerPort !== undefined) cfg.embeddedBroker.port = brokerPort;
  const httpPort = port('http-port', values['http-port']);
  if (httpPort !== undefined) cfg.http.port = httpPort;
  const summaryEvery = values['summary-every'] === undefined ? 60 : Number(values['summary-every']);
  if (!Number.isFinite(summaryEvery) || summaryEvery < 0)
    throw new UsageError(`--summary-every must be a number of seconds >= 0 (got "${values['summary-every']}")`);
  const shown = values.table
    ? new Set(
        values.table
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean),
      )
    : null;
  const unknown = shown ? [...shown].filter((id) => !cfg.tables.some((t) => t.id === id)) : [];
  if (unknown.length)
    throw new UsageError(`--table: no table ${unknown.map((u) => `"${u}"`).join(', ')} in ${file} (tables: ${cfg.tables.map((t) => t.id).join(', ')})`);
  const level = (values['log-level'] ?? cfg.log.level) as 'debug' | 'info' | 'warn' | 'error';
  const base = createLogger({ level });
  const logger = shown ? filterTables(base, shown) : base;
  // a signal during the start is held until the gateway is up, then stops it gracefully
  const signals = holdStopSignals();
  logger.info(`tablegw ${gatewayVersion()} starting with ${file}: ${cfg.tables.length} table(s)${shown ? `; showing ${[...shown].join(', ')}` : ''}`);
  const gw = await startGateway(cfg, {
    logger,
    simulators: loadSimulators,
    fast: values.fast,
    overCapacity: values['over-capacity'],
    simulatorShoes: values.shoes ? Number(values.shoes) : undefined,
    summaryIntervalMs: summaryEvery * 1000,
  });
  logger.info(
    `gateway ${gw.info.gatewayId}: tables on ${cfg.mqtt.topicPrefix}/<table>/#, info on ${cfg.mqtt.topicPrefix}/gateway/${gw.info.gatewayId}/info (broker ${gw.brokerUrl}); Ctrl-C stops`,
  );
  const watchdog = startSystemdWatchdog(logger); // only under systemd with WatchdogSec= (deploy/tablegw.service)
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal}: stopping`);
    const force = setTimeout(() => process.exit(1), 5000);
    force.unref();
    watchdog?.stop();
    const t0 = performance.now();
    await gw.stop();
    logger.info(`stopped in ${Math.round(performance.now() - t0)} ms`);
    process.exit(0);
  };
  signals.handTo((signal) => void shutdown(signal));
  const early = signals.held();
  if (early) {
    await shutdown(`${early} during the start`);
    return -1;
  }
  if (values.shoes) {
    await Promise.all(gw.simulators.map((s) => s.start()));
    await new Promise((r) => setTimeout(r, 500));
    await shutdown('simulated shoes done');
  }
  return -1; // keep running
}

function cmdCheckConfig(argv: string[]): number {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { help: { type: 'boolean', short: 'h' }, 'over-capacity': { type: 'boolean' } },
  });
  if (values.help || positionals.length !== 1) {
    console.log(HELP['check-config']);
    return values.help ? 0 : 2;
  }
  const cfg = loadConfigFile(positionals[0]);
  // every file it names and the data directory, all problems in one run (src/app/config/check-config.ts)
  const problems = configFileProblems(cfg);
  const capacity = checkCapacity(cfg.tables.length, { allowFarBeyond: cfg.capacity?.allowFarBeyond || values['over-capacity'] });
  if (capacity.level === 'refuse') problems.push(`tables: ${capacity.message}`);
  if (problems.length) {
    console.error(`${positionals[0]}: ${problems.length} problem(s)\n${problems.map((p) => `  - ${maskUrl(p)}`).join('\n')}`);
    return 1;
  }
  console.log(`${positionals[0]}: valid`);
  if (capacity.level === 'warn') console.log(`  warning: tables: ${capacity.message}`);
  for (const line of describeConfig(cfg)) console.log(line);
  // the disk the retention needs, from measured bytes per round (src/app/config/journal-size.ts)
  console.log(journalSizeLine(cfg, freeBytesAt(cfg.dataDir)));
  console.log(
    cfg.export.dir
      ? `  export: every ${cfg.export.every} to ${cfg.export.dir} (the prune keeps what is not exported yet)`
      : '  export: none scheduled (export.dir; tablegw export by hand)',
  );
  return 0;
}

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  switch (command) {
    case 'start':
      return cmdStart(rest);
    case 'check-config':
      return cmdCheckConfig(rest);
    case undefined:
    case '--help':
    case '-h':
    case 'help':
      console.log(await usage());
      return command ? 0 : 2;
    case '--version':
    case '-V':
    case 'version':
      console.log(versionLine());
      return 0;
    default:
      {
        const load = command ? COMMANDS[command] : undefined;
        if (load) {
          const cmd = await load();
          if (rest.includes('--help') || rest.includes('-h')) {
            console.log(cmd.help);
            return 0;
          }
          return cmd.run(rest);
        }
      }
      console.error(`unknown command "${command}"\n\n${await usage()}`);
      return 2;
  }
}

main().then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (e: unknown) => {
    if (e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`tablegw: ${(e as Error).message}`);
      process.exit(2);
    }
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(1);
    }
    if (e instanceof JournalDamagedError || e instanceof JournalNewerError) {
      // a stable exit code the service manager does not restart on (deploy/tablegw.service)
      console.error(`tablegw: ${e.message}`);
      process.exit(JOURNAL_EXIT_CODE);
    }
    if (e instanceof DataDirInUseError) {
      // another gateway runs on this data dir: a stable exit code the service manager does not restart on
      console.error(`tablegw: ${e.message}`);
      process.exit(DATA_DIR_IN_USE_EXIT_CODE);
    }
    console.error(`tablegw: ${(e as Error).message ?? String(e)}`);
    process.exit(1);
  },
);
