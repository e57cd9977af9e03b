/**
 * A virtual dealer restarted with its shoe checkpoint (simulators/shoe-checkpoint.ts) and the
 * table's restored shoe deals on from the table's next card of the same shoe, the way a real shoe
 * keeps its cards across a gateway restart; without a usable checkpoint it loads a new shoe.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cardGame } from '../../../src/core/games/registry.js';
import type { SimulatedTableView } from '../../../src/runtime/simulators.js';
import { shoeCheckpointStore, type ShoeCheckpoint, type ShoeCheckpointStore } from '../../../simulators/shoe-checkpoint.js';
import { VirtualTable } from '../../../simulators/virtual-table.js';

const baccarat = cardGame('baccarat')!;

function memoryStore(): ShoeCheckpointStore & { saved: ShoeCheckpoint[] } {
  const saved: ShoeCheckpoint[] = [];
  return { saved, load: () => saved.at(-1) ?? null, save: (c) => saved.push(c) };
}

/** deals with `seed` until `stopAfter` frames of `kind` (or the shoes run out); returns the frames it wrote */
async function deal(o: { seed: string; store: ShoeCheckpointStore; view: () => SimulatedTableView; stopAfterCards?: number; shoes?: number }) {
  const frames: string[] = [];
  let cards = 0;
  const vt: VirtualTable = new VirtualTable({
    game: baccarat,
    decks: 1,
    burnPerRound: 0,
    engine: false,
    cardIntervalMs: 0,
    roundIntervalMs: 0,
    cutCardFromEnd: 14,
    seed: o.seed,
    shoes: o.shoes ?? 1,
    write: (b) => {
      const line = b.toString();
      frames.push(line);
      if (/,CARD,/.test(line) && ++cards === o.stopAfterCards) void vt.stop();
    },
    resume: { store: o.store, view: o.view },
  });
  await vt.start();
  await vt.stop();
  return frames.map((f) => f.replace(/^\$SHOE,\d+,/, '').replace(/\*.*$/s, '')).filter((f) => f !== 'HB' && !f.startsWith('VER'));
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('a virtual dealer across a gateway restart', () => {
  it('deals on from the card after the ones the table counted, in the same shoe, without a new LOADED', async () => {
    const whole = await deal({ seed: 'r1', store: memoryStore(), view: () => ({}) });
    expect(whole[0]).toBe('STATE,LOADED');
    const cards = whole.filter((f) => f.startsWith('CARD,'));
    expect(cards.length).toBeGreaterThan(20);

    const store = memoryStore();
    let view: SimulatedTableView = { shoe: { shoeId: 't-s0001', state: 'dealing', cardsDealt: 0, cutCardSeen: false, revealCard: null } };
    const first = await deal({ seed: 'r1', store, view: () => view, stopAfterCards: 9 });
    expect(store.saved).toEqual([{ seed: 'r1', shoeNo: 0, shoeBefore: 't-s0001' }]);
    expect(first.filter((f) => f.startsWith('CARD,'))).toEqual(cards.slice(0, 9));

    // the gateway journaled 7 of those 9 cards (the last two never reached it): the dealer presents card 8 next
    view = { shoe: { shoeId: 't-s0002', state: 'dealing', cardsDealt: 7, cutCardSeen: false, revealCard: cards[0].slice(5) } };
    const second = await deal({ seed: 'r1', store, view: () => view });
    expect(second).not.toContain('STATE,LOADED');
    expect(second.filter((f) => f.startsWith('CARD,'))).toEqual(cards.slice(7));
    expect(second.filter((f) => f === 'CUT')).toHaveLength(whole.filter((f) => f === 'CUT').length);

    // the table waited for the rescan of card 8 (a MISREAD before the restart): card 8 comes as the rescan
    view = { shoe: { ...view.shoe, rescanPending: true } };
    const third = await deal({ seed: 'r1', store, view: () => view, stopAfterCards: 2 });
    expect(third.filter((f) => f.startsWith('CARD,'))).toEqual([`${cards[7]},R`, cards[8]]);
  });

  it('loads the shoe again when its LOADED never reached the table, the next shoe when the table closed it, and a new shoe for a shoe that is not its own', async () => {
    const whole = await deal({ seed: 'r2', store: memoryStore(), view: () => ({}), shoes: 2 });
    const loads = whole.flatMap((f, i) => (f === 'STATE,LOADED' ? [i] : []));
    expect(loads).toHaveLength(2);
    const shoe2 = whole.slice(loads[1]);

    // LOADED never reached the table: still the shoe before it
    const lost = memoryStore();
    lost.save({ seed: 'r2', shoeNo: 1, shoeBefore: 't-s0002' });
    const again = await deal({ seed: 'r2', store: lost, view: () => ({ shoe: { shoeId: 't-s0002', state: 'dealing', cardsDealt: 40 } }), shoes: 2 });
    expect(again).toEqual(shoe2);

    // the table closed shoe 1 (its cut card came out between rounds): shoe 2 is loaded
    const closed = memoryStore();
    closed.save({ seed: 'r2', shoeNo: 0, shoeBefore: 't-s0001' });
    const next = await deal({ seed: 'r2', store: closed, view: () => ({ shoe: { shoeId: 't-s0002', state: 'closed', cardsDealt: 45 } }), shoes: 2 });
    expect(next).toEqual(shoe2);

    // a fresh journal: the table never saw this shoe loaded (its first shoe): shoe 2 is loaded
    const fresh0 = memoryStore();
    fresh0.save({ seed: 'r2', shoeNo: 0, shoeBefore: 't-s0001' });
    const unseen = await deal({
      seed: 'r2',
      store: fresh0,
      view: () => ({ shoe: { shoeId: 't-s0009', state: 'dealing', loaded: false, cardsDealt: 0, revealCard: null } }),
      shoes: 2,
    });
    expect(unseen).toEqual(shoe2);

    // the table's shoe has another reveal card (the pit's new shoe): not this dealer's, a new shoe is loaded
    const other = memoryStore();
    other.save({ seed: 'r2', shoeNo: 0, shoeBefore: 't-s0001' });
    const reveal = whole[1].slice(5) === 'AS' ? 'KD' : 'AS';
    const fresh = await deal({
      seed: 'r2',
      store: other,
      view: () => ({ shoe: { shoeId: 't-s0002', state: 'dealing', cardsDealt: 5, revealCard: reveal } }),
      shoes: 2,
    });
    expect(fresh).toEqual(shoe2);

    // another seed's checkpoint is not this dealer's: it starts from its first shoe
    const foreign = memoryStore();
    foreign.save({ seed: 'other', shoeNo: 0, shoeBefore: 't-s0001' });
    const own = await deal({ seed: 'r2', store: foreign, view: () => ({ shoe: { shoeId: 't-s0002', state: 'dealing', cardsDealt: 5 } }), shoes: 1 });
    expect(own).toEqual(whole.slice(0, loads[1]));
  });

  it('keeps its checkpoint in a file; an unreadable or invalid file is no checkpoint', () => {
    const dir = mkdtempSync(join(tmpdir(), 'teg-shoe-cp-'));
    dirs.push(dir);
    const store = shoeCheckpointStore(join(dir, 'sim', 't1'), 'shoe-1');
    expect(store.load()).toBeNull();
    store.save({ seed: 's', shoeNo: 3, shoeBefore: null });
    expect(shoeCheckpointStore(join(dir, 'sim', 't1'), 'shoe-1').load()).toEqual({ seed: 's', shoeNo: 3, shoeBefore: null });
    writeFileSync(join(dir, 'sim', 't1', 'shoe-1.json'), '{"seed":1}');
    expect(store.load()).toBeNull();
    writeFileSync(join(dir, 'sim', 't1', 'shoe-1.json'), 'not json');
    expect(store.load()).toBeNull();
  });
});
