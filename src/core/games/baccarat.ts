/**
 * Punto banco baccarat (games.md, seed 002): P1, B1, P2, B2, then the third-card rules.
 */
import { baccaratPoints, rankOf, type Card } from '../vocabulary/card.js';
import type { CardGame, Expectation } from './game.js';

export interface BaccaratRound {
  readonly player: readonly Card[];
  readonly banker: readonly Card[];
}

export function handTotal(cards: readonly Card[], base = 0): number {
  let t = base;
  for (const c of cards) t += baccaratPoints(c);
  return t % 10;
}

/**
 * The banker's third-card rule when the player drew `playerThird` (points 0-9).
 * Exported so tests can check every cell of the table.
 */
export function bankerDrawsAfterPlayerThird(bankerTotal: number, playerThird: number): boolean {
  switch (bankerTotal) {
    case 0:
    case 1:
    case 2:
      return true;
    case 3:
      return playerThird !== 8;
    case 4:
      return playerThird >= 2 && playerThird <= 7;
    case 5:
      return playerThird >= 4 && playerThird <= 7;
    case 6:
      return playerThird === 6 || playerThird === 7;
    default:
      return false;
  }
}

/**
 * Who gets the next card of a punto banco deal, given the hands so far and the fixed points a
 * side starts with (7 Up: the player's fixed 7). `initialOrder` is the order of the first four
 * cards. Returns null when the deal is over.
 */
export function nextBaccaratPosition(
  player: readonly Card[],
  banker: readonly Card[],
  playerBase: number,
  playerInitialCards: number,
  initialOrder: readonly ('player' | 'banker')[],
): 'player' | 'banker' | null {
  const dealtInitial = player.length + banker.length;
  const initialCount = initialOrder.length;
  if (dealtInitial < initialCount) return initialOrder[dealtInitial];
  const p = handTotal(player, playerBase);
  const b = handTotal(banker);
  const playerCards = player.length + playerInitialCards;
  if (playerCards === 2 && banker.length === 2) {
    if (p >= 8 || b >= 8) return null; // a natural ends the deal
    if (p <= 5) return 'player';
    return b <= 5 ? 'banker' : null;
  }
  if (playerCards === 3 && banker.length === 2) {
    const x = baccaratPoints(player[player.length - 1]);
    return bankerDrawsAfterPlayerThird(b, x) ? 'banker' : null;
  }
  return null;
}

export interface BaccaratFacts {
  winner: 'player' | 'banker' | 'tie';
  playerTotal: number;
  bankerTotal: number;
  natural: boolean;
  /** the player's first two cards total 8 or 9 (7 Up: the fixed 7 and P2) */
  playerNatural: boolean;
  /** the banker's first two cards total 8 or 9 */
  bankerNatural: boolean;
  playerPair: boolean;
  bankerPair: boolean;
  cardCount: number;
  size: 'small' | 'big';
}

export function baccaratFacts(player: readonly Card[], banker: readonly Card[], fixedPlayer: readonly Card[] = []): BaccaratFacts {
  const allPlayer = fixedPlayer.length ? [...fixedPlayer, ...player] : player;
  const playerTotal = handTotal(allPlayer);
  const bankerTotal = handTotal(banker);
  const p2 = handTotal(allPlayer.slice(0, 2));
  const b2 = handTotal(banker.slice(0, 2));
  const cardCount = allPlayer.length + banker.length;
  return {
    winner: playerTotal > bankerTotal ? 'player' : bankerTotal > playerTotal ? 'banker' : 'tie',
    playerTotal,
    bankerTotal,
    natural: p2 >= 8 || b2 >= 8,
    playerNatural: p2 >= 8,
    bankerNatural: b2 >= 8,
    playerPair: allPlayer.length >= 2 && rankOf(allPlayer[0]) === rankOf(allPlayer[1]),
    bankerPair: banker.length >= 2 && rankOf(banker[0]) === rankOf(banker[1]),
    cardCount,
    size: cardCount === 4 ? 'small' : 'big',
  };
}

const ORDER = ['player', 'banker', 'player', 'banker'] as const;

export const baccarat: CardGame<BaccaratRound> = {
  id: 'baccarat',
  positions: ['player', 'banker'],
  defaults: { decks: 8, burnPerRound: 0, burnFaceDown: false, singleDeck: false, maxCardsPerRound: 6, needsEngine: false },
  newRound: () => ({ player: [], banker: [] }),
  expect(s): Expectation {
    const pos = nextBaccaratPosition(s.player, s.banker, 0, 0, ORDER);
    return pos ? { kind: 'card', position: pos, faceDown: false } : { kind: 'complete' };
  },
  place(s, card) {
    const pos = nextBaccaratPosition(s.player, s.banker, 0, 0, ORDER);
    if (pos === 'player') return { player: [...s.player, card], banker: s.banker };
    if (pos === 'banker') return { player: s.player, banker: [...s.banker, card] };
    throw new Error('baccarat: no card expected');
  },
  cards: (s) => ({ player: [...s.player], banker: [...s.banker] }),
  outcome: (s) => ({ ...baccaratFacts(s.player, s.banker) }),
};
