/**
 * The per-minute summary line of the terminal and the journal (docs/OPERATIONS.md, "Logs"):
 * rounds completed and faults (warning and critical alerts) in the last interval, in total and
 * per table, so a floor of ten tables reads as one line a minute besides the per-round lines.
 */
import type { Envelope } from '../core/table/types.js';

interface Counts {
  rounds: number;
  faults: number;
  kinds: Map<string, number>;
}

export class ActivitySummary {
  private counts = new Map<string, Counts>();

  constructor(private readonly tableIds: readonly string[]) {
    this.reset();
  }

  private reset(): void {
    this.counts = new Map(this.tableIds.map((id) => [id, { rounds: 0, faults: 0, kinds: new Map() }]));
  }

  /** one published envelope of a table */
  count(tableId: string, e: Envelope): void {
    const c = this.counts.get(tableId);
    if (!c) return;
    if (e.type === 'result') c.rounds++;
    else if (e.type === 'alert' && e.severity !== 'info') {
      c.faults++;
      const k = String(e.kind);
      c.kinds.set(k, (c.kinds.get(k) ?? 0) + 1);
    }
  }

  /** the line for the interval that just ended (and starts the next one) */
  take(intervalMs: number): string {
    let rounds = 0;
    let faults = 0;
    const parts: string[] = [];
    for (const [id, c] of this.counts) {
      rounds += c.rounds;
      faults += c.faults;
      const kinds = [...c.kinds]
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .map(([k, n]) => `${n} ${k}`)
        .join(', ');
      parts.push(`${id} ${c.rounds}r${c.faults ? ` ${c.faults}f (${kinds})` : ''}`);
    }
    this.reset();
    const span = intervalMs % 60_000 === 0 ? `${intervalMs / 60_000} min` : `${Math.round(intervalMs / 1000)} s`;
    return `summary, last ${span}: ${rounds} round${rounds === 1 ? '' : 's'}, ${faults} fault${faults === 1 ? '' : 's'} | ${parts.join(' | ')}`;
  }
}
