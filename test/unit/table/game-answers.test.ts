/**
 * A game module answers a decision with its new round state or a tagged refusal (`refuse()`): the
 * table tells them apart by the tag, never by the keys of the state (a state may well have an
 * `error` field of its own).
 */
import { describe, expect, it } from 'vitest';
import type { Card } from '../../../src/core/vocabulary/card.js';
import { isRefusal, refuse, type CardGame } from '../../../src/core/games/game.js';
import { initialTableState, step } from '../../../src/core/table/table-machine.js';
import type { Envelope, TableInput, TableSettings, TableState } from '../../../src/core/table/types.js';
import { settingsOf } from '../../helpers/table-harness.js';

/** one card to the player, then the player's `play`; its state counts the dealer's errors in `error` */
interface OneCardRound {
  card: Card | null;
  played: boolean;
  error: number;
}

const oneCardGame: CardGame<OneCardRound> = {
  id: 'one-card',
  positions: ['player'],
  defaults: { decks: 8, burnPerRound: 0, burnFaceDown: false, singleDeck: false, maxCardsPerRound: 1, needsEngine: true },
  newRound: () => ({ card: null, played: false, error: 0 }),
  expect: (s) =>
    s.card === null
      ? { kind: 'card', position: 'player', faceDown: false }
      : s.played
        ? { kind: 'complete' }
        : { kind: 'decision', seat: 'player', actions: ['play'] },
  place: (s, card) => ({ ...s, card }),
  decide: (s, seat) => (seat === 'player' ? { ...s, played: true } : refuse(`no seat ${seat}`)),
  cards: (s) => ({ player: s.card ? [s.card] : [] }),
  outcome: () => ({ winner: 'player' }),
};

function playTable() {
  const base = settingsOf({
    id: 'bac-01',
    game: 'baccarat',
    betting: 'engine',
    burnPerRound: 0,
    devices: [{ id: 'shoe-1', kind: 'card-shoe', transport: { type: 'serial', path: '/dev/null-shoe-1' } }],
  });
  if (base.kind !== 'card') throw new Error('a card table was expected');
  const settings: TableSettings = { ...base, game: oneCardGame };
  let state: TableState = initialTableState(settings, {});
  let at = Date.UTC(2026, 10, 30, 12, 0, 0);
  let seq = 0;
  const published: Array<{ topic: string; payload: Envelope }> = [];
  const feed = (input: TableInput) => {
    const r = step(settings, state, input);
    state = r.state;
    for (const o of r.outputs) if (o.type === 'publish') published.push({ topic: o.topic, payload: o.payload });
  };
  feed({ type: 'start', at });
  return {
    published,
    request(command: string, args: Record<string, unknown> = {}): Envelope {
      at += 100;
      feed({ type: 'request', at, command, payload: JSON.stringify(args) });
      const answer = published.filter((p) => p.topic === `response/${command}`).at(-1);
      if (!answer) throw new Error(`no answer to ${command}`);
      return answer.payload;
    },
    card(card: string) {
      at += 100;
      feed({ type: 'frame', at, deviceId: 'shoe-1', frame: { talker: 'SHOE', seq: seq++, type: 'CARD', card, rescan: false } });
    },
  };
}

describe('game answers are tagged', () => {
  it('isRefusal knows a refusal from a state with an error key', () => {
    expect(isRefusal(refuse('no'))).toBe(true);
    expect(isRefusal({ error: 'a field of the state' })).toBe(false);
    expect(refuse('no').error).toBe('no');
  });

  it('a decision whose new state has an `error` key is taken, and completes the round', () => {
    const t = playTable();
    expect(t.request('open-betting').status).toBe('ok');
    expect(t.request('close-betting').status).toBe('ok');
    t.card('AS');
    const answer = t.request('decision', { seat: 'player', action: 'play' });
    expect(answer.status).toBe('ok');
    const result = t.published.filter((p) => p.topic === 'result').at(-1)?.payload;
    expect(result?.status).toBe('complete');
    expect(result?.cards).toEqual({ player: ['AS'], burn: [] });
  });

  it("a refused decision is answered with the game's message and changes nothing", () => {
    const t = playTable();
    t.request('open-betting');
    t.request('close-betting');
    t.card('AS');
    const before = t.published.length;
    const answer = t.request('decision', { seat: 'seat9', action: 'play' });
    expect(answer).toMatchObject({ status: 'error', code: 'wrong-phase', error: 'no seat seat9' });
    expect(t.published.length).toBe(before + 1); // the answer only
    expect(t.request('decision', { seat: 'player', action: 'play' }).status).toBe('ok');
  });
});
