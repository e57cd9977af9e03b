/**
 * The card table's step context: the base one (src/core/table/context.ts) plus the two things a
 * procedure needs of the router above it, wired by it (card-table.ts): a held round's frames are
 * taken through the router when released, and a fresh deck may start a new shoe when a round ends.
 */
import type { DeviceFrame } from '../../vocabulary/frames.js';
import type { StepContext } from '../context.js';
import type { CardTableSettings, CardTableState } from './card-types.js';

export interface CardContext extends StepContext<CardTableSettings> {
  /** a card-table frame (the router's `gameFrame`) */
  gameFrame(s: CardTableState, deviceId: string, frame: DeviceFrame): void;
  /** a new shoe (shoe.ts `startNewShoe`) */
  newShoe(s: CardTableState, why: string): void;
}
