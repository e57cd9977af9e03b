import { describe, expect, it } from 'vitest';
import { sicBoOutcome } from '../../../src/core/games/evaluators/sic-bo.js';
import { DeviceTableHarness } from '../../helpers/table-harness.js';

const DICE = [{ id: 'dice-1', kind: 'dice-sensor' }];
const sicbo = (o: { betting?: 'engine' | 'none'; table?: Record<string, unknown>; persisted?: Record<string, number> } = {}) =>
  new DeviceTableHarness({ id: 'sb-01', game: 'sic-bo', devices: DICE, ...o });
const shake = (t: DeviceTableHarness) => t.frame('dice-1', 'DICE', { type: 'SHAKE' });
const roll = (t: DeviceTableHarness, dice: [number, number, number], bounces = 3) => t.frame('dice-1', 'DICE', { type: 'ROLL', dice, bounces });

describe('sic bo table, betting none', () => {
  it('SHAKE then ROLL: a round with the dice and the sic bo outcome; events for each frame', () => {
    const t = sicbo();
    expect(t.lastRound()).toMatchObject({ type: 'round', phase: 'idle', expect: { kind: 'roll' } });
    shake(t);
    expect(t.lastRound()).toMatchObject({ phase: 'dealing', roundId: 'sb-01-r000001', shakes: 1 });
    roll(t, [2, 2, 5], 4);
    const r = t.lastResult()!;
    expect(r).toMatchObject({ type: 'result', table: 'sb-01', game: 'sic-bo', roundId: 'sb-01-r000001', status: 'complete', dice: [2, 2, 5], bounces: 4 });
    expect(r.outcome).toEqual(sicBoOutcome([2, 2, 5]));
    expect(r.outcome).toMatchObject({ total: 9, size: 'small', triple: null, doubles: [2], combinations: [[2, 5]] });
    expect(r).not.toHaveProperty('cards');
    expect(t.events('dice').map((e) => e.action)).toEqual(['shake', 'roll']);
    expect(t.events('dice')[1]).toMatchObject({ dice: [2, 2, 5], bounces: 4, valid: true, roundId: 'sb-01-r000001', deviceId: 'dice-1' });
    expect(t.lastRound()).toMatchObject({ phase: 'complete', dice: [2, 2, 5], roundId: 'sb-01-r000001' });
  });

  it('a ROLL without SHAKE is accepted; rounds get new ids; a triple has no size', () => {
    const t = sicbo();
    roll(t, [1, 2, 3]);
    roll(t, [6, 6, 6]);
    expect(t.results().map((r) => r.roundId)).toEqual(['sb-01-r000001', 'sb-01-r000002']);
    expect(t.lastResult()!.outcome).toMatchObject({ total: 18, size: null, triple: 6 });
  });

  it('zero bounces (< minBounces 1): event + dice-no-bounce, no result, the round stays open for the re-shake', () => {
    const t = sicbo();
    shake(t);
    roll(t, [4, 5, 6], 0);
    expect(t.results()).toHaveLength(0);
    expect(t.alerts('dice-no-bounce')).toHaveLength(1);
    expect(t.alerts('dice-no-bounce')[0]).toMatchObject({ severity: 'warning', deviceId: 'dice-1', bounces: 0 });
    expect(t.events('dice').at(-1)).toMatchObject({ action: 'roll', valid: false, bounces: 0 });
    expect(t.lastRound()).toMatchObject({ phase: 'dealing', roundId: 'sb-01-r000001', attempts: [{ kind: 'no-bounce', dice: [4, 5, 6], bounces: 0 }] });
    shake(t);
    roll(t, [1, 1, 2], 1);
    expect(t.lastResult()).toMatchObject({ roundId: 'sb-01-r000001', status: 'complete', dice: [1, 1, 2], attempts: 1 });
  });

  it('minBounces is configurable', () => {
    const t = sicbo({ table: { minBounces: 3 } });
    roll(t, [1, 2, 3], 2);
    expect(t.alerts('dice-no-bounce')).toHaveLength(1);
    roll(t, [1, 2, 3], 3);
    expect(t.results()).toHaveLength(1);
    const z = sicbo({ table: { minBounces: 0 } });
    roll(z, [1, 2, 3], 0);
    expect(z.results()).toHaveLength(1);
  });

  it('COCKED -> cocked-dice, NOREAD -> dice-noread; events, no result, round stays open', () => {
    const t = sicbo();
    shake(t);
    t.frame('dice-1', 'DICE', { type: 'COCKED' });
    expect(t.alerts('cocked-dice')[0]).toMatchObject({ severity: 'warning', deviceId: 'dice-1', roundId: 'sb-01-r000001' });
    shake(t);
    t.frame('dice-1', 'DICE', { type: 'NOREAD' });
    expect(t.alerts('dice-noread')).toHaveLength(1);
    expect(t.results()).toHaveLength(0);
    expect(t.events('dice').map((e) => e.action)).toEqual(['shake', 'cocked', 'shake', 'noread']);
    expect(t.lastRound()).toMatchObject({ phase: 'dealing', shakes: 2, attempts: [{ kind: 'cocked' }, { kind: 'noread' }] });
    roll(t, [3, 4, 5]);
    expect(t.lastResult()).toMatchObject({ roundId: 'sb-01-r000001', status: 'complete', attempts: 2 });
  });

  it('COCKED with no round open opens the round (betting none)', () => {
    const t = sicbo();
    t.frame('dice-1', 'DICE', { type: 'COCKED' });
    expect(t.lastRound()).toMatchObject({ phase: 'dealing', roundId: 'sb-01-r000001' });
  });

  it('void-round voids the round in progress; without a round it is an error', () => {
    const t = sicbo();
    expect(t.request('void-round', { reason: 'x' })).toMatchObject({ status: 'error' });
    shake(t);
    const resp = t.request('void-round', { reason: 'dice fell off the table', transaction: 'tx1' });
    expect(resp).toMatchObject({ status: 'ok', transaction: 'tx1', data: { roundId: 'sb-01-r000001' } });
    expect(t.lastResult()).toMatchObject({ status: 'void', reason: 'round-void', detail: 'dice fell off the table', dice: null, outcome: null });
    expect(t.lastRound()).toMatchObject({ phase: 'void' });
    roll(t, [2, 3, 4]);
    expect(t.lastResult()).toMatchObject({ roundId: 'sb-01-r000002', status: 'complete' });
  });

  it('open-betting is refused without an engine; card requests do not apply', () => {
    const t = sicbo();
    expect(t.request('open-betting')).toMatchObject({ status: 'error' });
    expect(t.request('new-shoe')).toMatchObject({ status: 'error', error: 'new-shoe does not apply to a sic bo table' });
  });

  it('round ids continue from persisted counters (unique across restarts); seq strictly increases', () => {
    const t = sicbo();
    roll(t, [1, 2, 3]);
    roll(t, [1, 2, 3]);
    const counters = t.counters();
    expect(counters.roundNo).toBe(2);
    const again = sicbo({ persisted: counters });
    roll(again, [1, 2, 3]);
    expect(again.lastResult()!.roundId).toBe('sb-01-r000003');
    expect(again.lastResult()!.seq).toBeGreaterThan(counters.seq);
    const seqs = t.published().map((p) => p.seq);
    for (let i = 1; i < seqs.length; i++) expect(seqs[i]).toBe(seqs[i - 1] + 1);
  });

  it('a device disconnect mid-round keeps the round open; the roll after reconnecting completes it', () => {
    const t = sicbo();
    t.status('dice-1', 'connected');
    shake(t);
    t.status('dice-1', 'disconnected', 'port closed');
    expect(t.alerts('device-disconnected')).toHaveLength(1);
    t.status('dice-1', 'connected');
    roll(t, [5, 5, 1]);
    expect(t.lastResult()).toMatchObject({ roundId: 'sb-01-r000001', status: 'complete' });
  });
});

describe('sic bo table with an engine', () => {
  it('open-betting, close-betting, roll -> result with the engine round id', () => {
    const t = sicbo({ betting: 'engine' });
    expect(t.lastRound()).toMatchObject({ phase: 'idle', expect: { kind: 'open-betting' } });
    expect(t.request('open-betting', { roundId: 'ENG-1' })).toMatchObject({ status: 'ok', data: { roundId: 'ENG-1' } });
    expect(t.lastRound()).toMatchObject({ phase: 'betting', roundId: 'ENG-1' });
    shake(t); // informational during betting
    expect(t.alerts()).toHaveLength(0);
    t.request('close-betting');
    roll(t, [6, 5, 4]);
    expect(t.lastResult()).toMatchObject({ roundId: 'ENG-1', status: 'complete', outcome: { total: 15, size: 'big' } });
    expect(t.request('close-betting')).toMatchObject({ status: 'error' });
  });

  it('a valid roll while betting is open voids the round (round-void)', () => {
    const t = sicbo({ betting: 'engine' });
    t.request('open-betting');
    roll(t, [1, 2, 3]);
    expect(t.alerts('round-void')).toHaveLength(1);
    expect(t.lastResult()).toMatchObject({ status: 'void', reason: 'round-void', roundId: 'sb-01-r000001' });
  });

  it('a void roll (no bounce) while betting is open only alerts; the round stays', () => {
    const t = sicbo({ betting: 'engine' });
    t.request('open-betting');
    roll(t, [1, 2, 3], 0);
    expect(t.results()).toHaveLength(0);
    expect(t.alerts('dice-no-bounce')).toHaveLength(1);
    t.request('close-betting');
    roll(t, [1, 2, 3], 2);
    expect(t.lastResult()).toMatchObject({ status: 'complete' });
  });

  it('a roll with no round open is no result: no-round-open alert', () => {
    const t = sicbo({ betting: 'engine' });
    roll(t, [4, 4, 4]);
    expect(t.results()).toHaveLength(0);
    expect(t.alerts('no-round-open')[0]).toMatchObject({ severity: 'warning', dice: [4, 4, 4] });
    expect(t.request('open-betting')).toMatchObject({ status: 'ok' });
    expect(t.request('open-betting')).toMatchObject({ status: 'error' });
  });

  it('status answers with the round', () => {
    const t = sicbo({ betting: 'engine' });
    t.request('open-betting');
    expect(t.request('status').data).toMatchObject({
      table: 'sb-01',
      game: 'sic-bo',
      betting: 'engine',
      round: { roundId: 'sb-01-r000001', phase: 'betting' },
    });
  });
});

describe('sic bo messages match the MQTT API schemas', () => {
  it('every message of rolls, faults, voids, with and without an engine', () => {
    for (const betting of ['none', 'engine'] as const) {
      const t = sicbo({ betting });
      roll(t, [1, 2, 3]);
      if (betting === 'engine') {
        t.request('open-betting', { roundId: 'E-1' });
        shake(t);
        roll(t, [1, 1, 1], 0);
        roll(t, [2, 2, 2]);
        t.request('open-betting');
        t.request('close-betting');
      }
      shake(t);
      t.frame('dice-1', 'DICE', { type: 'COCKED' });
      t.frame('dice-1', 'DICE', { type: 'NOREAD' });
      roll(t, [6, 5, 4], 0);
      roll(t, [6, 5, 4], 9);
      shake(t);
      t.request('void-round', { reason: 'pit' });
      t.request('status');
      t.status('dice-1', 'disconnected', 'gone');
      expect(t.invalidMessages()).toEqual([]);
    }
  });
});
