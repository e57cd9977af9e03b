/**
 * The measured capacity of a gateway process (docs/SCALING.md "Sizing"): one process on a 2-core
 * PC carried 300 tables at 10 cards/s each within the latency bound; the figure is scaled with the
 * cores this process may use. `check-config` and the start warn beyond it, and refuse far beyond
 * it (more than CAPACITY_REFUSE_FACTOR times) unless `capacity.allowFarBeyond` or
 * `--over-capacity` says to go on.
 */
import { availableParallelism } from 'node:os';

/** tables one gateway process carried on 2 cores (docs/SCALING.md) */
export const TABLES_PER_TWO_CORES = 300;
/** beyond this many times the capacity, the configuration is refused unless allowed */
export const CAPACITY_REFUSE_FACTOR = 4;

export interface CapacityCheck {
  level: 'ok' | 'warn' | 'refuse';
  tables: number;
  cores: number;
  capacity: number;
  /** a sentence for the log or check-config ('' when ok) */
  message: string;
}

/** the tables this machine carries in one gateway process: 300 per 2 cores (at least 150) */
export function capacityOf(cores: number): number {
  return Math.max(1, Math.floor((TABLES_PER_TWO_CORES * Math.max(1, cores)) / 2));
}

/** how a configuration of `tables` tables compares with the capacity of a machine of `cores` cores */
export function checkCapacity(tables: number, o: { cores?: number; allowFarBeyond?: boolean } = {}): CapacityCheck {
  const cores = o.cores ?? availableParallelism();
  const capacity = capacityOf(cores);
  const base = { tables, cores, capacity };
  if (tables <= capacity) return { level: 'ok', ...base, message: '' };
  const what = `${tables} tables exceed the measured capacity of this machine (${capacity} tables for ${cores} core(s): ${TABLES_PER_TWO_CORES} per 2 cores, docs/SCALING.md "Sizing")`;
  if (tables > capacity * CAPACITY_REFUSE_FACTOR && !o.allowFarBeyond) {
    return {
      level: 'refuse',
      ...base,
      message: `${what}, more than ${CAPACITY_REFUSE_FACTOR} times over: refused. Split the tables over several gateway processes or machines, or set capacity.allowFarBeyond: true (or pass --over-capacity) to start anyway`,
    };
  }
  return {
    level: 'warn',
    ...base,
    message: `${what}: expect late cards, stale devices and a slow /healthz; split the tables over several gateway processes or machines`,
  };
}
