/**
 * Inputs, outputs and state of the pure table machine (`table-machine.ts`).
 * Everything here is plain JSON-serialisable data so that inputs can be journaled and replayed.
 */
import type { DeviceFrame } from '../../drivers/codecs/frames.js';
import type { Card } from '../domain/card.js';
import type { CardGame, RevealPoint } from '../games/game.js';
import type { AlertKind } from './alerts.js';
import type { HealthReport } from './health.js';
import type { RequestErrorCode } from '../mqtt/requests.js';

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
}

/** Static settings of a card-game table, resolved from the config file. */
export interface CardTableSettings extends BaseTableSettings {
  kind: 'card';
  game: CardGame<any>;
  decks: number;
  burnPerRound: number;
  burnFaceDown: boolean;
  rescanRetries: number;
  rescanIntervalMs: number;
  rescanTimeoutMs: number;
  /** shuffler `COUNT` that is correct (default 52 x decks) */
  expectedDeckSize?: number;
}

/** Settings of a sic bo table (dice-table.ts). */
export interface DiceTableSettings extends BaseTableSettings {
  kind: 'sic-bo';
  /** a ROLL with fewer bounces is void (default 1) */
  minBounces: number;
}

/** Settings of a keno table (keno-table.ts). */
export interface KenoTableSettings extends BaseTableSettings {
  kind: 'keno';
}

/** Settings of any table; each kind of table machine adds its own variant here. */
export type TableSettings = CardTableSettings | DiceTableSettings | KenoTableSettings;

/** Everything that can happen to a table, each stamped with the wall-clock time it was received. */
export type TableInput =
  | { type: 'start'; at: number }
  | { type: 'frame'; at: number; deviceId: string; frame: DeviceFrame }
  | { type: 'device-status'; at: number; deviceId: string; state: 'connected' | 'disconnected' | 'stale'; detail?: string }
  | { type: 'device-alert'; at: number; deviceId: string; kind: AlertKind; detail: string; data?: Record<string, unknown> }
  | { type: 'device-restart'; at: number; deviceId: string }
  /** `refused`: the runtime's edge refused it (rate limit, size; docs/SECURITY.md): the machine answers with that error and changes nothing */
  | { type: 'request'; at: number; command: string; payload: string; responseTopic?: string; correlationData?: string; refused?: string; refusedCode?: RequestErrorCode }
  | { type: 'timer'; at: number; name: string }
  /** the runtime's periodic health report: publishes `health`, changes nothing but `seq` (docs/OPERATIONS.md) */
  | { type: 'health'; at: number; report: HealthReport }
  /** a condition of the gateway itself (e.g. the outbox filling up), published as an alert */
  | { type: 'gateway-alert'; at: number; kind: AlertKind; detail: string; data?: Record<string, unknown> };

export interface Envelope {
  v: 1;
  type: string;
  table: string;
  game: string;
  seq: number;
  ts: string;
  shoeId?: string;
  roundId?: string;
  [k: string]: unknown;
}

export type TableOutput =
  | { type: 'publish'; topic: string; retain: boolean; payload: Envelope; alsoTo?: { topic: string; correlationData?: string } }
  | { type: 'device-command'; deviceId: string; command: 'RESCAN' | 'LOCK' | 'UNLOCK' }
  | { type: 'set-timer'; name: string; at: number }
  | { type: 'cancel-timer'; name: string }
  | { type: 'log'; level: 'debug' | 'info' | 'warn' | 'error'; msg: string; data?: Record<string, unknown> };

export type ShoeLifecycle = 'burning' | 'dealing' | 'last-round' | 'closed' | 'void';

export interface ShoeStateData {
  no: number;
  id: string;
  state: ShoeLifecycle;
  /** false for the shoe assumed at start-up before any `LOADED` (no reveal and burn expected) */
  loaded: boolean;
  revealCard: Card | null;
  burnTarget: number;
  burnCards: Card[];
  cardsDealt: number;
  cutCardSeen: boolean;
  /** cards seen in this shoe (or deck) -> times */
  counts: Record<string, number>;
  roundsStarted: number;
  roundsCompleted: number;
  /** unnecessary cards drawn since the last round ended: they become the next round's burns */
  carriedBurns: Card[];
}

export interface HiddenCard {
  position: string;
  index: number;
  card: Card;
  revealAt: RevealPoint;
}

export interface RoundStateData {
  id: string;
  no: number;
  bettingOpen: boolean;
  game: unknown;
  burns: Card[];
  burnsNeeded: number;
  burnsHidden: boolean;
  hidden: HiddenCard[];
  lastRound: boolean;
  /** cards of this round in dealing order (for single-deck duplicate checks) */
  seen: Card[];
}

export interface PendingRescan {
  id: number;
  since: number;
  retriesSent: number;
  deviceId: string;
}

/** What every table machine's state has, whatever the game. */
export interface BaseTableState {
  /** the last `seq` used in an envelope */
  seq: number;
  devices: Record<string, DeviceRecord>;
}

export interface DeviceRecord {
  kind: DeviceKind;
  state: DeviceState;
  detail?: string;
  model?: string;
  firmware?: string;
}

/** The state of a card-game table. */
export interface CardTableState extends BaseTableState {
  kind: 'card';
  shoe: ShoeStateData;
  round: RoundStateData | null;
  lastRound: { id: string; status: 'complete' | 'void' } | null;
  pending: PendingRescan | null;
  nextPendingId: number;
  /** the table's shuffler, when it has one and it has reported (card-table.ts, shuffler section) */
  shuffler?: ShufflerStateData;
}

export interface ShufflerStateData {
  deviceId: string;
  /** last `STATE` reported, null before any */
  state: 'IDLE' | 'SHUFFLING' | 'READY' | 'JAM' | 'DOOR_OPEN' | 'ERROR' | null;
  /** last `COUNT` reported, null before any */
  lastCount: number | null;
  /** a `COUNT` came since the last `READY` (single-deck games: the next READY starts a fresh deck) */
  countPending: boolean;
  /** dealing is blocked (DOOR_OPEN / ERROR) and the shoes were sent LOCK */
  blocked: boolean;
}

/** One round of a sic bo table. */
export interface DiceRoundData {
  id: string;
  no: number;
  bettingOpen: boolean;
  shakes: number;
  /** void attempts before the valid roll: no-bounce rolls, cocked dice, no-reads */
  attempts: Array<{ kind: 'no-bounce' | 'cocked' | 'noread'; dice?: [number, number, number]; bounces?: number }>;
}

/** The state of a sic bo table. */
export interface DiceTableState extends BaseTableState {
  kind: 'sic-bo';
  /** rounds numbered so far (persisted: ids never repeat across restarts) */
  roundNo: number;
  round: DiceRoundData | null;
  lastRound: { id: string; status: 'complete' | 'void' } | null;
}

/** One round (draw) of a keno table. */
export interface KenoRoundData {
  id: string;
  no: number;
  bettingOpen: boolean;
  /** `START` seen */
  started: boolean;
  balls: number[];
}

/** The state of a keno table. */
export interface KenoTableState extends BaseTableState {
  kind: 'keno';
  roundNo: number;
  round: KenoRoundData | null;
  lastRound: { id: string; status: 'complete' | 'void' } | null;
  /** the machine is mid-draw (START seen, no END yet) but its balls belong to no round: ignore them quietly */
  strayDraw: boolean;
}

/** The state of any table; each kind of table machine adds its own variant here. */
export type TableState = CardTableState | DiceTableState | KenoTableState;

/** Numbers that must never go back across restarts (persisted after every step). */
export type TableCounters = Record<string, number>;
