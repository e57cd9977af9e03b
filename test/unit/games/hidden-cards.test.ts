/**
 * Hidden cards at the table-machine level (mqtt-api.md): a card dealt face down is published
 * without its value until the game's reveal point, then a `reveal` event carries it. Every
 * publish output is checked, in order, for the code of every card still hidden.
 */
import { describe, expect, it } from 'vitest';
import type { TableOutput } from '../../../src/core/table/types.js';
import { GameMachine } from '../../helpers/table-harness.js';

/** walks outputs from `from`, asserting hidden codes stay out of every payload until revealed */
class HiddenWatch {
  private next = 0;
  readonly hidden = new Set<string>();
  readonly reveals: string[][] = [];
  /** face-down burns: their values are published with the result (games.md), never before */
  private readonly burns = new Set<string>();

  constructor(private readonly m: GameMachine) {}

  hide(...cards: string[]): void {
    for (const c of cards) this.hidden.add(c);
  }

  burn(c: string): void {
    this.hide(c);
    this.burns.add(c);
    this.m.card(c);
    this.check();
  }

  /** checks the outputs published since the last check */
  check(): void {
    const outs = this.m.outputs;
    for (; this.next < outs.length; this.next++) {
      const o: TableOutput = outs[this.next];
      if (o.type !== 'publish') continue;
      const p = o.payload;
      if (o.topic === 'events' && p.kind === 'reveal') {
        const cards = (p.cards as { card: string }[]).map((x) => x.card);
        this.reveals.push(cards);
        for (const c of cards) this.hidden.delete(c);
      }
      if (o.topic === 'result') {
        expect(this.hidden.size - this.burns.size, 'a result while cards are still hidden').toBe(0);
        for (const c of this.burns) this.hidden.delete(c);
      }
      const text = JSON.stringify(p);
      for (const c of this.hidden) expect(text.includes(`"${c}"`), `hidden ${c} leaked on ${o.topic}: ${text}`).toBe(false);
    }
  }

  card(c: string, hidden: boolean): void {
    if (hidden) this.hide(c);
    this.m.card(c);
    this.check();
  }

  request(command: string, args: Record<string, unknown> = {}): void {
    const r = this.m.request(command, args);
    expect(r.status, `${command}: ${String(r.error)}`).toBe('ok');
    this.check();
  }
}

function newShoe(m: GameMachine, w: HiddenWatch): void {
  m.frame({ type: 'STATE', state: 'LOADED' });
  w.card('2C', false); // reveal: burn 2
  w.card('3C', false);
  w.card('4C', false);
}

const POK_DENG = ['AS', '2S', '3S', '4S', '5S', '6S', '7S', '8S', '9S', 'TS', 'JS', 'QS'];

describe('hidden cards through the table machine', () => {
  it('Pok Deng with an engine: face down during betting (burn too), revealed at close-betting', () => {
    const m = new GameMachine('pok-deng', 'engine');
    const w = new HiddenWatch(m);
    newShoe(m, w);
    w.request('open-betting');
    w.burn('KH'); // the face-down burn
    // a misread on a hidden card: the rescan event must not show it either
    m.frame({ type: 'MISREAD' });
    w.hide('AS');
    m.frame({ type: 'CARD', card: 'AS', rescan: true });
    w.check();
    for (const c of POK_DENG.slice(1)) w.card(c, true);
    const events = m.published('events').filter((e) => e.kind === 'card' && e.role !== 'reveal' && e.role !== 'burn');
    expect(events.length).toBe(12); // the rescanned AS: a rescan event and its card event
    expect(events.every((e) => e.card === null && e.faceDown === true)).toBe(true);
    expect(m.published('result')).toEqual([]);
    w.request('close-betting');
    expect(w.reveals[0].sort()).toEqual([...POK_DENG].sort());
    const result = m.published('result').at(-1)!;
    expect(result.status).toBe('complete');
    expect((result.cards as Record<string, string[]>).p1).toEqual(['AS', '7S']);
    // the burn's value is published once the round is over
    expect((result.cards as Record<string, string[]>).burn).toEqual(['KH']);
    expect(w.hidden.size).toBe(0);
  });

  it('Pok Deng without an engine: every card hidden until the result', () => {
    const m = new GameMachine('pok-deng', 'none');
    const w = new HiddenWatch(m);
    newShoe(m, w);
    w.burn('KH');
    for (const c of POK_DENG.slice(0, 11)) w.card(c, true);
    expect(m.published('result')).toEqual([]);
    w.hide('QS');
    m.card('QS');
    // the reveal event comes before the result; the result (with the burn) follows
    const outs = m.outputs
      .slice(-20)
      .filter((o) => o.type === 'publish')
      .map((o) => (o.type === 'publish' ? `${o.topic}:${String(o.payload.kind ?? o.payload.status ?? '')}` : ''));
    expect(outs.indexOf('events:reveal')).toBeLessThan(outs.indexOf('result:complete'));
    w.check();
    expect(w.reveals).toHaveLength(1);
    expect(w.reveals[0].sort()).toEqual([...POK_DENG].sort());
  });

  it('Three Card Poker with an engine: player revealed at close-betting, dealer at close-decisions', () => {
    const m = new GameMachine('three-card-poker', 'engine');
    const w = new HiddenWatch(m);
    m.frame({ type: 'STATE', state: 'LOADED' });
    w.request('open-betting');
    for (const c of ['AH', 'KH', 'QH']) w.card(c, true);
    for (const c of ['2D', '7C', '9S']) w.card(c, true);
    w.request('close-betting');
    expect(w.reveals).toEqual([['AH', 'KH', 'QH']]);
    expect([...w.hidden].sort()).toEqual(['2D', '7C', '9S']);
    expect(m.published('round').at(-1)?.phase).toBe('awaiting-decision');
    w.request('decision', { seat: 'player', action: 'play' });
    expect(m.published('result')).toEqual([]);
    w.request('close-decisions');
    expect(w.reveals[1].sort()).toEqual(['2D', '7C', '9S']);
    const result = m.published('result').at(-1)!;
    expect(result.outcome).toMatchObject({
      playerHand: { category: 'straight-flush', ranks: [14], miniRoyal: true },
      winner: 'player',
      dealerQualifies: false,
    });
  });

  it('Three Card Poker without an engine: hidden until the result, which follows the sixth card', () => {
    const m = new GameMachine('three-card-poker', 'none');
    const w = new HiddenWatch(m);
    m.frame({ type: 'STATE', state: 'LOADED' });
    for (const c of ['AH', 'KH', 'QH', '2D', '7C']) w.card(c, true);
    expect(m.published('result')).toEqual([]);
    w.hide('9S');
    m.card('9S');
    w.check();
    expect(w.reveals).toHaveLength(1);
    expect(m.published('result').at(-1)?.status).toBe('complete');
  });

  it("Hold'em: the dealer's hole cards stay hidden through every street until the result", () => {
    const m = new GameMachine('holdem', 'engine');
    const w = new HiddenWatch(m);
    m.frame({ type: 'STATE', state: 'LOADED' });
    w.request('open-betting');
    w.request('close-betting');
    w.card('AS', false);
    w.card('KD', false);
    w.card('AH', true);
    w.card('QC', true);
    w.request('decision', { seat: 'player', action: 'play' });
    w.request('close-decisions');
    for (const c of ['2S', '4D', '6H']) w.card(c, false);
    w.request('decision', { seat: 'player', action: 'check' });
    w.request('close-decisions');
    w.card('8C', false);
    w.request('close-decisions');
    expect(m.published('result')).toEqual([]);
    expect([...w.hidden].sort()).toEqual(['AH', 'QC']);
    w.card('AC', false);
    expect(w.reveals).toEqual([['AH', 'QC']]);
    const result = m.published('result').at(-1)!;
    expect(result.cards).toMatchObject({ player: ['AS', 'KD'], dealer: ['AH', 'QC'], board: ['2S', '4D', '6H', '8C', 'AC'] });
    expect(result.outcome).toMatchObject({ winner: 'player', bonus: 'ak-offsuit' });
  });

  it("Hold'em: a fold before the flop reveals the dealer's hole cards with the result", () => {
    const m = new GameMachine('holdem', 'engine');
    const w = new HiddenWatch(m);
    m.frame({ type: 'STATE', state: 'LOADED' });
    w.request('open-betting');
    w.request('close-betting');
    w.card('7S', false);
    w.card('2D', false);
    w.card('AH', true);
    w.card('AC', true);
    w.request('decision', { seat: 'player', action: 'fold' });
    expect(w.reveals).toEqual([['AH', 'AC']]);
    expect(m.published('result').at(-1)?.outcome).toMatchObject({ folded: true, winner: 'dealer', playerHand: null });
  });
});
