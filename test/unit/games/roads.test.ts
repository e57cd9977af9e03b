/**
 * The roads against worked examples written by hand from the public rules of the scoreboards
 * (src/core/games/roads.ts): each expected grid below was derived cell by cell on paper, column
 * by column, before the code ran — not printed from it.
 */
import { describe, expect, it } from 'vitest';
import {
  beadPlate,
  bigRoad,
  buildRoads,
  derivedMarks,
  hasRoads,
  placeLikeBigRoad,
  ROAD_SIDES,
  shoeRounds,
  streakLengths,
  type RoadRound,
} from '../../../src/core/games/roads.js';

const BAC = ROAD_SIDES.baccarat;
const W: Record<string, string> = { B: 'banker', P: 'player', T: 'tie', D: 'dragon', G: 'tiger' };
/** 'BBP T' -> rounds r1, r2, ... (spaces ignored) */
function rounds(s: string): RoadRound[] {
  return [...s.replace(/\s+/g, '')].map((ch, i) => ({ roundId: `r${i + 1}`, winner: W[ch] }));
}
/** a grid of 6 rows drawn as text, '.' for an empty cell, from cells with a one-letter mark */
function grid(cells: Array<{ col: number; row: number; m: string }>): string[] {
  const cols = cells.reduce((n, c) => Math.max(n, c.col + 1), 0);
  const rows = Array.from({ length: 6 }, () => Array.from({ length: cols }, () => '.'));
  for (const c of cells) {
    expect(rows[c.row][c.col], `cell (${c.col},${c.row}) filled twice`).toBe('.');
    rows[c.row][c.col] = c.m;
  }
  return rows.map((r) => r.join(''));
}
const letter = (w: string) => (w === 'banker' ? 'B' : w === 'player' ? 'P' : w === 'tie' ? 'T' : w === 'dragon' ? 'D' : 'G');

// the worked shoe: B B B P P T B P P P P P P P B B B B B B B P P (23 rounds, one tie)
const SHOE = 'BBB PP T B PPPPPPP BBBBBBB PP';

describe('bead plate', () => {
  it('puts every round, ties too, column by column from the top', () => {
    const cells = beadPlate(rounds(SHOE));
    expect(cells.length).toBe(23);
    expect(grid(cells.map((c) => ({ col: c.col, row: c.row, m: letter(c.winner) })))).toEqual([
      // col 0: rounds 1-6, col 1: 7-12, col 2: 13-18, col 3: 19-23
      'BBPB',
      'BPPB',
      'BPBB',
      'PPBP',
      'PPBP',
      'TPB.',
    ]);
    expect(cells[5]).toEqual({ col: 0, row: 5, winner: 'tie', roundId: 'r6' });
    expect(cells[6]).toEqual({ col: 1, row: 0, winner: 'banker', roundId: 'r7' });
  });
});

describe('big road', () => {
  it('goes down on the same winner, starts a new column on a change, runs the dragon tail along the bottom and under an earlier tail', () => {
    const road = bigRoad(rounds(SHOE), BAC);
    // col 0: B B B; col 1: P P (a tie on the second); col 2: B; col 3: seven P: six down, the
    // seventh turns right along row 5 into col 4; col 4: seven B: rows 0-4 (row 5 is the P tail),
    // then right along row 4 into cols 5 and 6; col 5: P P (the next column after the B streak's start)
    expect(grid(road.cells.map((c) => ({ col: c.col, row: c.row, m: letter(c.winner) })))).toEqual([
      'BPBPBP.',
      'BP.PBP.',
      'B..PB..',
      '...PB..',
      '...PBBB',
      '...PP..',
    ]);
    expect(road.leadingTies).toBe(0);
    expect(road.cells.filter((c) => c.ties > 0)).toEqual([{ col: 1, row: 1, winner: 'player', roundId: 'r5', ties: 1 }]);
    expect(road.columns).toEqual([3, 2, 1, 7, 7, 2]);
  });

  it('counts ties before the first decision apart, and several ties on one cell', () => {
    const road = bigRoad(rounds('TT B TTT P'), BAC);
    expect(road.leadingTies).toBe(2);
    expect(road.cells).toEqual([
      { col: 0, row: 0, winner: 'banker', roundId: 'r3', ties: 3 },
      { col: 1, row: 0, winner: 'player', roundId: 'r7', ties: 0 },
    ]);
  });

  it('reads Dragon Tiger the same way: dragon red, tiger blue', () => {
    const road = bigRoad(rounds('DDG T GD'), ROAD_SIDES['dragon-tiger']);
    expect(grid(road.cells.map((c) => ({ col: c.col, row: c.row, m: letter(c.winner) })))).toEqual(['DGD', 'DG.', '...', '...', '...', '...']);
    expect(road.cells[2].ties).toBe(1);
  });

  it('turns right at once when the cell below is taken by an earlier tail, one row up', () => {
    // P x8: rows 0-5 then a tail along row 5 to col 2; B x7: col 1 rows 0-4, tail along row 4 to col 3;
    // P x6: col 2 rows 0-3 (row 4 is the B tail), then along row 3 to col 4
    const marks = [...'PPPPPPPP', ...'BBBBBBB', ...'PPPPPP'];
    const placed = placeLikeBigRoad(marks);
    expect(grid(placed.map((p) => ({ col: p.col, row: p.row, m: p.mark })))).toEqual(['PBP..', 'PBP..', 'PBP..', 'PBPPP', 'PBBB.', 'PPP..']);
    // the third streak (P x6) starts at col 2 and goes down to row 3 (row 4 taken), then right along row 3
    expect(placed.slice(-3).map((p) => [p.col, p.row])).toEqual([
      [2, 3],
      [3, 3],
      [4, 3],
    ]);
  });
});

describe('derived roads', () => {
  // the worked shoe's streaks: 3 2 1 7 7 2
  const cols = [3, 2, 1, 7, 7, 2];

  it('big eye boy (k = 1): starts at column 1 row 1; marks and grid by hand', () => {
    // (1,1): col 0 has row 1 -> R; (2,0): len1 2 vs len0 3 -> B; (3,0): 1 vs 2 -> B;
    // (3,1): col 2 has row 0 only -> B; (3,2..6): col 2 has neither -> R x5; (4,0): 7 vs 1 -> B;
    // (4,1..6): col 3 has those rows -> R x6; (5,0): 7 vs 7 -> R; (5,1): col 4 has row 1 -> R
    const R = 'red',
      B = 'blue';
    expect(derivedMarks(cols, 1)).toEqual([R, B, B, B, R, R, R, R, R, B, R, R, R, R, R, R, R, R]);
    const road = buildRoads(rounds(SHOE), BAC).bigEyeBoy;
    expect(grid(road.map((c) => ({ col: c.col, row: c.row, m: c.colour === 'red' ? 'R' : 'B' })))).toEqual([
      'RBRBR..',
      '.BR.R..',
      '.BR.R..',
      '..R.R..',
      '..R.R..',
      '....RRR',
    ]);
  });

  it('small road (k = 2): column 2 has one row, so it starts at column 3', () => {
    // (3,0): len2 1 vs len0 3 -> B; (3,1): col 1 has row 1 -> R; (3,2): col 1 ends at row 1 -> B;
    // (3,3..6) -> R x4; (4,0): 7 vs 2 -> B; (4,1): col 2 ends at row 0 -> B; (4,2..6) -> R x5;
    // (5,0): 7 vs 1 -> B; (5,1): col 3 has row 1 -> R
    const R = 'red',
      B = 'blue';
    expect(derivedMarks(cols, 2)).toEqual([B, R, B, R, R, R, R, B, B, R, R, R, R, R, B, R]);
    const road = buildRoads(rounds(SHOE), BAC).smallRoad;
    expect(grid(road.map((c) => ({ col: c.col, row: c.row, m: c.colour === 'red' ? 'R' : 'B' })))).toEqual([
      'BRBRBRBR',
      '...RBR..',
      '...R.R..',
      '...R.R..',
      '.....R..',
      '........',
    ]);
  });

  it('cockroach pig (k = 3): starts at column 3 row 1', () => {
    // (3,1),(3,2): col 0 has rows 1, 2 -> R R; (3,3): col 0 ends at row 2 -> B; (3,4..6) -> R x3;
    // (4,0): 7 vs 3 -> B; (4,1): col 1 has row 1 -> R; (4,2): col 1 ends at row 1 -> B;
    // (4,3..6) -> R x4; (5,0): 7 vs 2 -> B; (5,1): col 2 ends at row 0 -> B
    const R = 'red',
      B = 'blue';
    expect(derivedMarks(cols, 3)).toEqual([R, R, B, R, R, R, B, R, B, R, R, R, R, B, B]);
    const road = buildRoads(rounds(SHOE), BAC).cockroachPig;
    expect(grid(road.map((c) => ({ col: c.col, row: c.row, m: c.colour === 'red' ? 'R' : 'B' })))).toEqual([
      'RBRBRBRB',
      'R.R...RB',
      '..R...R.',
      '......R.',
      '........',
      '........',
    ]);
  });

  it('is empty until its first column has been reached', () => {
    expect(derivedMarks([3], 1)).toEqual([]);
    expect(derivedMarks([1, 1], 1)).toEqual([]);
    // B P: col 1 has one row; the next column (2) is judged at its top: len1 1 vs len0 1 -> red
    expect(derivedMarks([1, 1, 1], 1)).toEqual(['red']);
    // small road: column 2 alone with one row is not judged; with a second row it is
    expect(derivedMarks([2, 2, 1], 2)).toEqual([]);
    // (2,1): col 0 has row 1 -> red; (3,0): len2 2 vs len0 2 -> red
    expect(derivedMarks([2, 2, 2, 1], 2)).toEqual(['red', 'red']);
  });

  it("streak lengths are the big road's logical columns, tails or not", () => {
    expect(streakLengths([...'PPPPPPPPBP'])).toEqual([8, 1, 1]);
  });
});

describe('the shoe on the roads', () => {
  const res = (seq: number, roundId: string, shoeId: string, winner: string | null, extra: Record<string, unknown> = {}) => ({
    seq,
    roundId,
    shoeId,
    status: winner === null ? 'void' : 'complete',
    outcome: winner === null ? null : { winner },
    ...extra,
  });

  it('takes the rounds of the shoe in progress only, leaves void rounds out and applies corrections in place', () => {
    const results = [
      res(10, 'a-1', 's1', 'banker'),
      res(20, 'b-1', 's2', 'player'),
      res(30, 'b-2', 's2', null),
      res(40, 'b-3', 's2', 'banker'),
      res(50, 'b-4', 's2', 'tie'),
      // the pit corrects b-3 to player, then that correction again to tie; voids b-1
      res(60, 'b-3', 's2', 'player', { status: 'corrected', supersedesSeq: 40 }),
      res(70, 'b-3', 's2', 'tie', { status: 'corrected', supersedesSeq: 60 }),
      res(80, 'b-1', 's2', null, { supersedesSeq: 20 }),
    ];
    expect(shoeRounds(results, 's2')).toEqual([
      { roundId: 'b-3', winner: 'tie' },
      { roundId: 'b-4', winner: 'tie' },
    ]);
    expect(shoeRounds(results, 's1')).toEqual([{ roundId: 'a-1', winner: 'banker' }]);
    expect(shoeRounds(results, 's3')).toEqual([]);
  });

  it('knows which games have roads', () => {
    expect(['baccarat', 'seven-up-baccarat', 'dragon-tiger'].every(hasRoads)).toBe(true);
    expect(['blackjack', 'sic-bo', 'keno', 'toString'].some(hasRoads)).toBe(false);
  });
});
