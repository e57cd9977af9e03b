/**
 * Which requests the table machine takes only with a verified signer (src/core/table/privileged.ts,
 * docs/SECURITY.md "Privileged requests"): those on a completed or held round. The edge verifies
 * the signature; the machine gets the signer's name in the input (`signer`) and publishes it as
 * `by`. Everyday requests, and voids or corrections of a round in progress that is not held, need
 * none.
 */
import { describe, expect, it } from 'vitest';
import { privilegedBecause } from '../../../src/core/table/privileged.js';
import { parseRequest } from '../../../src/core/vocabulary/requests.js';
import { DeviceTableHarness } from '../../helpers/table-harness.js';

const SHOE = { id: 'shoe-1', kind: 'card-shoe' };
const table = (game = 'baccarat', opts: Record<string, unknown> = {}) => new DeviceTableHarness({ game, betting: 'engine', table: opts, devices: [SHOE] });
const cards = (t: DeviceTableHarness, ...cs: string[]) => {
  for (const c of cs) t.frame('shoe-1', 'SHOE', { type: 'CARD', card: c, rescan: false });
};
const req = (command: string, payload: Record<string, unknown> = {}) => {
  const r = parseRequest(command, JSON.stringify(payload));
  if (!r.ok) throw new Error(r.error);
  return r;
};

describe('privilegedBecause: the rule', () => {
  const idle = { held: false };
  const inRound = { roundId: 'r-9', held: false };
  const held = { roundId: 'r-9', held: true };
  it.each([
    ['resume-round', { by: 'x' }, idle, true],
    ['void-round', { reason: 'x' }, inRound, false],
    ['void-round', { reason: 'x', roundId: 'r-9' }, inRound, false],
    ['void-round', { reason: 'x', roundId: 'r-8' }, inRound, true],
    ['void-round', { reason: 'x', roundId: 'r-8' }, idle, true],
    ['void-round', { reason: 'x' }, held, true],
    ['correction', { kind: 'reverse-order' }, inRound, false],
    ['correction', { kind: 'cards', roundId: 'r-8' }, inRound, true],
    ['correction', { kind: 'reverse-order' }, held, true],
    ['new-shoe', {}, inRound, false],
    ['new-shoe', {}, held, true],
    ['end-shoe', {}, idle, false],
    ['end-shoe', {}, held, true],
    ['open-betting', {}, idle, false],
    ['close-betting', {}, held, false],
    ['decision', { seat: 'seat1', action: 'hit' }, held, false],
  ] as const)('%s %j with %j: privileged %s', (command, payload, view, privileged) => {
    expect(privilegedBecause(req(command, payload), view) !== null).toBe(privileged);
  });
});

describe('the machine', () => {
  it("a correction of a completed round: unsigned refused signature-required (nothing but the answer); signed, `by` is the signer, not the request's word", () => {
    const t = table('dragon-tiger', { burnPerRound: 0 });
    t.request('open-betting');
    t.request('close-betting');
    cards(t, '2H', 'KS');
    const result = t.lastResult()!;
    expect(result.outcome).toMatchObject({ winner: 'tiger' });
    const swap = { kind: 'cards', roundId: result.roundId, by: 'pit-boss-anyone', cards: { dragon: ['KS'], tiger: ['2H'] } };
    const before = JSON.stringify(t.state);
    t.clear();
    expect(t.request('correction', swap)).toMatchObject({ status: 'error', code: 'signature-required' });
    expect(t.published().map((m) => m.type)).toEqual(['response']);
    expect(JSON.stringify({ ...t.state, seq: 0 })).toBe(JSON.stringify({ ...JSON.parse(before), seq: 0 }));
    expect(t.request('correction', swap, 'pit-boss-7')).toMatchObject({ status: 'ok' });
    expect(t.lastResult()).toMatchObject({ status: 'corrected', outcome: { winner: 'dragon' }, correction: { kind: 'cards', by: 'pit-boss-7' } });
    expect(t.events('correction').at(-1)).toMatchObject({ by: 'pit-boss-7' });
  });

  it("the engine's everyday requests need no signer: a void of the round in progress, a new shoe between rounds", () => {
    const t = table();
    t.request('open-betting');
    t.request('close-betting');
    cards(t, '9C');
    expect(t.request('void-round', { reason: 'misdeal' })).toMatchObject({ status: 'ok' });
    expect(t.lastResult()).toMatchObject({ status: 'void', reason: 'round-void' });
    expect(t.request('new-shoe')).toMatchObject({ status: 'ok' });
    expect(t.request('end-shoe')).toMatchObject({ status: 'ok' });
  });

  it('3 Pictures reverse-order during the deal needs none; after the result it does', () => {
    const t = table('three-pictures', { burnPerRound: 0 });
    t.request('open-betting');
    t.request('close-betting');
    cards(t, 'KS', '2H', '5C', '9D');
    expect(t.request('correction', { kind: 'reverse-order' })).toMatchObject({ status: 'ok' });
    cards(t, 'QS', '3H', '6C', '8D', 'JS', '4H', '7C', '7D');
    const first = t.lastResult()!;
    expect(t.request('correction', { kind: 'reverse-order', roundId: first.roundId })).toMatchObject({ status: 'error', code: 'signature-required' });
  });

  it('sic bo and keno: a correction always names a completed round, so it is always signed', () => {
    const dice = new DeviceTableHarness({ game: 'sic-bo', devices: [{ id: 'dice-1', kind: 'dice-sensor' }] });
    dice.frame('dice-1', 'DICE', { type: 'ROLL', dice: [1, 2, 3], bounces: 3 });
    const roundId = dice.lastResult()!.roundId;
    expect(dice.request('correction', { kind: 'dice', roundId, by: 'x', dice: [6, 6, 5] })).toMatchObject({ status: 'error', code: 'signature-required' });
    expect(dice.request('void-round', { roundId, by: 'x', reason: 'x' })).toMatchObject({ status: 'error', code: 'signature-required' });
    expect(dice.request('correction', { kind: 'dice', roundId, dice: [6, 6, 5] }, 'pit-1')).toMatchObject({ status: 'ok' });
    expect(dice.lastResult()).toMatchObject({ status: 'corrected', correction: { by: 'pit-1' } });
  });

  it('a refusal the edge wrote into the input (a bad signature) is answered with its code and changes nothing, also with a signer field', () => {
    const t = table();
    t.request('open-betting');
    const before = JSON.stringify(t.state);
    t.clear();
    const out = t.input({
      type: 'request',
      at: t.tick(),
      command: 'void-round',
      payload: JSON.stringify({ transaction: 'v1', reason: 'x' }),
      refused: 'the signature does not verify',
      refusedCode: 'bad-signature',
    });
    const answers = out.filter((o) => o.type === 'publish').map((o) => (o as { payload: Record<string, unknown> }).payload);
    expect(answers).toEqual([expect.objectContaining({ type: 'response', status: 'error', code: 'bad-signature', transaction: 'v1' })]);
    expect(JSON.stringify({ ...t.state, seq: 0 })).toBe(JSON.stringify({ ...JSON.parse(before), seq: 0 }));
  });
});
