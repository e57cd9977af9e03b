/**
 * Sic bo on the numbered-round machine (games.md "Sic Bo", device-protocols.md "DICE"). Pure,
 * like every table machine: time comes from the input, ids from persisted counters.
 *
 * Rules:
 * - A round awaits a roll from the moment it opens (`open-betting` + `close-betting` with an
 *   engine; the first dice frame without one). `SHAKE` is informational (an event, counted).
 * - `ROLL` with `bounces >= minBounces` is the round's result (`dice` + sicBoOutcome); fewer
 *   bounces -> event + `dice-no-bounce`, the round stays open for the re-shake.
 * - `COCKED` -> event + `cocked-dice`; `NOREAD` -> event + `dice-noread`; the round stays open.
 * - Decisions where games.md is silent (docs/DEVICES.md):
 *   - a valid ROLL while betting is open (engine mode) voids the round (`round-void`): the dice
 *     were showing while bets could still be placed;
 *   - a valid ROLL with no round open (engine mode, before `open-betting`) is not a result: event
 *     + `no-round-open` alert;
 *   - without an engine (`betting: none`) any dice frame with no round open (SHAKE, ROLL, COCKED,
 *     NOREAD) opens the next round.
 */
import type { DeviceFrame } from '../../vocabulary/frames.js';
import { sicBoOutcome } from '../../games/evaluators/sic-bo.js';
import type { MessageBody } from '../messages.js';
import type { AlertKind } from '../../vocabulary/alerts.js';
import { initialDevices } from '../devices.js';
import type { NumberedContext, NumberedGame } from './numbered-game.js';
import type { DiceRoundData, DiceTableSettings, DiceTableState } from './numbered-types.js';
import { completeRound, openRound, phase, publishRound, voidRound } from './rounds.js';

type Ctx = NumberedContext<DiceTableState, DiceTableSettings>;
/** a sic bo table's `round` message without its envelope */
type DiceRoundBody = Extract<MessageBody<'round'>, { shakes: unknown }>;

/** without an engine a dice frame with no round open starts the next round */
function roundForFrame(ctx: Ctx, s: DiceTableState): DiceRoundData | null {
  if (!s.round && !ctx.settings.engine) openRound(ctx, s);
  return s.round;
}

function voidAttempt(ctx: Ctx, s: DiceTableState, deviceId: string, kind: 'cocked' | 'noread', alert: AlertKind, detail: string): void {
  const r = roundForFrame(ctx, s);
  ctx.event('dice', { deviceId, action: kind });
  ctx.alert(alert, detail, { deviceId });
  if (!r) return;
  r.attempts.push({ kind });
  publishRound(ctx, s);
}

function roll(ctx: Ctx, s: DiceTableState, deviceId: string, dice: [number, number, number], bounces: number): void {
  const r = roundForFrame(ctx, s);
  const valid = bounces >= ctx.settings.minBounces;
  ctx.event('dice', { deviceId, action: 'roll', dice: [...dice], bounces, valid });
  if (!valid) {
    ctx.alert('dice-no-bounce', `roll ${dice.join('-')} with ${bounces} bounce(s), at least ${ctx.settings.minBounces} needed: void, re-shake`, {
      deviceId,
      dice: [...dice],
      bounces,
    });
    if (r) {
      r.attempts.push({ kind: 'no-bounce', dice: [...dice], bounces });
      publishRound(ctx, s);
    }
    return;
  }
  if (!r) {
    ctx.alert('no-round-open', `dice rolled ${dice.join('-')} with no round open (no open-betting): not a result`, { deviceId, dice: [...dice] });
    return;
  }
  if (r.bettingOpen) {
    const detail = `dice rolled ${dice.join('-')} while betting was open`;
    ctx.alert('round-void', `round ${r.id}: ${detail}: the round is void`, { deviceId, dice: [...dice] });
    voidRound(ctx, s, 'round-void', detail);
    return;
  }
  const outcome = sicBoOutcome(dice);
  completeRound(
    ctx,
    s,
    { status: 'complete', dice: [...dice], bounces, outcome, attempts: r.attempts.length },
    dice,
    { dice: [...dice], bounces },
    `${dice.join('-')} (${bounces} bounces) -> ${outcome.total} ${outcome.size ?? `triple ${outcome.triple}`}`,
  );
}

function frame(ctx: Ctx, s: DiceTableState, deviceId: string, f: DeviceFrame): DiceTableState {
  switch (f.type) {
    case 'SHAKE': {
      const r = roundForFrame(ctx, s);
      ctx.event('dice', { deviceId, action: 'shake' });
      if (!r) {
        ctx.log('info', `shake on ${deviceId} with no round open`);
        return s;
      }
      r.shakes += 1;
      publishRound(ctx, s);
      return s;
    }
    case 'ROLL':
      roll(ctx, s, deviceId, f.dice, f.bounces);
      return s;
    case 'COCKED':
      voidAttempt(ctx, s, deviceId, 'cocked', 'cocked-dice', 'a die rests against another die or the dome: re-shake');
      return s;
    case 'NOREAD':
      voidAttempt(ctx, s, deviceId, 'noread', 'dice-noread', 'the sensor could not read the dice: re-read or re-shake');
      return s;
    default:
      ctx.log('warn', `frame type ${f.type} from ${deviceId} is not used by a sic bo table`);
      return s;
  }
}

export const SIC_BO: NumberedGame<DiceTableState, DiceTableSettings> = {
  kind: 'sic-bo',
  name: 'sic bo',
  roundStartsWith: 'the dice',
  correctionField: 'dice',
  /** corrected dice: three faces 1-6 */
  checkCorrection: (v) =>
    Array.isArray(v) && v.length === 3 && v.every((d) => Number.isInteger(d) && d >= 1 && d <= 6) ? null : '`dice` must be three faces 1-6',
  outcomeOf: (values) => sicBoOutcome(values),
  /** as every void roll */
  voidedValues: () => ({ dice: null }),
  initial: (settings, persisted) => ({
    kind: 'sic-bo',
    seq: persisted.seq ?? 0,
    roundNo: persisted.roundNo ?? 0,
    round: null,
    lastRound: null,
    devices: initialDevices(settings),
  }),
  copy: (prev) => ({ ...prev, round: prev.round ? { ...prev.round, attempts: [...prev.round.attempts] } : null, devices: { ...prev.devices } }),
  newRound: (ctx, id, no) => ({ id, no, bettingOpen: ctx.settings.engine, shakes: 0, attempts: [] }),
  roundFields: (ctx, s, ended): Omit<DiceRoundBody, 'phase' | 'roundNo'> => {
    const r = s.round;
    return {
      dice: null,
      shakes: r?.shakes ?? 0,
      attempts: r ? r.attempts.map((a) => ({ ...a })) : [],
      expect: ended ? null : r ? { kind: 'roll' } : ctx.settings.engine ? { kind: 'open-betting' } : { kind: 'roll' },
    };
  },
  voidResult: (round, reason, detail) => ({ status: 'void', reason, detail, dice: null, outcome: null, attempts: round.attempts.length }),
  startLog: (settings) => `table ${settings.tableId} (sic bo, minBounces ${settings.minBounces}) started`,
  frame,
  snapshot: (_ctx, s) => {
    const r = s.round;
    return { round: r ? { roundId: r.id, phase: phase(s), shakes: r.shakes, attempts: r.attempts.length } : { phase: 'idle', lastRound: s.lastRound } };
  },
};
