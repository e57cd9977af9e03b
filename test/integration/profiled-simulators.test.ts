/**
 * Simulated devices with `profile:` in one process (the real gateway, the embedded broker, the
 * simulators' in-memory transports): each virtual device writes its profile's format through the
 * profile encoder, with its line faults, and the tables play complete rounds from it. A barcode
 * scanner as the only card reader deals baccarat (serial-scanner profile) and Dragon Tiger (the
 * HID keyboard-wedge scanner): every round complete, nothing void, and the journal replays byte
 * for byte (the double-trigger rule runs before the journal).
 */
import { messagesOf, playSimulatedTables } from '../helpers/simulated-play.js';
import { describe, expect, it } from 'vitest';
import { cardGame, GAME_IDS } from '../../src/core/games/registry.js';
import type { Envelope } from '../../src/core/table/types.js';

const sim = (faults: Record<string, number> = {}, extra: Record<string, unknown> = {}) => ({
  type: 'simulator',
  seed: 11,
  cardIntervalMs: 0,
  roundIntervalMs: 0,
  faults,
  ...extra,
});

/** runs the tables until each has `results` results and `also` holds for it (or the time is up), then checks the journal */
const play = (tables: Record<string, unknown>[], results: number, fast = true, also?: (p: Envelope[]) => boolean) =>
  playSimulatedTables({ tables, results, fast, ...(also ? { also } : {}) });

const of = messagesOf;

describe('simulated devices speaking device profiles', () => {
  it('a barcode scanner as the dealing reader deals baccarat (serial profile) and Dragon Tiger (HID wedge): every round complete', async () => {
    const { published, mismatches } = await play(
      [
        {
          id: 'scan-bac',
          game: 'baccarat',
          betting: 'none',
          devices: [{ id: 'scan-1', kind: 'barcode-scanner', profile: 'serial-scanner', transport: sim({ badBarcodeRate: 0.1 }) }],
        },
        { id: 'scan-dt', game: 'dragon-tiger', betting: 'none', devices: [{ id: 'scan-1', kind: 'barcode-scanner', transport: sim({}, { seed: 12 }) }] },
      ],
      12,
    );
    expect(mismatches).toEqual([null, null]);
    for (const [id, p] of published) {
      const results = of(p, 'result');
      expect(results.length, id).toBeGreaterThanOrEqual(12);
      expect(
        results.every((r) => r.status === 'complete'),
        `${id}: ${JSON.stringify(results.find((r) => r.status !== 'complete'))}`,
      ).toBe(true);
      // the pit's new-shoe started the shoe the virtual dealer burned from; no card was lost or made up
      expect(
        of(p, 'alert').filter((a) => ['unnecessary-card', 'round-void', 'unexpected-rescan', 'out-of-order-card'].includes(String(a.kind))),
        id,
      ).toEqual([]);
      expect(
        of(p, 'event', 'card').some((e) => e.role === 'burn'),
        id,
      ).toBe(true);
      expect(
        of(p, 'event', 'card').every((e) => e.deviceId === 'scan-1'),
        id,
      ).toBe(true);
    }
    // the bad labels were rejected as bad frames, never cards
    expect(of(published.get('scan-bac')!, 'alert', 'bad-frame').length).toBeGreaterThan(0);
  }, 120_000);

  it('a stx-etx shoe (noise, misreads answered through its RESCAN downlink), modbus dice, the star keno reader, the crc RFID reader and the ascii shuffler play complete rounds', async () => {
    const { published, mismatches } = await play(
      [
        {
          id: 'stx-bac',
          game: 'baccarat',
          betting: 'none',
          devices: [{ id: 'shoe-1', kind: 'card-shoe', profile: 'stx-etx-shoe', transport: sim({ garbageRate: 0.1, misreadRate: 0.1 }) }],
        },
        {
          id: 'mod-sb',
          game: 'sic-bo',
          betting: 'none',
          minBounces: 0,
          devices: [{ id: 'dice-1', kind: 'dice-sensor', profile: 'modbus-dice', transport: sim({ garbageRate: 0.1, noReadRate: 0.2 }) }],
        },
        {
          id: 'star-kn',
          game: 'keno',
          betting: 'none',
          devices: [{ id: 'balls-1', kind: 'ball-reader', profile: 'star-keno', transport: sim({ garbageRate: 0.05 }) }],
        },
        // a profiled RFID shoe: tags through the simulator's generated deck registry
        {
          id: 'crc-rfid',
          game: 'baccarat',
          betting: 'none',
          devices: [
            { id: 'rfid-1', kind: 'rfid-shoe', profile: 'crc-rfid-reader', transport: sim({ garbageRate: 0.1, repeatReadRate: 0.3, unknownTagRate: 0.03 }) },
          ],
        },
        // single-deck: the profiled shuffler's RDY after CNT,52 is each fresh deck
        {
          id: 'asc-tcp',
          game: 'three-card-poker',
          betting: 'none',
          devices: [
            { id: 'shoe-1', kind: 'card-shoe', transport: sim() },
            { id: 'shuf-1', kind: 'shuffler', profile: 'ascii-shuffler', transport: sim({ garbageRate: 1 }) },
          ],
        },
        // a table sends few frames a round (modbus dice: one), so its first noise can come after its
        // fourth result: each table plays on until its noise has come (and been rejected)
      ],
      4,
      true,
      (p) => of(p, 'alert', 'bad-frame').length > 0,
    );
    expect(mismatches).toEqual([null, null, null, null, null]);
    for (const [id, p] of published) {
      const results = of(p, 'result');
      expect(results.length, id).toBeGreaterThanOrEqual(4);
      expect(
        results.every((r) => r.status === 'complete'),
        `${id}: ${JSON.stringify(results.find((r) => r.status !== 'complete'))}`,
      ).toBe(true);
      expect(of(p, 'alert', 'bad-frame').length, `${id}: the noise was rejected`).toBeGreaterThan(0);
    }
    // the RFID shoe's repeated reads were one card each, its foreign tags alerts, never cards
    const rfid = published.get('crc-rfid')!;
    expect(of(rfid, 'alert', 'unknown-tag').length).toBeGreaterThan(0);
    expect(of(rfid, 'alert').filter((a) => ['foreign-card', 'unnecessary-card', 'out-of-order-card'].includes(String(a.kind)))).toEqual([]);
    // every deck of the three card poker table came from the profiled shuffler's count
    expect(of(published.get('asc-tcp')!, 'event', 'shuffler').filter((e) => e.count === 52 && e.ok === true).length).toBeGreaterThanOrEqual(1);
    const stx = published.get('stx-bac')!;
    expect(of(stx, 'event', 'misread').length).toBeGreaterThan(0);
    // every misread the tables went on from was answered by the shoe's rescan (the last may still be pending at the stop)
    const events = of(stx, 'event');
    const answered = events.filter((e, i) => e.kind === 'misread' && events.slice(i + 1).some((x) => x.kind === 'card' || x.kind === 'rescan')).length;
    expect(answered).toBeGreaterThan(0);
    expect(of(stx, 'event', 'rescan').length).toBe(answered);
  }, 120_000);

  it("a stx-etx shoe that loses frames: its VER announces REPEAT (from the profile's templates), every gap is re-sent through the RP downlink", async () => {
    // at a dealing pace (10 ms a card, as test/integration/repeat-in-process.test.ts): one gap's round trip ends before the next gap
    const { published, mismatches } = await play(
      [
        {
          id: 'stx-rep',
          game: 'baccarat',
          betting: 'none',
          devices: [
            {
              id: 'shoe-1',
              kind: 'card-shoe',
              profile: 'stx-etx-shoe',
              transport: sim({ dropFrameRate: 0.05 }, { seed: 7, cardIntervalMs: 10, roundIntervalMs: 10 }),
            },
          ],
        },
      ],
      20,
      false,
    );
    expect(mismatches).toEqual([null]);
    const p = published.get('stx-rep')!;
    const gaps = of(p, 'alert', 'frame-gap');
    expect(gaps.length, 'the shoe lost frames').toBeGreaterThanOrEqual(2);
    expect(
      gaps.every((g) => g.severity === 'info' && g.repaired === true),
      JSON.stringify(gaps.filter((g) => g.repaired !== true)),
    ).toBe(true);
    expect(p.some((m) => m.type === 'round' && m.phase === 'held')).toBe(false);
    expect(of(p, 'result').every((r) => r.status === 'complete')).toBe(true);
  }, 120_000);

  it('a scanner as the only card reader plays every card game: every round complete, nothing out of order', async () => {
    const tables = GAME_IDS.map((game, i) => ({
      id: `scan-${game}`.slice(0, 32),
      game,
      betting: cardGame(game)!.defaults.needsEngine ? 'engine' : 'none',
      devices: [{ id: 'scan-1', kind: 'barcode-scanner', profile: 'serial-scanner', transport: sim({}, { seed: 100 + i }) }],
    }));
    const { published, mismatches } = await play(tables, 3);
    expect(mismatches).toEqual(tables.map(() => null));
    for (const [id, p] of published) {
      const results = of(p, 'result');
      expect(results.length, id).toBeGreaterThanOrEqual(3);
      expect(
        results.every((r) => r.status === 'complete'),
        `${id}: ${JSON.stringify(results.find((r) => r.status !== 'complete'))}`,
      ).toBe(true);
      expect(
        of(p, 'alert').filter((a) => ['unnecessary-card', 'round-void', 'out-of-order-card', 'unexpected-rescan', 'foreign-card'].includes(String(a.kind))),
        id,
      ).toEqual([]);
    }
  }, 120_000);
});
