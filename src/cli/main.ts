#!/usr/bin/env node
/**
 * The `tablegw` command line. `npm start` runs `start` with config/default.yaml (the demo).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfigFile } from '../config/load-config.js';
import { startGateway } from '../gateway/gateway.js';
import { createLogger } from '../log.js';
import { startSystemdWatchdog } from '../systemd/watchdog.js';
import { COMMANDS } from './commands/index.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DEFAULT_CONFIG = join(ROOT, 'config', 'default.yaml');

const HELP: Record<string, string> = {
  start: `Usage: tablegw start [--config <file.yaml>] [--fast] [--shoes <n>] [--log-level debug|info|warn|error]

Runs the gateway. Without --config it runs the demo (config/default.yaml): an embedded MQTT
broker on 127.0.0.1:1883 and a simulated baccarat table publishing on casino/sim-bac-01/#.
  --config <file>   configuration file (YAML or JSON), validated before anything starts
  --fast            simulated tables deal as fast as possible instead of in real time
  --shoes <n>       simulated tables stop after n shoes (default: deal forever)
  --log-level       debug | info | warn | error (default from the config, else info)`,
  'check-config': `Usage: tablegw check-config <file.yaml>

Validates a configuration file and prints what it would run; exits 1 naming every bad key.`,
};

function usage(): string {
  return `Usage: tablegw <command> [options]

Commands:
  start          run the gateway (the demo without --config)
  check-config   validate a configuration file
${Object.keys(COMMANDS).map((c) => `  ${c}`).join('\n')}

Run "tablegw <command> --help" for a command's options.`;
}

async function cmdStart(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      config: { type: 'string' }, fast: { type: 'boolean' }, shoes: { type: 'string' },
      'log-level': { type: 'string' }, help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(HELP.start);
    return 0;
  }
  const file = values.config ?? DEFAULT_CONFIG;
  const cfg = loadConfigFile(file);
  const level = (values['log-level'] ?? cfg.log.level) as 'debug' | 'info' | 'warn' | 'error';
  const logger = createLogger({ level });
  logger.info(`starting with ${file}: ${cfg.tables.length} table(s)`);
  const gw = await startGateway(cfg, { logger, fast: values.fast, simulatorShoes: values.shoes ? Number(values.shoes) : undefined });
  const watchdog = startSystemdWatchdog(logger); // only under systemd with WatchdogSec= (deploy/tablegw.service)
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal}: stopping`);
    const force = setTimeout(() => process.exit(1), 5000);
    force.unref();
    watchdog?.stop();
    await gw.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  if (values.shoes) {
    await Promise.all(gw.simulators.map((s) => s.start()));
    await new Promise((r) => setTimeout(r, 500));
    await shutdown('simulated shoes done');
  }
  return -1; // keep running
}

function cmdCheckConfig(argv: string[]): number {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { help: { type: 'boolean', short: 'h' } } });
  if (values.help || positionals.length !== 1) {
    console.log(HELP['check-config']);
    return values.help ? 0 : 2;
  }
  const cfg = loadConfigFile(positionals[0]);
  console.log(`${positionals[0]}: valid`);
  console.log(`  broker: ${cfg.mqtt.url === 'embedded' ? `embedded on ${cfg.embeddedBroker.host}:${cfg.embeddedBroker.port}` : [cfg.mqtt.url].flat().join(' then ')}, topics under ${cfg.mqtt.topicPrefix}/`);
  for (const t of cfg.tables) {
    console.log(`  table ${t.id}: ${t.game}, betting ${t.betting}`);
    for (const d of t.devices) console.log(`    ${d.id}: ${d.kind} via ${d.transport.type}${d.transport.type === 'serial' ? ` ${d.transport.path} @${d.transport.baudRate}` : ''}`);
  }
  return 0;
}

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  switch (command) {
    case 'start': return cmdStart(rest);
    case 'check-config': return cmdCheckConfig(rest);
    case undefined: case '--help': case '-h': case 'help':
      console.log(usage());
      return command ? 0 : 2;
    default: {
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
      console.error(`unknown command "${command}"\n\n${usage()}`);
      return 2;
  }
}

main().then((code) => {
  if (code >= 0) process.exit(code);
}, (e: unknown) => {
  if (e instanceof ConfigError) {
    console.error(e.message);
    process.exit(1);
  }
  console.error(`tablegw: ${(e as Error).message ?? String(e)}`);
  process.exit(1);
});

