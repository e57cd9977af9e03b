/**
 * The sic bo table machine (games.md "Sic Bo", device-protocols.md "DICE"). Pure, like every
 * table machine: time comes from the input, ids from persisted counters.
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
import type { DeviceFrame } from '../vocabulary/frames.js';
import { sicBoOutcome } from '../games/evaluators/sic-bo.js';
import type { MessageBody } from './messages.js';
import type { AlertKind } from '../vocabulary/alerts.js';
import { NumberedRoundStep, numberedRoundId } from './numbered-rounds.js';
import { initialDevices, type HandledRequest, type RequestAnswer } from './table-base.js';
import type { DiceRoundData, DiceTableSettings, DiceTableState, TableCounters } from './types.js';

/** corrected dice: three faces 1-6 */
function checkDice(v: unknown): string | null {
  return Array.isArray(v) && v.length === 3 && v.every((d) => Number.isInteger(d) && d >= 1 && d <= 6) ? null : '`dice` must be three faces 1-6';
}

export function initialDiceTableState(settings: DiceTableSettings, persisted: TableCounters = {}): DiceTableState {
  return {
    kind: 'sic-bo',
    seq: persisted.seq ?? 0,
    roundNo: persisted.roundNo ?? 0,
    round: null,
    lastRound: null,
    devices: initialDevices(settings),
  };
}

export function copyDiceTableState(prev: DiceTableState): DiceTableState {
  return {
    ...prev,
    round: prev.round ? { ...prev.round, attempts: [...prev.round.attempts] } : null,
    devices: { ...prev.devices },
  };
}

/** a sic bo table's `round` message without its envelope */
type DiceRoundBody = Extract<MessageBody<'round'>, { shakes: unknown }>;

export class DiceTableStep extends NumberedRoundStep<DiceTableState, DiceTableSettings> {
  protected readonly tableKind = 'sic bo';
  protected readonly roundStartsWith = 'the dice';
  protected readonly correctionField = 'dice';

  protected checkCorrection(values: unknown): string | null {
    return checkDice(values);
  }

  protected outcomeOf(values: number[]): Record<string, unknown> {
    return sicBoOutcome(values);
  }

  /** as every void roll */
  protected voidedValues(): { dice: null } {
    return { dice: null };
  }

  protected newRoundData(id: string, no: number): DiceRoundData {
    return { id, no, bettingOpen: this.settings.engine, shakes: 0, attempts: [] };
  }

  protected voidResultBody(round: DiceRoundData, reason: AlertKind, detail: string): MessageBody<'result'> {
    return { status: 'void', reason, detail, dice: null, outcome: null, attempts: round.attempts.length };
  }

  protected publishRound(phaseOverride?: 'complete' | 'void', extra: Partial<DiceRoundBody> = {}): void {
    const r = this.state.round;
    const body: DiceRoundBody = {
      phase: phaseOverride ?? this.phase(),
      roundNo: r?.no ?? null,
      dice: null,
      shakes: r?.shakes ?? 0,
      attempts: r ? r.attempts.map((a) => ({ ...a })) : [],
      expect: phaseOverride ? null : r ? { kind: 'roll' } : this.settings.engine ? { kind: 'open-betting' } : { kind: 'roll' },
      ...extra,
    };
    this.publish('round', body, { roundId: r ? r.id : this.state.lastRound?.id ?? null });
  }

  protected onStart(): void {
    this.publishRound();
    this.log('info', `table ${this.settings.tableId} (sic bo, minBounces ${this.settings.minBounces}) started`);
  }

  protected onTimer(_name: string): void {}

  /** without an engine a dice frame with no round open starts the next round */
  private roundForFrame(): DiceRoundData | null {
    if (!this.state.round && !this.settings.engine) this.openRound();
    return this.state.round;
  }

  protected onGameFrame(deviceId: string, f: DeviceFrame): void {
    switch (f.type) {
      case 'SHAKE': {
        const r = this.roundForFrame();
        this.event('dice', { deviceId, action: 'shake' });
        if (!r) {
          this.log('info', `shake on ${deviceId} with no round open`);
          return;
        }
        r.shakes += 1;
        this.publishRound();
        return;
      }
      case 'ROLL': return this.onRoll(deviceId, f.dice, f.bounces);
      case 'COCKED': return this.onVoidAttempt(deviceId, 'cocked', 'cocked-dice', 'a die rests against another die or the dome: re-shake');
      case 'NOREAD': return this.onVoidAttempt(deviceId, 'noread', 'dice-noread', 'the sensor could not read the dice: re-read or re-shake');
      default:
        this.log('warn', `frame type ${f.type} from ${deviceId} is not used by a sic bo table`);
    }
  }

  private onVoidAttempt(deviceId: string, kind: 'cocked' | 'noread', alert: AlertKind, detail: string): void {
    const r = this.roundForFrame();
    this.event('dice', { deviceId, action: kind });
    this.alert(alert, detail, { deviceId });
    if (!r) return;
    r.attempts.push({ kind });
    this.publishRound();
  }

  private onRoll(deviceId: string, dice: [number, number, number], bounces: number): void {
    const r = this.roundForFrame();
    const valid = bounces >= this.settings.minBounces;
    this.event('dice', { deviceId, action: 'roll', dice: [...dice], bounces, valid });
    if (!valid) {
      this.alert('dice-no-bounce', `roll ${dice.join('-')} with ${bounces} bounce(s), at least ${this.settings.minBounces} needed: void, re-shake`, { deviceId, dice: [...dice], bounces });
      if (r) {
        r.attempts.push({ kind: 'no-bounce', dice: [...dice], bounces });
        this.publishRound();
      }
      return;
    }
    if (!r) {
      this.alert('no-round-open', `dice rolled ${dice.join('-')} with no round open (no open-betting): not a result`, { deviceId, dice: [...dice] });
      return;
    }
    if (r.bettingOpen) {
      const detail = `dice rolled ${dice.join('-')} while betting was open`;
      this.alert('round-void', `round ${r.id}: ${detail}: the round is void`, { deviceId, dice: [...dice] });
      this.voidRound('round-void', detail);
      return;
    }
    const outcome = sicBoOutcome(dice);
    this.completeRound({ status: 'complete', dice: [...dice], bounces, outcome, attempts: r.attempts.length }, dice, { dice: [...dice], bounces },
      `${dice.join('-')} (${bounces} bounces) -> ${outcome.total} ${outcome.size ?? `triple ${outcome.triple}`}`);
  }

  protected gameSnapshot(): Record<string, unknown> {
    const r = this.state.round;
    return {
      round: r
        ? { roundId: r.id, phase: this.phase(), shakes: r.shakes, attempts: r.attempts.length }
        : { phase: 'idle', lastRound: this.state.lastRound },
    };
  }
}
