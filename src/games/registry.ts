/** Every card game the gateway runs, by its config `game:` id (games.md). */
import { baccarat } from './baccarat.js';
import type { CardGame } from './game.js';

export const CARD_GAMES: Readonly<Record<string, CardGame<any>>> = {
  baccarat,
};

export function cardGame(id: string): CardGame<any> | undefined {
  return Object.prototype.hasOwnProperty.call(CARD_GAMES, id) ? CARD_GAMES[id] : undefined;
}

export const GAME_IDS = Object.keys(CARD_GAMES);
