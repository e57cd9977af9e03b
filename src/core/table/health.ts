/**
 * Table health (docs/OPERATIONS.md "Health"): the one definition of "ready" shared by `/readyz`
 * and the retained `health` message. Pure.
 */
import type { DeviceRecord, HealthReport } from './types.js';

export type { HealthReport };

/** what a link reports besides being connected (see HealthReport) */
export interface LinkProblems {
  /** the request subscription's SUBACK has not come yet (not a refusal) */
  subscribing?: boolean;
  /** the broker stopped acknowledging: what was seen (null/absent: it acknowledges) */
  brokerStalled?: string | null;
}

/**
 * Why a table is not ready (empty = ready): its broker connection and every device must be up,
 * its requests subscribed, and the broker acknowledging what the table publishes.
 */
export function tableProblems(
  mqttConnected: boolean,
  devices: Readonly<Record<string, Pick<DeviceRecord, 'state' | 'detail'>>>,
  requestsSubscribed = true,
  link: LinkProblems = {},
): string[] {
  const problems: string[] = [];
  if (!mqttConnected) problems.push('broker connection is down');
  else if (!requestsSubscribed) {
    problems.push(
      link.subscribing
        ? 'requests are not subscribed yet (subscribing: the SUBACK is on its way)'
        : 'requests are not subscribed (the broker refused the subscription; retrying)',
    );
  }
  if (link.brokerStalled) problems.push(`broker stalled: ${link.brokerStalled}`);
  for (const [id, d] of Object.entries(devices)) {
    if (d.state !== 'connected') problems.push(`device ${id} is ${d.state}${d.detail ? ` (${d.detail})` : ''}`);
  }
  return problems;
}
