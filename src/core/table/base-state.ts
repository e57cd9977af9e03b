/**
 * What every table machine's settings and state have, whatever the game: devices, the envelope's
 * `seq`, lost-frame repairs, alert coalescing windows, the counters that persist. Plain JSON data.
 */
import type { DeviceFrame } from '../vocabulary/frames.js';

export type DeviceKind = 'card-shoe' | 'rfid-shoe' | 'barcode-scanner' | 'shuffler' | 'dice-sensor' | 'ball-reader';
export type DeviceState = 'connected' | 'disconnected' | 'stale' | 'fault';

/** What every table machine's settings have, whatever the game. */
export interface BaseTableSettings {
  tableId: string;
  gameId: string;
  /** `betting: engine` */
  engine: boolean;
  devices: ReadonlyArray<{ id: string; kind: DeviceKind }>;
  gameOptions: Readonly<Record<string, unknown>>;
  /** games.md Corrections: how many of the most recent completed rounds the pit may still void or correct (default 1) */
  correctionWindowRounds?: number;
  /** how long the frames a `REPEAT` asked for may take (default 500) */
  repeatTimeoutMs?: number;
  /**
   * the table's stream epoch (mqtt-api.md v1.2): on every envelope. Made at the edge when the
   * table's journal entry is created (gateway-store.ts ensureEpoch), never by the machine.
   */
  epoch?: string;
}

/** What every table machine's state has, whatever the game. */
export interface BaseTableState {
  /** the last `seq` used in an envelope */
  seq: number;
  /** the outbox level last reported by the runtime (`outbox-level` inputs) */
  outboxLevel?: 'ok' | 'filling' | 'full';
  devices: Record<string, DeviceRecord>;
  /** SEQ gaps being repaired by `REPEAT`, per device (frame-repair.ts, games.md "Lost frames") */
  repairs?: Record<string, FrameRepair>;
  /** repairs started so far (names their timers) */
  repairNo?: number;
  /** coalescing windows of repeatable alerts, `<kind>|<deviceId>` (context.ts) */
  alertWindows?: Record<string, AlertWindow>;
}

export interface FrameRepair {
  /** the first missing device SEQ (asked for with `REPEAT,<fromSeq>`) */
  fromSeq: number;
  /** how many frames were missing */
  missing: number;
  /** how many of them came (they are processed in SEQ order) */
  filled: number;
  /** frames waiting for the missing ones: `k` = (SEQ - fromSeq) mod modulus */
  queued: Array<{ k: number; frame: DeviceFrame }>;
  /** the number of the `repeat:<device>:<no>` timer */
  no: number;
  since: number;
  /** the device's SEQ modulus (65536; 256 for the HID dice sensor) */
  modulus: number;
  /** the repeat timed out: missing frames that still come are late and not taken */
  expired?: boolean;
}

export interface AlertWindow {
  /** the window ends (input time, ms) */
  until: number;
  /** alerts counted in the window and not yet published */
  pending: number;
  /** the last counted alert's detail and fields */
  detail?: string;
  extra?: Record<string, unknown>;
}

export interface DeviceRecord {
  kind: DeviceKind;
  state: DeviceState;
  detail?: string;
  model?: string;
  firmware?: string;
  /** the capabilities of its last `VER` (`REPEAT`, `LOCK`, `RESCAN`, ...) */
  capabilities?: string[];
}

/** Numbers that must never go back across restarts (persisted after every step). */
export type TableCounters = Record<string, number>;
