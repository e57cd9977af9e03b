/** Which repeating frame is the heartbeat, when more than one body repeats as often (a shuffler idle twice, and two heartbeats). */
import type { ScriptEvent } from './script.js';

/**
 * The first candidate (a masked body) that, set aside as the heartbeat, leaves frames that line
 * up with the script: every event with a fixed body (`constantKey` not undefined) comes as one
 * body, and no two such events as the same one. With none that does, the first candidate (the
 * alignment then fails with its own reason).
 */
export function pickHeartbeat(
  candidates: string[],
  keys: string[],
  events: readonly ScriptEvent[],
  constantKey: (e: ScriptEvent) => string | undefined,
): string | undefined {
  for (const hb of candidates) {
    const others = keys.filter((k) => k !== hb);
    if (others.length !== events.length) continue;
    const bodyOf = new Map<string, string>();
    const classOfBody = new Map<string, string>();
    let ok = true;
    for (let i = 0; i < events.length && ok; i++) {
      const c = constantKey(events[i]);
      if (c === undefined) continue;
      if ((bodyOf.get(c) ?? others[i]) !== others[i] || (classOfBody.get(others[i]) ?? c) !== c) ok = false;
      bodyOf.set(c, others[i]);
      classOfBody.set(others[i], c);
    }
    if (ok) return hb;
  }
  return candidates[0];
}
