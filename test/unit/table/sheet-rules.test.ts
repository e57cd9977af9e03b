/**
 * The rules of the operator's sheets as spec v1.1 of games.md reads them (issue 16), on the pure
 * machine. Each test names its clause; the scenarios in test/scenarios/ show the device-facing ones
 * over real ptys and Mosquitto.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ShufflerState } from '../../../src/core/vocabulary/frames.js';
import type { CardTableState } from '../../../src/core/table/types.js';
import { DeviceTableHarness, TableHarness } from '../../helpers/table-harness.js';

const SHOE = { id: 'shoe-1', kind: 'card-shoe' };
const SHUF = { id: 'shuf-1', kind: 'shuffler' };

function table(
  game: string,
  betting: 'engine' | 'none' = 'engine',
  opts: Record<string, unknown> = {},
  extra: Array<Record<string, unknown> & { id: string; kind: string }> = [],
) {
  return new DeviceTableHarness({ game, betting, table: opts, devices: [SHOE, SHUF, ...extra] });
}
const card = (t: DeviceTableHarness, c: string, dev = 'shoe-1', uid?: string) =>
  t.frame(dev, dev.startsWith('rfid') ? 'RFID' : 'SHOE', { type: 'CARD', card: c, rescan: false, ...(uid ? { uid } : {}) });
const cards = (t: DeviceTableHarness, ...cs: string[]) => {
  for (const c of cs) card(t, c);
};
const shoeFrame = (t: DeviceTableHarness, type: 'MISREAD' | 'DROP' | 'CUT') => t.frame('shoe-1', 'SHOE', { type });
const shuf = (t: DeviceTableHarness, state: ShufflerState) => t.frame('shuf-1', 'SHUF', { type: 'SHUF_STATE', state });
const outbox = (t: DeviceTableHarness, level: 'ok' | 'filling' | 'full') =>
  t.input({ type: 'outbox-level', at: t.tick(), level, depth: level === 'full' ? 100 : level === 'filling' ? 80 : 10, max: 100 });
const lockCommands = (t: DeviceTableHarness) =>
  t
    .commands()
    .filter((c) => c.command === 'LOCK' || c.command === 'UNLOCK')
    .map((c) => c.command);
const cardState = (t: DeviceTableHarness) => t.state as CardTableState;
const cardEvents = (t: DeviceTableHarness) => t.events('card');

describe('one owner for holding the shoe (issue 16 item 12; device-protocols.md LOCK/UNLOCK)', () => {
  type Reason = 'shoe-void' | 'shuffler' | 'outbox-full';
  // a baccarat exposed card voids the shoe (games.md Exposed card); a new shoe clears it
  const on: Record<Reason, (t: DeviceTableHarness) => void> = {
    'shoe-void': (t) => {
      t.request('open-betting');
      card(t, '9H');
    },
    shuffler: (t) => shuf(t, 'DOOR_OPEN'),
    'outbox-full': (t) => outbox(t, 'full'),
  };
  const off: Record<Reason, (t: DeviceTableHarness) => void> = {
    'shoe-void': (t) => {
      expect(t.request('new-shoe')).toMatchObject({ status: 'ok' });
    },
    shuffler: (t) => shuf(t, 'READY'),
    'outbox-full': (t) => {
      outbox(t, 'filling');
      outbox(t, 'ok');
    },
  };
  // the shuffler hold keeps every card off the table, so the shoe is voided first when both are on
  const pairs: Array<[Reason, Reason]> = [
    ['shoe-void', 'shuffler'],
    ['shoe-void', 'outbox-full'],
    ['outbox-full', 'shoe-void'],
    ['shuffler', 'outbox-full'],
    ['outbox-full', 'shuffler'],
  ];
  for (const [a, b] of pairs) {
    for (const releaseFirst of [a, b]) {
      const releaseLast = releaseFirst === a ? b : a;
      it(`${a} then ${b}, released ${releaseFirst} first: one LOCK, one UNLOCK only when both are gone`, () => {
        const t = table('baccarat');
        on[a](t);
        expect(lockCommands(t)).toEqual(['LOCK']);
        on[b](t);
        expect(lockCommands(t)).toEqual(['LOCK']);
        expect([...cardState(t).holds!].sort()).toEqual([a, b].sort());
        off[releaseFirst](t);
        expect(lockCommands(t)).toEqual(['LOCK']);
        expect(cardState(t).holds).toEqual([releaseLast]);
        off[releaseLast](t);
        expect(lockCommands(t)).toEqual(['LOCK', 'UNLOCK']);
        expect(cardState(t).holds).toEqual([]);
      });
    }
  }

  it('the reported bug: a shuffler READY while the shoe is void sends no UNLOCK', () => {
    const t = table('baccarat');
    on['shoe-void'](t);
    shuf(t, 'DOOR_OPEN');
    shuf(t, 'READY');
    expect(lockCommands(t)).toEqual(['LOCK']);
    expect(t.request('open-betting')).toMatchObject({ status: 'error' });
  });

  it('the outbox level reaches the machine as an input: outbox-filling, outbox-full (critical), hold until ok', () => {
    const t = table('baccarat');
    outbox(t, 'filling');
    expect(t.alerts('outbox-filling')).toHaveLength(1);
    outbox(t, 'full');
    expect(t.alerts('outbox-full')[0]).toMatchObject({ severity: 'critical' });
    outbox(t, 'filling'); // back under the bound but not yet drained: still held
    expect(lockCommands(t)).toEqual(['LOCK']);
    outbox(t, 'ok');
    expect(lockCommands(t)).toEqual(['LOCK', 'UNLOCK']);
  });
});

describe('exposed card (games.md Exposed card; sheet 000 "the game and the shoe are void")', () => {
  for (const game of ['baccarat', 'seven-up-baccarat', 'dragon-tiger']) {
    it(`${game}: voids the round and the rest of the shoe: shoe-void, LOCK, open-betting refused until a new shoe`, () => {
      const t = table(game);
      t.request('open-betting');
      if (game !== 'baccarat') card(t, '2C'); // the round's burn may be drawn during betting
      card(t, '9H');
      expect(t.lastResult()).toMatchObject({ status: 'void', reason: 'exposed-card' });
      expect(t.alerts('shoe-void')[0]).toMatchObject({ severity: 'critical' });
      expect(t.published('shoe').at(-1)).toMatchObject({ state: 'void' });
      expect(lockCommands(t)).toEqual(['LOCK']);
      expect(t.request('open-betting')).toMatchObject({ status: 'error' });
      t.request('new-shoe');
      expect(lockCommands(t)).toEqual(['LOCK', 'UNLOCK']);
    });
  }

  it('three pictures: the round only; exposedCardVoidsShoe: false keeps a baccarat shoe going', () => {
    const t = table('three-pictures');
    t.request('open-betting');
    cards(t, '2C', '3C', '4C', '5C', '9H');
    expect(t.lastResult()).toMatchObject({ status: 'void', reason: 'exposed-card' });
    expect(t.alerts('shoe-void')).toHaveLength(0);
    expect(t.request('open-betting')).toMatchObject({ status: 'ok' });
    const b = table('baccarat', 'engine', { exposedCardVoidsShoe: false });
    b.request('open-betting');
    card(b, '9H');
    expect(b.alerts('shoe-void')).toHaveLength(0);
    expect(lockCommands(b)).toEqual([]);
    expect(b.request('open-betting')).toMatchObject({ status: 'ok' });
  });
});

describe('unnecessary card (games.md Unnecessary card: "does not affect the result")', () => {
  it('three card poker: alerted and counted, a discard in no hand and no burn, never voids the deck', () => {
    const t = table('three-card-poker');
    t.request('open-betting');
    t.request('close-betting');
    cards(t, 'AS', 'KS', 'QS', '2D', '5C', '9H');
    t.request('close-decisions');
    expect(t.lastResult()).toMatchObject({ status: 'complete' });
    card(t, '7C');
    card(t, '8C');
    expect(t.alerts('unnecessary-card')).toHaveLength(2);
    expect(t.alerts('shoe-void')).toHaveLength(0);
    expect(
      cardEvents(t)
        .slice(-2)
        .map((e) => [e.role, e.card]),
    ).toEqual([
      ['discard', '7C'],
      ['discard', '8C'],
    ]);
    t.request('open-betting');
    t.request('close-betting');
    cards(t, '2S', '3S', '4S', '6D', '7D', '9D');
    t.request('close-decisions');
    expect(t.lastResult()).toMatchObject({ status: 'complete', cards: { player: ['2S', '3S', '4S'], burn: [] } });
    expect(t.published('shoe').at(-1)!.cardsDealt).toBe(14);
    expect(cardEvents(t)).toHaveLength(14);
  });

  it('unnecessaryCardRule: burn-then-void-shoe on a three pictures table (setting)', () => {
    const t = table('three-pictures', 'engine', { unnecessaryCardRule: 'burn-then-void-shoe', burnPerRound: 0 });
    t.request('open-betting');
    t.request('close-betting');
    cards(t, 'AS', '2S', '3S', '4S', '5S', '6S', '7S', '8S', '9S', 'TS', 'JS', 'QS');
    card(t, 'KS');
    card(t, 'AH');
    expect(t.alerts('shoe-void')).toHaveLength(1);
    expect(
      cardEvents(t)
        .slice(-2)
        .map((e) => e.role),
    ).toEqual(['burn', 'discard']);
  });
});

describe('dropped card (games.md Dropped card; sheets 000, 003, 004 "picked up and reused")', () => {
  it("an unread card dropped during the new shoe's burns counts as that burn (null); play goes on", () => {
    const t = new TableHarness();
    t.frame({ type: 'STATE', state: 'LOADED' });
    t.card('3H');
    t.card('4D');
    t.frame({ type: 'MISREAD' });
    t.frame({ type: 'DROP' });
    expect(t.alerts('dropped-card')).toHaveLength(0);
    t.card('5S');
    expect(t.published('shoe').at(-1)).toMatchObject({ state: 'dealing', cardsDealt: 4 });
    t.cards('9C', 'KS', '9D', '2S');
    expect(t.lastResult()).toMatchObject({ status: 'complete', cards: { player: ['9C', '9D'], banker: ['KS', '2S'] } });
    t.request('end-shoe');
    expect(t.published('shoe').at(-1)).toMatchObject({ state: 'closed', burnCards: ['4D', null, '5S'] });
    expect(t.events('card').filter((e) => e.role === 'burn')).toHaveLength(3);
  });

  it("an unread card dropped during a round's burn is that burn (null in cards.burn), no shifted cards", () => {
    const t = table('dragon-tiger', 'none');
    shoeFrame(t, 'MISREAD');
    shoeFrame(t, 'DROP');
    cards(t, 'KH', '2C');
    expect(t.alerts('dropped-card')).toHaveLength(0);
    expect(t.lastResult()).toMatchObject({ status: 'complete', cards: { dragon: ['KH'], tiger: ['2C'], burn: [null] }, outcome: { winner: 'dragon' } });
  });

  it('a read burn card dropped counts as the burn: an event, no void', () => {
    const t = table('dragon-tiger', 'none');
    card(t, '5D');
    shoeFrame(t, 'DROP');
    cards(t, 'KH', '2C');
    expect(t.events('drop')[0]).toMatchObject({ read: true });
    expect(t.lastResult()).toMatchObject({ status: 'complete', cards: { burn: ['5D'] } });
  });

  it('a read card dealt face down (Pok Deng, not yet opened) dropped: dropped-card, the round is void', () => {
    const t = table('pok-deng');
    t.request('open-betting');
    cards(t, '2C', '9H');
    shoeFrame(t, 'DROP');
    expect(t.alerts('dropped-card')).toHaveLength(1);
    expect(t.lastResult()).toMatchObject({ status: 'void', reason: 'dropped-card' });
  });

  it('a read card dealt face up dropped counts and play goes on', () => {
    const t = table('baccarat', 'none');
    card(t, '9C');
    shoeFrame(t, 'DROP');
    cards(t, 'KS', '9D', '2S');
    expect(t.alerts('dropped-card')).toHaveLength(0);
    expect(t.lastResult()).toMatchObject({ status: 'complete', cards: { player: ['9C', '9D'] } });
  });
});

describe('Pok Deng cut card after open-betting (games.md, sheet 001)', () => {
  it("before the round's first card: that round is the last and is dealt to the end", () => {
    const t = table('pok-deng');
    t.request('open-betting');
    shoeFrame(t, 'CUT');
    expect(t.published('shoe').at(-1)).toMatchObject({ state: 'last-round' });
    expect(t.results()).toHaveLength(0);
    t.request('close-betting');
    cards(t, '2C', 'AS', '2S', '3S', '4S', '5S', '6S', '7S', '8S', '9S', 'TS', 'JS', 'QS');
    expect(t.lastResult()).toMatchObject({ status: 'complete' });
    expect(t.published('shoe').at(-1)).toMatchObject({ state: 'closed' });
    expect(t.request('open-betting')).toMatchObject({ status: 'error' });
  });

  it('baccarat: the same cut card voids that empty round and closes the shoe', () => {
    const t = table('baccarat');
    t.request('open-betting');
    shoeFrame(t, 'CUT');
    expect(t.lastResult()).toMatchObject({ status: 'void', reason: 'round-void' });
    expect(t.published('shoe').at(-1)).toMatchObject({ state: 'closed' });
  });
});

describe('RFID (games.md Misread and Card counting)', () => {
  const registry = join(mkdtempSync(join(tmpdir(), 'rules-rfid-')), 'deck.csv');
  writeFileSync(registry, 'uid,card,deck\n04A1000000000001,9S,1\n04A1000000000002,2H,1\n');
  const RFID = { id: 'rfid-1', kind: 'rfid-shoe', deckRegistry: registry };
  const unknownTag = (t: DeviceTableHarness) =>
    t.input({
      type: 'device-alert',
      at: t.tick(),
      deviceId: 'rfid-1',
      kind: 'unknown-tag',
      detail: 'tag DEAD is in no registered deck',
      data: { uid: 'DEAD' },
    });

  it("an unknown tag where a card is expected: the round waits for that card's rescan", () => {
    const t = new DeviceTableHarness({ game: 'baccarat', devices: [RFID] });
    card(t, '9S', 'rfid-1', 'U1');
    t.clear();
    unknownTag(t);
    expect(t.alerts('unknown-tag')).toHaveLength(1);
    expect(t.commands()).toEqual([{ deviceId: 'rfid-1', command: 'RESCAN' }]);
    expect(t.published('round').at(-1)).toMatchObject({ phase: 'awaiting-rescan' });
    card(t, '2H', 'rfid-1', 'U2');
    expect(t.events('rescan')).toHaveLength(1);
    cards(t);
    card(t, 'KD', 'rfid-1', 'U3');
    card(t, '3C', 'rfid-1', 'U4');
    expect(t.lastResult()).toMatchObject({ status: 'complete', cards: { player: ['9S', 'KD'], banker: ['2H', '3C'] } });
  });

  it('with an engine and no round, an unknown tag is only its alert', () => {
    const t = new DeviceTableHarness({ game: 'baccarat', betting: 'engine', devices: [RFID] });
    t.clear();
    unknownTag(t);
    expect(t.commands()).toEqual([]);
  });

  it('the same registered tag twice in one shoe is a foreign card (the round is void); a new shoe forgets the tags', () => {
    const t = new DeviceTableHarness({ game: 'baccarat', devices: [RFID] });
    card(t, '9S', 'rfid-1', 'U1');
    card(t, '9S', 'rfid-1', 'U1');
    expect(t.alerts('foreign-card')[0]).toMatchObject({ severity: 'critical', uid: 'U1' });
    expect(t.lastResult()).toMatchObject({ status: 'void', reason: 'foreign-card' });
    t.frame('rfid-1', 'RFID', { type: 'STATE', state: 'LOADED' });
    card(t, 'AS', 'rfid-1', 'U1'); // the reveal card of the new shoe
    expect(t.alerts('foreign-card')).toHaveLength(1);
  });
});

describe('every card accounted for in exactly one card event (games.md)', () => {
  it('cards after the last round and the card that finds the deck exhausted are discards', () => {
    const t = table('three-pictures', 'none', { burnPerRound: 0 });
    t.frame('shoe-1', 'SHOE', { type: 'STATE', state: 'LOADED' });
    const deck = ['S', 'H', 'D', 'C'].flatMap((s) => ['A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K'].map((r) => r + s));
    // four rounds of 12 cards leave 4: the 49th card opens a round that could need 12
    cards(t, ...deck.slice(0, 49));
    expect(t.alerts('deck-exhausted')).toHaveLength(1);
    expect(cardEvents(t).at(-1)).toMatchObject({ role: 'discard', card: deck[48] });
    card(t, deck[49]);
    expect(t.alerts('card-after-last-round')).toHaveLength(1);
    expect(cardEvents(t).at(-1)).toMatchObject({ role: 'discard', card: deck[49] });
    expect(cardEvents(t)).toHaveLength(50);
    expect(t.published('shoe').at(-1)).toMatchObject({ cardsDealt: 50 });
  });

  it("an engine's open-betting on a deck with no room for a round is refused and changes nothing; a fresh deck takes the same round id", () => {
    const t = table('three-pictures', 'engine', { burnPerRound: 0 });
    t.frame('shoe-1', 'SHOE', { type: 'STATE', state: 'LOADED' });
    const deck = ['S', 'H', 'D', 'C'].flatMap((s) => ['A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K'].map((r) => r + s));
    // four rounds of 12 cards leave 4, and a round could need 12
    for (let k = 0; k < 4; k++) {
      expect(t.request('open-betting', { roundId: `eng-${k}` })).toMatchObject({ status: 'ok' });
      t.request('close-betting');
      cards(t, ...deck.slice(12 * k, 12 * k + 12));
      expect(t.lastResult()).toMatchObject({ roundId: `eng-${k}`, status: 'complete' });
    }
    const table0 = (): unknown => {
      const st = cardState(t);
      return structuredClone({ shoe: st.shoe, round: st.round, pending: st.pending });
    };
    const before = table0();
    t.clear();
    const refused = t.request('open-betting', { roundId: 'eng-4' });
    expect(refused).toMatchObject({ status: 'error', code: 'wrong-phase' });
    expect(String(refused.error)).toContain('deck exhausted: 4 cards left, a round could need 12; load a fresh deck');
    // nothing but the answer: no round, no result, no alert, the shoe and round as they were
    expect(t.published().filter((m) => m.type !== 'response')).toEqual([]);
    expect(table0()).toEqual(before);
    t.frame('shoe-1', 'SHOE', { type: 'STATE', state: 'LOADED' });
    expect(t.request('open-betting', { roundId: 'eng-4' })).toMatchObject({ status: 'ok', data: { roundId: 'eng-4' } });
  });

  it('a foreign card is a discard; an out-of-order read gets only its alert', () => {
    const t = table('three-card-poker', 'none');
    cards(t, 'AS', 'AS');
    expect(cardEvents(t).map((e) => e.role)).toEqual(['player', 'discard']);
    shoeFrame(t, 'MISREAD');
    card(t, 'KD');
    expect(t.alerts('out-of-order-card')).toHaveLength(1);
    expect(cardEvents(t)).toHaveLength(2);
  });
});

describe('shuffler READY during a round (games.md single-deck games)', () => {
  it('takes effect when the round ends: never voids a live round, the fresh deck starts with the next round', () => {
    const t = table('three-card-poker', 'none');
    cards(t, 'AS', 'KS', 'QS');
    t.frame('shuf-1', 'SHUF', { type: 'COUNT', count: 52 });
    shuf(t, 'READY');
    expect(t.results()).toHaveLength(0);
    expect(t.published('shoe').at(-1)).toMatchObject({ shoeId: 'tbl-01-s0001' });
    cards(t, '2D', '5C', '9H');
    expect(t.lastResult()).toMatchObject({ status: 'complete', cards: { player: ['AS', 'KS', 'QS'] } });
    expect(t.published('shoe').at(-1)).toMatchObject({ shoeId: 'tbl-01-s0002', cardsDealt: 0 });
    // the fresh deck: the same cards again are no foreign cards
    cards(t, 'AS', 'KS', 'QS', '2D', '5C', '9H');
    expect(t.alerts('foreign-card')).toHaveLength(0);
  });
});

describe("Hold'em void after the hole cards (games.md Hold'em, sheet 000)", () => {
  it("a jam after the player's two hole cards: the void result still carries outcome.bonus", () => {
    const t = table('holdem');
    t.request('open-betting');
    t.request('close-betting');
    cards(t, 'AS', 'AD');
    shuf(t, 'JAM');
    expect(t.lastResult()).toMatchObject({ status: 'void', reason: 'shuffler-jam', outcome: { bonus: 'aa', bonusDealerAA: null } });
  });

  it("after the dealer's hole cards too: bonusDealerAA is given", () => {
    const t = table('holdem');
    t.request('open-betting');
    t.request('close-betting');
    cards(t, 'AS', 'AD', 'AC', 'AH');
    t.request('void-round', { reason: 'dealer error' });
    expect(t.lastResult()).toMatchObject({ status: 'void', outcome: { bonus: 'aa', bonusDealerAA: true } });
  });

  it('before the hole cards: no outcome', () => {
    const t = table('holdem');
    t.request('open-betting');
    t.request('close-betting');
    card(t, 'AS');
    shuf(t, 'JAM');
    expect(t.lastResult()).toMatchObject({ status: 'void', outcome: null });
  });
});

describe('corrections and voids after the result (games.md Corrections; sheets 000 SH-05, SH-13, 3 Pictures, Sic Bo)', () => {
  const completedBaccarat = () => {
    const t = table('baccarat');
    t.request('open-betting');
    t.request('close-betting');
    cards(t, '9C', 'KS', '9D', '2S'); // player 8, banker 2: player
    return t;
  };
  const onlyResponse = (t: DeviceTableHarness, f: () => unknown) => {
    const before = t.outputs.length;
    const resp = f();
    const published = t.outputs
      .slice(before)
      .filter((o) => o.type === 'publish')
      .map((o) => (o as { topic: string }).topic);
    expect(published).toEqual([expect.stringMatching(/^response\//)]);
    return resp;
  };

  it('cards: a superseding result for the same roundId, status corrected, outcome recomputed, supersedesSeq, correction {kind, by, reason}', () => {
    const t = completedBaccarat();
    const first = t.lastResult()!;
    expect(first.outcome).toMatchObject({ winner: 'player' });
    const resp = t.request(
      'correction',
      { kind: 'cards', roundId: first.roundId, by: 'pit-7', reason: 'player and banker swapped', cards: { player: ['KS', '2S'], banker: ['9C', '9D'] } },
      'pit-7',
    );
    expect(resp).toMatchObject({ status: 'ok', data: { roundId: first.roundId, supersedesSeq: first.seq } });
    expect(t.lastResult()).toMatchObject({
      status: 'corrected',
      roundId: first.roundId,
      shoeId: first.shoeId,
      supersedesSeq: first.seq,
      correction: { kind: 'cards', by: 'pit-7', reason: 'player and banker swapped' },
      cards: { player: ['KS', '2S'], banker: ['9C', '9D'], burn: [] },
      outcome: { winner: 'banker', playerTotal: 2, bankerTotal: 8 },
    });
    // a second correction supersedes the corrected result
    const corrected = t.lastResult()!;
    t.request('void-round', { roundId: first.roundId, by: 'pit-7', reason: 'dealer error' }, 'pit-7');
    expect(t.lastResult()).toMatchObject({ status: 'void', supersedesSeq: corrected.seq, correction: { kind: 'void', by: 'pit-7' }, outcome: null });
    expect(t.request('void-round', { roundId: first.roundId, by: 'pit-7', reason: 'again' }, 'pit-7')).toMatchObject({ status: 'error', code: 'wrong-phase' });
  });

  it('bad input: outside the window, unsigned, cards that do not fit: an error with a code, nothing changed, nothing published', () => {
    const t = completedBaccarat();
    const first = t.lastResult()!;
    t.request('open-betting');
    t.request('close-betting');
    cards(t, '8C', '8S', 'AD', 'KS'); // player 9: a natural
    const second = t.lastResult()!;
    expect(second.roundId).not.toBe(first.roundId);
    const state = JSON.stringify(t.state);
    const ask = (payload: Record<string, unknown>, signer: string | null = 'pit-7') =>
      onlyResponse(t, () => t.request('correction', { kind: 'cards', ...payload }, signer ?? undefined));
    const cardsOk = { player: ['8C', 'AD'], banker: ['8S', 'KS'] };
    expect(ask({ roundId: first.roundId, by: 'pit-7', cards: cardsOk })).toMatchObject({ status: 'error', code: 'outside-window' }); // window 1: only the most recent
    expect(onlyResponse(t, () => t.request('void-round', { roundId: first.roundId, by: 'pit-7', reason: 'x' }, 'pit-7'))).toMatchObject({
      status: 'error',
      code: 'outside-window',
    });
    // no verified signer: refused whatever `by` the request says (privileged.ts)
    expect(ask({ roundId: second.roundId, by: 'pit-7', cards: cardsOk }, null)).toMatchObject({ status: 'error', code: 'signature-required' });
    expect(ask({ roundId: second.roundId, cards: cardsOk }, null)).toMatchObject({ status: 'error', code: 'signature-required' });
    expect(onlyResponse(t, () => t.request('void-round', { roundId: second.roundId, by: 'pit-7', reason: 'x' }))).toMatchObject({
      status: 'error',
      code: 'signature-required',
    });
    expect(ask({ roundId: second.roundId, by: 'pit-7', cards: { player: ['8C'], banker: ['8S', 'KS'] } })).toMatchObject({
      status: 'error',
      code: 'invalid-args',
    }); // wrong count
    expect(ask({ roundId: second.roundId, by: 'pit-7', cards: { player: ['AD', '2H'], banker: ['8S', 'KS'] } })).toMatchObject({
      status: 'error',
      code: 'invalid-args',
    }); // 2H never dealt in this shoe
    expect(ask({ roundId: second.roundId, by: 'pit-7', cards: { player: ['8C', 'AD'], banker: ['8C', 'KS'] } })).toMatchObject({
      status: 'error',
      code: 'invalid-args',
    }); // 8C dealt once
    expect(JSON.stringify({ ...(t.state as CardTableState), seq: 0 })).toBe(JSON.stringify({ ...JSON.parse(state), seq: 0 }));
  });

  it('correctionWindowRounds: 2 reaches the round before the last', () => {
    const t = table('baccarat', 'engine', { correctionWindowRounds: 2 });
    t.request('open-betting');
    t.request('close-betting');
    cards(t, '9C', 'KS', '9D', '2S');
    const first = t.lastResult()!;
    t.request('open-betting');
    t.request('close-betting');
    cards(t, '8C', '8S', 'AD', 'KS');
    expect(t.request('void-round', { roundId: first.roundId, by: 'pit-1', reason: 'late report' }, 'pit-1')).toMatchObject({ status: 'ok' });
    expect(t.lastResult()).toMatchObject({ roundId: first.roundId, status: 'void', supersedesSeq: first.seq });
  });

  it('3 Pictures reverse-order after the deal (the usual case): p1 and p3 swapped in a corrected result', () => {
    const t = table('three-pictures', 'engine', { burnPerRound: 0 });
    t.request('open-betting');
    t.request('close-betting');
    cards(t, 'KS', '2H', '5C', '9D', 'QS', '3H', '6C', '8D', 'JS', '4H', '7C', '7D');
    const first = t.lastResult()!;
    expect(first).toMatchObject({ status: 'complete', cards: { p1: ['KS', 'QS', 'JS'], p3: ['5C', '6C', '7C'] } });
    expect(t.request('correction', { kind: 'reverse-order', roundId: first.roundId, by: 'pit-2' }, 'pit-2')).toMatchObject({ status: 'ok' });
    expect(t.lastResult()).toMatchObject({
      status: 'corrected',
      supersedesSeq: first.seq,
      cards: { p1: ['5C', '6C', '7C'], p3: ['KS', 'QS', 'JS'] },
      correction: { kind: 'reverse-order', by: 'pit-2' },
    });
    expect((t.lastResult()!.outcome as { positions: Record<string, { rankName: string }> }).positions.p3.rankName).toBe('three-knights');
  });

  it('blackjack: a correction by cards rebuilds the decisions (hit / stand) from the cards', () => {
    const t = table('blackjack', 'engine', { gameOptions: { seats: 1 }, burnPerRound: 0 });
    t.request('open-betting');
    t.request('close-betting');
    cards(t, 'TS', '9H', '6D');
    t.request('decision', { seat: 'seat1', action: 'hit' });
    card(t, '2C');
    t.request('decision', { seat: 'seat1', action: 'stand' });
    card(t, '8D'); // dealer 17
    const first = t.lastResult()!;
    expect(first).toMatchObject({ status: 'complete', outcome: { positions: { seat1: { total: 18, outcome: 'win' } } } });
    t.request('correction', { kind: 'cards', roundId: first.roundId, by: 'pit-3', cards: { seat1: ['TS', '2C', '6D'], dealer: ['9H', '8D'] } }, 'pit-3');
    expect(t.lastResult()).toMatchObject({ status: 'corrected', outcome: { positions: { seat1: { total: 18, outcome: 'win' } } } });
  });
});

describe('blackjack keepStanding on the table (games.md Blackjack; mqtt-api.md decision)', () => {
  it('a standing hand seat1s in the result; keepStanding elsewhere is an error with a code and changes nothing', () => {
    const t = table('blackjack', 'engine', { gameOptions: { seats: 1 }, burnPerRound: 0 });
    t.request('open-betting');
    t.request('close-betting');
    cards(t, 'TS', '9H', '7D');
    expect(t.request('decision', { seat: 'seat1', action: 'stand', keepStanding: true })).toMatchObject({ status: 'error', code: 'invalid-args' });
    expect(t.request('decision', { seat: 'seat1', action: 'hit', keepStanding: true })).toMatchObject({ status: 'ok' });
    card(t, '2C');
    t.request('decision', { seat: 'seat1', action: 'stand' });
    card(t, '8D');
    expect(t.lastResult()).toMatchObject({
      status: 'complete',
      cards: { seat1: ['TS', '7D', '2C'], seat1s: ['TS', '7D'] },
      outcome: { positions: { seat1: { total: 19, outcome: 'win' }, seat1s: { total: 17, outcome: 'push' } } },
    });
    const h = table('holdem');
    h.request('open-betting');
    h.request('close-betting');
    expect(h.request('decision', { seat: 'player', action: 'hit', keepStanding: true })).toMatchObject({ status: 'error', code: 'invalid-args' });
  });
});

describe('corrections of completed sic bo and keno rounds (games.md Corrections; Sic Bo sheet "results that are wrong are corrected")', () => {
  it('sic bo: correction by dice, then a void; bad dice or unsigned: an error with a code, nothing published', () => {
    const t = new DeviceTableHarness({ game: 'sic-bo', devices: [{ id: 'dice-1', kind: 'dice-sensor' }] });
    t.frame('dice-1', 'DICE', { type: 'ROLL', dice: [1, 2, 3], bounces: 3 });
    const first = t.lastResult()!;
    expect(first).toMatchObject({ status: 'complete', outcome: { total: 6 } });
    const n = t.results().length;
    expect(t.request('correction', { kind: 'dice', roundId: first.roundId, by: 'pit-1', dice: [6, 6, 5] })).toMatchObject({
      status: 'error',
      code: 'signature-required',
    });
    expect(t.request('correction', { kind: 'dice', roundId: first.roundId, by: 'pit-1', dice: [7, 6, 5] }, 'pit-1')).toMatchObject({
      status: 'error',
      code: 'invalid-args',
    });
    expect(t.request('correction', { kind: 'dice', roundId: 'nope', by: 'pit-1', dice: [6, 6, 5] }, 'pit-1')).toMatchObject({
      status: 'error',
      code: 'outside-window',
    });
    expect(t.results()).toHaveLength(n);
    expect(t.request('correction', { kind: 'dice', roundId: first.roundId, by: 'pit-1', reason: 'sensor misread', dice: [6, 6, 5] }, 'pit-1')).toMatchObject({
      status: 'ok',
    });
    expect(t.lastResult()).toMatchObject({
      status: 'corrected',
      roundId: first.roundId,
      dice: [6, 6, 5],
      supersedesSeq: first.seq,
      outcome: { total: 17, size: 'big' },
      correction: { kind: 'dice', by: 'pit-1' },
    });
    const corrected = t.lastResult()!;
    t.request('void-round', { roundId: first.roundId, by: 'pit-1', reason: 'dome opened' }, 'pit-1');
    expect(t.lastResult()).toMatchObject({ status: 'void', dice: null, supersedesSeq: corrected.seq, correction: { kind: 'void' } });
    expect(t.invalidMessages()).toEqual([]);
  });

  it('keno: correction by balls (20 distinct 1-80), outcome recomputed', () => {
    const t = new DeviceTableHarness({ game: 'keno', devices: [{ id: 'balls-1', kind: 'ball-reader' }] });
    const drawn = Array.from({ length: 20 }, (_, i) => i + 1);
    t.frame('balls-1', 'BALL', { type: 'START' });
    for (const b of drawn) t.frame('balls-1', 'BALL', { type: 'BALL', ball: b });
    t.frame('balls-1', 'BALL', { type: 'END' });
    const first = t.lastResult()!;
    const fixed = [...drawn.slice(0, 19), 80];
    expect(t.request('correction', { kind: 'balls', roundId: first.roundId, by: 'pit-4', balls: [...drawn.slice(0, 19), 1] }, 'pit-4')).toMatchObject({
      status: 'error',
      code: 'invalid-args',
    });
    expect(t.request('correction', { kind: 'balls', roundId: first.roundId, by: 'pit-4', balls: fixed }, 'pit-4')).toMatchObject({ status: 'ok' });
    expect(t.lastResult()).toMatchObject({ status: 'corrected', balls: fixed, supersedesSeq: first.seq, outcome: { sum: 210 - 20 + 80 } });
    // voided after: the balls as drawn (the corrected ones), valid against the keno result schema
    const corrected = t.lastResult()!;
    expect(t.request('void-round', { roundId: first.roundId, by: 'pit-4', reason: 'machine fault' }, 'pit-4')).toMatchObject({ status: 'ok' });
    expect(t.lastResult()).toMatchObject({
      status: 'void',
      reason: 'round-void',
      balls: fixed,
      outcome: null,
      supersedesSeq: corrected.seq,
      correction: { kind: 'void', by: 'pit-4' },
    });
    expect(t.invalidMessages()).toEqual([]);
  });
});

describe('corrections are journaled inputs: replay reproduces them byte for byte', () => {
  it('the same inputs from the same state (through JSON, as a snapshot) give the same messages', () => {
    const opts = { game: 'baccarat', betting: 'engine' as const, devices: [SHOE, SHUF] };
    const a = new DeviceTableHarness(opts);
    const inputs: Parameters<DeviceTableHarness['input']>[0][] = [];
    const record = a.input.bind(a);
    a.input = (i) => {
      inputs.push(i);
      return record(i);
    };
    a.request('open-betting');
    a.request('close-betting');
    cards(a, '9C', 'KS', '9D', '2S');
    a.request('correction', { kind: 'cards', roundId: a.lastResult()!.roundId, by: 'pit-7', cards: { player: ['KS', '2S'], banker: ['9C', '9D'] } }, 'pit-7');
    outbox(a, 'full');
    a.request('void-round', { roundId: a.lastResult()!.roundId, by: 'pit-7', reason: 'x' }, 'pit-7');
    outbox(a, 'ok');
    const b = new DeviceTableHarness(opts);
    for (const i of inputs) {
      b.state = JSON.parse(JSON.stringify(b.state));
      b.input(i);
    }
    expect(JSON.stringify(b.outputs)).toBe(JSON.stringify(a.outputs));
    expect(a.results().map((r) => r.status)).toEqual(['complete', 'corrected', 'void']);
  });
});

describe('a MISREAD after the last round (docs/FAULTS.md, settled question 9)', () => {
  it('is its alert only: no pending rescan, no RESCAN, no timers', () => {
    const t = table('baccarat', 'engine');
    t.request('end-shoe');
    t.clear();
    shoeFrame(t, 'MISREAD');
    expect(t.alerts('misread')).toHaveLength(1);
    expect(t.commands()).toEqual([]);
    expect(t.timers()).toEqual([]);
    expect(cardState(t).pending).toBeNull();
  });
});
