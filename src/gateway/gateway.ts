/**
 * The gateway: an optional embedded broker, and for every configured table its MQTT link, its
 * device drivers, its pure table machine in a TableRuntime, and — for simulator transports — the
 * virtual devices and dealer that feed it.
 */
import { join, resolve } from 'node:path';
import { createDriver, createTransport } from '../../drivers/driver-factory.js';
import { MemoryTransport } from '../../drivers/transports/memory-transport.js';
import { VirtualEngine } from '../../simulators/virtual-engine.js';
import { VirtualTable } from '../../simulators/virtual-table.js';
import type { GatewayConfig } from '../config/schema.js';
import type { Logger } from '../log.js';
import { startEmbeddedBroker, type EmbeddedBroker } from '../mqtt/embedded-broker.js';
import { TableLink } from '../mqtt/table-link.js';
import { TableCounterStore } from '../persistence/table-counters.js';
import { tableSettings } from '../table/table-settings.js';
import { TableRuntime } from './table-runtime.js';

export interface GatewayOptions {
  logger: Logger;
  /** deal simulated tables as fast as possible (tests, CI) */
  fast?: boolean;
  /** how many shoes each simulated table deals (default: forever) */
  simulatorShoes?: number;
}

export interface Gateway {
  brokerUrl: string;
  tables: TableRuntime[];
  simulators: VirtualTable[];
  stop(): Promise<void>;
}

export async function startGateway(cfg: GatewayConfig, opts: GatewayOptions): Promise<Gateway> {
  const log = opts.logger;
  let broker: EmbeddedBroker | null = null;
  let url = cfg.mqtt.url;
  if (url === 'embedded') {
    broker = await startEmbeddedBroker(cfg.embeddedBroker.host, cfg.embeddedBroker.port);
    url = broker.url;
    log.info(`embedded MQTT broker listening on ${url}`);
  }
  const dataDir = resolve(cfg.dataDir);
  const tables: TableRuntime[] = [];
  const links: TableLink[] = [];
  const simulators: VirtualTable[] = [];
  const engines: VirtualEngine[] = [];

  for (const t of cfg.tables) {
    const tlog = log.child({ table: t.id });
    const settings = tableSettings(t);
    const link = new TableLink({
      url, tableId: t.id, gameId: t.game, topicPrefix: cfg.mqtt.topicPrefix, clientIdPrefix: cfg.mqtt.clientIdPrefix,
      protocolVersion: cfg.mqtt.protocolVersion, keepaliveSec: cfg.mqtt.keepaliveSec,
      username: cfg.mqtt.username, password: cfg.mqtt.password, passwordFile: cfg.mqtt.passwordFile,
      ca: cfg.mqtt.ca, cert: cfg.mqtt.cert, key: cfg.mqtt.key, logger: tlog,
    });
    const drivers = t.devices.map((d) => {
      const transport = createTransport(d);
      const driver = createDriver(d, transport);
      if (d.transport.type === 'simulator' && transport instanceof MemoryTransport) {
        const sim = d.transport;
        let engine: VirtualEngine | undefined;
        if (t.betting === 'engine') {
          engine = new VirtualEngine(url, cfg.mqtt.topicPrefix, t.id, tlog);
          engines.push(engine);
        }
        const vt = new VirtualTable({
          game: settings.game, decks: settings.decks, burnPerRound: settings.burnPerRound, engine: settings.engine,
          cardIntervalMs: opts.fast ? 0 : sim.cardIntervalMs, roundIntervalMs: opts.fast ? 0 : sim.roundIntervalMs,
          cutCardFromEnd: sim.cutCardFromEnd, seed: sim.seed, faults: sim.faults, shoes: opts.simulatorShoes,
          gameOptions: settings.gameOptions,
          write: (b) => transport.deliver(b),
          request: engine ? (c, a) => engine!.request(c, a) : undefined,
        });
        transport.written$.subscribe((b) => vt.onGatewayBytes(b));
        simulators.push(vt);
        tlog.info(`device ${d.id}: virtual ${d.kind} (seed ${vt.seed})`);
      } else {
        tlog.info(`device ${d.id}: ${d.kind} on ${transport.description}`);
      }
      return driver;
    });
    const runtime = new TableRuntime(settings, link, drivers, new TableCounterStore(join(dataDir), t.id), tlog);
    link.connect();
    runtime.start();
    tables.push(runtime);
    links.push(link);
  }
  for (const e of engines) await e.connect();
  for (const s of simulators) void s.start().catch((e) => log.error(`simulator failed: ${(e as Error).message}`));

  return {
    brokerUrl: url,
    tables,
    simulators,
    async stop() {
      await Promise.all(simulators.map((s) => s.stop()));
      await Promise.all(engines.map((e) => e.close()));
      await Promise.all(tables.map((t) => t.stop()));
      await Promise.all(links.map((l) => l.close()));
      if (broker) await broker.close();
    },
  };
}
