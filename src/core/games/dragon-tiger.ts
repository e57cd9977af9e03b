/**
 * Dragon Tiger (games.md, seed 000): burn 1, then one card to Dragon and one to Tiger. Ranks K
 * high … A low (A=1 … K=13); equal ranks tie whatever the suits; `suitedTie` = a tie in the same
 * suit (e.g. 7H vs 7H, possible with 8 decks). Each card's suit and colour (hearts and diamonds red,
 * spades and clubs black) settle the colour and suit side bets.
 */
import { isRed, rankNumber, suitOf, type Card, type Suit } from '../vocabulary/card.js';
import type { CardGame, Expectation } from './game.js';

export interface DragonTigerRound {
  readonly dragon: readonly Card[];
  readonly tiger: readonly Card[];
}

export interface DragonTigerFacts {
  winner: 'dragon' | 'tiger' | 'tie';
  dragonRank: number;
  tigerRank: number;
  suitedTie: boolean;
  dragonSuit: Suit;
  tigerSuit: Suit;
  dragonColor: 'red' | 'black';
  tigerColor: 'red' | 'black';
}

export function dragonTigerFacts(dragon: Card, tiger: Card): DragonTigerFacts {
  const d = rankNumber(dragon);
  const t = rankNumber(tiger);
  return {
    winner: d > t ? 'dragon' : t > d ? 'tiger' : 'tie',
    dragonRank: d,
    tigerRank: t,
    suitedTie: d === t && suitOf(dragon) === suitOf(tiger),
    dragonSuit: suitOf(dragon),
    tigerSuit: suitOf(tiger),
    dragonColor: isRed(dragon) ? 'red' : 'black',
    tigerColor: isRed(tiger) ? 'red' : 'black',
  };
}

export const dragonTiger: CardGame<DragonTigerRound> = {
  id: 'dragon-tiger',
  positions: ['dragon', 'tiger'],
  defaults: { decks: 8, burnPerRound: 1, burnFaceDown: false, singleDeck: false, maxCardsPerRound: 2, needsEngine: false },
  newRound: () => ({ dragon: [], tiger: [] }),
  expect(s): Expectation {
    if (s.dragon.length === 0) return { kind: 'card', position: 'dragon', faceDown: false };
    if (s.tiger.length === 0) return { kind: 'card', position: 'tiger', faceDown: false };
    return { kind: 'complete' };
  },
  place(s, card) {
    if (s.dragon.length === 0) return { dragon: [card], tiger: s.tiger };
    if (s.tiger.length === 0) return { dragon: s.dragon, tiger: [card] };
    throw new Error('dragon-tiger: no card expected');
  },
  cards: (s) => ({ dragon: [...s.dragon], tiger: [...s.tiger] }),
  outcome: (s) => ({ ...dragonTigerFacts(s.dragon[0], s.tiger[0]) }),
};
