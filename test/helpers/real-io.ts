import { hasCommand } from '../../dev/rig/commands.js';

/** When set (CI), a missing external tool fails the test run instead of skipping. */
export const requireRealIo = process.env.REQUIRE_REAL_IO === '1';

/**
 * Decide whether tests needing external commands can run.
 * - all present: { available: true }
 * - missing and REQUIRE_REAL_IO=1: throws (the test file fails instead of silently skipping)
 * - missing otherwise: { available: false, reason } and a console.warn, for describe.skipIf(!x.available)
 */
export function realIoOrSkip(command: string | string[]): { available: boolean; reason?: string } {
  const commands = Array.isArray(command) ? command : [command];
  const missing = commands.filter((c) => !hasCommand(c));
  if (missing.length === 0) return { available: true };
  const reason = `missing command(s): ${missing.join(', ')} (install with: apt-get install -y ${missing.join(' ')})`;
  if (requireRealIo) {
    throw new Error(`REQUIRE_REAL_IO=1 but ${reason}`);
  }
  console.warn(`[real-io] skipping: ${reason}`);
  return { available: false, reason };
}
