import { describe, expect, it } from 'vitest';
import type { ShufflerState } from '../../../src/core/vocabulary/frames.js';
import { DeviceTableHarness } from '../../helpers/table-harness.js';

const SHOE = { id: 'shoe-1', kind: 'card-shoe' };
const SHUF = { id: 'shuf-1', kind: 'shuffler' };

const table = (game = 'baccarat', extra: Array<Record<string, unknown> & { id: string; kind: string }> = [], tableOpts: Record<string, unknown> = {}) =>
  new DeviceTableHarness({ id: 'tbl-01', game, devices: [SHOE, SHUF, ...extra], table: tableOpts });
const card = (t: DeviceTableHarness, c: string, rescan = false, dev = 'shoe-1') => t.frame(dev, 'SHOE', { type: 'CARD', card: c, rescan });
const shuf = (t: DeviceTableHarness, state: ShufflerState) => t.frame('shuf-1', 'SHUF', { type: 'SHUF_STATE', state });
const count = (t: DeviceTableHarness, n: number) => t.frame('shuf-1', 'SHUF', { type: 'COUNT', count: n });

describe('shuffler on a card table', () => {
  it('STATE and COUNT frames are shuffler events', () => {
    const t = table();
    shuf(t, 'SHUFFLING');
    count(t, 416);
    shuf(t, 'READY');
    expect(t.events('shuffler').map((e) => e.state ?? e.count)).toEqual(['SHUFFLING', 416, 'READY']);
    expect(t.events('shuffler')[1]).toMatchObject({ deviceId: 'shuf-1', count: 416, expected: 416, ok: true });
    expect(t.alerts()).toHaveLength(0);
  });

  it('JAM mid-round: shuffler-jam (critical) and the round is void with reason shuffler-jam', () => {
    const t = table();
    card(t, '9H');
    card(t, 'KD');
    shuf(t, 'JAM');
    expect(t.alerts('shuffler-jam')).toHaveLength(1);
    expect(t.alerts('shuffler-jam')[0]).toMatchObject({ severity: 'critical', deviceId: 'shuf-1' });
    expect(t.lastResult()).toMatchObject({ status: 'void', reason: 'shuffler-jam', cards: { player: ['9H'], banker: ['KD'], burn: [] } });
    // between rounds a jam only alerts; the next round deals normally
    shuf(t, 'JAM');
    expect(t.alerts('shuffler-jam')).toHaveLength(2);
    expect(t.results()).toHaveLength(1);
    for (const c of ['9C', 'KS', '9D', '2S']) card(t, c);
    expect(t.lastResult()).toMatchObject({ status: 'complete' });
  });

  it('single-deck game: COUNT 51 is card-count-mismatch (critical); COUNT 52 is fine', () => {
    const t = table('three-pictures');
    count(t, 51);
    expect(t.alerts('card-count-mismatch')).toHaveLength(1);
    expect(t.alerts('card-count-mismatch')[0]).toMatchObject({ severity: 'critical', count: 51, expected: 52 });
    count(t, 52);
    expect(t.alerts('card-count-mismatch')).toHaveLength(1);
  });

  it('the expected count is 52 x decks for shoe games, or expectedDeckSize', () => {
    const t = table('baccarat');
    count(t, 52);
    expect(t.alerts('card-count-mismatch')[0]).toMatchObject({ expected: 416 });
    const u = table('baccarat', [], { expectedDeckSize: 312 });
    count(u, 312);
    expect(u.alerts()).toHaveLength(0);
  });

  it('single-deck game: READY after COUNT starts a fresh deck; READY alone does not', () => {
    const t = table('three-pictures');
    const shoeIds = () => t.published('shoe').map((s) => s.shoeId);
    const before = shoeIds().at(-1);
    shuf(t, 'READY');
    expect(shoeIds().at(-1)).toBe(before);
    count(t, 52);
    shuf(t, 'READY');
    expect(shoeIds().at(-1)).toBe('tbl-01-s0002');
    expect(t.published('shoe').at(-1)).toMatchObject({ state: 'dealing', cardsDealt: 0 });
    // shoe games: a shuffler READY does not start a shoe (the shoe's LOADED does)
    const b = table('baccarat');
    count(b, 416);
    shuf(b, 'READY');
    expect(b.published('shoe').at(-1)!.shoeId).toBe('tbl-01-s0001');
  });

  it('DOOR_OPEN holds dealing: LOCK to the shoes, cards alerted and not dealt nor counted; READY: UNLOCK and dealing goes on', () => {
    const t = table('baccarat', [
      { id: 'scan-1', kind: 'barcode-scanner' },
      { id: 'shoe-2', kind: 'card-shoe' },
    ]);
    card(t, '9H');
    shuf(t, 'DOOR_OPEN');
    expect(t.commands()).toEqual([
      { deviceId: 'shoe-1', command: 'LOCK' },
      { deviceId: 'shoe-2', command: 'LOCK' },
    ]);
    shuf(t, 'DOOR_OPEN'); // repeated: no second LOCK
    expect(t.commands()).toHaveLength(2);
    card(t, 'KD');
    const ooo = t.alerts('out-of-order-card');
    expect(ooo).toHaveLength(1);
    expect(ooo[0]).toMatchObject({ severity: 'warning', card: 'KD', held: 'shuffler' });
    expect(t.events('card').map((e) => e.card)).toEqual(['9H']);
    expect(t.published('round').at(-1)!.cards).toMatchObject({ player: ['9H'], banker: [] });
    shuf(t, 'READY');
    expect(t.commands().slice(2)).toEqual([
      { deviceId: 'shoe-1', command: 'UNLOCK' },
      { deviceId: 'shoe-2', command: 'UNLOCK' },
    ]);
    for (const c of ['KD', '9C', '2S']) card(t, c);
    expect(t.lastResult()).toMatchObject({ status: 'complete', cards: { player: ['9H', '9C'], banker: ['KD', '2S'] } });
    expect(t.alerts('foreign-card')).toHaveLength(0);
  });

  it('ERROR also holds dealing and raises device-error (critical)', () => {
    const t = table();
    shuf(t, 'ERROR');
    expect(t.alerts('device-error')[0]).toMatchObject({ severity: 'critical', deviceId: 'shuf-1' });
    expect(t.commands()).toEqual([{ deviceId: 'shoe-1', command: 'LOCK' }]);
    card(t, 'AS');
    expect(t.alerts('out-of-order-card')).toHaveLength(1);
    shuf(t, 'IDLE'); // not READY: still held
    t.tick(1000); // out-of-order-card alerts are coalesced per second
    card(t, 'AS');
    expect(t.alerts('out-of-order-card')).toHaveLength(2);
    shuf(t, 'READY');
    card(t, 'AS');
    expect(t.events('card')).toHaveLength(1);
  });

  it('during the hold a MISREAD is alerted (no pending rescan); a rescan of a card misread before the hold still resolves it', () => {
    const t = table();
    t.frame('shoe-1', 'SHOE', { type: 'MISREAD' });
    shuf(t, 'DOOR_OPEN');
    card(t, '9H', true);
    expect(t.events('rescan')).toHaveLength(1);
    expect(t.events('card').map((e) => e.card)).toEqual(['9H']);
    t.frame('shoe-1', 'SHOE', { type: 'MISREAD' });
    expect(t.alerts('out-of-order-card')).toHaveLength(1);
    expect(t.lastRound()).not.toMatchObject({ phase: 'awaiting-rescan' });
  });

  it('status carries the shuffler', () => {
    const t = table();
    shuf(t, 'DOOR_OPEN');
    expect(t.request('status').data).toMatchObject({ shuffler: { deviceId: 'shuf-1', state: 'DOOR_OPEN', blocked: true } });
  });
});

describe('RFID shoe and barcode scanner on a card table', () => {
  const RFID = { id: 'rfid-1', kind: 'rfid-shoe', transport: { type: 'simulator' } };
  const SCAN = { id: 'scan-1', kind: 'barcode-scanner', transport: { type: 'hid', vendorId: 1, productId: 2 } };
  const rfidTable = () => new DeviceTableHarness({ id: 'tbl-02', game: 'baccarat', devices: [RFID, SCAN] });
  const rcard = (t: DeviceTableHarness, c: string) => t.frame('rfid-1', 'RFID', { type: 'CARD', card: c, rescan: false });

  it("the RFID shoe's next card after its MISREAD is the rescan (no out-of-order alert)", () => {
    const t = rfidTable();
    rcard(t, '9H');
    t.frame('rfid-1', 'RFID', { type: 'MISREAD' });
    expect(t.commands()).toEqual([{ deviceId: 'rfid-1', command: 'RESCAN' }]);
    rcard(t, 'KD');
    expect(t.alerts('out-of-order-card')).toHaveLength(0);
    expect(t.events('rescan')[0]).toMatchObject({ deviceId: 'rfid-1', card: 'KD' });
    rcard(t, '9C');
    rcard(t, '2S');
    expect(t.lastResult()).toMatchObject({ status: 'complete', cards: { player: ['9H', '9C'], banker: ['KD', '2S'] } });
  });

  it("the barcode scanner answers a misread: its card is the rescan; the shoe's next card is a new card", () => {
    const t = rfidTable();
    rcard(t, '9H');
    t.frame('rfid-1', 'RFID', { type: 'MISREAD' });
    card(t, 'KD', true, 'scan-1');
    expect(t.events('rescan')[0]).toMatchObject({ deviceId: 'scan-1', card: 'KD' });
    rcard(t, '9C');
    rcard(t, '2S');
    expect(t.lastResult()).toMatchObject({ status: 'complete', cards: { player: ['9H', '9C'], banker: ['KD', '2S'] } });
    expect(t.alerts().map((a) => a.kind)).toEqual(['misread']);
  });

  it('a scan with no misread pending is an unexpected-rescan and ignored', () => {
    const t = rfidTable();
    card(t, 'AS', true, 'scan-1');
    expect(t.alerts('unexpected-rescan')).toHaveLength(1);
    expect(t.events('card')).toHaveLength(0);
  });

  it('an optical shoe keeps the strict rule: a plain card while its rescan is pending is out of order', () => {
    const t = table();
    t.frame('shoe-1', 'SHOE', { type: 'MISREAD' });
    card(t, 'KD');
    expect(t.alerts('out-of-order-card')).toHaveLength(1);
  });
});

describe('shuffler messages match the MQTT API schemas', () => {
  it('events, alerts, void results, shoes and status', () => {
    const t = table('three-pictures');
    count(t, 51);
    count(t, 52);
    shuf(t, 'READY');
    shuf(t, 'SHUFFLING');
    shuf(t, 'DOOR_OPEN');
    card(t, 'AS');
    shuf(t, 'ERROR');
    shuf(t, 'READY');
    for (const c of ['2S', '3S', '4S', '5S', 'AS']) card(t, c);
    shuf(t, 'JAM');
    t.request('status');
    expect(t.results().at(-1)).toMatchObject({ status: 'void', reason: 'shuffler-jam' });
    expect(t.invalidMessages()).toEqual([]);
  });
});
