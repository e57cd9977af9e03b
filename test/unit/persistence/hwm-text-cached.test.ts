import { expect, test } from 'vitest';
import { hwmText, hwmTextCached } from '../../../src/persistence/journal-integrity.js';
import type { TableCounters } from '../../../src/table/types.js';

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
