/**
 * The ports the runtime owns: what it needs from the world, as interfaces. The adapters implement
 * them (`TableLink` in src/adapters/mqtt/ is a `Publisher`, `GatewayStore` in src/adapters/store/
 * a `Journal`), the app wires them in (src/app/gateway.ts), tests give their own. The runtime
 * knows these interfaces, never mqtt.js or SQLite.
 */
import type { Observable } from 'rxjs';
import type { TableCounters, TableInput } from '../core/table/types.js';
import type { TopicMap } from '../core/vocabulary/topics.js';

export interface StoredMessage {
  seq: number;
  topic: string;
  retain: boolean;
  payload: string;
  alsoTopic?: string;
  alsoCorrelation?: string;
}

export interface StepRecord {
  tableId: string;
  input: TableInput;
  messages: StoredMessage[];
  /** the table state after this step, when a snapshot should be taken */
  snapshot?: unknown;
  /** the table's counters after this step (`seq`, shoe / round numbers): the high-water mark */
  counters?: TableCounters;
}

export interface RecoveredTable {
  /** the last snapshot: state after input `inputId` (0 = before any input) */
  snapshot: { inputId: number; state: unknown } | null;
  /** inputs after the snapshot, in order */
  inputs: TableInput[];
  /** messages the broker never acknowledged, in seq order */
  unacked: StoredMessage[];
  /** the highest seq ever stored */
  maxSeq: number;
}

export interface IncomingRequest {
  command: string;
  payload: string;
  responseTopic?: string;
  correlationData?: string;
  /** delivered with the retain flag: a stale copy the broker keeps, never executed (mqtt-api.md) */
  retained?: boolean;
}

/** one table's MQTT connection as its outbox uses it */
export interface Publisher {
  /** the table's topic map (the one place that builds a topic) */
  readonly topics: TopicMap;
  /** true on every (re)connect, false on every loss */
  readonly connected$: Observable<boolean>;
  readonly connected: boolean;
  /** the last connect reached another broker than the one before (retained topics are sent again) */
  readonly movedBroker: boolean;
  /** QoS 1; `done` once the broker acknowledged it (or with the error that ended it) */
  /** `copyOf`: this is a copy of the message on that topic (an answer's copy on a request's response topic, marked as such) */
  publish(topic: string, payload: string, retain: boolean, correlationData?: string, done?: (err?: Error) => void, copyOf?: string): void;
  /** the broker the table is on (credentials removed), null while on none (for alerts) */
  readonly broker?: string | null;
  /** drops the connection and makes it again (a broker that stopped acknowledging) */
  dropConnection?(reason: string): void;
}

/** where a table's engine requests come from (the same connection, in the product) */
export interface RequestSource {
  readonly requests$: Observable<IncomingRequest>;
}

/** the durable journal of inputs and messages (docs/DURABILITY.md) as the runtime uses it */
export interface Journal {
  registerTable(tableId: string, settings: unknown, initialState: () => unknown): void;
  recover(tableId: string): RecoveredTable;
  /** journals a step; `done` once it is committed (before any of its effects) */
  enqueue(rec: StepRecord, done: () => void, beside?: () => void): void;
  acknowledge(tableId: string, seq: number): void;
  noteDeviceSeq(tableId: string, deviceId: string, seq: number): void;
  deviceSeqs(tableId: string): Record<string, number>;
  engineRoundIds(tableId: string): string[];
  /** the answers the table published since `sinceMs`, with the requests they answered (for retries within the idempotency window) */
  answeredRequests(tableId: string, sinceMs: number): Array<{ seq: number; at: number; input: TableInput; answer: string }>;
  /** the payloads of the signed requests (inputs with a `signer`) received at or after `since` (ms) */
  signedRequestsSince(tableId: string, since: number): Array<{ at: number; payload: string }>;
  flush(): void;
}
