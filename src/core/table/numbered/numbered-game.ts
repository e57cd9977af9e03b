/**
 * What the numbered-round machine (this folder) needs to know of a game: what a round carries
 * (its fresh data, its part of the `round` message), what a result carries (the field a correction
 * replaces, the outcome, a void's body) and what the game's device frames do. Sic bo and keno
 * each give one (`sic-bo.ts`, `keno.ts`).
 */
import type { DeviceFrame } from '../../vocabulary/frames.js';
import type { MessageBody } from '../messages.js';
import type { AlertKind } from '../../vocabulary/alerts.js';
import type { TableCounters } from '../base-state.js';
import type { StepContext } from '../context.js';
import type { DiceTableSettings, DiceTableState, KenoTableSettings, KenoTableState } from './numbered-types.js';

export type NumberedState = DiceTableState | KenoTableState;
export type NumberedSettings = DiceTableSettings | KenoTableSettings;
export type RoundOf<S extends NumberedState> = NonNullable<S['round']>;

/** the numbered-round machine's step context: the base one, with the game's description as its `kind` */
export type NumberedContext<S extends NumberedState, Se extends NumberedSettings> = StepContext<Se, NumberedGame<S, Se>, S>;

export interface NumberedGame<S extends NumberedState, Se extends NumberedSettings> {
  readonly kind: S['kind'];
  /** the table kind as answers name it: `sic bo`, `keno` */
  readonly name: string;
  /** what a round starts with when there is no engine: `the dice`, `the draw` */
  readonly roundStartsWith: string;
  /** the result field a correction replaces */
  readonly correctionField: 'dice' | 'balls';
  /** why corrected values are refused (null: they are fine) */
  checkCorrection(values: unknown): string | null;
  outcomeOf(values: number[]): Record<string, unknown>;
  /** what a voided completed round's result carries in that field (games.md Corrections) */
  voidedValues(values: number[]): { balls: number[] } | { dice: null };
  /** a fresh state (`persisted` counters continued) and a step's private copy of one */
  initial(settings: Se, persisted: TableCounters): S;
  copy(prev: S): S;
  /** a fresh round (id and number given) */
  newRound(ctx: NumberedContext<S, Se>, id: string, no: number): RoundOf<S>;
  /** the game's fields of the `round` message, after `phase` and `roundNo` (`ended`: the round has just finished) */
  roundFields(ctx: NumberedContext<S, Se>, s: S, ended: boolean): Record<string, unknown>;
  /** a void round's `result` body */
  voidResult(round: RoundOf<S>, reason: AlertKind, detail: string): MessageBody<'result'>;
  /** the log line of a table that starts */
  startLog(settings: Se): string;
  /** a valid frame of the game's device (not HB / VER / ERR) */
  frame(ctx: NumberedContext<S, Se>, s: S, deviceId: string, frame: DeviceFrame): S;
  /** the pit voids the round in progress (default: the round is void) */
  pitVoid?(ctx: NumberedContext<S, Se>, s: S, reason: string): void;
  /** the game's part of the `status` answer */
  snapshot(ctx: NumberedContext<S, Se>, s: S): Record<string, unknown>;
}
