/**
 * Table health (docs/OPERATIONS.md "Health"): the one definition of "ready" shared by `/readyz`
 * and the retained `health` message. Pure.
 */
import type { DeviceRecord, HealthReport } from './types.js';

export type { HealthReport };

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
