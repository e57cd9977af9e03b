/**
 * Keno on the numbered-round machine (games.md "Keno", device-protocols.md "BALL"). Pure.
 *
 * A draw is `START`, 20 distinct balls 1..80, `END`; then the result carries `balls` (draw order)
 * and kenoOutcome. A repeated ball, a ball outside 1..80 (`BALL,81` is a valid frame with an
 * invalid ball), a 21st ball, or `END` before the 20th ball -> `ball-invalid` and the draw is void.
 *
 * Decisions where games.md is silent (docs/DEVICES.md):
 * - without an engine a `START` with no round open opens the next round; with an engine the round
 *   opens with `open-betting` and the draw may start (`START`) at any time after it;
 * - a ball drawn while betting is open voids the round (`round-void`): it was visible while bets
 *   could still be placed;
 * - `START` while a draw is in progress: the draw in progress is void (`ball-invalid`); without an
 *   engine the new `START` opens the next round;
 * - a `BALL` with no `START` before it in the round -> `ball-invalid`, void (the draw cannot be
 *   trusted); a `BALL` when no draw is in progress at all -> `ball-invalid` alert, ignored;
 * - after a void mid-draw (or a draw with no round, engine mode: `no-round-open`), the rest of that
 *   draw (balls up to its `END`) is ignored quietly: events marked `ignored`, no further alerts.
 */
import type { DeviceFrame } from '../../vocabulary/frames.js';
import { kenoOutcome } from '../../games/evaluators/keno.js';
import type { MessageBody } from '../messages.js';
import type { AlertKind } from '../../vocabulary/alerts.js';
import { initialDevices } from '../devices.js';
import type { NumberedContext, NumberedGame } from './numbered-game.js';
import type { KenoTableSettings, KenoTableState } from './numbered-types.js';
import { completeRound, openRound, phase, publishRound, voidRound } from './rounds.js';

export const KENO_BALLS_PER_DRAW = 20;
export const KENO_MAX_BALL = 80;

type Ctx = NumberedContext<KenoTableState, KenoTableSettings>;
/** a keno table's `round` message without its envelope */
type KenoRoundBody = Extract<MessageBody<'round'>, { started: unknown }>;

/** a void draw; `drawGoesOn`: the machine is still mid-draw, so the rest of it is ignored quietly */
function voidDraw(ctx: Ctx, s: KenoTableState, reason: AlertKind, detail: string, drawGoesOn: boolean): void {
  if (!s.round) return;
  voidRound(ctx, s, reason, detail);
  s.strayDraw = drawGoesOn;
}

function expectation(ctx: Ctx, s: KenoTableState): KenoRoundBody['expect'] {
  const r = s.round;
  if (!r) return ctx.settings.engine ? { kind: 'open-betting' } : { kind: 'start' };
  if (!r.started) return { kind: 'start' };
  if (r.balls.length < KENO_BALLS_PER_DRAW) return { kind: 'ball', index: r.balls.length + 1 };
  return { kind: 'end' };
}

function drawStart(ctx: Ctx, s: KenoTableState, deviceId: string): void {
  let r = s.round;
  if (r?.started) {
    ctx.event('ball', { deviceId, action: 'start' });
    const detail = `START after ${r.balls.length} ball(s), before the draw ended`;
    ctx.alert('ball-invalid', `round ${r.id}: ${detail}: the draw is void`, { deviceId });
    voidDraw(ctx, s, 'ball-invalid', detail, false);
    r = null;
  }
  s.strayDraw = false;
  if (!r && !ctx.settings.engine) r = openRound(ctx, s);
  if (!r) {
    ctx.event('ball', { deviceId, action: 'start', ignored: true });
    ctx.alert('no-round-open', 'the draw machine started a draw with no round open (no open-betting): its balls are not a result', { deviceId });
    s.strayDraw = true;
    return;
  }
  r.started = true;
  ctx.event('ball', { deviceId, action: 'start' });
  publishRound(ctx, s);
}

function ball(ctx: Ctx, s: KenoTableState, deviceId: string, ball: number): void {
  const r = s.round;
  if (!r?.started) {
    if (s.strayDraw) {
      ctx.event('ball', { deviceId, action: 'ball', ball, ignored: true });
      return;
    }
    ctx.event('ball', { deviceId, action: 'ball', ball, ...(r ? {} : { ignored: true }) });
    if (!r) {
      ctx.alert('ball-invalid', `ball ${ball} outside a draw (no START): ignored`, { deviceId, ball });
      return;
    }
    const detail = `ball ${ball} before the draw's START`;
    ctx.alert('ball-invalid', `round ${r.id}: ${detail}: the draw is void`, { deviceId, ball });
    voidDraw(ctx, s, 'ball-invalid', detail, true);
    return;
  }
  const index = r.balls.length + 1;
  ctx.event('ball', { deviceId, action: 'ball', ball, ...(index <= KENO_BALLS_PER_DRAW ? { index } : {}) });
  let problem: string | null = null;
  if (!Number.isInteger(ball) || ball < 1 || ball > KENO_MAX_BALL) problem = `ball ${ball} is outside 1..${KENO_MAX_BALL}`;
  else if (r.balls.includes(ball)) problem = `ball ${ball} drawn twice (first as ball ${r.balls.indexOf(ball) + 1})`;
  else if (r.balls.length >= KENO_BALLS_PER_DRAW) problem = `a ${index}th ball (${ball}) in a ${KENO_BALLS_PER_DRAW}-ball draw`;
  if (problem) {
    ctx.alert('ball-invalid', `round ${r.id}: ${problem}: the draw is void`, { deviceId, ball });
    voidDraw(ctx, s, 'ball-invalid', problem, true);
    return;
  }
  if (r.bettingOpen) {
    const detail = `ball ${ball} drawn while betting was open`;
    ctx.alert('round-void', `round ${r.id}: ${detail}: the round is void`, { deviceId, ball });
    voidDraw(ctx, s, 'round-void', detail, true);
    return;
  }
  r.balls.push(ball);
  publishRound(ctx, s);
}

function drawEnd(ctx: Ctx, s: KenoTableState, deviceId: string): void {
  const r = s.round;
  if (!r?.started) {
    const stray = s.strayDraw;
    s.strayDraw = false;
    ctx.event('ball', { deviceId, action: 'end', ignored: true });
    if (!stray) ctx.log('warn', `END from ${deviceId} with no draw in progress: ignored`);
    return;
  }
  ctx.event('ball', { deviceId, action: 'end' });
  if (r.balls.length < KENO_BALLS_PER_DRAW) {
    const detail = `END after ${r.balls.length} of ${KENO_BALLS_PER_DRAW} balls`;
    ctx.alert('ball-invalid', `round ${r.id}: ${detail}: the draw is void`, { deviceId });
    voidDraw(ctx, s, 'ball-invalid', detail, false);
    return;
  }
  const balls = [...r.balls];
  const outcome = kenoOutcome(balls);
  completeRound(
    ctx,
    s,
    { status: 'complete', balls, outcome },
    balls,
    { balls },
    `${balls.join(' ')} -> sum ${outcome.sum} ${outcome.bigSmall} ${outcome.element}`,
  );
}

function frame(ctx: Ctx, s: KenoTableState, deviceId: string, f: DeviceFrame): KenoTableState {
  switch (f.type) {
    case 'START':
      drawStart(ctx, s, deviceId);
      return s;
    case 'BALL':
      ball(ctx, s, deviceId, f.ball);
      return s;
    case 'END':
      drawEnd(ctx, s, deviceId);
      return s;
    default:
      ctx.log('warn', `frame type ${f.type} from ${deviceId} is not used by a keno table`);
      return s;
  }
}

export const KENO: NumberedGame<KenoTableState, KenoTableSettings> = {
  kind: 'keno',
  name: 'keno',
  roundStartsWith: 'the draw',
  correctionField: 'balls',
  /** corrected balls: 20 distinct balls 1-80 in draw order */
  checkCorrection: (v) => {
    const ok = Array.isArray(v) && v.length === 20 && v.every((b) => Number.isInteger(b) && b >= 1 && b <= 80) && new Set(v).size === 20;
    return ok ? null : '`balls` must be 20 distinct balls 1-80';
  },
  outcomeOf: (values) => kenoOutcome(values),
  /** as a voided card round carries its cards: the balls as drawn (the keno result schema wants the array) */
  voidedValues: (values) => ({ balls: [...values] }),
  initial: (settings, persisted) => ({
    kind: 'keno',
    seq: persisted.seq ?? 0,
    roundNo: persisted.roundNo ?? 0,
    round: null,
    lastRound: null,
    strayDraw: false,
    devices: initialDevices(settings),
  }),
  copy: (prev) => ({ ...prev, round: prev.round ? { ...prev.round, balls: [...prev.round.balls] } : null, devices: { ...prev.devices } }),
  newRound: (ctx, id, no) => ({ id, no, bettingOpen: ctx.settings.engine, started: false, balls: [] }),
  roundFields: (ctx, s, ended): Omit<KenoRoundBody, 'phase' | 'roundNo'> => {
    const r = s.round;
    return { started: r?.started ?? false, balls: r ? [...r.balls] : [], expect: ended ? null : expectation(ctx, s) };
  },
  voidResult: (round, reason, detail) => ({ status: 'void', reason, detail, balls: [...round.balls], outcome: null }),
  startLog: (settings) => `table ${settings.tableId} (keno) started`,
  frame,
  pitVoid: (ctx, s, reason) => voidDraw(ctx, s, 'round-void', reason, s.round?.started ?? false),
  snapshot: (_ctx, s) => {
    const r = s.round;
    return { round: r ? { roundId: r.id, phase: phase(s), started: r.started, balls: [...r.balls] } : { phase: 'idle', lastRound: s.lastRound } };
  },
};
