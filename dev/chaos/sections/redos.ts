/**
 * ReDoS (issue 33): a device profile's catastrophic pattern `(a+)+$` and a stream of 45-byte
 * `aaa...a!` frames and 10 KB lines on its shoe's line, with a second table dealing meanwhile
 * (dev/chaos/redos-attack.ts). Patterns from profiles run on a linear-time engine
 * (drivers/profiles/linear-pattern.ts), so no table may freeze: `frozen tables` must be 0, and
 * every hostile frame is decoded and rejected: `frames not rejected` must be 0.
 */
import { runRedosAttack } from '../redos-attack.js';
import type { ChaosSection } from '../section.js';

const section: ChaosSection = {
  name: 'redos',
  async run({ quick, log }) {
    const { figures, notes } = await runRedosAttack({ attackMs: quick ? 4000 : 20_000, baselineMs: quick ? 2000 : 5000, log });
    return { section: 'redos', figures: { ...figures }, zeroColumns: ['frozen tables', 'frames not rejected'], notes };
  },
};

export default section;
