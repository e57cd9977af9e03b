/**
 * A shoe's card counts (games.md Card counting): an array of 52 slots, copied per card, and the
 * object keyed by card that the snapshots of earlier builds hold, read back the same.
 */
import { describe, expect, it } from 'vitest';
import { RANKS, SUITS, type Card } from '../../../src/core/vocabulary/card.js';
import { CARD_SLOTS, cardSlot, countOf, countsFromSnapshot, emptyCounts, withCount } from '../../../src/core/table/card/state.js';
import { stateFromSnapshot } from '../../../src/core/table/table-machine.js';
import type { CardTableState, TableState } from '../../../src/core/table/types.js';
import { TableHarness } from '../../helpers/table-harness.js';

const ALL: Card[] = RANKS.flatMap((r) => SUITS.map((s) => `${r}${s}` as Card));

describe('shoe counts', () => {
  it('every card has its own slot in 0..51', () => {
    const slots = ALL.map(cardSlot);
    expect(new Set(slots).size).toBe(52);
    expect(Math.min(...slots)).toBe(0);
    expect(Math.max(...slots)).toBe(CARD_SLOTS - 1);
    for (const bad of ['', 'A', 'AX', '1S', 'ASX', 'as']) expect(() => cardSlot(bad as Card)).toThrow(/not a card code/);
  });

  it('withCount leaves the counts it was given as they were', () => {
    const a = withCount(emptyCounts(), 'AS', 1);
    const b = withCount(a, 'KD', 2);
    expect(countOf(a, 'AS')).toBe(1);
    expect(countOf(a, 'KD')).toBe(0);
    expect([countOf(b, 'AS'), countOf(b, 'KD')]).toEqual([1, 2]);
  });

  it('reads the object keyed by card of earlier snapshots, and treats anything unreadable as nothing seen', () => {
    const c = countsFromSnapshot({ AS: 3, KD: 1, XX: 4, QH: -1, '7C': 1.5 });
    expect(c).toHaveLength(52);
    expect(ALL.filter((card) => countOf(c, card) > 0).map((card) => [card, countOf(c, card)])).toEqual([
      ['AS', 3],
      ['KD', 1],
    ]);
    const arr = withCount(emptyCounts(), 'TS', 2);
    expect(countsFromSnapshot(arr)).toBe(arr);
    for (const junk of [null, 7, 'x', [1, 2, 3]]) expect(countsFromSnapshot(junk)).toEqual(emptyCounts());
  });

  it('a table restored from a snapshot of an earlier build (counts keyed by card) goes on counting: the 9th ace of spades is still foreign', () => {
    const t = new TableHarness();
    t.newShoe('AD', ['2D']);
    for (let i = 0; i < 8; i++) t.cards('AS', 'KD', 'KC', 'QS', 'JH', 'JD'); // 8 rounds with an AS each
    const s = t.state as CardTableState;
    // the snapshot as an earlier build wrote it: the seen cards keyed by card, in JSON
    const old = Object.fromEntries(ALL.filter((c) => countOf(s.shoe.counts, c) > 0).map((c) => [c, countOf(s.shoe.counts, c)]));
    expect(old.AS).toBe(8);
    const json = JSON.parse(JSON.stringify({ ...s, shoe: { ...s.shoe, counts: old } })) as TableState;
    const restored = new TableHarness();
    restored.state = stateFromSnapshot(json);
    expect((restored.state as CardTableState).shoe.counts).toEqual(s.shoe.counts);
    restored.card('AS');
    expect(restored.alerts('foreign-card')).toHaveLength(1);
    expect(restored.lastResult()).toMatchObject({ status: 'void', reason: 'foreign-card' });
  });

  it('a snapshot of this build round-trips through JSON unchanged', () => {
    const t = new TableHarness();
    t.newShoe('AD', ['2D']);
    t.cards('AS', 'KD', 'KC', 'QS');
    const json = JSON.parse(JSON.stringify(t.state)) as TableState;
    expect(stateFromSnapshot(json)).toBe(json);
  });
});
