/**
 * The table's devices as every table kind keeps them: their records, `devices/<id>` messages, and
 * what the frames every talker may send (HB, VER, ERR) and the device's status say of them.
 */
import type { DeviceFrame } from '../vocabulary/frames.js';
import { relativeTopic } from '../vocabulary/topics.js';
import type { BaseTableSettings, BaseTableState, DeviceRecord, DeviceState } from './base-state.js';
import type { StepContext } from './context.js';

/** Fresh device records: every configured device starts `disconnected`. */
export function initialDevices(settings: BaseTableSettings): Record<string, DeviceRecord> {
  const devices: Record<string, DeviceRecord> = {};
  for (const d of settings.devices) devices[d.id] = { kind: d.kind, state: 'disconnected' };
  return devices;
}

/** the retained `devices/<id>` message of a device as the table knows it */
export function publishDevice(ctx: StepContext, s: BaseTableState, id: string, state: DeviceState, detail?: string): void {
  const d = s.devices[id];
  const body: Record<string, unknown> = { deviceId: id, state, kind: d?.kind ?? 'unknown' };
  if (detail) body.detail = detail;
  if (d?.model) body.model = d.model;
  if (d?.firmware) body.firmware = d.firmware;
  ctx.publishOn('device', relativeTopic('device', id), body, { shoeId: null, roundId: null });
}

/** a device's new state, published when it changed */
export function setDevice(ctx: StepContext, s: BaseTableState, id: string, state: DeviceState, detail?: string): void {
  const d = s.devices[id];
  if (!d) return;
  if (d.state === state && d.detail === detail) return;
  s.devices[id] = { ...d, state, detail };
  publishDevice(ctx, s, id, state, detail);
}

/** the runtime's word on a device; true when it has just disconnected (trouble for the game) */
export function deviceStatus(ctx: StepContext, s: BaseTableState, id: string, state: 'connected' | 'disconnected' | 'stale', detail?: string): boolean {
  const before = s.devices[id]?.state;
  setDevice(ctx, s, id, state, detail);
  if (state === 'stale' && before !== 'stale') ctx.alert('device-stale', `device ${id} sent no valid frame for too long`, { deviceId: id });
  if (state === 'disconnected' && before && before !== 'disconnected') {
    ctx.alert('device-disconnected', `device ${id} disconnected${detail ? `: ${detail}` : ''}`, { deviceId: id });
    return true;
  }
  return false;
}

/**
 * What a valid frame says of its device: any frame but ERR shows it alive; `VER` names it (a
 * repeated, unchanged VER publishes nothing); `ERR` is a fault. Returns `game` for a frame the
 * table kind handles, `trouble` for an ERR (the game may hold), `done` otherwise.
 */
export function deviceFrame(ctx: StepContext, s: BaseTableState, deviceId: string, f: DeviceFrame): 'game' | 'trouble' | 'done' {
  const dev = s.devices[deviceId];
  if (dev && f.type !== 'ERR' && dev.state !== 'connected') setDevice(ctx, s, deviceId, 'connected');
  switch (f.type) {
    case 'HB':
      return 'done';
    case 'VER':
      if (dev) {
        const caps = f.capabilities ?? [];
        const same = dev.model === f.model && dev.firmware === f.firmware && (dev.capabilities ?? []).join('+') === caps.join('+');
        s.devices[deviceId] = {
          ...s.devices[deviceId],
          model: f.model,
          firmware: f.firmware,
          ...(caps.length ? { capabilities: caps } : { capabilities: undefined }),
        };
        if (!same) publishDevice(ctx, s, deviceId, s.devices[deviceId].state, s.devices[deviceId].detail);
      }
      return 'done';
    case 'ERR':
      setDevice(ctx, s, deviceId, 'fault', `${f.code}${f.text ? `: ${f.text}` : ''}`);
      ctx.alert('device-error', `device ${deviceId} reports ${f.code}${f.text ? ` (${f.text})` : ''}`, { deviceId, code: f.code });
      return 'trouble';
    default:
      return 'game';
  }
}
