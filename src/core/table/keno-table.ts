/**
 * The keno table machine (games.md "Keno", device-protocols.md "BALL"). Pure.
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
import type { DeviceFrame } from '../vocabulary/frames.js';
import { kenoOutcome } from '../games/evaluators/keno.js';
import type { MessageBody } from './messages.js';
import type { AlertKind } from '../vocabulary/alerts.js';
import { NumberedRoundStep, numberedRoundId } from './numbered-rounds.js';
import { initialDevices, type HandledRequest, type RequestAnswer } from './table-base.js';
import type { KenoRoundData, KenoTableSettings, KenoTableState, TableCounters } from './types.js';

export const KENO_BALLS_PER_DRAW = 20;
export const KENO_MAX_BALL = 80;

/** corrected balls: 20 distinct balls 1-80 in draw order */
function checkBalls(v: unknown): string | null {
  const ok = Array.isArray(v) && v.length === 20 && v.every((b) => Number.isInteger(b) && b >= 1 && b <= 80) && new Set(v).size === 20;
  return ok ? null : '`balls` must be 20 distinct balls 1-80';
}

export function initialKenoTableState(settings: KenoTableSettings, persisted: TableCounters = {}): KenoTableState {
  return {
    kind: 'keno',
    seq: persisted.seq ?? 0,
    roundNo: persisted.roundNo ?? 0,
    round: null,
    lastRound: null,
    strayDraw: false,
    devices: initialDevices(settings),
  };
}

export function copyKenoTableState(prev: KenoTableState): KenoTableState {
  return {
    ...prev,
    round: prev.round ? { ...prev.round, balls: [...prev.round.balls] } : null,
    devices: { ...prev.devices },
  };
}

/** a keno table's `round` message without its envelope */
type KenoRoundBody = Extract<MessageBody<'round'>, { started: unknown }>;

export class KenoTableStep extends NumberedRoundStep<KenoTableState, KenoTableSettings> {
  protected readonly tableKind = 'keno';
  protected readonly roundStartsWith = 'the draw';
  protected readonly correctionField = 'balls';

  protected checkCorrection(values: unknown): string | null {
    return checkBalls(values);
  }

  protected outcomeOf(values: number[]): Record<string, unknown> {
    return kenoOutcome(values);
  }

  /** as a voided card round carries its cards: the balls as drawn (the keno result schema wants the array) */
  protected voidedValues(values: number[]): { balls: number[] } {
    return { balls: [...values] };
  }

  protected newRoundData(id: string, no: number): KenoRoundData {
    return { id, no, bettingOpen: this.settings.engine, started: false, balls: [] };
  }

  protected voidResultBody(round: KenoRoundData, reason: AlertKind, detail: string): MessageBody<'result'> {
    return { status: 'void', reason, detail, balls: [...round.balls], outcome: null };
  }

  /** a void draw; `drawGoesOn`: the machine is still mid-draw, so the rest of it is ignored quietly */
  private voidDraw(reason: AlertKind, detail: string, drawGoesOn: boolean): void {
    if (!this.state.round) return;
    this.voidRound(reason, detail);
    this.state.strayDraw = drawGoesOn;
  }

  protected override voidRoundByPit(reason: string): void {
    this.voidDraw('round-void', reason, this.state.round?.started ?? false);
  }

  private expectation(): KenoRoundBody['expect'] {
    const r = this.state.round;
    if (!r) return this.settings.engine ? { kind: 'open-betting' } : { kind: 'start' };
    if (!r.started) return { kind: 'start' };
    if (r.balls.length < KENO_BALLS_PER_DRAW) return { kind: 'ball', index: r.balls.length + 1 };
    return { kind: 'end' };
  }

  protected publishRound(phaseOverride?: 'complete' | 'void', extra: Partial<KenoRoundBody> = {}): void {
    const r = this.state.round;
    const body: KenoRoundBody = {
      phase: phaseOverride ?? this.phase(),
      roundNo: r?.no ?? null,
      started: r?.started ?? false,
      balls: r ? [...r.balls] : [],
      expect: phaseOverride ? null : this.expectation(),
      ...extra,
    };
    this.publish('round', body, { roundId: r ? r.id : this.state.lastRound?.id ?? null });
  }

  protected onStart(): void {
    this.publishRound();
    this.log('info', `table ${this.settings.tableId} (keno) started`);
  }

  protected onTimer(_name: string): void {}

  protected onGameFrame(deviceId: string, f: DeviceFrame): void {
    switch (f.type) {
      case 'START': return this.onDrawStart(deviceId);
      case 'BALL': return this.onBall(deviceId, f.ball);
      case 'END': return this.onDrawEnd(deviceId);
      default:
        this.log('warn', `frame type ${f.type} from ${deviceId} is not used by a keno table`);
    }
  }

  private onDrawStart(deviceId: string): void {
    let r = this.state.round;
    if (r?.started) {
      this.event('ball', { deviceId, action: 'start' });
      const detail = `START after ${r.balls.length} ball(s), before the draw ended`;
      this.alert('ball-invalid', `round ${r.id}: ${detail}: the draw is void`, { deviceId });
      this.voidDraw('ball-invalid', detail, false);
      r = null;
    }
    this.state.strayDraw = false;
    if (!r && !this.settings.engine) r = this.openRound();
    if (!r) {
      this.event('ball', { deviceId, action: 'start', ignored: true });
      this.alert('no-round-open', 'the draw machine started a draw with no round open (no open-betting): its balls are not a result', { deviceId });
      this.state.strayDraw = true;
      return;
    }
    r.started = true;
    this.event('ball', { deviceId, action: 'start' });
    this.publishRound();
  }

  private onBall(deviceId: string, ball: number): void {
    const r = this.state.round;
    if (!r || !r.started) {
      if (this.state.strayDraw) {
        this.event('ball', { deviceId, action: 'ball', ball, ignored: true });
        return;
      }
      this.event('ball', { deviceId, action: 'ball', ball, ...(r ? {} : { ignored: true }) });
      if (!r) {
        this.alert('ball-invalid', `ball ${ball} outside a draw (no START): ignored`, { deviceId, ball });
        return;
      }
      const detail = `ball ${ball} before the draw's START`;
      this.alert('ball-invalid', `round ${r.id}: ${detail}: the draw is void`, { deviceId, ball });
      this.voidDraw('ball-invalid', detail, true);
      return;
    }
    const index = r.balls.length + 1;
    this.event('ball', { deviceId, action: 'ball', ball, ...(index <= KENO_BALLS_PER_DRAW ? { index } : {}) });
    let problem: string | null = null;
    if (!Number.isInteger(ball) || ball < 1 || ball > KENO_MAX_BALL) problem = `ball ${ball} is outside 1..${KENO_MAX_BALL}`;
    else if (r.balls.includes(ball)) problem = `ball ${ball} drawn twice (first as ball ${r.balls.indexOf(ball) + 1})`;
    else if (r.balls.length >= KENO_BALLS_PER_DRAW) problem = `a ${index}th ball (${ball}) in a ${KENO_BALLS_PER_DRAW}-ball draw`;
    if (problem) {
      this.alert('ball-invalid', `round ${r.id}: ${problem}: the draw is void`, { deviceId, ball });
      this.voidDraw('ball-invalid', problem, true);
      return;
    }
    if (r.bettingOpen) {
      const detail = `ball ${ball} drawn while betting was open`;
      this.alert('round-void', `round ${r.id}: ${detail}: the round is void`, { deviceId, ball });
      this.voidDraw('round-void', detail, true);
      return;
    }
    r.balls.push(ball);
    this.publishRound();
  }

  private onDrawEnd(deviceId: string): void {
    const r = this.state.round;
    if (!r || !r.started) {
      const stray = this.state.strayDraw;
      this.state.strayDraw = false;
      this.event('ball', { deviceId, action: 'end', ignored: true });
      if (!stray) this.log('warn', `END from ${deviceId} with no draw in progress: ignored`);
      return;
    }
    this.event('ball', { deviceId, action: 'end' });
    if (r.balls.length < KENO_BALLS_PER_DRAW) {
      const detail = `END after ${r.balls.length} of ${KENO_BALLS_PER_DRAW} balls`;
      this.alert('ball-invalid', `round ${r.id}: ${detail}: the draw is void`, { deviceId });
      this.voidDraw('ball-invalid', detail, false);
      return;
    }
    const balls = [...r.balls];
    const outcome = kenoOutcome(balls);
    this.completeRound({ status: 'complete', balls, outcome }, balls, { balls }, `${balls.join(' ')} -> sum ${outcome.sum} ${outcome.bigSmall} ${outcome.element}`);
  }

  protected gameSnapshot(): Record<string, unknown> {
    const r = this.state.round;
    return {
      round: r
        ? { roundId: r.id, phase: this.phase(), started: r.started, balls: [...r.balls] }
        : { phase: 'idle', lastRound: this.state.lastRound },
    };
  }
}
