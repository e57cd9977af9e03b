/**
 * A card round's lifecycle: open, place (burns, hands, exposed cards), reveal face-down cards,
 * complete (result + snapshot), void, finish; the completed rounds kept for corrections.
 */
import { type Card } from '../../vocabulary/card.js';
import { type RevealPoint } from '../../games/game.js';
import type { AlertKind } from '../../vocabulary/alerts.js';
import type { CompletedRound, HiddenCard, RoundStateData } from '../types.js';
import { CardTableHolds } from './holds.js';
import { pad4 } from './state.js';

export abstract class CardTableRounds extends CardTableHolds {
  /** a new shoe (shoe lifecycle): a fresh deck may start when a round finishes */
  protected abstract startNewShoe(why: string): void;

  protected openRound(engine: boolean, engineRoundId: string | undefined): RoundStateData {
    const sh = this.state.shoe;
    sh.roundsStarted += 1;
    const carried = sh.carriedBurns;
    sh.carriedBurns = [];
    const r: RoundStateData = {
      id: engineRoundId ?? `${sh.id}-r${pad4(sh.roundsStarted)}`,
      no: sh.roundsStarted,
      bettingOpen: engine,
      game: this.settings.game.newRound({ engine: this.settings.engine, options: this.settings.gameOptions }),
      burns: [...carried],
      burnsNeeded: Math.max(this.settings.burnPerRound, carried.length),
      burnsHidden: this.settings.burnFaceDown,
      hidden: [],
      lastRound: sh.state === 'last-round',
      seen: [],
    };
    this.state.round = r;
    this.state.pending = null;
    return r;
  }

  protected roundCard(deviceId: string, card: Card): void {
    const r = this.state.round!;
    const sh = this.state.shoe;
    r.seen.push(card);
    if (r.burns.length < r.burnsNeeded) {
      r.burns.push(card);
      r.last = { burn: true, faceDown: r.burnsHidden };
      this.event('card', { deviceId, role: 'burn', card: r.burnsHidden ? null : card, faceDown: r.burnsHidden, cardNo: sh.cardsDealt });
      this.publishRound();
      return;
    }
    const e = this.settings.game.expect(r.game);
    if (e.kind !== 'card') return; // unreachable: dealCard checked
    if (r.bettingOpen && !e.faceDown) {
      // Exposed card: a non-burn card drawn face up while betting is open voids the round.
      r.game = this.settings.game.place(r.game, card);
      this.event('card', { deviceId, role: e.position, card, faceDown: false, cardNo: sh.cardsDealt, exposed: true });
      const shoeToo = this.settings.exposedCardVoidsShoe;
      this.alert('exposed-card', `${card} was dealt face up to ${e.position} while betting was open: the round${shoeToo ? ' and the rest of the shoe are' : ' is'} void`, { deviceId, card });
      this.voidRound('exposed-card', `${card} exposed during betting`);
      // games.md Exposed card, sheet 000: "the game and the shoe are void" (baccarat, 7 Up, Dragon Tiger)
      if (shoeToo) this.voidShoe(`exposed card ${card}`, deviceId);
      return;
    }
    const index = (this.settings.game.cards(r.game)[e.position] ?? []).length;
    r.game = this.settings.game.place(r.game, card);
    // a card meant to stay hidden until betting closes, dealt after it closed, is shown at once
    const faceDown = e.faceDown && !(e.revealAt === 'close-betting' && this.settings.engine && !r.bettingOpen);
    if (faceDown) r.hidden.push({ position: e.position, index, card, revealAt: e.revealAt ?? 'result' });
    r.last = { burn: false, faceDown };
    this.event('card', { deviceId, role: e.position, card: faceDown ? null : card, faceDown, cardNo: sh.cardsDealt });
    this.log('debug', faceDown ? `${r.id}: face-down card to ${e.position}` : `${r.id}: ${card} to ${e.position}`);
    this.afterChange();
  }

  /** after a round changed: finish it when complete, else publish the snapshot */
  protected afterChange(): void {
    const r = this.state.round;
    if (!r) return;
    const e = this.expectation();
    if (e && e.kind === 'complete' && !r.bettingOpen && !this.state.pending) this.completeRound();
    else this.publishRound();
  }

  protected reveal(point: RevealPoint | 'all'): void {
    const r = this.state.round;
    if (!r) return;
    const now: HiddenCard[] = [];
    const keep: HiddenCard[] = [];
    for (const h of r.hidden) (point === 'all' || h.revealAt === point ? now : keep).push(h);
    if (now.length === 0) return;
    r.hidden = keep;
    const cards = now.map((h) => ({ position: h.position, index: h.index, card: h.card }));
    this.event('reveal', { cards });
  }

  protected resultCards(r: RoundStateData): Record<string, (Card | null)[]> {
    return this.cardsOf(r.game, r.burns);
  }

  protected completeRound(): void {
    const r = this.state.round!;
    this.reveal('all');
    const outcome = this.settings.game.outcome(r.game);
    const env = this.publish('result', { status: 'complete', cards: this.resultCards(r), outcome });
    this.remember({ id: r.id, shoeId: this.state.shoe.id, resultSeq: env.seq, status: 'complete', game: r.game, burns: [...r.burns], seen: [...r.seen] });
    this.publishRound('complete', { cards: this.resultCards(r) });
    this.finishRound('complete');
    this.log('info', roundSummary(r.id, this.resultCards(r), outcome));
  }

  protected voidRound(reason: AlertKind, detail: string): void {
    const r = this.state.round;
    if (!r) return;
    if (this.state.pending) this.clearPending();
    this.reveal('all');
    const outcome = this.settings.game.voidOutcome?.(r.game) ?? null;
    this.publish('result', { status: 'void', reason, detail, cards: this.resultCards(r), outcome });
    this.publishRound('void', { reason, cards: this.resultCards(r) });
    this.finishRound('void');
    this.log('warn', `${r.id} void: ${reason} (${detail})`);
    this.releaseHold(false);
  }

  protected finishRound(status: 'complete' | 'void'): void {
    const r = this.state.round!;
    const sh = this.state.shoe;
    this.state.lastRound = { id: r.id, status };
    this.state.round = null;
    if (status === 'complete') sh.roundsCompleted += 1;
    if (r.lastRound && sh.state === 'last-round') sh.state = 'closed';
    this.publishShoe();
    const shuf = this.state.shuffler;
    if (shuf?.freshDeckAfterRound) {
      this.state.shuffler = { ...shuf, freshDeckAfterRound: false };
      this.startNewShoe(`shuffler ${shuf.deviceId} READY after COUNT (during round ${r.id})`);
    }
  }

  protected remember(entry: CompletedRound): void {
    const keep = this.settings.correctionWindowRounds;
    const list = [...(this.state.completed ?? []), entry];
    this.state.completed = keep > 0 ? list.slice(-keep) : [];
  }
}

/** one human line per finished round: `bac-01-s0001-r0003: player AS 6D | banker 5C TD -> player` */
export function roundSummary(roundId: string, cards: Record<string, (Card | null)[]>, outcome: Record<string, unknown>): string {
  const hands = Object.entries(cards)
    .filter(([pos, cs]) => pos !== 'burn' && cs.length > 0)
    .map(([pos, cs]) => `${pos} ${cs.join(' ')}`)
    .join(' | ');
  const winner = typeof outcome.winner === 'string' ? ` -> ${outcome.winner}` : '';
  const totals = 'playerTotal' in outcome && 'bankerTotal' in outcome ? ` (${String(outcome.playerTotal)}-${String(outcome.bankerTotal)})` : '';
  return `${roundId}: ${hands}${winner}${totals}`;
}
