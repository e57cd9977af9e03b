/**
 * Dealt through the learned profile (issue 32 point 6, its other half): the profile `tablegw
 * profile learn` writes from a corpus capture, read back from its YAML file, is a device's profile
 * in a real gateway, and the format's virtual device writes through the format's independent
 * encoder (dev/corpus/corpus-wire.ts) with line noise: the HID card reader deals baccarat (a HID
 * report cannot cross a pty: the simulator transport hands the real report bytes to the decoder
 * in-process), the bit-field dice reader rolls sic bo. Every round completes with the right cards
 * and dice, the noise is rejected, nothing is misplaced, and the journal replays byte for byte.
 * (The dice reader over a real pty: test/integration/corpus-over-serial.test.ts.)
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { messagesOf, playSimulatedTables } from '../helpers/simulated-play.js';
import { describe, expect, it } from 'vitest';
import { useWireFor } from '../../simulators/devices/wire.js';
import { loadProfileFile } from '../../drivers/profiles/profile-schema.js';
import { parseCapture } from '../../src/app/tools/capture-file.js';
import { learnProfile } from '../../src/app/tools/profile-learn.js';
import { makeTempDir, removeTempDir } from '../../dev/rig/temp-dir.js';
import { buildCapture, CORPUS } from '../../dev/corpus/index.js';
import { corpusWire } from '../../dev/corpus/corpus-wire.js';

const FORMATS = ['hid-card-reader', 'bitfield-dice'].map((n) => CORPUS.find((e) => e.name === n)!);
const sim = (faults: Record<string, number>, seed: number) => ({ type: 'simulator', seed, cardIntervalMs: 0, roundIntervalMs: 0, faults });
const of = messagesOf;

describe('the learned profiles of the corpus, dealt through', () => {
  it('a table per format plays complete rounds through the learned profile, the noise rejected, the journal replayed', async () => {
    const dataDir = await makeTempDir('teg-learned-deal-');
    const undo: Array<() => void> = [];
    const wroteCards: string[] = [];
    const wroteRolls: number[][] = [];
    try {
      const tables = FORMATS.map((e, i) => {
        const built = buildCapture(e);
        const r = learnProfile({ capture: parseCapture(built.text).chunks, script: built.script, kind: e.kind as never, name: `learned-${e.name}` });
        if (r.exit !== 0) throw new Error(`${e.name}: learn exit ${r.exit}: ${JSON.stringify(r)}`);
        const file = join(dataDir, `learned-${e.name}.yaml`);
        writeFileSync(file, r.yaml);
        // the virtual device speaks the format through its independent encoder, hooked to the learned profile's name;
        // what it wrote is kept: the truth the gateway's reading is held to
        const w = corpusWire(e);
        undo.push(
          useWireFor(loadProfileFile(file).name, {
            ...w,
            encode: (talker, seq, type, fields = []) => {
              const f = w.encode(talker, seq, type, fields);
              if (f && type === 'CARD') wroteCards.push(String(fields[0]));
              if (f && type === 'ROLL') wroteRolls.push(fields.slice(0, 3).map(Number));
              return f;
            },
          }),
        );
        const id = `l-${e.name}`.slice(0, 32);
        return e.kind === 'dice-sensor'
          ? {
              id,
              game: 'sic-bo',
              betting: 'none',
              minBounces: 0,
              devices: [{ id: 'dice-1', kind: 'dice-sensor', profile: file, transport: sim({ garbageRate: 0.15, noReadRate: 0.2 }, 400 + i) }],
            }
          : {
              id,
              game: 'baccarat',
              betting: 'none',
              devices: [{ id: 'shoe-1', kind: 'card-shoe', profile: file, transport: sim({ garbageRate: 0.15 }, 400 + i) }],
            };
      });
      const { published, mismatches } = await playSimulatedTables({
        tables,
        results: 6,
        also: (p) => of(p, 'alert', 'bad-frame').length > 0,
        timeoutMs: 90_000,
        dataDir,
      });
      expect(mismatches).toEqual(tables.map(() => null));
      for (const [id, p] of published) {
        const results = of(p, 'result');
        expect(results.length, id).toBeGreaterThanOrEqual(6);
        expect(
          results.every((r) => r.status === 'complete'),
          `${id}: ${JSON.stringify(results.find((r) => r.status !== 'complete'))}`,
        ).toBe(true);
        expect(of(p, 'alert', 'bad-frame').length, `${id}: the noise was rejected`).toBeGreaterThan(0);
        expect(
          of(p, 'alert').filter((a) => ['unnecessary-card', 'round-void', 'out-of-order-card', 'foreign-card', 'frame-gap'].includes(String(a.kind))),
          id,
        ).toEqual([]);
      }
      // every card the shoe wrote is read as that card, in order (a burn card face down), and each
      // round's player and banker cards are the cards read for them
      const shoe = published.get('l-hid-card-reader')!;
      const read = of(shoe, 'event', 'card');
      expect(read.length).toBeGreaterThanOrEqual(24);
      expect(wroteCards.length).toBeGreaterThanOrEqual(read.length);
      read.forEach((m, k) => {
        if (m.card !== null) expect(m.card, `card ${k + 1}`).toBe(wroteCards[k]);
      });
      for (const r of of(shoe, 'result')) {
        const inRound = read.filter((m) => m.roundId === r.roundId);
        const cards = r.cards as { player: string[]; banker: string[] };
        expect(cards.player).toEqual(inRound.filter((m) => m.role === 'player').map((m) => m.card));
        expect(cards.banker).toEqual(inRound.filter((m) => m.role === 'banker').map((m) => m.card));
      }
      // the dice reader's results are the rolls it wrote, in order (a no-read between them is no result)
      const rolls = of(published.get('l-bitfield-dice')!, 'result').map((r) => r.dice);
      expect(rolls).toEqual(wroteRolls.slice(0, rolls.length));
    } finally {
      for (const u of undo) u();
      await removeTempDir(dataDir);
    }
  }, 150_000);
});
