/**
 * The numbered-round machine: ONE table kind for the games without a shoe, made for each game
 * from its description (`NumberedGame`: sic bo in `sic-bo.ts`, keno in `keno.ts`). Rounds,
 * betting windows, voids and corrections are the same for both (`rounds.ts`, `requests.ts`); the
 * game's frames and what its rounds and results carry are the description's.
 */
import { answerRequest } from '../requests.js';
import type { TableKind } from '../table-router.js';
import type { NumberedContext, NumberedGame, NumberedSettings, NumberedState } from './numbered-game.js';
import { NUMBERED_REQUESTS } from './requests.js';
import { publishRound } from './rounds.js';

export function numberedTable<S extends NumberedState, Se extends NumberedSettings>(game: NumberedGame<S, Se>): TableKind<S, Se, NumberedGame<S, Se>> {
  return {
    name: game.name,
    ids: (s) => ({ roundId: s.round?.id }),
    context: game,
    start: (ctx, s) => {
      publishRound(ctx, s);
      ctx.log('info', game.startLog(ctx.settings));
      return s;
    },
    gameFrame: game.frame,
    // no timers of its own
    timer: (_ctx, s) => s,
    request: (ctx, s, req) => answerRequest<NumberedContext<NumberedState, NumberedSettings>, NumberedState>(NUMBERED_REQUESTS, ctx, s, req, game.name),
    snapshot: game.snapshot,
  };
}
