/**
 * The simulators speaking the corpus (issue 32 point 6): every corpus format's virtual device
 * writes through the format's independent encoder (dev/corpus/corpus-wire.ts, hooked in with
 * `useWireFor`), with line noise, and the gateway reads it through the hand-written profile: one
 * table per format plays complete rounds (card shoes baccarat, the dice reader sic bo, the ball
 * reader keno, the shuffler three card poker beside a reference shoe), the noise rejected as bad
 * frames, and the journal replays byte for byte.
 */
import { messagesOf, playSimulatedTables } from '../helpers/simulated-play.js';
import { describe, expect, it } from 'vitest';
import { useWireFor } from '../../simulators/devices/wire.js';
import { loadProfileFile } from '../../drivers/profiles/profile-schema.js';
import { makeTempDir, removeTempDir } from '../../dev/rig/temp-dir.js';
import { CORPUS, type CorpusEntry } from '../../dev/corpus/index.js';
import { corpusWire } from '../../dev/corpus/corpus-wire.js';

const sim = (faults: Record<string, number>, seed: number) => ({ type: 'simulator', seed, cardIntervalMs: 0, roundIntervalMs: 0, faults });
const of = messagesOf;

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
      const { published, mismatches } = await playSimulatedTables({
        tables,
        results: 4,
        also: (p) => of(p, 'alert', 'bad-frame').length > 0,
        timeoutMs: 90_000,
        dataDir,
      });
      expect(mismatches).toEqual(tables.map(() => null));
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
