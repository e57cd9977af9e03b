/**
 * Settings and state of a card-game table (the card table's procedures, this folder). Plain JSON
 * data but for the settings' game module.
 */
import type { DeviceFrame } from '../../vocabulary/frames.js';
import type { Card } from '../../vocabulary/card.js';
import type { AnyCardGame, RevealPoint } from '../../games/game.js';
import type { BaseTableSettings, BaseTableState } from '../base-state.js';

/** Static settings of a card-game table, resolved from the config file. */
export interface CardTableSettings extends BaseTableSettings {
  kind: 'card';
  game: AnyCardGame;
  decks: number;
  burnPerRound: number;
  burnFaceDown: boolean;
  rescanRetries: number;
  rescanIntervalMs: number;
  rescanTimeoutMs: number;
  /** shuffler `COUNT` that is correct (default 52 x decks) */
  expectedDeckSize?: number;
  /** games.md Exposed card: an exposed card also voids the rest of the shoe (baccarat, 7 Up, Dragon Tiger) */
  exposedCardVoidsShoe: boolean;
  /** games.md Unnecessary card: `burn-then-void-shoe` (baccarat, 7 Up, Dragon Tiger, Pok Deng) or `alert` */
  unnecessaryCardRule: 'burn-then-void-shoe' | 'alert';
  /** games.md: a cut card after `open-betting`, before the round's first card, makes that round the last (Pok Deng) */
  cutBeforeFirstCardIsLastRound: boolean;
  /** games.md Corrections: how many of the most recent completed rounds the pit may still void or correct */
  correctionWindowRounds: number;
}

export type ShoeLifecycle = 'burning' | 'dealing' | 'last-round' | 'closed' | 'void';

export interface ShoeStateData {
  no: number;
  id: string;
  state: ShoeLifecycle;
  /** false for the shoe assumed at start-up before any `LOADED` (no reveal and burn expected) */
  loaded: boolean;
  revealCard: Card | null;
  burnTarget: number;
  /** the new shoe's burns; `null` for an unread burn that was dropped and picked up (games.md Dropped card) */
  burnCards: (Card | null)[];
  cardsDealt: number;
  cutCardSeen: boolean;
  /** times each card was seen in this shoe (or deck), by its slot (`cardSlot`, card/state.ts: AS, AH, AD, AC, 2S, ...) */
  counts: number[];
  roundsStarted: number;
  roundsCompleted: number;
  /** unnecessary cards drawn since the last round ended: they become the next round's burns */
  carriedBurns: Card[];
  /** RFID uids read in this shoe (games.md: the same tag twice in one shoe is a foreign card) */
  tags?: string[];
}

export interface HiddenCard {
  position: string;
  index: number;
  card: Card;
  revealAt: RevealPoint;
}

export interface RoundStateData {
  id: string;
  no: number;
  bettingOpen: boolean;
  game: unknown;
  /** `null` for an unread burn that was dropped and picked up (games.md Dropped card) */
  burns: (Card | null)[];
  burnsNeeded: number;
  burnsHidden: boolean;
  hidden: HiddenCard[];
  lastRound: boolean;
  /** cards of this round in dealing order (for single-deck duplicate checks) */
  seen: Card[];
  /** the last card placed: a burn, or a hand's card dealt face down or up (games.md Dropped card) */
  last?: { burn: boolean; faceDown: boolean } | null;
}

export interface PendingRescan {
  id: number;
  since: number;
  retriesSent: number;
  deviceId: string;
}

/** The state of a card-game table. */
export interface CardTableState extends BaseTableState {
  kind: 'card';
  shoe: ShoeStateData;
  round: RoundStateData | null;
  lastRound: { id: string; status: 'complete' | 'void' } | null;
  pending: PendingRescan | null;
  nextPendingId: number;
  /** the round is held after a frame gap that was not repaired (phase `held`), until `void-round` or `resume-round` */
  held?: { deviceId: string; since: number; queued: Array<{ deviceId: string; frame: DeviceFrame }> } | null;
  /** the table's shuffler, when it has one and it has reported (src/core/table/card/shuffler.ts) */
  shuffler?: ShufflerStateData;
  /**
   * Why the shoes are held (device-protocols.md `LOCK`): the ONE owner of LOCK/UNLOCK. `LOCK` when
   * the set becomes non-empty, `UNLOCK` when it empties (src/core/table/card/holds.ts `setHold`).
   */
  holds?: HoldReason[];
  /** the most recent completed (or voided) rounds, newest last, for corrections (games.md Corrections) */
  completed?: CompletedRound[];
}

export type HoldReason = 'shoe-void' | 'shuffler' | 'outbox-full' | 'frame-gap';

/** A finished round the pit may still void or correct (games.md Corrections). */
export interface CompletedRound {
  id: string;
  shoeId: string;
  /** `seq` of the result now standing for it */
  resultSeq: number;
  status: 'complete' | 'void' | 'corrected';
  game: unknown;
  burns: (Card | null)[];
  /** every card of the round in dealing order (to check a correction's cards) */
  seen: Card[];
}

export interface ShufflerStateData {
  deviceId: string;
  /** last `STATE` reported, null before any */
  state: 'IDLE' | 'SHUFFLING' | 'READY' | 'JAM' | 'DOOR_OPEN' | 'ERROR' | null;
  /** last `COUNT` reported, null before any */
  lastCount: number | null;
  /** a `COUNT` came since the last `READY` (single-deck games: the next READY starts a fresh deck) */
  countPending: boolean;
  /** dealing is blocked (DOOR_OPEN / ERROR): the `shuffler` hold reason */
  blocked: boolean;
  /** single-deck games: a READY after a COUNT came during a round: the fresh deck starts when it ends */
  freshDeckAfterRound?: boolean;
}
