/**
 * Issue 33, point 1, end to end: a real gateway process with two tables and a real Mosquitto
 * (dev/chaos/redos-attack.ts). One table's shoe is read through a profile whose message pattern
 * is `(a+)+$` and its line carries a stream of 45-byte `aaa...a!` frames and 10 KB lines; the
 * other table deals from a simulated shoe. On the backtracking engine one such frame froze the
 * whole gateway; on the linear-time engine every frame is a counted reject, neither table goes
 * silent and the other table keeps its card pace.
 */
import { describe, expect, it } from 'vitest';
import { FROZEN_MS, runRedosAttack } from '../../dev/chaos/redos-attack.js';
import { realIoOrSkip } from '../helpers/real-io.js';

const io = realIoOrSkip(['socat', 'mosquitto']);

describe.skipIf(!io.available)('ReDoS frames against a gateway with two tables', () => {
  it('every hostile frame is rejected, no table freezes, the other table keeps its pace', async () => {
    const { figures, notes } = await runRedosAttack({ attackMs: 5000, baselineMs: 3000, log: () => {} });
    expect(notes).toEqual([]);
    expect(figures['redos frames sent']).toBeGreaterThan(100);
    expect(figures['10 KB frames sent']).toBeGreaterThan(5);
    // each frame decoded and rejected (unknown-type, too-long), none left unread
    expect(figures['frames not rejected']).toBe(0);
    expect(figures['frozen tables']).toBe(0);
    expect(figures['calm table longest silence ms']).toBeLessThan(FROZEN_MS);
    expect(figures['attacked table longest silence ms']).toBeLessThan(FROZEN_MS);
    // the calm table deals at its normal pace meanwhile (a generous half: the machine is shared)
    expect(figures['calm cards/s before (x100)']).toBeGreaterThan(0);
    expect(figures['calm cards/s during (x100)']).toBeGreaterThanOrEqual(figures['calm cards/s before (x100)'] / 2);
  }, 90_000);
});
