import { describe, expect, it } from 'vitest';
import { TableHarness } from '../../helpers/table-harness.js';

describe('baccarat table: rounds with betting none', () => {
  it('deals P1 B1 P2 B2, publishes the result with totals, pairs and size', () => {
    const t = new TableHarness();
    t.cards('9H', 'KD', '9C', '2S'); // player 8 natural, banker 2
    const r = t.lastResult()!;
    expect(r.status).toBe('complete');
    expect(r.cards).toEqual({ player: ['9H', '9C'], banker: ['KD', '2S'], burn: [] });
    expect(r.outcome).toEqual({
      winner: 'player',
      playerTotal: 8,
      bankerTotal: 2,
      natural: true,
      playerNatural: true,
      bankerNatural: false,
      playerPair: true,
      bankerPair: false,
      cardCount: 4,
      size: 'small',
    });
    const roles = t.events('card').map((e) => e.role);
    expect(roles).toEqual(['player', 'banker', 'player', 'banker']);
  });

  it('third cards: player draws on 5, banker on 3 stands when player third is 8', () => {
    const t = new TableHarness();
    t.cards('2H', '3D', '3C', 'KS', '8D'); // player 5 draws 8 -> 3; banker 3 stands on player third 8
    const r = t.lastResult()!;
    expect(r.cards).toEqual({ player: ['2H', '3C', '8D'], banker: ['3D', 'KS'], burn: [] });
    expect(r.outcome).toMatchObject({ winner: 'tie', playerTotal: 3, bankerTotal: 3, cardCount: 5, size: 'big', natural: false });
  });

  it('banker draws when the player stood on 6 and the banker has 5 or less', () => {
    const t = new TableHarness();
    t.cards('6H', '4D', 'KC', 'AS', '3H'); // player 6 stands; banker 5 draws -> 8
    const r = t.lastResult()!;
    expect(r.cards).toEqual({ player: ['6H', 'KC'], banker: ['4D', 'AS', '3H'], burn: [] });
    expect(r.outcome).toMatchObject({ winner: 'banker', playerTotal: 6, bankerTotal: 8, cardCount: 5 });
  });

  it('seq strictly increases over every published message and ids are stable', () => {
    const t = new TableHarness();
    t.cards('9H', 'KD', '9C', '2S', '6H', '4D', 'KC', 'AS', '3H');
    const seqs = t.published().map((p) => p.seq);
    for (let i = 1; i < seqs.length; i++) expect(seqs[i]).toBe(seqs[i - 1] + 1);
    const ids = t.results().map((r) => r.roundId);
    expect(ids).toEqual(['bac-01-s0001-r0001', 'bac-01-s0001-r0002']);
    expect(t.results().every((r) => r.table === 'bac-01' && r.game === 'baccarat' && r.v === 1)).toBe(true);
  });

  it('ts comes from the input time (replay is deterministic)', () => {
    const a = new TableHarness();
    const b = new TableHarness();
    for (const t of [a, b]) t.cards('9H', 'KD', '9C', '2S');
    expect(JSON.stringify(a.published())).toBe(JSON.stringify(b.published()));
    expect(a.lastResult()!.ts).toBe(new Date(a.now).toISOString());
  });

  it('continues seq and shoe numbers from persisted counters', () => {
    const t = new TableHarness();
    t.state = { ...t.state, seq: 500 };
    t.cards('9H', 'KD', '9C', '2S');
    expect(t.lastResult()!.seq).toBeGreaterThan(500);
  });
});

describe('shoe procedures', () => {
  it('new shoe: the reveal card says how many cards are burned, then rounds begin', () => {
    const t = new TableHarness();
    t.newShoe('3S', ['4H', '5H', '6H']);
    const shoe = t.published('shoe').at(-1)!;
    expect(shoe).toMatchObject({ shoeId: 'bac-01-s0002', state: 'dealing', revealCard: '3S', burnCount: 3, cardsDealt: 4 });
    const roles = t.events('card').map((e) => [e.role, e.card]);
    expect(roles).toEqual([
      ['reveal', '3S'],
      ['burn', null],
      ['burn', null],
      ['burn', null],
    ]);
    t.cards('9H', 'KD', '9C', '2S');
    expect(t.lastResult()!.roundId).toBe('bac-01-s0002-r0001');
    expect(t.lastResult()!.cards).toEqual({ player: ['9H', '9C'], banker: ['KD', '2S'], burn: [] });
  });

  it('a picture or ten as reveal card burns 10', () => {
    const t = new TableHarness();
    t.newShoe('QD', ['2C', '2C', '2C', '2C', '2C', '2C', '2C', '2C', '3C', '3C']);
    expect(t.published('shoe').at(-1)).toMatchObject({ state: 'dealing', burnCount: 10 });
    expect(t.results()).toHaveLength(0);
  });

  it('cut card during a round makes it the last round; a card after it is card-after-last-round', () => {
    const t = new TableHarness();
    t.newShoe('AS', ['2D']);
    t.cards('9H', 'KD');
    t.frame({ type: 'CUT' });
    expect(t.published('shoe').at(-1)).toMatchObject({ state: 'last-round', cutCardSeen: true });
    t.cards('9C', '2S');
    expect(t.lastResult()!.status).toBe('complete');
    expect(t.published('shoe').at(-1)).toMatchObject({ state: 'closed' });
    t.card('5H');
    expect(t.alerts('card-after-last-round')).toHaveLength(1);
    expect(t.results()).toHaveLength(1);
    // a new shoe clears it
    t.newShoe('AS', ['2D']);
    t.cards('9H', 'KD', '9C', '2S');
    expect(t.results()).toHaveLength(2);
  });

  it('cut card between rounds closes the shoe at once: no further round', () => {
    const t = new TableHarness();
    t.cards('9H', 'KD', '9C', '2S');
    t.frame({ type: 'CUT' });
    expect(t.published('shoe').at(-1)).toMatchObject({ state: 'closed', cutCardSeen: true });
    expect(t.events('cut').at(-1)!.when).toBe('between-rounds');
    t.card('4C');
    expect(t.alerts('card-after-last-round')).toHaveLength(1);
    expect(t.results()).toHaveLength(1);
  });

  it('the cut card is never a card of a hand', () => {
    const t = new TableHarness();
    t.cards('2H', '3D');
    t.frame({ type: 'CUT' });
    t.cards('3C', 'KS', '8D');
    expect(t.lastResult()!.cards).toEqual({ player: ['2H', '3C', '8D'], banker: ['3D', 'KS'], burn: [] });
  });

  it('foreign card: a 9th ace of spades in an 8-deck shoe is critical and voids the round', () => {
    const t = new TableHarness();
    t.newShoe('AD', ['2D']);
    for (let i = 0; i < 8; i++) t.cards('AS', 'KD', 'KC', 'QS', 'JH', 'JD'); // 8 rounds with an AS each
    const before = t.results().length;
    t.card('AS');
    const a = t.alerts('foreign-card');
    expect(a).toHaveLength(1);
    expect(a[0].severity).toBe('critical');
    expect(t.results().length).toBe(before + 1);
    expect(t.lastResult()).toMatchObject({ status: 'void', reason: 'foreign-card' });
    expect(JSON.stringify(t.lastResult()!.cards)).not.toContain('AS');
  });
});

describe('misread, rescan and dropped cards', () => {
  it('MISREAD -> awaiting-rescan, RESCAN sent at once and retried, then CARD,x,R deals the card', () => {
    const t = new TableHarness();
    t.cards('2H');
    t.frame({ type: 'MISREAD' });
    expect(t.alerts('misread')[0]).toMatchObject({ severity: 'info' });
    expect(t.published('round').at(-1)).toMatchObject({ phase: 'awaiting-rescan' });
    expect(t.commands()).toEqual([{ deviceId: 'shoe-1', command: 'RESCAN' }]);
    const timers = t.timers().map((x) => x.name);
    expect(timers).toEqual(['rescan-retry:1', 'rescan-overdue:1']);
    // first retry fires
    t.input({ type: 'timer', at: t.tick(500), name: 'rescan-retry:1' });
    expect(t.commands()).toHaveLength(2);
    t.card('3D', true);
    expect(t.events('rescan')).toHaveLength(1);
    t.cards('3C', 'KS', '8D');
    expect(t.lastResult()!.cards).toEqual({ player: ['2H', '3C', '8D'], banker: ['3D', 'KS'], burn: [] });
    // the overdue timer of a resolved rescan does nothing
    t.input({ type: 'timer', at: t.tick(20000), name: 'rescan-overdue:1' });
    expect(t.alerts('rescan-overdue')).toHaveLength(0);
  });

  it('a rescan that never comes raises rescan-overdue and the round keeps waiting', () => {
    const t = new TableHarness();
    t.cards('2H');
    t.frame({ type: 'MISREAD' });
    t.input({ type: 'timer', at: t.tick(20000), name: 'rescan-overdue:1' });
    expect(t.alerts('rescan-overdue')).toHaveLength(1);
    expect(t.alerts('rescan-overdue')[0].severity).toBe('warning');
    expect(t.published('round').at(-1)).toMatchObject({ phase: 'awaiting-rescan' });
  });

  it('a card from the shoe while a rescan is pending is out-of-order: neither dealt nor counted', () => {
    const t = new TableHarness();
    t.cards('2H');
    t.frame({ type: 'MISREAD' });
    t.card('7C');
    expect(t.alerts('out-of-order-card')).toHaveLength(1);
    t.card('3D', true);
    t.cards('3C', 'KS', '8D');
    expect(t.lastResult()!.cards).toEqual({ player: ['2H', '3C', '8D'], banker: ['3D', 'KS'], burn: [] });
    expect(JSON.stringify(t.lastResult())).not.toContain('7C');
  });

  it('repeated MISREADs are one pending card', () => {
    const t = new TableHarness();
    t.frame({ type: 'MISREAD' });
    t.frame({ type: 'MISREAD' });
    expect(t.alerts('misread')).toHaveLength(2);
    expect(t.commands()).toHaveLength(1);
    t.card('9H', true);
    t.cards('KD', '9C', '2S');
    expect(t.lastResult()!.cards).toEqual({ player: ['9H', '9C'], banker: ['KD', '2S'], burn: [] });
  });

  it('a rescan with no misread pending is unexpected-rescan and ignored', () => {
    const t = new TableHarness();
    t.card('9H', true);
    expect(t.alerts('unexpected-rescan')).toHaveLength(1);
    expect(t.events('card')).toHaveLength(0);
  });

  it('DROP of a card that was read: an event, play goes on', () => {
    const t = new TableHarness();
    t.cards('9H', 'KD');
    t.frame({ type: 'DROP' });
    expect(t.events('drop')).toHaveLength(1);
    expect(t.alerts()).toHaveLength(0);
    t.cards('9C', '2S');
    expect(t.lastResult()!.status).toBe('complete');
  });

  it('DROP while a rescan is pending: dropped-card and the round is void', () => {
    const t = new TableHarness();
    t.cards('9H', 'KD');
    t.frame({ type: 'MISREAD' });
    t.frame({ type: 'DROP' });
    expect(t.alerts('dropped-card')).toHaveLength(1);
    expect(t.lastResult()).toMatchObject({ status: 'void', reason: 'dropped-card' });
    t.cards('9C', 'KH', '9S', '2S');
    expect(t.lastResult()).toMatchObject({ status: 'complete' });
  });
});

describe('engine-driven betting', () => {
  it('open-betting, close-betting, deal: result carries the engine round id', () => {
    const t = new TableHarness({ betting: 'engine' });
    const r1 = t.request('open-betting', { transaction: 'tx1', roundId: 'R-77' });
    expect(r1).toMatchObject({ type: 'response', status: 'ok', transaction: 'tx1', data: { roundId: 'R-77' } });
    expect(t.published('round').at(-1)).toMatchObject({ phase: 'betting', roundId: 'R-77' });
    expect(t.request('close-betting')).toMatchObject({ status: 'ok' });
    t.cards('9H', 'KD', '9C', '2S');
    expect(t.lastResult()).toMatchObject({ roundId: 'R-77', status: 'complete' });
  });

  it('exposed card: a face-up card while betting is open voids the round', () => {
    const t = new TableHarness({ betting: 'engine' });
    t.request('open-betting');
    t.card('9H');
    expect(t.alerts('exposed-card')).toHaveLength(1);
    expect(t.lastResult()).toMatchObject({ status: 'void', reason: 'exposed-card' });
  });

  it("one unnecessary card becomes the next round's burn; two void the rest of the shoe", () => {
    const t = new TableHarness({ betting: 'engine' });
    t.request('open-betting');
    t.request('close-betting');
    t.cards('9H', 'KD', '9C', '2S');
    t.card('5C');
    expect(t.alerts('unnecessary-card')).toHaveLength(1);
    expect(t.alerts('unnecessary-card')[0].severity).toBe('warning');
    t.request('open-betting');
    t.request('close-betting');
    t.cards('6H', '4D', 'KC', 'AS', '3H');
    expect(t.lastResult()!.cards).toEqual({ player: ['6H', 'KC'], banker: ['4D', 'AS', '3H'], burn: ['5C'] });
    // two unnecessary cards: the result stands, the shoe is void
    t.cards('5D', '6D');
    expect(t.alerts('shoe-void')).toHaveLength(1);
    expect(t.alerts('shoe-void')[0].severity).toBe('critical');
    expect(t.published('shoe').at(-1)).toMatchObject({ state: 'void' });
    expect(t.lastResult()).toMatchObject({ status: 'complete' });
    const refused = t.request('open-betting');
    expect(refused).toMatchObject({ status: 'error' });
    expect(String(refused.error)).toContain('void');
    expect(t.commands()).toEqual([{ deviceId: 'shoe-1', command: 'LOCK' }]);
    t.newShoe('AS', ['2D']);
    expect(t.commands()).toEqual([
      { deviceId: 'shoe-1', command: 'LOCK' },
      { deviceId: 'shoe-1', command: 'UNLOCK' },
    ]);
    expect(t.request('open-betting')).toMatchObject({ status: 'ok' });
  });

  it("void-round voids the round in progress with the pit's reason", () => {
    const t = new TableHarness({ betting: 'engine' });
    t.request('open-betting');
    t.request('close-betting');
    t.cards('9H', 'KD');
    expect(t.request('void-round', { reason: 'table bumped' })).toMatchObject({ status: 'ok' });
    expect(t.lastResult()).toMatchObject({ status: 'void', reason: 'round-void', detail: 'table bumped' });
    expect(t.alerts('round-void')).toHaveLength(1);
  });

  it('bad requests are refused with a reason and change nothing', () => {
    const t = new TableHarness({ betting: 'engine' });
    const before = JSON.stringify({ ...t.state, seq: 0 });
    expect(t.request('open-betting', '{not json')).toMatchObject({ status: 'error' });
    expect(t.request('open-betting', { roundId: 5 })).toMatchObject({ status: 'error' });
    expect(t.request('open-betting', { bogus: true })).toMatchObject({ status: 'error' });
    expect(t.request('close-betting')).toMatchObject({ status: 'error', error: 'no round is open' });
    expect(t.request('frobnicate')).toMatchObject({ status: 'error' });
    expect(JSON.stringify({ ...t.state, seq: 0 })).toBe(before);
    expect(t.results()).toHaveLength(0);
  });

  it('open-betting is refused on a table without an engine', () => {
    const t = new TableHarness({ betting: 'none' });
    expect(t.request('open-betting')).toMatchObject({ status: 'error' });
  });

  it('status answers with devices, shoe and round', () => {
    const t = new TableHarness({ betting: 'engine' });
    t.request('open-betting', { roundId: 'R1' });
    const s = t.request('status', { transaction: 'st' });
    expect(s).toMatchObject({ status: 'ok', transaction: 'st', data: { table: 'bac-01', game: 'baccarat', betting: 'engine' } });
    expect((s.data as any).devices['shoe-1']).toMatchObject({ kind: 'card-shoe', state: 'disconnected' });
    expect((s.data as any).round).toMatchObject({ roundId: 'R1', phase: 'betting' });
  });
});

describe('devices', () => {
  it('stale, recovery on the next frame, ERR fault, disconnect alert', () => {
    const t = new TableHarness();
    t.input({ type: 'device-status', at: t.tick(), deviceId: 'shoe-1', state: 'connected' });
    t.input({ type: 'device-status', at: t.tick(), deviceId: 'shoe-1', state: 'stale' });
    expect(t.alerts('device-stale')).toHaveLength(1);
    t.frame({ type: 'HB' });
    const states = t.published('devices/shoe-1').map((d) => d.state);
    expect(states).toEqual(['disconnected', 'connected', 'stale', 'connected']);
    t.frame({ type: 'ERR', code: 'JAM', text: 'card stuck' });
    expect(t.alerts('device-error')[0]).toMatchObject({ severity: 'critical', code: 'JAM' });
    expect(t.published('devices/shoe-1').at(-1)).toMatchObject({ state: 'fault', detail: 'JAM: card stuck' });
    t.input({ type: 'device-status', at: t.tick(), deviceId: 'shoe-1', state: 'disconnected', detail: 'gone' });
    expect(t.alerts('device-disconnected')).toHaveLength(1);
  });

  it('device messages carry kind and are retained; a device restart is an event, not an alert', () => {
    const t = new TableHarness();
    const dev = t.outputs.find((o) => o.type === 'publish' && o.topic === 'devices/shoe-1');
    expect(dev).toMatchObject({ retain: true, payload: { kind: 'card-shoe', state: 'disconnected' } });
    t.input({ type: 'device-restart', at: t.tick(), deviceId: 'shoe-1' });
    expect(t.events('device-restart')).toHaveLength(1);
    expect(t.alerts()).toHaveLength(0);
  });
});

describe('hidden cards and their reveal point', () => {
  it('three card poker: player cards dealt after betting closed are shown at once; dealer cards stay hidden until close-decisions', () => {
    const t = new TableHarness({ game: 'three-card-poker', betting: 'engine' });
    t.request('open-betting');
    t.request('close-betting');
    t.cards('AS', 'KS', 'QS', '2C', '7D', '9H');
    const cardEvents = t.events('card');
    const player = cardEvents.filter((e) => e.role === 'player');
    const dealer = cardEvents.filter((e) => e.role === 'dealer');
    expect(player.map((e) => e.card)).toEqual(['AS', 'KS', 'QS']);
    expect(dealer.map((e) => e.card)).toEqual([null, null, null]);
    const before = JSON.stringify(t.published());
    for (const c of ['2C', '7D', '9H']) expect(before).not.toContain(`"${c}"`);
  });
});
