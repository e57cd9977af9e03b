/**
 * Lost frames (games.md "Lost frames", device-protocols.md REPEAT) at the machine level: the
 * driver's `frame-gap` device alert; a device that announced REPEAT is asked to re-send; frames are
 * taken in SEQ order; an unrepaired gap during a round holds it until `void-round` / `resume-round`.
 */
import { describe, expect, it } from 'vitest';
import type { DeviceFrame, DeviceFrameBody } from '../../../src/core/vocabulary/frames.js';
import { TableHarness } from '../../helpers/table-harness.js';

class GapTable extends TableHarness {
  constructor(repeat: boolean, betting: 'engine' | 'none' = 'none') {
    super({ game: 'baccarat', betting, table: { burnPerRound: 0 } });
    this.at(0, { type: 'VER', model: 'VSHOE-1', firmware: '1.0.0', ...(repeat ? { capabilities: ['REPEAT', 'LOCK'] } : {}) });
  }

  /** a frame with an explicit device SEQ */
  at(seq: number, body: DeviceFrameBody) {
    return this.input({ type: 'frame', at: this.tick(), deviceId: 'shoe-1', frame: { talker: 'SHOE', seq, ...body } as DeviceFrame });
  }

  cardAt(seq: number, card: string) {
    return this.at(seq, { type: 'CARD', card, rescan: false });
  }

  /** what the driver reports when `seq` follows `last` */
  gap(last: number, seq: number) {
    return this.input({
      type: 'device-alert',
      at: this.tick(),
      deviceId: 'shoe-1',
      kind: 'frame-gap',
      detail: `${seq - last - 1} frame(s) lost`,
      data: { missing: seq - last - 1, deviceSeq: seq, fromSeq: last + 1, modulus: 65536 },
    });
  }

  phase(): unknown {
    return this.published('round').at(-1)?.phase;
  }
}

describe('a gap on a shoe that announced REPEAT', () => {
  it('is asked for again; the re-sent frames are taken in SEQ order and the gap is repaired (info)', () => {
    const t = new GapTable(true);
    t.cardAt(1, '9H'); // player
    t.clear();
    // SEQ 2 and 3 were lost; 4 reveals the gap
    t.gap(1, 4);
    t.cardAt(4, '2C');
    expect(t.commands()).toEqual([{ deviceId: 'shoe-1', command: 'REPEAT,2' }]);
    expect(t.timers()).toEqual([{ name: 'repeat:shoe-1:1', at: expect.any(Number) }]);
    expect(t.events('card')).toHaveLength(0); // SEQ 4 waits for 2 and 3
    // the shoe re-sends 2, 3 (and 4, which the driver drops as already taken)
    t.cardAt(2, '5D');
    expect(t.events('card')).toHaveLength(1);
    t.cardAt(3, 'KS');
    const gap = t.alerts('frame-gap');
    expect(gap).toHaveLength(1);
    expect(gap[0]).toMatchObject({ severity: 'info', repaired: true, missing: 2, fromSeq: 2 });
    expect(t.outputs).toContainEqual({ type: 'cancel-timer', name: 'repeat:shoe-1:1' });
    expect(t.events('card').map((e) => e.role)).toEqual(['banker', 'player', 'banker']);
    expect(t.lastResult()).toMatchObject({ status: 'complete', cards: { player: ['9H', 'KS'], banker: ['5D', '2C'] } });
  });

  it('not repeated in time, during a round: held (critical), cards wait; resume-round places them', () => {
    const t = new GapTable(true);
    t.cardAt(1, '9H');
    t.gap(1, 4);
    t.cardAt(4, '2C');
    const [timer] = t.timers();
    t.clear();
    t.input({ type: 'timer', at: timer.at, name: timer.name });
    expect(t.alerts('frame-gap')[0]).toMatchObject({ severity: 'critical', repaired: false, missing: 2 });
    expect(t.phase()).toBe('held');
    expect(t.commands()).toContainEqual({ deviceId: 'shoe-1', command: 'LOCK' });
    t.cardAt(5, 'KS');
    t.cardAt(3, 'QS'); // too late: not taken
    expect(t.events('card')).toHaveLength(0);
    // unsigned (no verified signer): refused, still held (privileged.ts)
    expect(t.request('resume-round', { by: 'pit-7', reason: 'checked the cards' })).toMatchObject({ status: 'error', code: 'signature-required' });
    expect(t.phase()).toBe('held');
    // `by` is the signer's name, not the request's word
    expect(t.request('resume-round', { by: 'pit-boss-anyone', reason: 'checked the cards' }, 'pit-7').status).toBe('ok');
    expect(t.events('round-resumed')[0]).toMatchObject({ by: 'pit-7', queued: 2 });
    expect(t.commands()).toContainEqual({ deviceId: 'shoe-1', command: 'UNLOCK' });
    expect(t.events('card').map((e) => e.card)).toEqual(['2C', 'KS']);
    t.cardAt(6, '3H');
    expect(t.lastResult()).toMatchObject({ status: 'complete', cards: { player: ['9H', 'KS'], banker: ['2C', '3H'] } });
  });

  it('held, then void-round: the round is void and the cards read while held are discards', () => {
    const t = new GapTable(false);
    t.cardAt(1, '9H');
    t.gap(1, 4);
    t.cardAt(4, '2C');
    expect(t.alerts('frame-gap')[0]).toMatchObject({ severity: 'critical', repaired: false });
    expect(t.phase()).toBe('held');
    expect(t.request('void-round', { reason: 'frames lost' })).toMatchObject({ status: 'error', code: 'signature-required' });
    expect(t.request('new-shoe')).toMatchObject({ status: 'error', code: 'signature-required' });
    expect(t.request('end-shoe')).toMatchObject({ status: 'error', code: 'signature-required' });
    expect(t.phase()).toBe('held');
    expect(t.request('void-round', { reason: 'frames lost' }, 'pit-7').status).toBe('ok');
    expect(t.lastResult()).toMatchObject({ status: 'void' });
    expect(
      t
        .events('card')
        .filter((e) => e.role === 'discard')
        .map((e) => e.card),
    ).toEqual(['2C']);
    // the next round is dealt normally
    t.cardAt(5, 'AS');
    expect(t.published('round').at(-1)).toMatchObject({ phase: 'dealing' });
  });
});

describe('a gap without REPEAT', () => {
  it('during a round holds it at once', () => {
    const t = new GapTable(false);
    t.cardAt(1, '9H');
    t.clear();
    t.gap(1, 3);
    expect(t.commands()).toEqual([{ deviceId: 'shoe-1', command: 'LOCK' }]);
    expect(t.alerts('frame-gap')[0]).toMatchObject({ severity: 'critical', repaired: false, missing: 1 });
    expect(t.phase()).toBe('held');
  });

  it('between rounds is a warning and play goes on', () => {
    const t = new GapTable(false);
    t.gap(0, 3);
    expect(t.alerts('frame-gap')[0]).toMatchObject({ severity: 'warning' });
    t.cardAt(3, '9H');
    expect(t.events('card')).toHaveLength(1);
  });

  it('resume-round with nothing held is refused and changes nothing', () => {
    const t = new GapTable(false);
    const before = t.state;
    const r = t.request('resume-round', { by: 'pit-7' }, 'pit-7');
    expect(r).toMatchObject({ status: 'error', code: 'wrong-phase' });
    expect(t.request('resume-round', {}, 'pit-7').status).toBe('error'); // `by` is required
    expect({ ...t.state, seq: before.seq }).toEqual(before);
  });
});

describe('a held round and the other reasons to hold the shoes share one LOCK/UNLOCK owner', () => {
  const lockCommands = (t: GapTable) =>
    t
      .commands()
      .filter((c) => c.command === 'LOCK' || c.command === 'UNLOCK')
      .map((c) => c.command);
  const outbox = (t: GapTable, level: 'ok' | 'filling' | 'full') =>
    t.input({ type: 'outbox-level', at: t.tick(), level, depth: level === 'full' ? 100 : level === 'filling' ? 80 : 10, max: 100 });
  const hold = {
    'frame-gap': (t: GapTable) => {
      t.cardAt(1, '9H');
      t.gap(1, 3);
    },
    'outbox-full': (t: GapTable) => outbox(t, 'full'),
  };
  const release = {
    'frame-gap': (t: GapTable) => {
      expect(t.request('resume-round', { by: 'pit-7' }, 'pit-7')).toMatchObject({ status: 'ok' });
    },
    'outbox-full': (t: GapTable) => {
      outbox(t, 'filling');
      outbox(t, 'ok');
    },
  };
  type Reason = keyof typeof hold;
  for (const [a, b] of [
    ['frame-gap', 'outbox-full'],
    ['outbox-full', 'frame-gap'],
  ] as Array<[Reason, Reason]>) {
    for (const first of [a, b]) {
      const last = first === a ? b : a;
      it(`${a} then ${b}, ${first} released first: one LOCK, and UNLOCK only when both are gone`, () => {
        const t = new GapTable(false);
        hold[a](t);
        hold[b](t);
        expect(lockCommands(t)).toEqual(['LOCK']);
        release[first](t);
        expect(lockCommands(t)).toEqual(['LOCK']);
        release[last](t);
        expect(lockCommands(t)).toEqual(['LOCK', 'UNLOCK']);
      });
    }
  }
});
