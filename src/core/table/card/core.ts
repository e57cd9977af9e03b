/**
 * What every part of the card table reads: the round's expectation and phase, the `shoe` and
 * `round` snapshots, which cards the public may see, card counting. The layers above it own one
 * procedure each (holds, rounds, shoe lifecycle, shuffler, rescan, corrections, requests).
 */
import { type Card } from '../../vocabulary/card.js';
import { type Expectation } from '../../games/game.js';
import type { MessageBody } from '../messages.js';
import { readsCards } from '../../vocabulary/device-kinds.js';
import { TableStepBase } from '../table-base.js';
import { countOf, withCount } from './state.js';
import type { CardTableSettings, CardTableState, RoundStateData } from '../types.js';

/** a card table's `round` message without its envelope */
export type CardRoundBody = Extract<MessageBody<'round'>, { cards: unknown }>;

export abstract class CardTableCore extends TableStepBase<CardTableState, CardTableSettings> {
  protected currentIds(): { shoeId?: string; roundId?: string } {
    return { shoeId: this.state.shoe.id, roundId: this.state.round?.id };
  }

  protected publishShoe(): void {
    const sh = this.state.shoe;
    const body: MessageBody<'shoe'> = {
      shoeId: sh.id,
      state: sh.state,
      decks: this.settings.decks,
      cardsDealt: sh.cardsDealt,
      cutCardSeen: sh.cutCardSeen,
      revealCard: sh.revealCard,
      burnCount: sh.burnTarget,
      roundsCompleted: sh.roundsCompleted,
    };
    // New-shoe burns are face down: their values are published only once the shoe is over.
    if (sh.state === 'closed' || sh.state === 'void') body.burnCards = [...sh.burnCards];
    this.publish('shoe', body, { roundId: null });
  }

  protected expectation(): Expectation | null {
    const r = this.state.round;
    if (!r) return null;
    if (r.burns.length < r.burnsNeeded) return { kind: 'card', position: 'burn', faceDown: r.burnsHidden };
    return this.settings.game.expect(r.game);
  }

  protected phase(): CardRoundBody['phase'] {
    const r = this.state.round;
    if (this.state.held && r) return 'held';
    if (this.state.pending) return 'awaiting-rescan';
    if (!r) return 'idle';
    if (r.bettingOpen) return 'betting';
    const e = this.expectation();
    if (e && (e.kind === 'decision' || e.kind === 'close-decisions')) return 'awaiting-decision';
    return 'dealing';
  }

  /** the round's cards as the public may see them: hidden cards as null */
  protected visibleCards(r: RoundStateData): Record<string, (Card | null)[]> {
    const cards = this.settings.game.cards(r.game) as Record<string, (Card | null)[]>;
    const out: Record<string, (Card | null)[]> = {};
    for (const pos of this.settings.game.positions) out[pos] = [...(cards[pos] ?? [])];
    for (const pos of Object.keys(cards)) if (!(pos in out)) out[pos] = [...cards[pos]];
    for (const h of r.hidden) if (out[h.position]) out[h.position][h.index] = null;
    out.burn = r.burnsHidden ? r.burns.map(() => null) : [...r.burns];
    return out;
  }

  protected cardsOf(game: unknown, burns: (Card | null)[]): Record<string, (Card | null)[]> {
    const cards = this.settings.game.cards(game);
    const out: Record<string, (Card | null)[]> = {};
    for (const pos of this.settings.game.positions) if (cards[pos]) out[pos] = [...cards[pos]];
    for (const pos of Object.keys(cards)) if (!(pos in out)) out[pos] = [...cards[pos]];
    out.burn = [...burns];
    return out;
  }

  protected publishRound(phaseOverride?: 'complete' | 'void', extra: Partial<CardRoundBody> = {}): void {
    const r = this.state.round;
    const e = phaseOverride ? null : this.expectation();
    const body: CardRoundBody = {
      phase: phaseOverride ?? this.phase(),
      roundNo: r?.no ?? null,
      cards: r ? this.visibleCards(r) : {},
      // a game's expectation as it is: its `actions` are read-only there, the message's type copies nothing
      expect: this.state.pending ? { kind: 'rescan' } : (e as CardRoundBody['expect']) ?? null,
      ...extra,
    };
    this.publish('round', body, { roundId: r ? r.id : this.state.lastRound?.id ?? null });
  }

  protected isCardReader(deviceId: string): boolean {
    const k = this.state.devices[deviceId]?.kind;
    return k !== undefined && readsCards(k);
  }

  protected shoeDevices(): string[] {
    return this.settings.devices.filter((d) => d.kind === 'card-shoe' || d.kind === 'rfid-shoe').map((d) => d.id);
  }

  /** whether the next card will be dealt face down (so a rescan event must not show it) */
  protected isHiddenNext(): boolean {
    const sh = this.state.shoe;
    // a new shoe's burns (after its face-up reveal card) are face down
    if (sh.state === 'burning') return sh.revealCard !== null;
    if (!this.state.round) {
      // with an engine it is an unnecessary card (shown); without one it opens the next round
      if (this.settings.engine) return false;
      if (this.settings.burnPerRound > 0) return this.settings.burnFaceDown;
      const first = this.settings.game.expect(this.settings.game.newRound({ engine: false, options: this.settings.gameOptions }));
      return first.kind === 'card' && first.faceDown;
    }
    const e = this.expectation();
    return !!e && e.kind === 'card' && e.faceDown;
  }

  /**
   * The value a card that was NOT dealt (an unexpected rescan, an out-of-order read) may carry in
   * an alert: null whenever it could be a face-down card before its reveal point — the card the
   * dealer presents again may be the next face-down card, and a second rescan of a card already
   * dealt face down is that hidden card (games.md: no hidden value in any output).
   */
  protected publicCard(card: Card): Card | null {
    const r = this.state.round;
    if (this.isHiddenNext()) return null;
    if (r && (r.hidden.length > 0 || (r.burnsHidden && r.burns.length > 0))) return null;
    if (this.state.shoe.state === 'burning' && this.state.shoe.burnCards.length > 0) return null;
    if (r && this.settings.game.positions.length > 0 && this.gameDealsFaceDown()) return null;
    return card;
  }

  /** whether this game deals any card face down (checked on a fresh round of it) */
  protected gameDealsFaceDown(): boolean {
    if (this.settings.burnFaceDown) return true;
    try {
      let g = this.settings.game.newRound({ engine: this.settings.engine, options: this.settings.gameOptions });
      for (let i = 0; i < 16; i++) {
        const e = this.settings.game.expect(g);
        if (e.kind !== 'card') return false;
        if (e.faceDown) return true;
        g = this.settings.game.place(g, 'AS' as Card);
      }
      return false;
    } catch {
      return true;
    }
  }

  protected count(card: Card): number {
    const sh = this.state.shoe;
    const n = countOf(sh.counts, card) + 1;
    sh.counts = withCount(sh.counts, card, n);
    sh.cardsDealt += 1;
    return n;
  }

  /** games.md: every card counted is in exactly one card event; `discard` for a card in no hand */
  protected discard(deviceId: string, card: Card, extra: Record<string, unknown> = {}): void {
    const hidden = this.isHiddenNext();
    this.event('card', { deviceId, role: 'discard', card: hidden ? null : card, faceDown: hidden, cardNo: this.state.shoe.cardsDealt, ...extra });
  }

  protected clearPending(): void {
    const p = this.state.pending;
    if (!p) return;
    this.out.push({ type: 'cancel-timer', name: `rescan-retry:${p.id}` });
    this.out.push({ type: 'cancel-timer', name: `rescan-overdue:${p.id}` });
    this.state.pending = null;
  }
}
