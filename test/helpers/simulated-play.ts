/**
 * Simulated tables played in process (the embedded broker, the fast clock of the simulators):
 * each table's published messages, then each table's journal replayed byte for byte.
 */
import { validateConfig } from '../../src/app/config/load-config.js';
import { startGateway } from '../../src/app/gateway.js';
import { loadSimulators } from '../../simulators/load.js';
import { silentLogger } from '../../src/runtime/log.js';
import { GatewayStore } from '../../src/adapters/store/gateway-store.js';
import { replayTable } from '../../src/app/replay/replay-journal.js';
import type { Envelope } from '../../src/core/table/types.js';
import { makeTempDir, removeTempDir } from '../../dev/rig/temp-dir.js';

/** the messages of `type` (and `kind`) among a table's published ones */
export const messagesOf = (p: Envelope[], type: string, kind?: string): Envelope[] =>
  p.filter((m) => m.type === type && (kind === undefined || m.kind === kind));

export interface PlayOptions {
  /** the config's tables */
  tables: Record<string, unknown>[];
  /** play until every table has published this many results ... */
  results: number;
  /** ... and this holds for each table's messages */
  also?: (published: Envelope[]) => boolean;
  /** the simulators' fast clock (default on) */
  fast?: boolean;
  /** at most this long (default 60 s) */
  timeoutMs?: number;
  /** the data dir (kept); default a temp dir of its own, removed after */
  dataDir?: string;
}

/** plays the tables, then replays each one's journal; `mismatches` holds null for a table whose replay matched */
export async function playSimulatedTables(o: PlayOptions): Promise<{ published: Map<string, Envelope[]>; mismatches: unknown[] }> {
  const dataDir = o.dataDir ?? (await makeTempDir('teg-play-'));
  try {
    const cfg = validateConfig({ mqtt: { url: 'embedded' }, embeddedBroker: { port: 0 }, http: { enabled: false }, dataDir, tables: o.tables });
    const gw = await startGateway(cfg, { simulators: loadSimulators, logger: silentLogger, fast: o.fast ?? true });
    const published = new Map<string, Envelope[]>(cfg.tables.map((t) => [t.id, []]));
    gw.tables.forEach((t, i) => {
      t.published$.subscribe((m) => published.get(cfg.tables[i].id)!.push(m.payload));
    });
    const also = o.also ?? (() => true);
    const enough = () => [...published.values()].every((p) => messagesOf(p, 'result').length >= o.results && also(p));
    const until = Date.now() + (o.timeoutMs ?? 60_000);
    while (!enough() && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    await Promise.all(gw.simulators.map((s) => s.stop()));
    await gw.stop();
    const store = new GatewayStore(dataDir, { synchronous: 'normal', retentionDays: 14 });
    const mismatches = cfg.tables.map((t) => replayTable(store, t.id).mismatch);
    store.close();
    return { published, mismatches };
  } finally {
    if (o.dataDir === undefined) await removeTempDir(dataDir);
  }
}
