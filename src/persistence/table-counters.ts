/**
 * Per-table counters that must never go back, even across restarts: the last published `seq`
 * and the numbers ids are made from (shoe number, ...), so ids are never reused. Stored in
 * `<dataDir>/tables/<id>/counters.json`, written (temp file + rename) after every step that
 * changed them, before anything of that step is published.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TableCounters } from '../table/types.js';

export class TableCounterStore {
  private readonly file: string;
  private readonly tmp: string;
  private lastText = '';

  constructor(dataDir: string, tableId: string) {
    const dir = join(dataDir, 'tables', tableId);
    mkdirSync(dir, { recursive: true });
    this.file = join(dir, 'counters.json');
    this.tmp = this.file + '.tmp';
  }

  load(): TableCounters {
    const out: TableCounters = {};
    try {
      const v = JSON.parse(readFileSync(this.file, 'utf8')) as Record<string, unknown>;
      for (const [k, n] of Object.entries(v)) if (Number.isSafeInteger(n) && (n as number) >= 0) out[k] = n as number;
    } catch {
      // no file yet (first start) or unreadable: start from zero
    }
    this.lastText = JSON.stringify(out);
    return out;
  }

  save(c: TableCounters): void {
    const text = JSON.stringify(c);
    if (text === this.lastText) return;
    writeFileSync(this.tmp, text);
    renameSync(this.tmp, this.file);
    this.lastText = text;
  }
}
