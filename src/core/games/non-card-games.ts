/**
 * The games that are not dealt from cards (games.md): their config ids and the device kind that
 * produces their results. Card games live in `registry.ts` (CARD_GAMES).
 */
import type { DeviceKind } from '../vocabulary/device-kinds.js';

export interface NonCardGame {
  id: string;
  /** the table machine that runs it */
  table: 'sic-bo' | 'keno';
  /** the device kinds such a table may have; the first is required */
  devices: readonly DeviceKind[];
}

export const NON_CARD_GAMES: Readonly<Record<string, NonCardGame>> = {
  'sic-bo': { id: 'sic-bo', table: 'sic-bo', devices: ['dice-sensor'] },
  keno: { id: 'keno', table: 'keno', devices: ['ball-reader'] },
};

export function nonCardGame(id: string): NonCardGame | undefined {
  return Object.hasOwn(NON_CARD_GAMES, id) ? NON_CARD_GAMES[id] : undefined;
}

export const NON_CARD_GAME_IDS = Object.keys(NON_CARD_GAMES);

/** device kinds a card table may have */
export const CARD_TABLE_DEVICES: readonly DeviceKind[] = ['card-shoe', 'rfid-shoe', 'barcode-scanner', 'shuffler'];
