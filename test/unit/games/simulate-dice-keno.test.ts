/**
 * `simulate` for the games without cards (src/app/simulate/simulate.ts): sic bo rolls three fair
 * dice, keno draws 20 distinct balls of 1..80, each round through the outcome the table machine
 * publishes; the frequencies match the games' exact probabilities, a seed repeats a run, and the
 * command line runs them (and suggests the name meant for a misspelt one).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SIMULATED_GAME_IDS, simulate } from '../../../src/app/simulate/simulate.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

describe('simulate: sic bo and keno', () => {
  it('sic bo: totals, triples and small/big at their exact probabilities', () => {
    const n = 60_000;
    const r = simulate({ game: 'sic-bo', rounds: n, seed: 7 });
    expect(r).toMatchObject({ game: 'sic-bo', rounds: n, shoes: 0, engine: false });
    expect(total(r.counts.total)).toBe(n);
    // P(total 10) = 27/216, P(total 3) = 1/216, P(a triple) = 6/216, P(small) = P(big) = 105/216
    expect(r.counts.total['10'] / n).toBeCloseTo(27 / 216, 2);
    expect((r.counts.total['3'] ?? 0) / n).toBeCloseTo(1 / 216, 2);
    expect(
      Object.keys(r.counts.total)
        .map(Number)
        .every((t) => t >= 3 && t <= 18),
    ).toBe(true);
    expect(r.counts.triple.null / n).toBeCloseTo(210 / 216, 2);
    expect(r.counts.size.small / n).toBeCloseTo(105 / 216, 2);
    expect(r.counts.size.big / n).toBeCloseTo(105 / 216, 2);
    // each face shows on a die 1/6 of the time: the face counts of all rolls sum to 3 per roll
    const faceOnes = Object.entries(r.counts['faceCounts.1']).reduce((a, [k, c]) => a + Number(k) * c, 0);
    expect(faceOnes / (3 * n)).toBeCloseTo(1 / 6, 2);
    expect(simulate({ game: 'sic-bo', rounds: 500, seed: 7 }).counts).toEqual(simulate({ game: 'sic-bo', rounds: 500, seed: 7 }).counts);
  });

  it('keno: 20 distinct balls of 1..80 a draw, big and small even, sums in range', () => {
    const n = 20_000;
    const r = simulate({ game: 'keno', rounds: n, seed: 'keno' });
    expect(total(r.counts.sum)).toBe(n);
    const sums = Object.keys(r.counts.sum).map(Number);
    expect(Math.min(...sums)).toBeGreaterThanOrEqual(210);
    expect(Math.max(...sums)).toBeLessThanOrEqual(1410);
    // the sum is symmetric about 810: big and small equally likely
    expect(r.counts.bigSmall.big / n).toBeCloseTo(r.counts.bigSmall.small / n, 1);
    expect(r.counts.bigSmall.big / n).toBeGreaterThan(0.45);
    expect(Object.keys(r.counts.element).sort()).toEqual(['earth', 'fire', 'gold', 'water', 'wood']);
    expect(total(r.counts.upDown)).toBe(n);
  });

  it('the command line deals them, and suggests the game meant', () => {
    expect(SIMULATED_GAME_IDS).toEqual(expect.arrayContaining(['sic-bo', 'keno', 'baccarat']));
    const run = (...args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'src/app/cli/main.ts', 'simulate', ...args], { cwd: ROOT, encoding: 'utf8' });
    const ok = run('--game', 'sic-bo', '--rounds', '1000', '--seed', '3', '--json');
    expect(ok.status).toBe(0);
    const j = JSON.parse(ok.stdout) as { game: string; rounds: number; fields: Record<string, Record<string, { count: number }>> };
    expect(j.game).toBe('sic-bo');
    expect(Object.values(j.fields.total).reduce((a, v) => a + v.count, 0)).toBe(1000);
    const keno = run('--game', 'keno', '--rounds', '200', '--seed', '3');
    expect(keno.status).toBe(0);
    expect(keno.stdout).toMatch(/^keno: 200 draws, seed 3/);
    const bad = run('--game', 'sicbo');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('unknown game "sicbo" (did you mean "sic-bo"?)');
    expect(run('--game', 'keno', '--decks', '2').status).toBe(2);
  }, 60_000);
});
