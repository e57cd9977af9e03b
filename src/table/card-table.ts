/**
 * The card-table machine: the shoe procedures shared by all card games (games.md "Shoe
 * procedures"): new-shoe reveal and burn, per-round burns, cut card and last round, exposed /
 * unnecessary / dropped cards, misread -> awaiting-rescan -> rescan, card counting (foreign cards),
 * deck exhaustion for single-deck games. The game module (`src/games/*`) only knows the dealing
 * order and the outcome of one round. Pure: no I/O, no clock, no randomness.
 */
import type { DeviceFrame } from '../../drivers/codecs/frames.js';
import { isCard, revealBurnCount, type Card } from '../domain/card.js';
import type { Expectation, RevealPoint } from '../games/game.js';
import type { ParsedRequest } from '../mqtt/requests.js';
import type { AlertKind, Severity } from './alerts.js';
import { initialDevices, TableStepBase, type RequestAnswer } from './table-base.js';
import type {
  CardTableSettings, CardTableState, CompletedRound, HiddenCard, HoldReason, RoundStateData, ShoeStateData, ShufflerStateData, TableCounters,
} from './types.js';

const pad4 = (n: number) => String(n).padStart(4, '0');

export function shoeIdOf(tableId: string, no: number): string {
  return `${tableId}-s${pad4(no)}`;
}

/** A card table that has just started: an unknown shoe in progress, no round. */
export function initialCardTableState(settings: CardTableSettings, persisted: TableCounters = {}): CardTableState {
  const shoeNo = (persisted.shoeNo ?? 0) + 1;
  return {
    kind: 'card',
    seq: persisted.seq ?? 0,
    shoe: newShoe(settings, shoeNo, false),
    round: null,
    lastRound: null,
    pending: null,
    nextPendingId: 1,
    devices: initialDevices(settings),
  };
}

export function cardTableCounters(s: CardTableState): TableCounters {
  return { seq: s.seq, shoeNo: s.shoe.no };
}

/**
 * A private copy of the parts of the state a step may change. Each object is cloned with a bare
 * spread and its changed members assigned after: V8 clones `{ ...x }` on its fast path (the
 * clone keeps `x`'s hidden class), where `{ ...x, k: v }` builds the object property by property.
 * `tags`, `holds`, `completed` and `shoe.counts` are never changed in place (a step assigns new
 * ones): shared with `prev`.
 */
export function copyCardTableState(prev: CardTableState): CardTableState {
  const s = { ...prev };
  const shoe = { ...prev.shoe };
  shoe.burnCards = prev.shoe.burnCards.slice();
  shoe.carriedBurns = prev.shoe.carriedBurns.slice();
  s.shoe = shoe;
  if (prev.round) {
    const round = { ...prev.round };
    round.burns = prev.round.burns.slice();
    round.hidden = prev.round.hidden.slice();
    round.seen = prev.round.seen.slice();
    s.round = round;
  }
  if (prev.pending) s.pending = { ...prev.pending };
  s.devices = { ...prev.devices };
  return s;
}

/**
 * `counts` with `card` set to `n`, as a new object (the old one may be shared with the previous
 * state). Same key order as `{ ...counts, [card]: n }` — a card counted again keeps its place, a
 * new one goes last — so snapshots stay byte for byte; the clone-then-assign is V8's fast path.
 */
function withCount(counts: Record<string, number>, card: string, n: number): Record<string, number> {
  const next = { ...counts };
  next[card] = n;
  return next;
}

function newShoe(settings: CardTableSettings, no: number, loaded: boolean): ShoeStateData {
  const single = settings.game.defaults.singleDeck;
  return {
    no,
    id: shoeIdOf(settings.tableId, no),
    state: loaded && !single ? 'burning' : 'dealing',
    loaded,
    revealCard: null,
    burnTarget: 0,
    burnCards: [],
    cardsDealt: 0,
    cutCardSeen: false,
    counts: {},
    roundsStarted: 0,
    roundsCompleted: 0,
    carriedBurns: [],
  };
}

/** One step of a card table, on a private copy of the state. */
export class CardTableStep extends TableStepBase<CardTableState, CardTableSettings> {
  protected currentIds(): { shoeId?: string; roundId?: string } {
    return { shoeId: this.s.shoe.id, roundId: this.s.round?.id };
  }

  private publishShoe(): void {
    const sh = this.s.shoe;
    const body: Record<string, unknown> = {
      state: sh.state,
      decks: this.cfg.decks,
      cardsDealt: sh.cardsDealt,
      cutCardSeen: sh.cutCardSeen,
      revealCard: sh.revealCard,
      burnCount: sh.burnTarget,
      roundsCompleted: sh.roundsCompleted,
    };
    // New-shoe burns are face down: their values are published only once the shoe is over.
    if (sh.state === 'closed' || sh.state === 'void') body.burnCards = [...sh.burnCards];
    this.publish('shoe', 'shoe', true, { shoeId: sh.id, ...body }, { roundId: null });
  }

  private expectation(): Expectation | null {
    const r = this.s.round;
    if (!r) return null;
    if (r.burns.length < r.burnsNeeded) return { kind: 'card', position: 'burn', faceDown: r.burnsHidden };
    return this.cfg.game.expect(r.game);
  }

  private phase(): string {
    const r = this.s.round;
    if (this.s.held && r) return 'held';
    if (this.s.pending) return 'awaiting-rescan';
    if (!r) return 'idle';
    if (r.bettingOpen) return 'betting';
    const e = this.expectation();
    if (e && (e.kind === 'decision' || e.kind === 'close-decisions')) return 'awaiting-decision';
    return 'dealing';
  }

  /** the round's cards as the public may see them: hidden cards as null */
  private visibleCards(r: RoundStateData): Record<string, (Card | null)[]> {
    const cards = this.cfg.game.cards(r.game) as Record<string, (Card | null)[]>;
    const out: Record<string, (Card | null)[]> = {};
    for (const pos of this.cfg.game.positions) out[pos] = [...(cards[pos] ?? [])];
    for (const pos of Object.keys(cards)) if (!(pos in out)) out[pos] = [...cards[pos]];
    for (const h of r.hidden) if (out[h.position]) out[h.position][h.index] = null;
    out.burn = r.burnsHidden ? r.burns.map(() => null) : [...r.burns];
    return out;
  }

  private publishRound(phaseOverride?: 'complete' | 'void', extra: Record<string, unknown> = {}): void {
    const r = this.s.round;
    const e = phaseOverride ? null : this.expectation();
    const body: Record<string, unknown> = {
      phase: phaseOverride ?? this.phase(),
      roundNo: r?.no ?? null,
      cards: r ? this.visibleCards(r) : {},
      expect: this.s.pending ? { kind: 'rescan' } : e ?? null,
      ...extra,
    };
    this.publish('round', 'round', true, body, { roundId: r ? r.id : this.s.lastRound?.id ?? null });
  }

  // ---------------------------------------------------------------- holding the shoes
  // ONE owner of LOCK / UNLOCK (device-protocols.md): the set of reasons to hold the shoes lives in
  // the state. LOCK when it becomes non-empty, UNLOCK when it empties; a reason added twice or
  // removed while absent changes nothing.

  private setHold(reason: HoldReason, on: boolean): void {
    const before = this.s.holds ?? [];
    if (before.includes(reason) === on) return;
    const after = on ? [...before, reason].sort() : before.filter((x) => x !== reason);
    this.s.holds = after;
    if (before.length === 0 && after.length > 0) {
      for (const d of this.shoeDevices()) this.out.push({ type: 'device-command', deviceId: d, command: 'LOCK' });
      this.log('warn', `shoes held (${reason})`);
    } else if (before.length > 0 && after.length === 0) {
      for (const d of this.shoeDevices()) this.out.push({ type: 'device-command', deviceId: d, command: 'UNLOCK' });
      this.log('info', `shoes released (${reason} cleared)`);
    } else {
      this.log('info', `shoe hold ${on ? 'added' : 'cleared'}: ${reason}; still held for ${after.join(', ')}`);
    }
  }

  protected override onOutboxHold(full: boolean): void {
    this.setHold('outbox-full', full);
  }

  /** the rest of the shoe is void: `shoe-void` (critical), shoe state `void`, the shoes held until a new shoe */
  private voidShoe(detail: string, deviceId?: string): void {
    const sh = this.s.shoe;
    if (sh.state === 'void') return;
    sh.state = 'void';
    this.alert('shoe-void', `${detail}: the rest of shoe ${sh.id} is void`, deviceId ? { deviceId } : {});
    this.setHold('shoe-void', true);
    this.publishShoe();
  }

  // ---------------------------------------------------------------- start and devices

  protected onStart(): void {
    this.publishShoe();
    this.publishRound();
    this.log('info', `table ${this.cfg.tableId} (${this.cfg.gameId}) started, shoe ${this.s.shoe.id}`);
  }

  // ---------------------------------------------------------------- device frames

  protected onGameFrame(deviceId: string, f: DeviceFrame): void {
    // a held round (an unrepaired frame gap): what the card readers send waits for the pit
    if (this.s.held && this.isCardReader(deviceId)) {
      this.s.held = { ...this.s.held, queued: [...this.s.held.queued, { deviceId, frame: f }] };
      this.log('warn', `round ${this.s.round?.id ?? '-'} is held: a ${f.type} frame from ${deviceId} waits for resume-round or void-round`);
      return;
    }
    switch (f.type) {
      case 'CARD': return this.onCard(deviceId, f.card, f.rescan, f.uid);
      case 'MISREAD': return this.onMisread(deviceId);
      case 'CUT': return this.onCut(deviceId);
      case 'DROP': return this.onDrop(deviceId);
      case 'STATE':
        this.event('shoe-state', { deviceId, state: f.state });
        if (f.state === 'LOADED') this.startNewShoe(`shoe ${deviceId} reported LOADED`);
        return;
      case 'SHUF_STATE':
      case 'COUNT':
        return this.onShufflerFrame(deviceId, f);
      default:
        this.log('warn', `frame type ${f.type} from ${deviceId} is not used by a ${this.cfg.gameId} table`);
    }
  }

  // ---------------------------------------------------------------- lost frames (games.md)

  private isCardReader(deviceId: string): boolean {
    const k = this.s.devices[deviceId]?.kind;
    return k === 'card-shoe' || k === 'rfid-shoe' || k === 'barcode-scanner';
  }

  /** an unrepaired gap on a card reader during a round may hide a card: the round is held */
  protected override onUnrepairedGap(deviceId: string): Severity {
    if (!this.s.round || !this.isCardReader(deviceId)) return 'warning';
    if (!this.s.held) {
      this.s.held = { deviceId, since: this.at, queued: [] };
      this.setHold('frame-gap', true);
      this.publishRound();
    }
    return 'critical';
  }

  /** ends a hold: `resume` places the cards read meanwhile in order; otherwise (the round was voided) they are discards */
  private releaseHold(resume: boolean): void {
    const h = this.s.held;
    if (!h) return;
    this.s.held = null;
    this.setHold('frame-gap', false);
    for (const q of h.queued) {
      if (!resume && q.frame.type === 'CARD') {
        // read while the round was held, and the round is void: counted, in no hand, shown
        this.count(q.frame.card);
        this.event('card', { deviceId: q.deviceId, role: 'discard', card: q.frame.card, faceDown: false, cardNo: this.s.shoe.cardsDealt });
        continue;
      }
      this.onGameFrame(q.deviceId, q.frame);
    }
  }

  // ---------------------------------------------------------------- shoe lifecycle

  private startNewShoe(why: string): void {
    if (this.s.pending) this.clearPending();
    if (this.s.round) {
      this.alert('round-void', `round ${this.s.round.id} void: new shoe started mid-round (${why})`);
      this.voidRound('round-void', `new shoe started mid-round (${why})`);
    }
    const prev = this.s.shoe;
    if (prev.state !== 'closed' && prev.state !== 'void' && prev.cardsDealt > 0) {
      this.s.shoe = { ...prev, state: 'closed' };
      this.publishShoe();
    }
    this.s.shoe = newShoe(this.cfg, prev.no + 1, true);
    this.setHold('shoe-void', false);
    this.s.lastRound = null;
    this.publishShoe();
    this.log('info', `new shoe ${this.s.shoe.id} (${why})`);
  }

  private onCut(deviceId: string): void {
    const sh = this.s.shoe;
    const r = this.s.round;
    // Pok Deng (sheet 001): a cut card after open-betting, before the first card, makes that round the last
    const startedRound = !!r && (r.burns.length > 0 || r.seen.length > 0);
    const inRound = !!r && (startedRound || this.cfg.cutBeforeFirstCardIsLastRound);
    this.s.shoe = { ...sh, cutCardSeen: true };
    if (sh.state === 'closed' || sh.state === 'void') {
      this.event('cut', { deviceId, when: 'after-shoe' });
      return;
    }
    if (inRound) {
      this.s.shoe.state = 'last-round';
      r!.lastRound = true;
      this.event('cut', { deviceId, when: startedRound ? 'in-round' : 'before-first-card' });
      this.log('info', `cut card during round ${r!.id}: it is the last round of shoe ${sh.id}`);
    } else {
      this.s.shoe.state = 'closed';
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

  // ---------------------------------------------------------------- cards

  private onMisread(deviceId: string): void {
    if (this.shufflerHoldsDealing(deviceId, null)) return;
    this.event('misread', { deviceId });
    const sh = this.s.shoe;
    if (sh.state === 'closed' || sh.state === 'void') {
      // no card can be dealt after the last round: nothing to wait for (docs/FAULTS.md, question 9)
      this.alert('misread', `card could not be read by ${deviceId} after the last round of shoe ${sh.id} (${sh.state}): not dealt to anyone, no rescan`, { deviceId });
      return;
    }
    this.alert('misread', `card could not be read by ${deviceId}: rescan required`, { deviceId });
    this.awaitRescan(deviceId);
  }

  /** the round waits for the rescan of a card that could not be read (a misread, an unknown RFID tag) */
  private awaitRescan(deviceId: string): void {
    if (this.s.pending) return; // the same card failed again: still one pending rescan
    const id = this.s.nextPendingId++;
    this.s.pending = { id, since: this.at, retriesSent: 0, deviceId };
    this.out.push({ type: 'device-command', deviceId, command: 'RESCAN' });
    if (this.cfg.rescanRetries > 0) this.out.push({ type: 'set-timer', name: `rescan-retry:${id}`, at: this.at + this.cfg.rescanIntervalMs });
    this.out.push({ type: 'set-timer', name: `rescan-overdue:${id}`, at: this.at + this.cfg.rescanTimeoutMs });
    this.publishRound();
  }

  /**
   * games.md Misread: an RFID tag that is in no registered deck, read where a card is expected, is
   * handled as a misread: the round waits for that card's rescan (the `unknown-tag` alert is the
   * driver's). Where no card is expected the alert is all.
   */
  protected override onDeviceAlert(deviceId: string, kind: AlertKind): void {
    if (kind !== 'unknown-tag' || this.s.shuffler?.blocked) return;
    const sh = this.s.shoe;
    if (sh.state === 'closed' || sh.state === 'void') return;
    const e = this.expectation();
    const expected = sh.state === 'burning' || (this.s.round ? e?.kind === 'card' : !this.cfg.engine);
    if (expected) this.awaitRescan(deviceId);
  }

  private clearPending(): void {
    const p = this.s.pending;
    if (!p) return;
    this.out.push({ type: 'cancel-timer', name: `rescan-retry:${p.id}` });
    this.out.push({ type: 'cancel-timer', name: `rescan-overdue:${p.id}` });
    this.s.pending = null;
  }

  protected onTimer(name: string): void {
    const [kind, idText] = name.split(':');
    const p = this.s.pending;
    if (!p || String(p.id) !== idText) return; // a timer of a rescan that has been resolved
    if (kind === 'rescan-retry') {
      if (p.retriesSent >= this.cfg.rescanRetries) return;
      this.s.pending = { ...p, retriesSent: p.retriesSent + 1 };
      this.out.push({ type: 'device-command', deviceId: p.deviceId, command: 'RESCAN' });
      if (p.retriesSent + 1 < this.cfg.rescanRetries) this.out.push({ type: 'set-timer', name, at: this.at + this.cfg.rescanIntervalMs });
    } else if (kind === 'rescan-overdue') {
      this.alert('rescan-overdue', `no rescan ${this.at - p.since} ms after the misread on ${p.deviceId}: the dealer must rescan the card`, { deviceId: p.deviceId });
    }
  }

  /**
   * games.md Dropped card. During a burn (the new shoe's or a round's) the dropped card is picked
   * up and counts as that burn, read or not (an unread one is `null`); while dealing, a read card
   * dealt face up counts and play goes on; an unread one, or one dealt face down, voids the round.
   */
  private onDrop(deviceId: string): void {
    if (this.s.pending) {
      if (this.burnIsNext()) {
        this.clearPending();
        this.event('drop', { deviceId, read: false, detail: 'an unread burn card was dropped: picked up, it counts as that burn' });
        this.unreadBurn(deviceId);
        return;
      }
      this.clearPending();
      this.alert('dropped-card', 'a card that was never read was dropped: the round is void', { deviceId });
      if (this.s.round) this.voidRound('dropped-card', 'an unread card was dropped');
      else this.publishRound();
      return;
    }
    const r = this.s.round;
    if (r?.last && !r.last.burn && r.last.faceDown) {
      this.alert('dropped-card', 'a card dealt face down was dropped before it was opened: the round is void', { deviceId });
      this.voidRound('dropped-card', 'a face-down card was dropped');
      return;
    }
    const burn = r ? !!r.last?.burn : this.s.shoe.state === 'burning';
    this.event('drop', { deviceId, read: true, detail: burn ? 'a burn card was dropped: picked up, it counts as that burn' : 'the dropped card had been read: it counts and play goes on' });
  }

  /** whether the next card drawn is a burn (the new shoe's, or a round's) */
  private burnIsNext(): boolean {
    const sh = this.s.shoe;
    const r = this.s.round;
    if (sh.state === 'burning') return sh.revealCard !== null;
    if (sh.state === 'closed' || sh.state === 'void') return false;
    if (r) return r.burns.length < r.burnsNeeded;
    return !this.cfg.engine && this.cfg.burnPerRound > 0;
  }

  /** an unread burn card, dropped and picked up: it counts as that burn, value unknown (`null`) */
  private unreadBurn(deviceId: string): void {
    const sh = this.s.shoe;
    sh.cardsDealt += 1;
    if (sh.state === 'burning') {
      sh.burnCards.push(null);
      this.event('card', { deviceId, role: 'burn', card: null, faceDown: true, cardNo: sh.cardsDealt, unread: true });
      if (sh.burnCards.length >= sh.burnTarget) sh.state = 'dealing';
      this.publishShoe();
      return;
    }
    if (!this.s.round) {
      this.openRound(false, undefined);
      if (this.voidIfDeckExhausted(1)) return;
    }
    const r = this.s.round!;
    r.burns.push(null);
    r.last = { burn: true, faceDown: true };
    this.event('card', { deviceId, role: 'burn', card: null, faceDown: true, cardNo: sh.cardsDealt, unread: true });
    this.publishRound();
  }

  private onCard(deviceId: string, card: Card, rescan: boolean, uid?: string): void {
    // An RFID shoe cannot mark a re-read: its next card while its own misread is pending is the rescan.
    if (!rescan && this.s.pending?.deviceId === deviceId && this.s.devices[deviceId]?.kind === 'rfid-shoe') rescan = true;
    if (!rescan && this.shufflerHoldsDealing(deviceId, card)) return;
    if (rescan) {
      if (!this.s.pending) {
        const shown = this.publicCard(card);
        this.alert('unexpected-rescan', `rescan ${shown ?? '(value withheld)'} from ${deviceId} with no misread pending: ignored`, { deviceId, card: shown });
        return;
      }
      this.clearPending();
      this.event('rescan', { deviceId, card: this.isHiddenNext() ? null : card });
    } else if (this.s.pending) {
      this.alert('out-of-order-card', `a card arrived from ${deviceId} while a rescan is pending: neither dealt nor counted, the round is held`, { deviceId, card: this.publicCard(card) });
      return;
    }
    this.dealCard(deviceId, card, uid);
  }

  /** whether the next card will be dealt face down (so a rescan event must not show it) */
  private isHiddenNext(): boolean {
    const sh = this.s.shoe;
    // a new shoe's burns (after its face-up reveal card) are face down
    if (sh.state === 'burning') return sh.revealCard !== null;
    if (!this.s.round) {
      // with an engine it is an unnecessary card (shown); without one it opens the next round
      if (this.cfg.engine) return false;
      if (this.cfg.burnPerRound > 0) return this.cfg.burnFaceDown;
      const first = this.cfg.game.expect(this.cfg.game.newRound({ engine: false, options: this.cfg.gameOptions }));
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
  private publicCard(card: Card): Card | null {
    const r = this.s.round;
    if (this.isHiddenNext()) return null;
    if (r && (r.hidden.length > 0 || (r.burnsHidden && r.burns.length > 0))) return null;
    if (this.s.shoe.state === 'burning' && this.s.shoe.burnCards.length > 0) return null;
    if (r && this.cfg.game.positions.length > 0 && this.gameDealsFaceDown()) return null;
    return card;
  }

  /** whether this game deals any card face down (checked on a fresh round of it) */
  private gameDealsFaceDown(): boolean {
    if (this.cfg.burnFaceDown) return true;
    try {
      let g = this.cfg.game.newRound({ engine: this.cfg.engine, options: this.cfg.gameOptions });
      for (let i = 0; i < 16; i++) {
        const e = this.cfg.game.expect(g);
        if (e.kind !== 'card') return false;
        if (e.faceDown) return true;
        g = this.cfg.game.place(g, 'AS' as Card);
      }
      return false;
    } catch {
      return true;
    }
  }

  private count(card: Card): number {
    const sh = this.s.shoe;
    const n = (sh.counts[card] ?? 0) + 1;
    sh.counts = withCount(sh.counts, card, n);
    sh.cardsDealt += 1;
    return n;
  }

  /** games.md: every card counted is in exactly one card event; `discard` for a card in no hand */
  private discard(deviceId: string, card: Card, extra: Record<string, unknown> = {}): void {
    const hidden = this.isHiddenNext();
    this.event('card', { deviceId, role: 'discard', card: hidden ? null : card, faceDown: hidden, cardNo: this.s.shoe.cardsDealt, ...extra });
  }

  private dealCard(deviceId: string, card: Card, uid?: string): void {
    const sh = this.s.shoe;
    if (sh.state === 'closed' || sh.state === 'void') {
      sh.cardsDealt += 1;
      sh.counts = withCount(sh.counts, card, (sh.counts[card] ?? 0) + 1);
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
    const dupInRound = this.cfg.game.defaults.singleDeck && !!this.s.round?.seen.includes(card);
    // RFID: one physical card cannot leave the shoe twice (games.md Card counting)
    const dupTag = !!uid && !!sh.tags?.includes(uid);
    if (uid && !dupTag) sh.tags = [...(sh.tags ?? []), uid];
    if (n > this.cfg.decks || dupInRound || dupTag) {
      this.discard(deviceId, card, { foreign: true });
      const why = dupTag ? ` (tag ${uid} already read in this shoe)` : dupInRound ? ' (twice in this round)' : '';
      this.alert('foreign-card', `${card} seen ${n} times in a ${this.cfg.decks}-deck shoe${why}: not dealt`, { deviceId, card, ...(dupTag ? { uid } : {}) });
      // without an engine the card would have opened the next round: that round is void
      if (!this.s.round && !this.cfg.engine && sh.state !== 'burning') this.openRound(false, undefined);
      if (this.s.round) this.voidRound('foreign-card', `foreign card ${card}`);
      return;
    }
    if (sh.state === 'burning') return this.shoeBurn(deviceId, card);
    if (!this.s.round || e?.kind === 'complete') {
      if (this.cfg.engine || (this.s.round && e?.kind === 'complete')) return this.unnecessaryCard(deviceId, card);
      this.openRound(false, undefined);
      if (this.voidIfDeckExhausted(1, () => this.discard(deviceId, card, { deckExhausted: true }))) return;
    }
    this.roundCard(deviceId, card);
  }

  private shoeBurn(deviceId: string, card: Card): void {
    const sh = this.s.shoe;
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
  private unnecessaryCard(deviceId: string, card: Card): void {
    const sh = this.s.shoe;
    if (this.cfg.unnecessaryCardRule === 'alert') {
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

  private openRound(engine: boolean, engineRoundId: string | undefined): RoundStateData {
    const sh = this.s.shoe;
    sh.roundsStarted += 1;
    const carried = sh.carriedBurns;
    sh.carriedBurns = [];
    const r: RoundStateData = {
      id: engineRoundId ?? `${sh.id}-r${pad4(sh.roundsStarted)}`,
      no: sh.roundsStarted,
      bettingOpen: engine,
      game: this.cfg.game.newRound({ engine: this.cfg.engine, options: this.cfg.gameOptions }),
      burns: [...carried],
      burnsNeeded: Math.max(this.cfg.burnPerRound, carried.length),
      burnsHidden: this.cfg.burnFaceDown,
      hidden: [],
      lastRound: sh.state === 'last-round',
      seen: [],
    };
    this.s.round = r;
    this.s.pending = null;
    return r;
  }

  /**
   * Single-deck games: a round that could need more cards than the deck still holds is void
   * (`deck-exhausted`) and the deck is done until the next `LOADED`. `justCounted` = cards of this
   * round already counted. Only checked on a deck whose start the gateway saw.
   */
  private voidIfDeckExhausted(justCounted: number, beforeAlert?: () => void): boolean {
    const sh = this.s.shoe;
    const r = this.s.round;
    if (!r || !this.cfg.game.defaults.singleDeck || !sh.loaded) return false;
    const remaining = this.cfg.decks * 52 - (sh.cardsDealt - justCounted);
    const needed = r.burnsNeeded - r.burns.length + this.cfg.game.defaults.maxCardsPerRound;
    if (remaining >= needed) return false;
    beforeAlert?.();
    this.alert('deck-exhausted', `round ${r.id} could need ${needed} cards but the deck has ${remaining} left: the round is void, load a fresh deck`);
    sh.state = 'closed';
    this.voidRound('deck-exhausted', `${remaining} cards left, up to ${needed} needed`);
    return true;
  }

  private roundCard(deviceId: string, card: Card): void {
    const r = this.s.round!;
    const sh = this.s.shoe;
    r.seen.push(card);
    if (r.burns.length < r.burnsNeeded) {
      r.burns.push(card);
      r.last = { burn: true, faceDown: r.burnsHidden };
      this.event('card', { deviceId, role: 'burn', card: r.burnsHidden ? null : card, faceDown: r.burnsHidden, cardNo: sh.cardsDealt });
      this.publishRound();
      return;
    }
    const e = this.cfg.game.expect(r.game);
    if (e.kind !== 'card') return; // unreachable: dealCard checked
    if (r.bettingOpen && !e.faceDown) {
      // Exposed card: a non-burn card drawn face up while betting is open voids the round.
      r.game = this.cfg.game.place(r.game, card);
      this.event('card', { deviceId, role: e.position, card, faceDown: false, cardNo: sh.cardsDealt, exposed: true });
      const shoeToo = this.cfg.exposedCardVoidsShoe;
      this.alert('exposed-card', `${card} was dealt face up to ${e.position} while betting was open: the round${shoeToo ? ' and the rest of the shoe are' : ' is'} void`, { deviceId, card });
      this.voidRound('exposed-card', `${card} exposed during betting`);
      // games.md Exposed card, sheet 000: "the game and the shoe are void" (baccarat, 7 Up, Dragon Tiger)
      if (shoeToo) this.voidShoe(`exposed card ${card}`, deviceId);
      return;
    }
    const index = (this.cfg.game.cards(r.game)[e.position] ?? []).length;
    r.game = this.cfg.game.place(r.game, card);
    // a card meant to stay hidden until betting closes, dealt after it closed, is shown at once
    const faceDown = e.faceDown && !(e.revealAt === 'close-betting' && this.cfg.engine && !r.bettingOpen);
    if (faceDown) r.hidden.push({ position: e.position, index, card, revealAt: e.revealAt ?? 'result' });
    r.last = { burn: false, faceDown };
    this.event('card', { deviceId, role: e.position, card: faceDown ? null : card, faceDown, cardNo: sh.cardsDealt });
    this.log('debug', faceDown ? `${r.id}: face-down card to ${e.position}` : `${r.id}: ${card} to ${e.position}`);
    this.afterChange();
  }

  /** after a round changed: finish it when complete, else publish the snapshot */
  private afterChange(): void {
    const r = this.s.round;
    if (!r) return;
    const e = this.expectation();
    if (e && e.kind === 'complete' && !r.bettingOpen && !this.s.pending) this.completeRound();
    else this.publishRound();
  }

  private reveal(point: RevealPoint | 'all'): void {
    const r = this.s.round;
    if (!r) return;
    const now: HiddenCard[] = [];
    const keep: HiddenCard[] = [];
    for (const h of r.hidden) (point === 'all' || h.revealAt === point ? now : keep).push(h);
    if (now.length === 0) return;
    r.hidden = keep;
    const cards = now.map((h) => ({ position: h.position, index: h.index, card: h.card }));
    this.event('reveal', { cards });
  }

  private resultCards(r: RoundStateData): Record<string, (Card | null)[]> {
    const cards = this.cfg.game.cards(r.game);
    const out: Record<string, (Card | null)[]> = {};
    for (const pos of this.cfg.game.positions) if (cards[pos]) out[pos] = [...cards[pos]];
    for (const pos of Object.keys(cards)) if (!(pos in out)) out[pos] = [...cards[pos]];
    out.burn = [...r.burns];
    return out;
  }

  private completeRound(): void {
    const r = this.s.round!;
    this.reveal('all');
    const outcome = this.cfg.game.outcome(r.game);
    const env = this.publish('result', 'result', true, { status: 'complete', cards: this.resultCards(r), outcome });
    this.remember({ id: r.id, shoeId: this.s.shoe.id, resultSeq: env.seq, status: 'complete', game: r.game, burns: [...r.burns], seen: [...r.seen] });
    this.publishRound('complete', { cards: this.resultCards(r) });
    this.finishRound('complete');
    this.log('info', roundSummary(r.id, this.resultCards(r), outcome));
  }

  private voidRound(reason: AlertKind, detail: string): void {
    const r = this.s.round;
    if (!r) return;
    if (this.s.pending) this.clearPending();
    this.reveal('all');
    const outcome = this.cfg.game.voidOutcome?.(r.game) ?? null;
    this.publish('result', 'result', true, { status: 'void', reason, detail, cards: this.resultCards(r), outcome });
    this.publishRound('void', { reason, cards: this.resultCards(r) });
    this.finishRound('void');
    this.log('warn', `${r.id} void: ${reason} (${detail})`);
    this.releaseHold(false);
  }

  private finishRound(status: 'complete' | 'void'): void {
    const r = this.s.round!;
    const sh = this.s.shoe;
    this.s.lastRound = { id: r.id, status };
    this.s.round = null;
    if (status === 'complete') sh.roundsCompleted += 1;
    if (r.lastRound && sh.state === 'last-round') sh.state = 'closed';
    this.publishShoe();
    const shuf = this.s.shuffler;
    if (shuf?.freshDeckAfterRound) {
      this.s.shuffler = { ...shuf, freshDeckAfterRound: false };
      this.startNewShoe(`shuffler ${shuf.deviceId} READY after COUNT (during round ${r.id})`);
    }
  }

  // ---------------------------------------------------------------- requests

  protected handleRequest(req: Extract<ParsedRequest, { ok: true }>): RequestAnswer {
    const r = this.s.round;
    const sh = this.s.shoe;
    const g = this.cfg.game;
    switch (req.command) {
      case 'status':
        return { data: this.statusSnapshot() };
      case 'open-betting': {
        if (!this.cfg.engine) return { error: 'this table runs without an engine (betting: none): rounds start with their first card' };
        if (sh.state === 'void') return { error: `shoe ${sh.id} is void: load a new shoe` };
        if (sh.state === 'closed') return { error: `shoe ${sh.id} is closed (cut card): load a new shoe` };
        if (r) return { error: `round ${r.id} is still in progress` };
        if (this.s.pending) return { error: 'a misread card is waiting for its rescan' };
        const round = this.openRound(true, req.args.roundId as string | undefined);
        if (this.voidIfDeckExhausted(0)) return { error: `deck exhausted: round ${round.id} is void; load a fresh deck` };
        this.publishRound();
        return { data: { roundId: round.id } };
      }
      case 'close-betting': {
        if (!r || !r.bettingOpen) return { error: r ? `round ${r.id} is not in betting` : 'no round is open' };
        r.bettingOpen = false;
        this.reveal('close-betting');
        this.afterChange();
        return { data: { roundId: r.id } };
      }
      case 'decision': {
        if (!r) return { error: 'no round is in progress' };
        if (!g.decide) return { error: `${g.id} takes no player decisions` };
        if (r.bettingOpen) return { error: 'betting is still open' };
        if (r.burns.length < r.burnsNeeded) return { error: 'the round\'s burn cards have not been drawn yet' };
        const keepStanding = req.args.keepStanding === true;
        if (keepStanding && g.id !== 'blackjack') return { code: 'invalid-args', error: `keepStanding means nothing in ${g.id} (blackjack shared seats only)` };
        const next = g.decide(r.game, req.args.seat as string, req.args.action as string, keepStanding ? { keepStanding } : {});
        if (next && typeof next === 'object' && 'error' in (next as object)) return { code: keepStanding ? 'invalid-args' : 'wrong-phase', ...(next as { error: string }) };
        r.game = next;
        this.event('decision', { seat: req.args.seat, action: req.args.action, ...(keepStanding ? { keepStanding } : {}) });
        this.afterChange();
        return { data: { roundId: r.id } };
      }
      case 'close-decisions': {
        if (!r) return { error: 'no round is in progress' };
        if (!g.closeDecisions) return { error: `${g.id} has no decision windows` };
        if (r.bettingOpen) return { error: 'betting is still open' };
        const next = g.closeDecisions(r.game);
        if (next && typeof next === 'object' && 'error' in (next as object)) return next as { error: string };
        r.game = next;
        this.reveal('close-decisions');
        this.afterChange();
        return { data: { roundId: r.id } };
      }
      case 'correction': {
        if (req.args.roundId !== undefined && req.args.roundId !== r?.id) return this.correctCompleted(req.args);
        if (!r) return { error: 'no round is in progress' };
        if (!g.correct) return { error: `${g.id} has no corrections` };
        const next = g.correct(r.game, req.args.kind as string, req.args);
        if (next && typeof next === 'object' && 'error' in (next as object)) return next as { error: string };
        r.game = next;
        this.event('correction', { correction: req.args.kind });
        this.afterChange();
        return { data: { roundId: r.id } };
      }
      case 'resume-round': {
        const h = this.s.held;
        if (!h || !r) return { error: 'no round is held' };
        const by = req.args.by as string;
        this.event('round-resumed', { by, ...(req.args.reason ? { reason: req.args.reason } : {}), deviceId: h.deviceId, queued: h.queued.length });
        this.log('warn', `round ${r.id} resumed by ${by} after a frame gap on ${h.deviceId}${req.args.reason ? ` (${String(req.args.reason)})` : ''}`);
        this.releaseHold(true);
        if (this.s.round === r) this.publishRound();
        return { data: { roundId: r.id } };
      }
      case 'void-round':
        if (req.args.roundId !== undefined && req.args.roundId !== r?.id) return this.correctCompleted({ ...req.args, kind: 'void' });
        return this.pitVoid(req.args.reason as string, () => this.voidRound('round-void', req.args.reason as string));
      case 'new-shoe':
        this.startNewShoe('new-shoe request');
        return { data: { shoeId: this.s.shoe.id } };
      case 'end-shoe': {
        if (sh.state === 'closed' || sh.state === 'void') return { error: `shoe ${sh.id} is already ${sh.state}` };
        if (r) {
          sh.state = 'last-round';
          r.lastRound = true;
        } else sh.state = 'closed';
        this.publishShoe();
        return { data: { shoeId: sh.id, state: sh.state } };
      }
    }
  }

  // ================================================================ corrections after the result
  // games.md "Corrections and voids after the result": the pit may void or correct one of the last
  // `correctionWindowRounds` completed rounds by its roundId, with `by`. A superseding `result`
  // (status corrected | void, supersedesSeq, correction {kind, by, reason}) for the same roundId.

  private remember(entry: CompletedRound): void {
    const keep = this.cfg.correctionWindowRounds;
    const list = [...(this.s.completed ?? []), entry];
    this.s.completed = keep > 0 ? list.slice(-keep) : [];
  }

  private correctCompleted(args: Record<string, unknown>): RequestAnswer {
    const found = this.completedRound(this.s.completed, args, this.cfg.correctionWindowRounds);
    if ('error' in found) return found;
    const { entry, index, list, roundId, kind, by, reason } = found;
    const g = this.cfg.game;
    const correction = { kind, by, reason };
    const ids = { shoeId: entry.shoeId, roundId: entry.id };
    if (kind === 'void') {
      this.alert('round-void', `the pit (${by}) voided completed round ${roundId}: ${reason}`, { by });
      const env = this.publish('result', 'result', true, {
        status: 'void', reason: 'round-void', detail: reason, cards: this.cardsOf(entry.game, entry.burns), outcome: null, supersedesSeq: entry.resultSeq, correction,
      }, ids);
      this.s.completed = list.map((x, i) => (i === index ? { ...x, status: 'void', resultSeq: env.seq } : x));
      return { data: { roundId, supersedesSeq: entry.resultSeq } };
    }
    let game: unknown;
    if (kind === 'cards') {
      const rebuilt = this.rebuildFromCards(args.cards, entry);
      if ('error' in rebuilt) return { code: 'invalid-args', error: rebuilt.error };
      game = rebuilt.game;
    } else {
      if (!g.correct) return { code: 'invalid-args', error: `${g.id} has no correction "${kind}" (a completed round takes kind "cards")` };
      const next = g.correct(entry.game, kind, args);
      if (next && typeof next === 'object' && 'error' in (next as object)) return { code: 'invalid-args', ...(next as { error: string }) };
      game = next;
    }
    const outcome = g.outcome(game);
    this.event('correction', { correction: kind, by, roundId });
    const env = this.publish('result', 'result', true, {
      status: 'corrected', cards: this.cardsOf(game, entry.burns), outcome, supersedesSeq: entry.resultSeq, correction,
    }, ids);
    this.s.completed = list.map((x, i) => (i === index ? { ...x, status: 'corrected', resultSeq: env.seq, game } : x));
    this.log('info', `${roundId} corrected by ${by} (${kind}): ${roundSummary(roundId, this.cardsOf(game, entry.burns), outcome)}`);
    return { data: { roundId, supersedesSeq: entry.resultSeq } };
  }

  private cardsOf(game: unknown, burns: (Card | null)[]): Record<string, (Card | null)[]> {
    const cards = this.cfg.game.cards(game);
    const out: Record<string, (Card | null)[]> = {};
    for (const pos of this.cfg.game.positions) if (cards[pos]) out[pos] = [...cards[pos]];
    for (const pos of Object.keys(cards)) if (!(pos in out)) out[pos] = [...cards[pos]];
    out.burn = [...burns];
    return out;
  }

  /**
   * A round rebuilt from the corrected cards per position, dealt through the game module in its
   * own order (decision windows closed as they come; blackjack decisions read from the cards:
   * `split` when `seatNa` is given, `hit` with keepStanding when `seatNs` is, `hit` while the hand
   * has cards left, else `stand`). Every card must be used and the round must be complete.
   */
  private rebuildFromCards(raw: unknown, entry: CompletedRound): { game: unknown } | { error: string } {
    const g = this.cfg.game;
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return { error: '`cards` must be an object: position -> card codes' };
    const want: Record<string, Card[]> = {};
    const all: Card[] = [];
    for (const [pos, list] of Object.entries(raw as Record<string, unknown>)) {
      if (pos === 'burn') continue;
      if (!Array.isArray(list) || !list.every((c) => typeof c === 'string' && isCard(c))) return { error: `cards.${pos} must be a list of card codes` };
      want[pos] = [...(list as Card[])];
      // a blackjack standing hand `seatNs` holds the first cards of `seatN`: counted there
      if (!/^seat\d+s$/.test(pos)) all.push(...(list as Card[]));
    }
    // duplicates beyond the shoe, and (in the current shoe) cards never dealt in it
    const times: Record<string, number> = {};
    for (const c of all) times[c] = (times[c] ?? 0) + 1;
    const sh = this.s.shoe;
    for (const [c, n] of Object.entries(times)) {
      if (n > this.cfg.decks) return { error: `${c} appears ${n} times: more than a ${this.cfg.decks}-deck shoe holds` };
      if (entry.shoeId === sh.id && (sh.counts[c] ?? 0) < n) return { error: `${c} was not dealt ${n > 1 ? `${n} times ` : ''}in shoe ${sh.id}` };
    }
    let s = g.newRound({ engine: this.cfg.engine, options: this.cfg.gameOptions });
    const used: Record<string, number> = {};
    for (let guard = 0; guard < 200; guard++) {
      const e = g.expect(s);
      if (e.kind === 'complete') break;
      if (e.kind === 'card') {
        const n = used[e.position] ?? 0;
        const c = want[e.position]?.[n];
        if (!c) return { error: `the corrected cards do not fit ${g.id}: the round needs another card for ${e.position}` };
        used[e.position] = n + 1;
        s = g.place(s, c);
        continue;
      }
      let next: unknown;
      if (e.kind === 'close-decisions') next = g.closeDecisions ? g.closeDecisions(s) : { error: 'no decision windows' };
      else {
        const have = (g.cards(s)[e.seat] ?? []).length;
        const left = (want[e.seat]?.length ?? 0) - have;
        const standing = want[`${e.seat}s`];
        if (e.actions.includes('split') && want[`${e.seat}a`]) next = g.decide!(s, e.seat, 'split');
        else if (standing && !(`${e.seat}s` in g.cards(s)) && standing.length === have) next = g.decide!(s, e.seat, 'hit', { keepStanding: true });
        else next = g.decide!(s, e.seat, left > 0 ? 'hit' : e.actions.includes('stand') ? 'stand' : e.actions[0]);
      }
      if (next && typeof next === 'object' && 'error' in (next as object)) return { error: `the corrected cards do not fit ${g.id}: ${(next as { error: string }).error}` };
      s = next;
    }
    if (g.expect(s).kind !== 'complete') return { error: 'the corrected cards do not make a complete round' };
    for (const [pos, list] of Object.entries(want)) {
      const got = g.cards(s)[pos] ?? [];
      if (got.length !== list.length || got.some((c, i) => c !== list[i])) return { error: `the corrected cards do not fit ${g.id}: ${pos} would be dealt [${got.join(', ')}], not [${list.join(', ')}]` };
    }
    return { game: s };
  }

  // ================================================================ shuffler
  // A table may have a shuffler next to its shoe (games.md faults; docs/DEVICES.md):
  // - `STATE` / `COUNT` frames -> `shuffler` events;
  // - `JAM` -> `shuffler-jam` (critical); a round in progress is void (reason `shuffler-jam`);
  // - `COUNT` other than the deck size (`expectedDeckSize`, default 52 x decks) -> `card-count-mismatch`;
  // - `DOOR_OPEN` / `ERROR` hold dealing: every shoe of the table is sent `LOCK` (shoes without a
  //   card gate ignore it); new cards (and misreads) that still arrive are `out-of-order-card`,
  //   neither dealt nor counted; rescans of a card misread before the hold still resolve it.
  //   `READY` releases the hold (`UNLOCK`). `ERROR` also raises `device-error`;
  // - single-deck games: `READY` after a `COUNT` starts a fresh deck (as the shoe's `STATE,LOADED`).

  private shufflerData(deviceId: string): ShufflerStateData {
    return this.s.shuffler ?? { deviceId, state: null, lastCount: null, countPending: false, blocked: false };
  }

  private onShufflerFrame(deviceId: string, f: Extract<DeviceFrame, { type: 'SHUF_STATE' | 'COUNT' }>): void {
    const prev = this.shufflerData(deviceId);
    if (f.type === 'COUNT') {
      const expected = this.cfg.expectedDeckSize ?? 52 * this.cfg.decks;
      const ok = f.count === expected;
      this.s.shuffler = { ...prev, deviceId, lastCount: f.count, countPending: true };
      this.event('shuffler', { deviceId, count: f.count, expected, ok });
      if (!ok) this.alert('card-count-mismatch', `shuffler ${deviceId} counted ${f.count} cards, ${expected} expected: check the deck`, { deviceId, count: f.count, expected });
      return;
    }
    const state = f.state;
    this.s.shuffler = { ...prev, deviceId, state };
    this.event('shuffler', { deviceId, state });
    switch (state) {
      case 'JAM': {
        const r = this.s.round;
        this.alert('shuffler-jam', `shuffler ${deviceId} jammed (card stuck in shuffler)${r ? `: round ${r.id} is void` : ''}`, { deviceId });
        if (r) this.voidRound('shuffler-jam', 'card stuck in shuffler');
        return;
      }
      case 'DOOR_OPEN':
      case 'ERROR':
        if (state === 'ERROR') this.alert('device-error', `shuffler ${deviceId} reports STATE,ERROR`, { deviceId, code: 'STATE_ERROR' });
        if (!prev.blocked) {
          this.s.shuffler = { ...this.s.shuffler, blocked: true };
          this.log('warn', `shuffler ${deviceId} ${state}: dealing held`);
          this.setHold('shuffler', true);
        }
        return;
      case 'READY': {
        const countPending = prev.countPending;
        this.s.shuffler = { ...this.s.shuffler, blocked: false, countPending: false };
        if (prev.blocked) {
          this.log('info', `shuffler ${deviceId} READY: the shuffler no longer holds dealing`);
          this.setHold('shuffler', false);
        }
        if (countPending && this.cfg.game.defaults.singleDeck) {
          // games.md: a READY during a round (the next deck prepared while this one is dealt) takes
          // effect when that round ends; it never voids a live round
          if (this.s.round) {
            this.s.shuffler = { ...this.s.shuffler, freshDeckAfterRound: true };
            this.log('info', `shuffler ${deviceId} READY after COUNT during round ${this.s.round.id}: the fresh deck starts with the next round`);
          } else this.startNewShoe(`shuffler ${deviceId} READY after COUNT`);
        }
        return;
      }
      default:
        return;
    }
  }

  private shoeDevices(): string[] {
    return this.cfg.devices.filter((d) => d.kind === 'card-shoe' || d.kind === 'rfid-shoe').map((d) => d.id);
  }

  /** while the shuffler holds dealing, a card (or a misread, `card` null) is alerted and dropped */
  private shufflerHoldsDealing(deviceId: string, card: Card | null): boolean {
    const sh = this.s.shuffler;
    if (!sh?.blocked) return false;
    const shown = card ? this.publicCard(card) : null;
    const what = card ? shown ?? 'a card (value withheld)' : 'an unread card (MISREAD)';
    this.alert('out-of-order-card', `${what} arrived from ${deviceId} while shuffler ${sh.deviceId} reports ${sh.state}: not dealt`, { deviceId, card: shown, held: 'shuffler' });
    return true;
  }

  protected gameSnapshot(): Record<string, unknown> {
    const sh = this.s.shoe;
    const r = this.s.round;
    return {
      ...(this.s.shuffler ? { shuffler: { ...this.s.shuffler } } : {}),
      holds: [...(this.s.holds ?? [])],
      shoe: { shoeId: sh.id, state: sh.state, cardsDealt: sh.cardsDealt, cutCardSeen: sh.cutCardSeen, roundsCompleted: sh.roundsCompleted },
      round: r ? { roundId: r.id, phase: this.phase(), cards: this.visibleCards(r) } : { phase: this.phase(), lastRound: this.s.lastRound },
    };
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
