/**
 * Keno (seed 000): 20 distinct balls drawn from 1..80.
 *
 * Seed example: 01 04 05 10 11 13 20 27 30 32 33 36 40 47 54 59 61 64 67 79 -> sum 693 (small,
 * odd last digit, gold), 11 odd balls vs 9 even (odd), 13 balls in 1-40 vs 7 in 41-80 ("หัว",
 * heads = up).
 */
export type KenoElement = 'gold' | 'wood' | 'water' | 'fire' | 'earth';

export type KenoOutcome = {
  sum: number;
  /** `big` sum > 810, `small` sum < 810, `810` exactly 810 (big/small bets are refunded). */
  bigSmall: 'big' | 'small' | '810';
  /** By the last digit of the sum (0 is even; no tie). */
  sumOddEven: 'odd' | 'even';
  /** More than ten odd balls -> `odd`, more than ten even -> `even`, 10/10 -> `tie`. */
  oddEvenCount: 'odd' | 'even' | 'tie';
  /** More than ten balls in 1-40 -> `up`, more than ten in 41-80 -> `down`, 10/10 -> `tie`. */
  upDown: 'up' | 'down' | 'tie';
  /** gold 210-695, wood 696-763, water 764-855, fire 856-923, earth 924-1410. */
  element: KenoElement;
};

export function kenoElement(sum: number): KenoElement {
  if (sum <= 695) return 'gold';
  if (sum <= 763) return 'wood';
  if (sum <= 855) return 'water';
  if (sum <= 923) return 'fire';
  return 'earth';
}

/** Throws RangeError unless given 20 distinct integer balls in 1..80. */
export function kenoOutcome(balls: readonly number[]): KenoOutcome {
  if (balls.length !== 20) throw new RangeError(`keno needs 20 balls, got ${balls.length}`);
  const seen = new Uint8Array(81);
  let sum = 0;
  let odd = 0;
  let up = 0;
  for (let i = 0; i < 20; i++) {
    const b = balls[i];
    if (!Number.isInteger(b) || b < 1 || b > 80) throw new RangeError(`not a keno ball: ${String(b)}`);
    if (seen[b]) throw new RangeError(`repeated keno ball: ${b}`);
    seen[b] = 1;
    sum += b;
    if (b & 1) odd++;
    if (b <= 40) up++;
  }
  return {
    sum,
    bigSmall: sum > 810 ? 'big' : sum < 810 ? 'small' : '810',
    sumOddEven: sum % 2 === 1 ? 'odd' : 'even',
    oddEvenCount: odd > 10 ? 'odd' : odd < 10 ? 'even' : 'tie',
    upDown: up > 10 ? 'up' : up < 10 ? 'down' : 'tie',
    element: kenoElement(sum),
  };
}
