/**
 * Which requests act on a completed or held round, and so must be signed by a key the table's
 * config lists for their command (mqtt-api.md v1.2 "Privileged requests are signed";
 * docs/SECURITY.md "Privileged requests"). The signature itself is checked at the runtime's edge
 * (src/runtime/request-admission.ts), which writes the verified signer's name into the input; the
 * machine only asks whether a request needs one, from the request and the table's state:
 *
 * - `resume-round`: always (it only ever resumes a round held after a frame gap);
 * - `void-round`, `correction`: when they name a `roundId` other than the round in progress (a
 *   completed round: games.md "Corrections and voids after the result"), or when the round in
 *   progress is held;
 * - `new-shoe`, `end-shoe`: when the round in progress is held (a new shoe voids it, an end of shoe
 *   makes it the last);
 * - everything else (betting, decisions, a void or correction of a round in progress that is not
 *   held): no signature needed, as before.
 * Pure: no I/O.
 */
import type { ValidRequest } from '../vocabulary/requests.js';

/** what the rule needs to know of the table: the round in progress and whether it is held */
export interface PrivilegeView {
  roundId?: string;
  held: boolean;
}

/** why `req` needs a verified signer (a sentence for the error answer), or null when it does not */
export function privilegedBecause(req: ValidRequest, view: PrivilegeView): string | null {
  const heldRound = view.held && view.roundId !== undefined ? `round ${view.roundId} is held` : null;
  switch (req.command) {
    case 'resume-round':
      return 'resume-round acts on a held round';
    case 'void-round':
    case 'correction': {
      const named = req.args.roundId;
      if (named !== undefined && named !== view.roundId) return `it names round ${named}, which is not the round in progress (a completed round)`;
      return heldRound;
    }
    case 'new-shoe':
    case 'end-shoe':
      return heldRound;
    default:
      return null;
  }
}

/**
 * The args a handler gets: `by` is the verified signer's name when there is one, and never the
 * request's own word (without a signer it is removed; only commands that need no signer get there).
 */
export function argsWithSigner<R extends ValidRequest>(req: R, signer: string | undefined): R {
  if (req.command !== 'void-round' && req.command !== 'correction' && req.command !== 'resume-round') return req;
  const { by: _by, ...rest } = req.args as Record<string, unknown>;
  return { ...req, args: signer !== undefined ? { ...rest, by: signer } : rest } as R;
}
