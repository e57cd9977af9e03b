/**
 * Sic Bo (seed 000): three dice.
 */
export type Face = 1 | 2 | 3 | 4 | 5 | 6;

export type SicBoOutcome = {
  total: number;
  /** `small` 4-10, `big` 11-17, null on any triple (small and big lose on a triple). */
  size: 'small' | 'big' | null;
  /** The face of a triple, else null. */
  triple: number | null;
  /** Faces shown at least twice, ascending (a triple lists its face too). */
  doubles: number[];
  /** Distinct-face pairs shown (the two-dice combination bet), each ascending, sorted. */
  combinations: [number, number][];
  /** "1".."6" -> how many dice show that face (0..3). */
  faceCounts: Record<'1' | '2' | '3' | '4' | '5' | '6', number>;
};

export function sicBoOutcome(dice: readonly number[]): SicBoOutcome {
  if (dice.length !== 3) throw new RangeError(`sic bo needs 3 dice, got ${dice.length}`);
  const counts = [0, 0, 0, 0, 0, 0, 0];
  let total = 0;
  for (let i = 0; i < 3; i++) {
    const d = dice[i];
    if (!Number.isInteger(d) || d < 1 || d > 6) throw new RangeError(`not a die face: ${String(d)}`);
    counts[d]++;
    total += d;
  }
  let triple: number | null = null;
  const doubles: number[] = [];
  const shown: number[] = [];
  for (let f = 1; f <= 6; f++) {
    if (counts[f] === 3) triple = f;
    if (counts[f] >= 2) doubles.push(f);
    if (counts[f] >= 1) shown.push(f);
  }
  const combinations: [number, number][] = [];
  for (let i = 0; i < shown.length; i++) {
    for (let j = i + 1; j < shown.length; j++) combinations.push([shown[i], shown[j]]);
  }
  return {
    total,
    size: triple !== null ? null : total <= 10 ? 'small' : 'big',
    triple,
    doubles,
    combinations,
    faceCounts: { '1': counts[1], '2': counts[2], '3': counts[3], '4': counts[4], '5': counts[5], '6': counts[6] },
  };
}
