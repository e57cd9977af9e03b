import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { oneDeck, type Card } from '../../../../src/core/vocabulary/card.js';
import { compareThreePictures, evaluateThreePictures, threePicturesRankName, winWith6 } from '../../../../src/core/games/evaluators/three-pictures.js';

const h = (s: string): Card[] => s.split(' ') as Card[];
const DECK = oneDeck();

describe('evaluateThreePictures', () => {
  it('seed tie example: J♠ 3♥ 6♦ and Q♠ 10♥ 9♦ are both Single Knight 9 (rank 3)', () => {
    const player = evaluateThreePictures(h('JS 3H 6D'));
    const banker = evaluateThreePictures(h('QS TH 9D'));
    expect(player).toEqual({ rank: 3, rankName: 'single-knight-9', points: 9, pictures: 1, pairPlus: null });
    expect(banker).toEqual({ rank: 3, rankName: 'single-knight-9', points: 9, pictures: 1, pairPlus: null });
    expect(compareThreePictures(player, banker)).toBe('tie');
    expect(compareThreePictures(h('JS 3H 6D'), h('QS TH 9D'))).toBe('tie');
    expect(winWith6(player, banker)).toBe(false);
  });

  it('ranks of the seed list (1 = 3 Knights … 31 = Plain Zero)', () => {
    expect(evaluateThreePictures(h('KS QH JD'))).toEqual({ rank: 1, rankName: 'three-knights', points: 0, pictures: 3, pairPlus: 'straight' });
    expect(evaluateThreePictures(h('KS QH KD'))).toEqual({ rank: 1, rankName: 'three-knights', points: 0, pictures: 3, pairPlus: 'pair' });
    expect(evaluateThreePictures(h('KS JH KD')).pairPlus).toBe('pair');
    expect(evaluateThreePictures(h('KS KH KD'))).toMatchObject({ rank: 1, pairPlus: 'three-of-a-kind' });
    expect(evaluateThreePictures(h('JC QC KC'))).toMatchObject({ rank: 1, pairPlus: 'straight-flush' });
    expect(evaluateThreePictures(h('JS QH 9D'))).toMatchObject({ rank: 2, rankName: 'double-knights-9', points: 9, pictures: 2 });
    expect(evaluateThreePictures(h('4S 5H KD'))).toMatchObject({ rank: 3, rankName: 'single-knight-9' });
    expect(evaluateThreePictures(h('2S 3H 4D'))).toMatchObject({ rank: 4, rankName: 'plain-9', pictures: 0, pairPlus: 'straight' });
    expect(evaluateThreePictures(h('JS QH 8D'))).toMatchObject({ rank: 5, rankName: 'double-knights-8' });
    expect(evaluateThreePictures(h('KS 9H 9D'))).toMatchObject({ rank: 6, rankName: 'single-knight-8', pairPlus: 'pair' });
    expect(evaluateThreePictures(h('9S 9H TD'))).toMatchObject({ rank: 7, rankName: 'plain-8', pictures: 0 });
    expect(evaluateThreePictures(h('KS KH 7D'))).toMatchObject({ rank: 8, rankName: 'double-knights-7', pairPlus: 'pair' });
    expect(evaluateThreePictures(h('KS 3H 4D'))).toMatchObject({ rank: 9, rankName: 'single-knight-7' });
    expect(evaluateThreePictures(h('AS 2H 4D'))).toMatchObject({ rank: 10, rankName: 'plain-7' });
    expect(evaluateThreePictures(h('QS JH 6D'))).toMatchObject({ rank: 11, rankName: 'double-knights-6' });
    expect(evaluateThreePictures(h('QS TH 6D'))).toMatchObject({ rank: 12, rankName: 'single-knight-6', pictures: 1 });
    expect(evaluateThreePictures(h('8S 9H 9D'))).toMatchObject({ rank: 13, rankName: 'plain-6' });
    expect(evaluateThreePictures(h('QS KH AD'))).toMatchObject({ rank: 26, rankName: 'double-knights-1', pairPlus: 'straight' });
    expect(evaluateThreePictures(h('QH KH AH'))).toMatchObject({ rank: 26, pairPlus: 'straight-flush' });
    expect(evaluateThreePictures(h('8H 7H 6H'))).toMatchObject({ rank: 28, rankName: 'plain-1', pairPlus: 'straight-flush' });
    expect(evaluateThreePictures(h('JS QH TD'))).toMatchObject({ rank: 29, rankName: 'double-knights-0', points: 0 });
    expect(evaluateThreePictures(h('JS 3H 7D'))).toMatchObject({ rank: 30, rankName: 'single-knight-0' });
    expect(evaluateThreePictures(h('TS TH TD'))).toMatchObject({ rank: 31, rankName: 'plain-0', pairPlus: 'three-of-a-kind' });
    expect(evaluateThreePictures(h('5S 6H 9D'))).toMatchObject({ rank: 31, rankName: 'plain-0', points: 0 });
    expect(evaluateThreePictures(h('TH 4H 2H'))).toMatchObject({ rank: 13, rankName: 'plain-6', points: 6, pictures: 0, pairPlus: 'flush' });
  });

  it('rank names run 1..31 in the seed order', () => {
    const names = ['three-knights'];
    for (let p = 9; p >= 0; p--) names.push(`double-knights-${p}`, `single-knight-${p}`, `plain-${p}`);
    expect(names).toHaveLength(31);
    names.forEach((name, i) => {
      expect(threePicturesRankName(i + 1)).toBe(name);
    });
    expect(() => threePicturesRankName(0)).toThrow(RangeError);
    expect(() => threePicturesRankName(32)).toThrow(RangeError);
  });

  it('player vs banker and the win-with-6 (ranks 11-13) flag', () => {
    expect(compareThreePictures(h('KS QH JD'), h('JS QH 9D'))).toBe('win');
    expect(compareThreePictures(h('5S 6H 9D'), h('JS 3H 7D'))).toBe('lose');
    expect(compareThreePictures(12, 20)).toBe('win');
    // the player wins with Single Knight 6 (rank 12)
    expect(winWith6(h('QS TH 6D'), h('2S 3H 9C'))).toBe(true);
    // the banker wins with Plain 6 (rank 13)
    expect(winWith6(h('AS AH AD'), h('8S 9H 9D'))).toBe(true);
    expect(winWith6(20, 11)).toBe(true);
    expect(winWith6(11, 20)).toBe(true);
    expect(winWith6(13, 14)).toBe(true);
    expect(winWith6(10, 11)).toBe(false); // won with Plain 7
    expect(winWith6(14, 30)).toBe(false); // won with Double Knights 5
    expect(winWith6(12, 12)).toBe(false); // tie
  });

  it('counts hands per rank over all C(52,3) = 22100 hands', () => {
    const perRank = new Array<number>(32).fill(0);
    const byName: Record<string, number> = {};
    for (let a = 0; a < 52; a++)
      for (let b = a + 1; b < 52; b++)
        for (let c = b + 1; c < 52; c++) {
          const e = evaluateThreePictures([DECK[a], DECK[b], DECK[c]]);
          perRank[e.rank]++;
          byName[e.rankName] = (byName[e.rankName] ?? 0) + 1;
        }
    expect(perRank[0]).toBe(0);
    expect(perRank.reduce((x, y) => x + y, 0)).toBe(22100);
    expect(byName['three-knights']).toBe(220); // C(12,3)
    for (let p = 0; p <= 9; p++) {
      // two of the 12 pictures (66 ways) and one of the four cards worth p (a ten for 0)
      expect(byName[`double-knights-${p}`]).toBe(264);
      // one picture (12) and two of the 40 non-pictures summing to p mod 10: 80 pairs when p is
      // odd, 76 when even (4*4 for each of 4 unordered class pairs + C(4,2) for each of 2 doubles)
      expect(byName[`single-knight-${p}`]).toBe(12 * (p % 2 ? 80 : 76));
    }
    let plain = 0;
    for (let p = 0; p <= 9; p++) plain += byName[`plain-${p}`];
    expect(plain).toBe(9880); // C(40,3)
    for (let r = 1; r <= 31; r++) expect(perRank[r]).toBeGreaterThan(0);
  });

  it('properties: compare is antisymmetric and matches the rank numbers', () => {
    const arb = fc.shuffledSubarray(DECK, { minLength: 6, maxLength: 6 });
    fc.assert(
      fc.property(arb, (six) => {
        const p = six.slice(0, 3);
        const b = six.slice(3);
        const o = compareThreePictures(p, b);
        const back = compareThreePictures(b, p);
        expect(back).toBe(o === 'win' ? 'lose' : o === 'lose' ? 'win' : 'tie');
        expect(winWith6(p, b)).toBe(winWith6(b, p));
        const rp = evaluateThreePictures(p).rank;
        const rb = evaluateThreePictures(b).rank;
        expect(o).toBe(rp < rb ? 'win' : rp > rb ? 'lose' : 'tie');
      }),
      { numRuns: 2000 },
    );
  });

  it('rejects a hand that is not three cards', () => {
    expect(() => evaluateThreePictures(h('KS QH'))).toThrow(RangeError);
  });
});
