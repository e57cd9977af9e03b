/**
 * The card table's step context: the base one (src/core/table/context.ts) whose `kind` holds the
 * two things a procedure needs of the router above it, wired by it (card-table.ts): a held round's
 * frames are taken through the router when released, and a fresh deck may start a new shoe when a
 * round ends.
 */
import type { DeviceFrame } from '../../vocabulary/frames.js';
import type { StepContext } from '../context.js';
import type { CardTableSettings, CardTableState } from './card-types.js';

export interface CardHooks {
  /** a card-table frame (the router's `gameFrame`) */
  gameFrame(ctx: CardContext, s: CardTableState, deviceId: string, frame: DeviceFrame): CardTableState;
  /** a new shoe (shoe.ts `startNewShoe`) */
  newShoe(ctx: CardContext, s: CardTableState, why: string): CardTableState;
}

export type CardContext = StepContext<CardTableSettings, CardHooks, CardTableState>;
