import { expect, test } from 'vitest';
import { HwmMark, markText as hwmTextCached, RESERVE_AHEAD } from '../../../src/adapters/store/hwm-slots.mjs';
import { hwmText } from '../../../src/adapters/store/journal-integrity.js';
import type { TableCounters } from '../../../src/core/table/types.js';

test('hwmTextCached gives the same text as hwmText, integer-like ids and escapes included', () => {
  const tables: Record<string, TableCounters> = {};
  const fragments = new Map<string, string>();
  expect(hwmTextCached(tables, fragments)).toBe(hwmText(tables));
  const ids = ['t', '1', 'b"x', '07', 'tbl-a', '3'];
  for (let i = 0; i < 200; i++) {
    const id = ids[i % ids.length] + (i % 7 === 0 ? `-${i % 13}` : '');
    const prev = tables[id] as Record<string, number> | undefined;
    tables[id] = { ...(prev ?? {}), seq: i, [`k${i % 3}`]: i * 2 } as unknown as TableCounters;
    fragments.delete(id);
    expect(hwmTextCached(tables, fragments)).toBe(hwmText(tables));
  }
});

test("the writer thread's mark, started from the main thread's and sent only what moved, writes the same text", () => {
  const start: Record<string, TableCounters> = { b: { seq: 4, shoeNo: 1 }, 12: { seq: 9, shoeNo: 2 } };
  const main: Record<string, TableCounters> = { ...start };
  const reserved: Record<string, TableCounters> = { b: { seq: 50, shoeNo: 3 } };
  const writer = new HwmMark(start, reserved);
  expect(writer.fastText()).toBe(hwmText(main));
  expect(writer.text()).toBe(JSON.stringify({ v: 1, tables: main, reserved }));
  const ids = ['b', '12', 'a', '3', 'c"q'];
  for (let i = 0; i < 100; i++) {
    // a batch: one to three tables move, as the store's mergeHwm reports them
    const moved: Array<[string, TableCounters]> = [];
    for (let k = 0; k <= i % 3; k++) {
      const id = ids[(i + k * 2) % ids.length];
      const next = { seq: 10 + i, shoeNo: 1 + (i >> 4) };
      main[id] = next;
      moved.push([id, next]);
    }
    writer.update(moved);
    expect(writer.fastText()).toBe(hwmText(main));
    expect(writer.text()).toBe(JSON.stringify({ v: 1, tables: main, reserved: writer.reserved }));
  }
});

test("a reservation is taken on a table's first move, kept while its counters stay within it, and taken again past it", () => {
  const mark = new HwmMark<TableCounters>({ t: { seq: 7, shoeNo: 1 } });
  expect(mark.takeRenewed()).toBe(false);
  mark.set('t', { seq: 8, shoeNo: 1 });
  expect(mark.takeRenewed()).toBe(true);
  expect(mark.reserved.t).toEqual({ seq: 8 + RESERVE_AHEAD.seq, shoeNo: 1 + RESERVE_AHEAD.other });
  // within: no new reservation, nothing to flush
  mark.set('t', { seq: 8 + RESERVE_AHEAD.seq, shoeNo: 1 + RESERVE_AHEAD.other });
  expect(mark.takeRenewed()).toBe(false);
  // one counter past it (a shoe number, however far seq is from its end) reserves again, from the counters
  mark.set('t', { seq: 9, shoeNo: 2 + RESERVE_AHEAD.other });
  expect(mark.takeRenewed()).toBe(true);
  expect(mark.reserved.t).toEqual({ seq: 9 + RESERVE_AHEAD.seq, shoeNo: 2 + 2 * RESERVE_AHEAD.other });
  // a counter the reservation does not know (a build that counts more) is past it
  mark.set('t', { seq: 10, shoeNo: 2, roundNo: 1 });
  expect(mark.takeRenewed()).toBe(true);
  // the flag is taken once
  expect(mark.takeRenewed()).toBe(false);
});
