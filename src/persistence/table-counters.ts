/**
 * Per-table counters that must never go back, even across restarts: the last published `seq`
 * and the last shoe number (so shoe ids are never reused). Stored in `<dataDir>/tables/<id>/counters.json`,
 * written (temp file + rename) after every step that changed them, before anything is published.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TableCounters {
  seq: number;
  shoeNo: number;
}

export class TableCounterStore {
  private readonly file: string;
  private readonly tmp: string;
  private last: TableCounters = { seq: 0, shoeNo: 0 };

  constructor(dataDir: string, tableId: string) {
    const dir = join(dataDir, 'tables', tableId);
    mkdirSync(dir, { recursive: true });
    this.file = join(dir, 'counters.json');
    this.tmp = this.file + '.tmp';
  }

  load(): TableCounters {
    try {
      const v = JSON.parse(readFileSync(this.file, 'utf8')) as Partial<TableCounters>;
      this.last = {
        seq: Number.isSafeInteger(v.seq) && (v.seq as number) >= 0 ? (v.seq as number) : 0,
        shoeNo: Number.isSafeInteger(v.shoeNo) && (v.shoeNo as number) >= 0 ? (v.shoeNo as number) : 0,
      };
    } catch {
      this.last = { seq: 0, shoeNo: 0 };
    }
    return { ...this.last };
  }

  save(c: TableCounters): void {
    if (c.seq === this.last.seq && c.shoeNo === this.last.shoeNo) return;
    writeFileSync(this.tmp, JSON.stringify(c));
    renameSync(this.tmp, this.file);
    this.last = { ...c };
  }
}
