import { describe, expect, it } from 'vitest';
import { LineCodec } from '../../../drivers/codecs/line-codec.js';
import { MemoryTransport } from '../../../drivers/transports/memory-transport.js';
import { seededRng } from '../../../simulators/rng.js';
import { baccarat } from '../../../src/core/games/baccarat.js';
import { VirtualCardShoe } from '../../../simulators/devices/card-shoe-device.js';
import { VirtualTable } from '../../../simulators/virtual-table.js';

describe('virtual card shoe faults', () => {
  it('dropCardRate: the DROP key follows a card that was read', () => {
    const wire: string[] = [];
    const shoe = new VirtualCardShoe((b) => wire.push(b.toString()), seededRng(1), { misreadRate: 0, garbageRate: 0, dropFrameRate: 0, dropCardRate: 1 });
    shoe.card('AS');
    const frames = new LineCodec('SHOE').push(Buffer.from(wire.join('')));
    expect(frames.map((f) => ('type' in f ? f.type : f.reason))).toEqual(['CARD', 'DROP']);
  });

  it('unplugRate: between rounds the shoe cable is pulled, then the shoe powers up again (VER)', async () => {
    const transport = new MemoryTransport({ name: 'shoe' });
    transport.start();
    const states: string[] = [];
    transport.status$.subscribe((s) => states.push(s.state));
    const wire: string[] = [];
    transport.data$.subscribe((b) => wire.push(b.toString('latin1')));
    const vt = new VirtualTable({
      game: baccarat,
      decks: 2,
      burnPerRound: 0,
      engine: false,
      cardIntervalMs: 0,
      roundIntervalMs: 0,
      cutCardFromEnd: 60,
      seed: 'unplug',
      shoes: 1,
      write: (b) => transport.deliver(b),
      unplug: { transport, rate: 1, ms: 5 },
    });
    await vt.start();
    const downs = states.filter((s) => s === 'disconnected').length;
    expect(downs).toBeGreaterThan(1); // one per round (the first is the state before start)
    expect(states.at(-1)).toBe('connected');
    expect(wire.join('').match(/\$SHOE,\d+,VER,/g)!.length).toBeGreaterThan(1);
  });
});
