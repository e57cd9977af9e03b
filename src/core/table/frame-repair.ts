/**
 * Lost frames (games.md "Lost frames"). The driver reports a gap (`frame-gap` device alert with
 * `fromSeq`, `missing`, `deviceSeq`). A device whose VER announced `REPEAT` is asked to re-send
 * from `fromSeq` (a `REPEAT,<seq>` device command); its frames are then taken in SEQ order: the
 * ones that revealed the gap wait for the missing ones. All missing frames within
 * `repeatTimeoutMs`: `frame-gap` info, `repaired: true`. Otherwise (or without REPEAT) the table
 * kind decides how grave the gap is (`unrepaired`: a card table holds a round in progress).
 */
import type { DeviceFrame } from '../vocabulary/frames.js';
import type { Severity } from '../vocabulary/alerts.js';
import type { BaseTableState } from './base-state.js';
import type { StepContext } from './context.js';

/** a gap larger than this is not asked for again (devices keep at least their last 64 frames) */
const MAX_REPEAT = 1024;

/** where repaired frames go, and what an unrepaired gap means to the table kind (the severity of its alert) */
export interface FrameSink<C extends StepContext, S extends BaseTableState> {
  take(ctx: C, s: S, deviceId: string, frame: DeviceFrame): S;
  unrepaired(ctx: C, s: S, deviceId: string): Severity;
}

export function frameGap<C extends StepContext, S extends BaseTableState>(
  ctx: C,
  s: S,
  sink: FrameSink<C, S>,
  deviceId: string,
  detail: string,
  data: Record<string, unknown>,
): S {
  const fromSeq = typeof data.fromSeq === 'number' ? data.fromSeq : undefined;
  const missing = typeof data.missing === 'number' ? data.missing : 0;
  const canRepeat = !!s.devices[deviceId]?.capabilities?.includes('REPEAT');
  const busy = !!s.repairs?.[deviceId] && !s.repairs[deviceId].expired;
  if (canRepeat && !busy && fromSeq !== undefined && missing > 0 && missing <= MAX_REPEAT) {
    const no = (s.repairNo ?? 0) + 1;
    s.repairNo = no;
    const modulus = typeof data.modulus === 'number' ? data.modulus : 65536;
    s.repairs = { ...s.repairs, [deviceId]: { fromSeq, missing, filled: 0, queued: [], no, since: ctx.at, modulus } };
    ctx.command(deviceId, `REPEAT,${fromSeq}`);
    ctx.setTimer(`repeat:${deviceId}:${no}`, ctx.at + (ctx.settings.repeatTimeoutMs ?? 500));
    ctx.log('warn', `device ${deviceId}: ${detail}; asked it to repeat from SEQ ${fromSeq}`);
    return s;
  }
  const severity = sink.unrepaired(ctx, s, deviceId);
  ctx.alert('frame-gap', detail, { deviceId, ...data, repaired: false }, severity);
  return s;
}

const modulusOf = (s: BaseTableState, deviceId: string): number => s.repairs?.[deviceId]?.modulus ?? 65536;

/** a frame of a device whose gap is being repaired: taken in SEQ order */
export function repairFrame<C extends StepContext, S extends BaseTableState>(ctx: C, s: S, sink: FrameSink<C, S>, deviceId: string, frame: DeviceFrame): S {
  const rep = s.repairs![deviceId];
  const mod = modulusOf(s, deviceId);
  const k = (frame.seq - rep.fromSeq + mod) % mod;
  if (rep.expired) {
    // the repair timed out: a missing frame that still comes is late, the gap was reported
    if (k < rep.missing) {
      ctx.log('warn', `device ${deviceId}: frame SEQ ${frame.seq} came after the repeat timeout: not taken`);
      return s;
    }
    if (k > rep.missing + MAX_REPEAT) {
      const { [deviceId]: _r, ...rest } = s.repairs!;
      s.repairs = rest;
    }
    return sink.take(ctx, s, deviceId, frame);
  }
  // a repeated frame already taken (the device re-sends from fromSeq on): dropped
  if (k < rep.filled || rep.queued.some((q) => q.k === k)) return s;
  const queued = [...rep.queued, { k, frame }].sort((a, b) => a.k - b.k);
  let filled = rep.filled;
  const take: DeviceFrame[] = [];
  while (queued.length && queued[0].k === filled && filled < rep.missing) {
    take.push(queued.shift()!.frame);
    filled++;
  }
  if (filled >= rep.missing) {
    const { [deviceId]: _r, ...rest } = s.repairs!;
    s.repairs = rest;
    ctx.cancelTimer(`repeat:${deviceId}:${rep.no}`);
    ctx.alert(
      'frame-gap',
      `${rep.missing} frame(s) lost on the line from SEQ ${rep.fromSeq} were repeated by ${deviceId}: nothing lost`,
      {
        deviceId,
        missing: rep.missing,
        fromSeq: rep.fromSeq,
        repaired: true,
      },
      'info',
    );
    take.push(...queued.map((q) => q.frame));
  } else {
    s.repairs = { ...s.repairs, [deviceId]: { ...rep, filled, queued } };
  }
  let next = s;
  for (const f of take) next = sink.take(ctx, next, deviceId, f);
  return next;
}

/** the `repeat:<device>:<no>` timer: the frames asked for did not all come in time */
export function repeatTimeout<C extends StepContext, S extends BaseTableState>(ctx: C, s: S, sink: FrameSink<C, S>, name: string): S {
  const [, deviceId, noText] = name.split(':');
  const rep = s.repairs?.[deviceId];
  if (!rep || String(rep.no) !== noText) return s;
  const mod = modulusOf(s, deviceId);
  // kept as a marker, so that missing frames that come too late are not taken out of order
  s.repairs = { ...s.repairs, [deviceId]: { ...rep, queued: [], expired: true } };
  const lost = rep.missing - rep.filled;
  const severity = sink.unrepaired(ctx, s, deviceId);
  ctx.alert(
    'frame-gap',
    `${lost} frame(s) lost on the line from SEQ ${(rep.fromSeq + rep.filled) % mod} were not repeated by ${deviceId} within ${ctx.at - rep.since} ms`,
    {
      deviceId,
      missing: lost,
      fromSeq: (rep.fromSeq + rep.filled) % mod,
      repaired: false,
    },
    severity,
  );
  // what came meanwhile is taken now, in order (a held round keeps its cards for the pit's answer)
  let next = s;
  for (const q of rep.queued) next = sink.take(ctx, next, deviceId, q.frame);
  return next;
}
