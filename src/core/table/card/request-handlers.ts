/**
 * The engine's and the pit's requests to a card table (mqtt-api.md), one handler per command in
 * `CARD_REQUEST_HANDLERS`, each with its command's typed args. A refusal changes nothing.
 */
import type { RequestArgs } from '../../vocabulary/requests.js';
import { isRefusal } from '../../games/game.js';
import { answerRequest, type HandledRequest, type RequestAnswer, type RequestHandlers } from '../table-base.js';
import { CardTableCorrections } from './corrections.js';

export abstract class CardTableRequests extends CardTableCorrections {
  private static readonly handlers: RequestHandlers<CardTableRequests> = {
    'open-betting': (table, args) => table.openBetting(args),
    'close-betting': (table) => table.closeBetting(),
    decision: (table, args) => table.takeDecision(args),
    'close-decisions': (table) => table.closeDecisionWindow(),
    correction: (table, args) => table.correctRound(args),
    'resume-round': (table, args) => table.resumeHeldRound(args),
    'void-round': (table, args) => table.voidRoundAsked(args),
    'new-shoe': (table) => table.newShoeAsked(),
    'end-shoe': (table) => table.endShoe(),
  };

  protected handleRequest(req: HandledRequest): RequestAnswer {
    return answerRequest(CardTableRequests.handlers, this, req, 'card');
  }

  protected openBetting(args: RequestArgs<'open-betting'>): RequestAnswer {
    const sh = this.state.shoe;
    const r = this.state.round;
    if (!this.settings.engine) return { code: 'wrong-phase', error: 'this table runs without an engine (betting: none): rounds start with their first card' };
    if (sh.state === 'void') return { code: 'wrong-phase', error: `shoe ${sh.id} is void: load a new shoe` };
    if (sh.state === 'closed') return { code: 'wrong-phase', error: `shoe ${sh.id} is closed (cut card): load a new shoe` };
    if (r) return { code: 'wrong-phase', error: `round ${r.id} is still in progress` };
    if (this.state.pending) return { code: 'wrong-phase', error: 'a misread card is waiting for its rescan' };
    const round = this.openRound(true, args.roundId);
    if (this.voidIfDeckExhausted(0)) return { code: 'wrong-phase', error: `deck exhausted: round ${round.id} is void; load a fresh deck` };
    this.publishRound();
    return { data: { roundId: round.id } };
  }

  protected closeBetting(): RequestAnswer {
    const r = this.state.round;
    if (!r || !r.bettingOpen) return { code: 'wrong-phase', error: r ? `round ${r.id} is not in betting` : 'no round is open' };
    r.bettingOpen = false;
    this.reveal('close-betting');
    this.afterChange();
    return { data: { roundId: r.id } };
  }

  protected takeDecision(args: RequestArgs<'decision'>): RequestAnswer {
    const r = this.state.round;
    const g = this.settings.game;
    if (!r) return { code: 'wrong-phase', error: 'no round is in progress' };
    if (!g.decide) return { code: 'wrong-phase', error: `${g.id} takes no player decisions` };
    if (r.bettingOpen) return { code: 'wrong-phase', error: 'betting is still open' };
    if (r.burns.length < r.burnsNeeded) return { code: 'wrong-phase', error: 'the round\'s burn cards have not been drawn yet' };
    const keepStanding = args.keepStanding === true;
    if (keepStanding && g.id !== 'blackjack') return { code: 'invalid-args', error: `keepStanding means nothing in ${g.id} (blackjack shared seats only)` };
    const next = g.decide(r.game, args.seat, args.action, keepStanding ? { keepStanding } : {});
    if (isRefusal(next)) return { code: keepStanding ? 'invalid-args' : 'wrong-phase', error: next.error };
    r.game = next;
    this.event('decision', { seat: args.seat, action: args.action, ...(keepStanding ? { keepStanding } : {}) });
    this.afterChange();
    return { data: { roundId: r.id } };
  }

  protected closeDecisionWindow(): RequestAnswer {
    const r = this.state.round;
    const g = this.settings.game;
    if (!r) return { code: 'wrong-phase', error: 'no round is in progress' };
    if (!g.closeDecisions) return { code: 'wrong-phase', error: `${g.id} has no decision windows` };
    if (r.bettingOpen) return { code: 'wrong-phase', error: 'betting is still open' };
    const next = g.closeDecisions(r.game);
    if (isRefusal(next)) return { code: 'wrong-phase', error: next.error };
    r.game = next;
    this.reveal('close-decisions');
    this.afterChange();
    return { data: { roundId: r.id } };
  }

  protected correctRound(args: RequestArgs<'correction'>): RequestAnswer {
    const r = this.state.round;
    const g = this.settings.game;
    if (args.roundId !== undefined && args.roundId !== r?.id) return this.correctCompleted(args);
    if (!r) return { code: 'wrong-phase', error: 'no round is in progress' };
    if (!g.correct) return { code: 'wrong-phase', error: `${g.id} has no corrections` };
    const next = g.correct(r.game, args.kind, args);
    if (isRefusal(next)) return { code: 'wrong-phase', error: next.error };
    r.game = next;
    this.event('correction', { correction: args.kind });
    this.afterChange();
    return { data: { roundId: r.id } };
  }

  protected resumeHeldRound(args: RequestArgs<'resume-round'>): RequestAnswer {
    const r = this.state.round;
    const h = this.state.held;
    if (!h || !r) return { code: 'wrong-phase', error: 'no round is held' };
    const by = args.by;
    this.event('round-resumed', { by, ...(args.reason ? { reason: args.reason } : {}), deviceId: h.deviceId, queued: h.queued.length });
    this.log('warn', `round ${r.id} resumed by ${by} after a frame gap on ${h.deviceId}${args.reason ? ` (${args.reason})` : ''}`);
    this.releaseHold(true);
    if (this.state.round === r) this.publishRound();
    return { data: { roundId: r.id } };
  }

  protected voidRoundAsked(args: RequestArgs<'void-round'>): RequestAnswer {
    if (args.roundId !== undefined && args.roundId !== this.state.round?.id) return this.correctCompleted({ ...args, kind: 'void' });
    return this.pitVoid(args.reason, () => this.voidRound('round-void', args.reason));
  }

  protected newShoeAsked(): RequestAnswer {
    this.startNewShoe('new-shoe request');
    return { data: { shoeId: this.state.shoe.id } };
  }

  protected endShoe(): RequestAnswer {
    const sh = this.state.shoe;
    const r = this.state.round;
    if (sh.state === 'closed' || sh.state === 'void') return { code: 'wrong-phase', error: `shoe ${sh.id} is already ${sh.state}` };
    if (r) {
      sh.state = 'last-round';
      r.lastRound = true;
    } else sh.state = 'closed';
    this.publishShoe();
    return { data: { shoeId: sh.id, state: sh.state } };
  }
}
