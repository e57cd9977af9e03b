/**
 * Inputs, outputs and state of the pure table machine (`table-machine.ts`).
 * Everything here is plain JSON-serialisable data so that inputs can be journaled and replayed.
 */
import type { DeviceFrame } from '../vocabulary/frames.js';
import type { AlertKind } from '../vocabulary/alerts.js';
import type { RequestErrorCode } from '../vocabulary/requests.js';
import type { Envelope } from '../vocabulary/envelope-text.js';
import type { CardTableSettings, CardTableState } from './card/card-types.js';
import type { DiceTableSettings, DiceTableState, KenoTableSettings, KenoTableState } from './numbered/numbered-types.js';
import type { TableCounters } from './base-state.js';

export type {
  AlertWindow,
  BaseTableSettings,
  BaseTableState,
  DeviceKind,
  DeviceRecord,
  DeviceState,
  FrameRepair,
  TableCounters,
} from './base-state.js';
export type {
  CardTableSettings,
  CardTableState,
  CompletedRound,
  HiddenCard,
  HoldReason,
  PendingRescan,
  RoundStateData,
  ShoeLifecycle,
  ShoeStateData,
  ShufflerStateData,
} from './card/card-types.js';
export type {
  DiceRoundData,
  DiceTableSettings,
  DiceTableState,
  KenoRoundData,
  KenoTableSettings,
  KenoTableState,
  NumberedCompletedRound,
} from './numbered/numbered-types.js';
export type { Envelope };

/** Settings of any table; each kind of table machine adds its own variant here. */
export type TableSettings = CardTableSettings | DiceTableSettings | KenoTableSettings;

/** Everything that can happen to a table, each stamped with the wall-clock time it was received. */
export type TableInput =
  | { type: 'start'; at: number }
  | { type: 'frame'; at: number; deviceId: string; frame: DeviceFrame }
  | { type: 'device-status'; at: number; deviceId: string; state: 'connected' | 'disconnected' | 'stale'; detail?: string }
  | { type: 'device-alert'; at: number; deviceId: string; kind: AlertKind; detail: string; data?: Record<string, unknown> }
  | { type: 'device-restart'; at: number; deviceId: string }
  /**
   * `refused`: the runtime's edge refused it (rate limit, size, signature; docs/SECURITY.md): the machine answers with that error and changes nothing.
   * `signer`: the configured name of the key whose signature the edge verified (privileged requests): the only `by` the machine publishes.
   * `replay`: a retry of a request the table already answered (its answer is published again, nothing is executed).
   */
  | {
      type: 'request';
      at: number;
      command: string;
      payload: string;
      responseTopic?: string;
      correlationData?: string;
      refused?: string;
      refusedCode?: RequestErrorCode;
      signer?: string;
      replay?: RequestReplay;
    }
  | { type: 'timer'; at: number; name: string }
  /** the outbox changed level (table-runtime.ts): `full` holds the shoes until it is back to `ok` (src/core/table/card/holds.ts) */
  | { type: 'outbox-level'; at: number; level: 'ok' | 'filling' | 'full'; depth: number; max: number }
  /** the runtime's periodic health report: publishes `health`, changes nothing but `seq` (docs/OPERATIONS.md) */
  | { type: 'health'; at: number; report: HealthReport }
  /**
   * a condition of the gateway itself (e.g. the outbox filling up), published as an alert.
   * `restartAbove` (a restore from a backup, src/adapters/store/backup.ts): the table starts again,
   * as after a restart, with every counter at least these, before the alert is published.
   */
  | { type: 'gateway-alert'; at: number; kind: AlertKind; detail: string; data?: Record<string, unknown>; restartAbove?: TableCounters };

export type TableOutput =
  | { type: 'publish'; topic: string; retain: boolean; payload: Envelope; alsoTo?: { topic: string; correlationData?: string } }
  | { type: 'device-command'; deviceId: string; command: 'RESCAN' | 'LOCK' | 'UNLOCK' | `REPEAT,${number}` }
  | { type: 'set-timer'; name: string; at: number }
  | { type: 'cancel-timer'; name: string }
  | { type: 'log'; level: 'debug' | 'info' | 'warn' | 'error'; msg: string; data?: Record<string, unknown> };

/** The state of any table; each kind of table machine adds its own variant here. */
export type TableState = CardTableState | DiceTableState | KenoTableState;

/** What the runtime observed for a `health` input. The machine adds what it knows (device states). */
export interface HealthReport {
  mqtt: 'connected' | 'disconnected';
  /** the broker the table is on (credentials removed); absent or null while on none */
  broker?: string | null;
  /** false while connected but the broker refused the `request/+` subscription (or, with `subscribing`, has not answered yet) */
  requestsSubscribed?: boolean;
  /** with `requestsSubscribed: false`: the SUBACK is still on its way (no refusal) */
  subscribing?: boolean;
  /** the broker stopped acknowledging (no PUBACK within `mqtt.ackTimeoutMs`): what was seen */
  brokerStalled?: string;
  uptimeSec: number;
  /** messages waiting for the broker; null when no outbox reports it */
  outboxDepth: number | null;
  /** per device: frames, rejected (bad) frames and dropped duplicates since the gateway started */
  devices: Record<string, { frames: number; rejected: number; duplicates: number; serial?: { lowLatency: boolean; reason?: string; latencyTimerMs?: number } }>;
}

/**
 * A retried request the table already answered (the runtime found its `transaction` or
 * correlation data in the journal, src/runtime/answered-requests.ts): it is not executed again;
 * the machine publishes `answer` (the first answer's body) once more with `replayed: true` and
 * `replayOf`, the first answer's `seq`.
 */
export interface RequestReplay {
  answer: Readonly<Record<string, unknown>>;
  of: number;
}
