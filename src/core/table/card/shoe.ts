/**
 * The shoe's lifecycle (games.md "Shoe procedures"): a new shoe's reveal and burns, where each card
 * goes (counting and foreign cards, the shoe burn, an unnecessary card, the round), the cut card
 * and the last round, deck exhaustion for single-deck games, the shoe closed or void.
 */
import { revealBurnCount, type Card } from '../../vocabulary/card.js';
import { CardTableRounds } from './round.js';
import { countOf, newShoe, withCount } from './state.js';

export abstract class CardTableShoe extends CardTableRounds {
  protected startNewShoe(why: string): void {
    if (this.state.pending) this.clearPending();
    if (this.state.round) {
      this.alert('round-void', `round ${this.state.round.id} void: new shoe started mid-round (${why})`);
      this.voidRound('round-void', `new shoe started mid-round (${why})`);
    }
    const prev = this.state.shoe;
    if (prev.state !== 'closed' && prev.state !== 'void' && prev.cardsDealt > 0) {
      this.state.shoe = { ...prev, state: 'closed' };
      this.publishShoe();
    }
    this.state.shoe = newShoe(this.settings, prev.no + 1, true);
    this.setHold('shoe-void', false);
    this.state.lastRound = null;
    this.publishShoe();
    this.log('info', `new shoe ${this.state.shoe.id} (${why})`);
  }

  protected onCut(deviceId: string): void {
    const sh = this.state.shoe;
    const r = this.state.round;
    // Pok Deng (sheet 001): a cut card after open-betting, before the first card, makes that round the last
    const startedRound = !!r && (r.burns.length > 0 || r.seen.length > 0);
    const inRound = !!r && (startedRound || this.settings.cutBeforeFirstCardIsLastRound);
    this.state.shoe = { ...sh, cutCardSeen: true };
    if (sh.state === 'closed' || sh.state === 'void') {
      this.event('cut', { deviceId, when: 'after-shoe' });
      return;
    }
    if (inRound) {
      this.state.shoe.state = 'last-round';
      r!.lastRound = true;
      this.event('cut', { deviceId, when: startedRound ? 'in-round' : 'before-first-card' });
      this.log('info', `cut card during round ${r!.id}: it is the last round of shoe ${sh.id}`);
    } else {
      this.state.shoe.state = 'closed';
      this.event('cut', { deviceId, when: 'between-rounds' });
      this.log('info', `cut card between rounds: shoe ${sh.id} closed`);
      if (r) {
        const detail = 'the cut card came out before this round\'s first card: no further round in this shoe';
        this.alert('round-void', `round ${r.id}: ${detail}`, { deviceId });
        this.voidRound('round-void', detail);
      }
    }
    this.publishShoe();
  }

  protected dealCard(deviceId: string, card: Card, uid?: string): void {
    const sh = this.state.shoe;
    if (sh.state === 'closed' || sh.state === 'void') {
      sh.cardsDealt += 1;
      sh.counts = withCount(sh.counts, card, countOf(sh.counts, card) + 1);
      this.event('card', { deviceId, role: 'discard', card, faceDown: false, cardNo: sh.cardsDealt, afterLastRound: true });
      this.alert('card-after-last-round', `${card} came out after the last round of shoe ${sh.id} (${sh.state}): not dealt to anyone`, { deviceId, card });
      this.publishShoe();
      return;
    }
    // A card the game cannot take now (waiting for a decision) is never assigned.
    const e = this.expectation();
    if (e && (e.kind === 'decision' || e.kind === 'close-decisions')) {
      const shown = this.publicCard(card);
      this.alert('out-of-order-card', `${shown ?? 'a card (value withheld)'} arrived while the round waits for ${e.kind === 'decision' ? `a decision of ${e.seat}` : 'close-decisions'}: not dealt`, { deviceId, card: shown });
      return;
    }
    // Counting: more copies than the shoe holds, or twice in one round of a single-deck game.
    const n = this.count(card);
    const dupInRound = this.settings.game.defaults.singleDeck && !!this.state.round?.seen.includes(card);
    // RFID: one physical card cannot leave the shoe twice (games.md Card counting)
    const dupTag = !!uid && !!sh.tags?.includes(uid);
    if (uid && !dupTag) sh.tags = [...(sh.tags ?? []), uid];
    if (n > this.settings.decks || dupInRound || dupTag) {
      this.discard(deviceId, card, { foreign: true });
      const why = dupTag ? ` (tag ${uid} already read in this shoe)` : dupInRound ? ' (twice in this round)' : '';
      this.alert('foreign-card', `${card} seen ${n} times in a ${this.settings.decks}-deck shoe${why}: not dealt`, { deviceId, card, ...(dupTag ? { uid } : {}) });
      // without an engine the card would have opened the next round: that round is void
      if (!this.state.round && !this.settings.engine && sh.state !== 'burning') this.openRound(false, undefined);
      if (this.state.round) this.voidRound('foreign-card', `foreign card ${card}`);
      return;
    }
    if (sh.state === 'burning') return this.shoeBurn(deviceId, card);
    if (!this.state.round || e?.kind === 'complete') {
      if (this.settings.engine || (this.state.round && e?.kind === 'complete')) return this.unnecessaryCard(deviceId, card);
      this.openRound(false, undefined);
      if (this.voidIfDeckExhausted(1, () => this.discard(deviceId, card, { deckExhausted: true }))) return;
    }
    this.roundCard(deviceId, card);
  }

  protected shoeBurn(deviceId: string, card: Card): void {
    const sh = this.state.shoe;
    if (sh.revealCard === null) {
      sh.revealCard = card;
      sh.burnTarget = revealBurnCount(card);
      this.event('card', { deviceId, role: 'reveal', card, faceDown: false, cardNo: sh.cardsDealt });
      this.log('info', `shoe ${sh.id}: reveal card ${card}, burning ${sh.burnTarget}`);
    } else {
      sh.burnCards.push(card);
      this.event('card', { deviceId, role: 'burn', card: null, faceDown: true, cardNo: sh.cardsDealt });
    }
    if (sh.revealCard !== null && sh.burnCards.length >= sh.burnTarget) {
      sh.state = 'dealing';
      this.log('info', `shoe ${sh.id}: burn complete, dealing`);
    }
    this.publishShoe();
  }

  /**
   * games.md Unnecessary card. `burn-then-void-shoe`: it becomes the first of the next round's
   * burns; the second in a row leaves the result standing and voids the rest of the shoe (that card
   * is in no round: `discard`). `alert`: alerted and counted, in no hand and no burn (`discard`).
   */
  protected unnecessaryCard(deviceId: string, card: Card): void {
    const sh = this.state.shoe;
    if (this.settings.unnecessaryCardRule === 'alert') {
      this.event('card', { deviceId, role: 'discard', card, faceDown: false, cardNo: sh.cardsDealt, unnecessary: true });
      this.alert('unnecessary-card', `${card} was drawn when no card was expected: it does not affect the result (in no hand, no burn)`, { deviceId, card });
      return;
    }
    sh.carriedBurns.push(card);
    const voids = sh.carriedBurns.length >= 2;
    this.event('card', { deviceId, role: voids ? 'discard' : 'burn', card, faceDown: false, cardNo: sh.cardsDealt, unnecessary: true });
    this.alert('unnecessary-card', `${card} was drawn when no card was expected${voids ? '' : ': it becomes a burn card of the next round'}`, { deviceId, card, count: sh.carriedBurns.length });
    if (voids) this.voidShoe(`${sh.carriedBurns.length} unnecessary cards`, deviceId);
  }

  /**
   * Single-deck games: a round that could need more cards than the deck still holds is void
   * (`deck-exhausted`) and the deck is done until the next `LOADED`. `justCounted` = cards of this
   * round already counted. Only checked on a deck whose start the gateway saw.
   */
  protected voidIfDeckExhausted(justCounted: number, beforeAlert?: () => void): boolean {
    const sh = this.state.shoe;
    const r = this.state.round;
    if (!r || !this.settings.game.defaults.singleDeck || !sh.loaded) return false;
    const remaining = this.settings.decks * 52 - (sh.cardsDealt - justCounted);
    const needed = r.burnsNeeded - r.burns.length + this.settings.game.defaults.maxCardsPerRound;
    if (remaining >= needed) return false;
    beforeAlert?.();
    this.alert('deck-exhausted', `round ${r.id} could need ${needed} cards but the deck has ${remaining} left: the round is void, load a fresh deck`);
    sh.state = 'closed';
    this.voidRound('deck-exhausted', `${remaining} cards left, up to ${needed} needed`);
    return true;
  }
}
