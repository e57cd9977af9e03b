/**
 * "Did you mean" for game names and device kinds (src/app/config/near-names.ts), and the messages
 * of the config loader and `simulate` that use it.
 */
import { describe, expect, it } from 'vitest';
import { didYouMean, editDistance, nearNames } from '../../../src/app/config/near-names.js';
import { ConfigError, validateConfig } from '../../../src/app/config/load-config.js';
import { DEVICE_KINDS } from '../../../src/core/vocabulary/device-kinds.js';

const GAMES = ['baccarat', 'seven-up-baccarat', 'dragon-tiger', 'pok-deng', 'three-pictures', 'three-card-poker', 'blackjack', 'holdem', 'sic-bo', 'keno'];

function problems(raw: unknown): string[] {
  try {
    validateConfig(raw);
    return [];
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
}

describe('edit distance', () => {
  it('counts insertions, deletions, substitutions and neighbour swaps, ignoring case', () => {
    expect(editDistance('sicbo', 'sic-bo')).toBe(1);
    expect(editDistance('bacarat', 'baccarat')).toBe(1);
    expect(editDistance('baccarta', 'baccarat')).toBe(1);
    expect(editDistance('Keno', 'keno')).toBe(0);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });
});

describe('near names', () => {
  it('suggests the nearest known names, or those a word names, and nothing for a far one', () => {
    expect(nearNames('sic bo', GAMES)).toEqual(['sic-bo']);
    expect(nearNames('black-jack', GAMES)).toEqual(['blackjack']);
    expect(nearNames('dragontiger', GAMES)).toEqual(['dragon-tiger']);
    expect(nearNames('dice-sensr', DEVICE_KINDS)).toEqual(['dice-sensor']);
    expect(nearNames('shoe', DEVICE_KINDS)).toEqual(['card-shoe', 'rfid-shoe']);
    expect(nearNames('roulette', GAMES)).toEqual([]);
    expect(didYouMean('shoe', DEVICE_KINDS)).toBe(' (did you mean "card-shoe" or "rfid-shoe"?)');
    expect(didYouMean('roulette', GAMES)).toBe('');
  });

  it('the config names the game and the device kind meant', () => {
    const dev = (kind: string) => ({ id: 'd1', kind, transport: { type: 'serial', path: '/dev/null' } });
    expect(problems({ mqtt: { url: 'embedded' }, tables: [{ id: 't1', game: 'sicbo', devices: [dev('dice-sensor')] }] })).toEqual([
      expect.stringMatching(/^tables\[0\]\.game: unknown game "sicbo" \(did you mean "sic-bo"\?\) \(known: baccarat, .*keno\)$/),
    ]);
    expect(problems({ mqtt: { url: 'embedded' }, tables: [{ id: 't1', game: 'baccarat', devices: [dev('card-shoes')] }] })).toEqual([
      expect.stringMatching(/^tables\[0\]\.devices\[0\]\.kind: unknown device kind "card-shoes" \(did you mean "card-shoe"\?\) \(known: card-shoe, /),
    ]);
    // nothing near: the list only
    expect(problems({ mqtt: { url: 'embedded' }, tables: [{ id: 't1', game: 'roulette', devices: [dev('card-shoe')] }] })[0]).toMatch(
      /unknown game "roulette" \(known: /,
    );
  });
});
