/**
 * The simulators speaking the corpus (issue 32 point 6): every corpus format's virtual device
 * writes through the format's independent encoder (dev/corpus/corpus-wire.ts, hooked in with
 * `useWireFor`), with line noise, and the gateway reads it through the hand-written profile: one
 * table per format plays complete rounds (card shoes baccarat, the dice reader sic bo, the ball
 * reader keno, the shuffler three card poker beside a reference shoe), the noise rejected as bad
 * frames, and the journal replays byte for byte.
 */
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/app/config/load-config.js';
import { startGateway } from '../../src/app/gateway.js';
import { loadSimulators } from '../../simulators/load.js';
import { useWireFor } from '../../simulators/devices/wire.js';
import { silentLogger } from '../../src/runtime/log.js';
import { GatewayStore } from '../../src/adapters/store/gateway-store.js';
import { replayTable } from '../../src/app/replay/replay-journal.js';
import type { Envelope } from '../../src/core/table/types.js';
import { loadProfileFile } from '../../drivers/profiles/profile-schema.js';
import { makeTempDir, removeTempDir } from '../../dev/rig/temp-dir.js';
import { CORPUS, type CorpusEntry } from '../../dev/corpus/index.js';
import { corpusWire } from '../../dev/corpus/corpus-wire.js';

const sim = (faults: Record<string, number>, seed: number) => ({ type: 'simulator', seed, cardIntervalMs: 0, roundIntervalMs: 0, faults });
const of = (p: Envelope[], type: string, kind?: string) => p.filter((m) => m.type === type && (kind === undefined || m.kind === kind));

function tableOf(e: CorpusEntry, i: number): Record<string, unknown> {
  const id = `c-${e.name}`.slice(0, 32);
  const transport = sim({ garbageRate: 0.1, ...(e.kind === 'dice-sensor' ? { noReadRate: 0.2 } : {}) }, 200 + i);
  switch (e.kind) {
    case 'card-shoe':
      return { id, game: 'baccarat', betting: 'none', devices: [{ id: 'shoe-1', kind: 'card-shoe', profile: e.profilePath, transport }] };
    case 'dice-sensor':
      return { id, game: 'sic-bo', betting: 'none', minBounces: 0, devices: [{ id: 'dice-1', kind: 'dice-sensor', profile: e.profilePath, transport }] };
    case 'ball-reader':
      return { id, game: 'keno', betting: 'none', devices: [{ id: 'balls-1', kind: 'ball-reader', profile: e.profilePath, transport }] };
    case 'shuffler':
      return {
        id,
        game: 'three-card-poker',
        betting: 'none',
        devices: [
          { id: 'shoe-1', kind: 'card-shoe', transport: sim({}, 300 + i) },
          { id: 'shuf-1', kind: 'shuffler', profile: e.profilePath, transport: sim({ garbageRate: 1 }, 200 + i) },
        ],
      };
    default:
      throw new Error(`no table for ${e.kind}`);
  }
}

describe('the simulators speaking every corpus format through its independent encoder', () => {
  it('one table per format plays complete rounds, the noise rejected, the journal replayed byte for byte', async () => {
    // each wire counts the frames its encoder wrote: the devices spoke through it, not the profile encoder
    const written = new Map<string, number>(CORPUS.map((e) => [e.name, 0]));
    const undo = CORPUS.map((e) => {
      const w = corpusWire(e);
      return useWireFor(loadProfileFile(e.profilePath).name, {
        ...w,
        encode: (...a) => {
          const f = w.encode(...a);
          if (f) written.set(e.name, written.get(e.name)! + 1);
          return f;
        },
      });
    });
    const dataDir = await makeTempDir('teg-corpus-sim-');
    try {
      const tables = CORPUS.map(tableOf);
      const cfg = validateConfig({ mqtt: { url: 'embedded' }, embeddedBroker: { port: 0 }, http: { enabled: false }, dataDir, tables });
      const gw = await startGateway(cfg, { simulators: loadSimulators, logger: silentLogger, fast: true });
      const published = new Map<string, Envelope[]>(cfg.tables.map((t) => [t.id, []]));
      gw.tables.forEach((t, i) => {
        t.published$.subscribe((m) => published.get(cfg.tables[i].id)!.push(m.payload));
      });
      const enough = () => [...published.values()].every((p) => of(p, 'result').length >= 4 && of(p, 'alert', 'bad-frame').length > 0);
      const until = Date.now() + 90_000;
      while (!enough() && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      await Promise.all(gw.simulators.map((s) => s.stop()));
      await gw.stop();
      const store = new GatewayStore(dataDir, { synchronous: 'normal', retentionDays: 14 });
      const mismatches = cfg.tables.map((t) => replayTable(store, t.id).mismatch);
      store.close();
      expect(mismatches).toEqual(cfg.tables.map(() => null));
      for (const [name, n] of written) expect(n, `${name}: frames written by the corpus encoder`).toBeGreaterThan(3);
      for (const [id, p] of published) {
        const results = of(p, 'result');
        expect(results.length, id).toBeGreaterThanOrEqual(4);
        expect(
          results.every((r) => r.status === 'complete'),
          `${id}: ${JSON.stringify(results.find((r) => r.status !== 'complete'))}`,
        ).toBe(true);
        expect(of(p, 'alert', 'bad-frame').length, `${id}: the noise was rejected`).toBeGreaterThan(0);
        expect(
          of(p, 'alert').filter((a) => ['unnecessary-card', 'round-void', 'out-of-order-card', 'foreign-card'].includes(String(a.kind))),
          id,
        ).toEqual([]);
      }
    } finally {
      for (const u of undo) u();
      await removeTempDir(dataDir);
    }
  }, 150_000);
});
