/** Every card game the gateway runs, by its config `game:` id (games.md). */
import { baccarat } from './baccarat.js';
import { blackjack } from './blackjack.js';
import { dragonTiger } from './dragon-tiger.js';
import type { AnyCardGame } from './game.js';
import { holdem } from './holdem.js';
import { pokDeng } from './pok-deng.js';
import { sevenUpBaccarat } from './seven-up-baccarat.js';
import { threeCardPoker } from './three-card-poker.js';
import { threePictures } from './three-pictures.js';

export const CARD_GAMES: Readonly<Record<string, AnyCardGame>> = {
  baccarat,
  'seven-up-baccarat': sevenUpBaccarat,
  'dragon-tiger': dragonTiger,
  'pok-deng': pokDeng,
  'three-pictures': threePictures,
  'three-card-poker': threeCardPoker,
  blackjack,
  holdem,
};

export function cardGame(id: string): AnyCardGame | undefined {
  return Object.hasOwn(CARD_GAMES, id) ? CARD_GAMES[id] : undefined;
}

export const GAME_IDS = Object.keys(CARD_GAMES);
