/**
 * What the gateway needs of the built-in virtual devices behind `transport: { type: simulator }`
 * (docs/DEVICES.md). The gateway imports nothing from simulators/: the caller that starts a table
 * with simulated devices (the CLI's start/simulate commands, dev/bench/, the tests) passes
 * `simulators`, which loads them lazily (simulators/load.ts implements this interface), so a
 * table PC with real devices does not carry them (docs/PERFORMANCE.md, "Footprint").
 */
import type { DeckRegistry } from '../../drivers/deck-registry.js';
import type { Transport } from '../../drivers/transports/transport.js';
import type { TableConfig } from '../core/vocabulary/config-schema.js';
import type { Logger } from './log.js';
import type { TableSettings } from '../core/table/types.js';

/** a virtual device (or dealer) the gateway starts and stops */
export interface SimulatedDevice {
  /** the seed its randomness came from (logged, so a run can be repeated) */
  readonly seed: string | number;
  /** runs the simulation; resolves when it has done its configured amount of work (or was stopped) */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** asks the table's virtual engine (a `request/<command>` over MQTT) */
export type SimulatedEngineRequest = (command: string, args?: Record<string, unknown>, timeoutMs?: number) => Promise<unknown>;

export interface SimulatedDevicesContext {
  table: TableConfig;
  settings: TableSettings;
  /** every device's transport by device id (simulator devices have MemoryTransports) */
  transports: ReadonlyMap<string, Transport>;
  /** as fast as possible instead of real time */
  fast?: boolean;
  /** card tables: shoes to deal; dice / keno tables then stop after 10 x shoes rounds (default: forever) */
  shoes?: number;
  /**
   * where the table's simulated devices keep what a real device keeps across a gateway restart
   * (the virtual dealer's shoe: docs/DEVICES.md "Simulated devices across a gateway restart");
   * absent: nothing is kept, a restarted simulator starts a new shoe
   */
  stateDir?: string;
  /**
   * the table as it stands, read when a simulator starts (after a gateway restart: the state the
   * table restored from its journal) and when a dealer loads a shoe
   */
  tableView?: () => SimulatedTableView;
  /** creates the table's virtual engine (asked only for `betting: engine` tables) */
  engine?: () => SimulatedEngineRequest;
  log?: Logger;
}

/** what a simulator reads of its table (restored from the journal after a gateway restart) */
export interface SimulatedTableView {
  /** a card table's shoe; `loaded`: the table saw it loaded (false: a shoe it never saw start, e.g. a fresh journal's); `rescanPending`: the table waits for the rescan of a card it could not read (the card is still in the read window) */
  shoe?: { shoeId?: unknown; state?: unknown; loaded?: unknown; cardsDealt?: unknown; cutCardSeen?: unknown; revealCard?: unknown; rescanPending?: unknown };
  /** a keno table's draw in progress: its round, whether the machine said START, the balls drawn so far */
  round?: { roundId?: unknown; started?: unknown; balls?: unknown };
}

export interface SimulatedDevicesSetup {
  devices: SimulatedDevice[];
  /** generated deck registries of simulated RFID shoes that have no `deckRegistry` file, by device id */
  registries: Map<string, DeckRegistry>;
  /** one line per simulated device, for the log */
  descriptions: Map<string, string>;
}

/** a virtual game engine: sends requests to a table over MQTT and waits for the answer */
export interface SimulatedEngine {
  connect(): Promise<void>;
  request(command: string, args?: Record<string, unknown>, timeoutMs?: number): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

export interface GatewaySimulators {
  createVirtualDevices(ctx: SimulatedDevicesContext): SimulatedDevicesSetup;
  VirtualEngine: new (url: string, topicPrefix: string, tableId: string, log: Logger) => SimulatedEngine;
}

/** loads the simulators; called only when a table has a simulated device */
export type LoadSimulators = () => Promise<GatewaySimulators>;
