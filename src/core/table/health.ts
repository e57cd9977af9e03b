/**
 * Table health (docs/OPERATIONS.md "Health"): the one definition of "ready" shared by `/readyz`
 * and the retained `health` message. Pure.
 */
import type { DeviceRecord } from './types.js';

/** What the runtime observed for a `health` input. The machine adds what it knows (device states). */
export interface HealthReport {
  mqtt: 'connected' | 'disconnected';
  /** the broker the table is on (credentials removed); absent or null while on none */
  broker?: string | null;
  /** false while connected but the broker refused the `request/+` subscription */
  requestsSubscribed?: boolean;
  uptimeSec: number;
  /** messages waiting for the broker; null when no outbox reports it */
  outboxDepth: number | null;
  /** per device: frames, rejected (bad) frames and dropped duplicates since the gateway started */
  devices: Record<string, { frames: number; rejected: number; duplicates: number; serial?: { lowLatency: boolean; reason?: string; latencyTimerMs?: number } }>;
}

/** Why a table is not ready (empty = ready): its broker connection and every device must be up. */
export function tableProblems(mqttConnected: boolean, devices: Readonly<Record<string, Pick<DeviceRecord, 'state' | 'detail'>>>, requestsSubscribed = true): string[] {
  const problems: string[] = [];
  if (!mqttConnected) problems.push('broker connection is down');
  else if (!requestsSubscribed) problems.push('requests are not subscribed (the broker refused the subscription; retrying)');
  for (const [id, d] of Object.entries(devices)) {
    if (d.state !== 'connected') problems.push(`device ${id} is ${d.state}${d.detail ? ` (${d.detail})` : ''}`);
  }
  return problems;
}
