/**
 * The scoreboard roads of baccarat, 7 Up baccarat and Dragon Tiger, as studios draw them for the
 * shoe in progress (pure: no I/O, no clock). Every road has 6 rows.
 *
 * - Bead plate: one cell per round (ties too), column by column, top to bottom.
 * - Big road: one cell per non-tie round. The same winner as the last one goes one row down in
 *   the same column; a different winner starts a new column at the top, right of where the last
 *   streak started. A streak that reaches the bottom row (or a cell already taken by an earlier
 *   streak's tail) turns right and runs along that row: the dragon tail. A tie adds a mark (a
 *   count) to the last cell; ties before the first non-tie round are `leadingTies`.
 * - Derived roads (big eye boy k = 1, small road k = 2, cockroach pig k = 3): read from the big
 *   road's logical columns (the streaks, whatever their tails). An entry at column c, row r is
 *   judged once column k has a second row, or column k + 1 has begun: at the top of a column
 *   (r = 0) red when columns c - 1 and c - 1 - k are as long as each other, else blue; further
 *   down, red when column c - k has a cell at row r, blue when it has one at row r - 1 but not at
 *   row r, red when it has neither. The red and blue marks are placed like the big road's.
 *
 * Red is the banker (Dragon Tiger: the dragon), blue the player (the tiger). Void rounds are no
 * rounds of the shoe: they are not on any road.
 */

export const ROAD_ROWS = 6;

/** which of a game's winners is red, which is blue, which is the tie */
export interface RoadSides {
  readonly red: string;
  readonly blue: string;
  readonly tie: string;
}

export const ROAD_SIDES: Readonly<Record<string, RoadSides>> = {
  baccarat: { red: 'banker', blue: 'player', tie: 'tie' },
  'seven-up-baccarat': { red: 'banker', blue: 'player', tie: 'tie' },
  'dragon-tiger': { red: 'dragon', blue: 'tiger', tie: 'tie' },
};

/** whether a game has roads */
export function hasRoads(game: string): boolean {
  return Object.hasOwn(ROAD_SIDES, game);
}

/** one round of the shoe, as the roads need it */
export interface RoadRound {
  readonly roundId: string;
  /** the game's winner (`banker`, `player`, `tie`; `dragon`, `tiger`, `tie`) */
  readonly winner: string;
}

export interface BeadCell {
  col: number;
  row: number;
  winner: string;
  roundId: string;
}

export interface BigRoadCell {
  col: number;
  row: number;
  winner: string;
  roundId: string;
  /** ties after this round (before the next non-tie one) */
  ties: number;
}

export type DerivedColour = 'red' | 'blue';

export interface DerivedCell {
  col: number;
  row: number;
  colour: DerivedColour;
}

export interface Roads {
  sides: RoadSides;
  /** rounds on the roads (ties included) */
  rounds: number;
  bead: BeadCell[];
  bigRoad: { cells: BigRoadCell[]; leadingTies: number /** the length of each streak (logical column) */; columns: number[] };
  bigEyeBoy: DerivedCell[];
  smallRoad: DerivedCell[];
  cockroachPig: DerivedCell[];
}

/**
 * Places a sequence of marks the big road's way: the same mark goes down (or right, once in a
 * tail), another mark starts a new column at the top, right of the last streak's start.
 */
export function placeLikeBigRoad<T>(marks: readonly T[], rows = ROAD_ROWS): Array<{ col: number; row: number; mark: T }> {
  const taken = new Set<string>();
  const key = (c: number, r: number) => `${c},${r}`;
  const out: Array<{ col: number; row: number; mark: T }> = [];
  let streakCol = -1;
  let col = -1;
  let row = -1;
  let tailing = false;
  for (let i = 0; i < marks.length; i++) {
    const m = marks[i];
    if (i > 0 && m === marks[i - 1]) {
      if (!tailing && row + 1 < rows && !taken.has(key(col, row + 1))) row++;
      else {
        tailing = true;
        col++;
        while (taken.has(key(col, row))) col++;
      }
    } else {
      col = streakCol + 1;
      while (taken.has(key(col, 0))) col++;
      streakCol = col;
      row = 0;
      tailing = false;
    }
    taken.add(key(col, row));
    out.push({ col, row, mark: m });
  }
  return out;
}

/** the bead plate: every round, column by column */
export function beadPlate(rounds: readonly RoadRound[], rows = ROAD_ROWS): BeadCell[] {
  return rounds.map((r, i) => ({ col: Math.floor(i / rows), row: i % rows, winner: r.winner, roundId: r.roundId }));
}

/** the big road: non-tie rounds placed with their dragon tails, ties counted on the cell before them */
export function bigRoad(rounds: readonly RoadRound[], sides: RoadSides, rows = ROAD_ROWS): Roads['bigRoad'] {
  const wins: RoadRound[] = [];
  const ties: number[] = [];
  let leadingTies = 0;
  for (const r of rounds) {
    if (r.winner === sides.tie) {
      if (wins.length === 0) leadingTies++;
      else ties[wins.length - 1]++;
    } else if (r.winner === sides.red || r.winner === sides.blue) {
      wins.push(r);
      ties.push(0);
    }
  }
  const placed = placeLikeBigRoad(
    wins.map((w) => w.winner),
    rows,
  );
  const cells = placed.map((p, i) => ({ col: p.col, row: p.row, winner: wins[i].winner, roundId: wins[i].roundId, ties: ties[i] }));
  return { cells, leadingTies, columns: streakLengths(wins.map((w) => w.winner)) };
}

/** the lengths of the runs of equal marks */
export function streakLengths(marks: readonly string[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < marks.length; i++) {
    if (i > 0 && marks[i] === marks[i - 1]) out[out.length - 1]++;
    else out.push(1);
  }
  return out;
}

/** the red / blue marks of a derived road (k = 1 big eye boy, 2 small road, 3 cockroach pig), in order */
export function derivedMarks(columns: readonly number[], k: number): DerivedColour[] {
  const out: DerivedColour[] = [];
  for (let c = k; c < columns.length; c++) {
    for (let r = 0; r < columns[c]; r++) {
      if (c === k && r === 0) continue;
      if (r === 0) out.push(columns[c - 1] === columns[c - 1 - k] ? 'red' : 'blue');
      else {
        const len = columns[c - k];
        out.push(r < len ? 'red' : r === len ? 'blue' : 'red');
      }
    }
  }
  return out;
}

function derivedRoad(columns: readonly number[], k: number, rows: number): DerivedCell[] {
  return placeLikeBigRoad(derivedMarks(columns, k), rows).map((p) => ({ col: p.col, row: p.row, colour: p.mark }));
}

/** every road of one shoe's rounds, in the order they were dealt */
export function buildRoads(rounds: readonly RoadRound[], sides: RoadSides, rows = ROAD_ROWS): Roads {
  const big = bigRoad(rounds, sides, rows);
  return {
    sides,
    rounds: rounds.length,
    bead: beadPlate(rounds, rows),
    bigRoad: big,
    bigEyeBoy: derivedRoad(big.columns, 1, rows),
    smallRoad: derivedRoad(big.columns, 2, rows),
    cockroachPig: derivedRoad(big.columns, 3, rows),
  };
}

/** a published `result` as the roads read it */
export interface RoadResultMessage {
  readonly seq: number;
  readonly roundId?: string;
  readonly shoeId?: string;
  readonly status: string;
  readonly supersedesSeq?: number;
  readonly outcome?: { readonly winner?: unknown } | null;
}

/**
 * The rounds of the shoe on the roads, from the results in `seq` order: those of `shoeId` (the
 * shoe in progress), a correction replacing the result it supersedes (a corrected winner takes
 * the round's place, a void takes it off), void rounds left out.
 */
export function shoeRounds(results: readonly RoadResultMessage[], shoeId: string): RoadRound[] {
  const rounds = new Map<number, { roundId: string; winner: string | null }>();
  /** any result's seq -> the seq of the round's first result (a correction may be corrected again) */
  const original = new Map<number, number>();
  for (const r of results) {
    if (r.shoeId !== shoeId || !r.roundId) continue;
    const winner = r.status !== 'void' && typeof r.outcome?.winner === 'string' ? r.outcome.winner : null;
    if (r.supersedesSeq !== undefined) {
      const first = original.get(r.supersedesSeq);
      const round = first === undefined ? undefined : rounds.get(first);
      if (first === undefined || !round) continue;
      round.winner = winner;
      original.set(r.seq, first);
      continue;
    }
    rounds.set(r.seq, { roundId: r.roundId, winner });
    original.set(r.seq, r.seq);
  }
  const out: RoadRound[] = [];
  for (const v of rounds.values()) if (v.winner !== null) out.push({ roundId: v.roundId, winner: v.winner });
  return out;
}
