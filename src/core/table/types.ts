/**
 * Inputs, outputs and state of the pure table machine (`table-machine.ts`).
 * Everything here is plain JSON-serialisable data so that inputs can be journaled and replayed.
 */
import type { DeviceFrame } from '../vocabulary/frames.js';
import type { Card } from '../vocabulary/card.js';
import type { AnyCardGame, RevealPoint } from '../games/game.js';
import type { AlertKind } from '../vocabulary/alerts.js';
import type { RequestErrorCode } from '../vocabulary/requests.js';

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
}

/** Static settings of a card-game table, resolved from the config file. */
export interface CardTableSettings extends BaseTableSettings {
  kind: 'card';
  game: AnyCardGame;
  decks: number;
  burnPerRound: number;
  burnFaceDown: boolean;
  rescanRetries: number;
  rescanIntervalMs: number;
  rescanTimeoutMs: number;
  /** shuffler `COUNT` that is correct (default 52 x decks) */
  expectedDeckSize?: number;
  /** games.md Exposed card: an exposed card also voids the rest of the shoe (baccarat, 7 Up, Dragon Tiger) */
  exposedCardVoidsShoe: boolean;
  /** games.md Unnecessary card: `burn-then-void-shoe` (baccarat, 7 Up, Dragon Tiger, Pok Deng) or `alert` */
  unnecessaryCardRule: 'burn-then-void-shoe' | 'alert';
  /** games.md: a cut card after `open-betting`, before the round's first card, makes that round the last (Pok Deng) */
  cutBeforeFirstCardIsLastRound: boolean;
  /** games.md Corrections: how many of the most recent completed rounds the pit may still void or correct */
  correctionWindowRounds: number;
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
  /**
   * `refused`: the runtime's edge refused it (rate limit, size, signature; docs/SECURITY.md): the machine answers with that error and changes nothing.
   * `signer`: the configured name of the key whose signature the edge verified (privileged requests): the only `by` the machine publishes
   */
  | { type: 'request'; at: number; command: string; payload: string; responseTopic?: string; correlationData?: string; refused?: string; refusedCode?: RequestErrorCode; signer?: string }
  | { type: 'timer'; at: number; name: string }
  /** the outbox changed level (table-runtime.ts): `full` holds the shoes until it is back to `ok` (src/core/table/card/holds.ts) */
  | { type: 'outbox-level'; at: number; level: 'ok' | 'filling' | 'full'; depth: number; max: number }
  /** the runtime's periodic health report: publishes `health`, changes nothing but `seq` (docs/OPERATIONS.md) */
  | { type: 'health'; at: number; report: HealthReport }
  /** a condition of the gateway itself (e.g. the outbox filling up), published as an alert */
  | { type: 'gateway-alert'; at: number; kind: AlertKind; detail: string; data?: Record<string, unknown> };

import type { Envelope } from '../vocabulary/envelope-text.js';
export type { Envelope };

export type TableOutput =
  | { type: 'publish'; topic: string; retain: boolean; payload: Envelope; alsoTo?: { topic: string; correlationData?: string } }
  | { type: 'device-command'; deviceId: string; command: 'RESCAN' | 'LOCK' | 'UNLOCK' | `REPEAT,${number}` }
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
  /** the new shoe's burns; `null` for an unread burn that was dropped and picked up (games.md Dropped card) */
  burnCards: (Card | null)[];
  cardsDealt: number;
  cutCardSeen: boolean;
  /** times each card was seen in this shoe (or deck), by its slot (`cardSlot`, card/state.ts: AS, AH, AD, AC, 2S, ...) */
  counts: number[];
  roundsStarted: number;
  roundsCompleted: number;
  /** unnecessary cards drawn since the last round ended: they become the next round's burns */
  carriedBurns: Card[];
  /** RFID uids read in this shoe (games.md: the same tag twice in one shoe is a foreign card) */
  tags?: string[];
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
  /** `null` for an unread burn that was dropped and picked up (games.md Dropped card) */
  burns: (Card | null)[];
  burnsNeeded: number;
  burnsHidden: boolean;
  hidden: HiddenCard[];
  lastRound: boolean;
  /** cards of this round in dealing order (for single-deck duplicate checks) */
  seen: Card[];
  /** the last card placed: a burn, or a hand's card dealt face down or up (games.md Dropped card) */
  last?: { burn: boolean; faceDown: boolean } | null;
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
  /** the outbox level last reported by the runtime (`outbox-level` inputs) */
  outboxLevel?: 'ok' | 'filling' | 'full';
  devices: Record<string, DeviceRecord>;
  /** SEQ gaps being repaired by `REPEAT`, per device (table-base.ts, games.md "Lost frames") */
  repairs?: Record<string, FrameRepair>;
  /** repairs started so far (names their timers) */
  repairNo?: number;
  /** coalescing windows of repeatable alerts, `<kind>|<deviceId>` (table-base.ts) */
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

/** The state of a card-game table. */
export interface CardTableState extends BaseTableState {
  kind: 'card';
  shoe: ShoeStateData;
  round: RoundStateData | null;
  lastRound: { id: string; status: 'complete' | 'void' } | null;
  pending: PendingRescan | null;
  nextPendingId: number;
  /** the round is held after a frame gap that was not repaired (phase `held`), until `void-round` or `resume-round` */
  held?: { deviceId: string; since: number; queued: Array<{ deviceId: string; frame: DeviceFrame }> } | null;
  /** the table's shuffler, when it has one and it has reported (src/core/table/card/shuffler.ts) */
  shuffler?: ShufflerStateData;
  /**
   * Why the shoes are held (device-protocols.md `LOCK`): the ONE owner of LOCK/UNLOCK. `LOCK` when
   * the set becomes non-empty, `UNLOCK` when it empties (src/core/table/card/holds.ts `setHold`).
   */
  holds?: HoldReason[];
  /** the most recent completed (or voided) rounds, newest last, for corrections (games.md Corrections) */
  completed?: CompletedRound[];
}

export type HoldReason = 'shoe-void' | 'shuffler' | 'outbox-full' | 'frame-gap';

/** A finished round the pit may still void or correct (games.md Corrections). */
export interface CompletedRound {
  id: string;
  shoeId: string;
  /** `seq` of the result now standing for it */
  resultSeq: number;
  status: 'complete' | 'void' | 'corrected';
  game: unknown;
  burns: (Card | null)[];
  /** every card of the round in dealing order (to check a correction's cards) */
  seen: Card[];
}

export interface ShufflerStateData {
  deviceId: string;
  /** last `STATE` reported, null before any */
  state: 'IDLE' | 'SHUFFLING' | 'READY' | 'JAM' | 'DOOR_OPEN' | 'ERROR' | null;
  /** last `COUNT` reported, null before any */
  lastCount: number | null;
  /** a `COUNT` came since the last `READY` (single-deck games: the next READY starts a fresh deck) */
  countPending: boolean;
  /** dealing is blocked (DOOR_OPEN / ERROR): the `shuffler` hold reason */
  blocked: boolean;
  /** single-deck games: a READY after a COUNT came during a round: the fresh deck starts when it ends */
  freshDeckAfterRound?: boolean;
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
