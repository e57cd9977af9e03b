/**
 * 3 Pictures (games.md, seeds 000 and 003): one deck, players p1..p3 against the banker.
 *
 * Burn 4 per round (table setting), then three cards each, one at a time clockwise from P1,
 * banker last: P1, P2, P3, B, P1, P2, P3, B, P1, P2, P3, B. Cards are dealt face up after
 * betting closes.
 *
 * Correction `reverse-order` (the dealer dealt P3, P2, P1, B): the hands of p1 and p3 are
 * swapped — in `cards()` and therefore in the outcome ("the results of P1 and P3 are swapped").
 * Cards dealt after the correction are announced with the corrected position (the dealer goes on
 * dealing P3, P2, P1, B). It is accepted at any point of the round, also once the twelve cards are in (the module is
 * pure: the correction of a complete round is a new, complete state); it is refused when no card
 * has been dealt yet and when the round is already corrected (a repeated request must not undo
 * it). The table machine forwards `correction` only while a round is in progress.
 */
import type { Card } from '../vocabulary/card.js';
import { compareThreePictures, evaluateThreePictures, winWith6, type ThreePicturesHand } from './evaluators/three-pictures.js';
import { refuse, type CardGame, type Expectation } from './game.js';

export const THREE_PICTURES_ORDER = ['p1', 'p2', 'p3', 'banker'] as const;

export interface ThreePicturesRound {
  /** cards in dealing order */
  readonly dealt: readonly Card[];
  /** `reverse-order` correction applied: p1 and p3 swapped */
  readonly reversed: boolean;
}

/** where the n-th card (0-based) goes: after a `reverse-order` correction the dealer's P1 is p3 */
function dealtTo(n: number, reversed: boolean): string {
  const pos = THREE_PICTURES_ORDER[n % 4];
  if (!reversed) return pos;
  return pos === 'p1' ? 'p3' : pos === 'p3' ? 'p1' : pos;
}

function cardsOf(s: ThreePicturesRound): Record<string, Card[]> {
  const out: Record<string, Card[]> = { p1: [], p2: [], p3: [], banker: [] };
  s.dealt.forEach((c, n) => {
    out[THREE_PICTURES_ORDER[n % 4]].push(c);
  });
  if (s.reversed) [out.p1, out.p3] = [out.p3, out.p1];
  return out;
}

export type ThreePicturesPlayerFacts = ThreePicturesHand & { outcome: 'win' | 'lose' | 'tie'; winWith6: boolean; threeKnights: boolean };

export function threePicturesFacts(cards: Record<string, readonly Card[]>): { positions: Record<string, ThreePicturesHand | ThreePicturesPlayerFacts> } {
  const banker = evaluateThreePictures(cards.banker);
  const positions: Record<string, ThreePicturesHand | ThreePicturesPlayerFacts> = {};
  for (const pos of ['p1', 'p2', 'p3']) {
    const h = evaluateThreePictures(cards[pos]);
    positions[pos] = {
      rank: h.rank,
      rankName: h.rankName,
      points: h.points,
      pictures: h.pictures,
      outcome: compareThreePictures(h.rank, banker.rank),
      winWith6: winWith6(h.rank, banker.rank),
      threeKnights: h.rank === 1,
      pairPlus: h.pairPlus,
    };
  }
  positions.banker = banker;
  return { positions };
}

export const threePictures: CardGame<ThreePicturesRound> = {
  id: 'three-pictures',
  positions: [...THREE_PICTURES_ORDER],
  defaults: { decks: 1, burnPerRound: 4, burnFaceDown: false, singleDeck: true, maxCardsPerRound: 12, needsEngine: false },
  newRound: () => ({ dealt: [], reversed: false }),
  expect(s): Expectation {
    if (s.dealt.length >= 12) return { kind: 'complete' };
    return { kind: 'card', position: dealtTo(s.dealt.length, s.reversed), faceDown: false };
  },
  place(s, card) {
    if (s.dealt.length >= 12) throw new Error('three-pictures: no card expected');
    return { dealt: [...s.dealt, card], reversed: s.reversed };
  },
  correct(s, kind) {
    if (kind !== 'reverse-order') return refuse(`three-pictures knows no correction "${kind}" (known: reverse-order)`);
    if (s.dealt.length === 0) return refuse('reverse-order: no card has been dealt yet');
    if (s.reversed) return refuse('reverse-order: this round is already corrected');
    return { dealt: s.dealt, reversed: true };
  },
  cards: cardsOf,
  outcome: (s) => threePicturesFacts(cardsOf(s)),
};
