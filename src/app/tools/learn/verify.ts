/** A candidate profile decoded for real on the capture, as it arrived and re-chunked, against the script's events. */
import type { DeviceFrame } from '../../../core/vocabulary/frames.js';
import type { DeviceProfile } from '../../../../drivers/profiles/profile-schema.js';
import type { CaptureChunk } from '../capture-file.js';
import { decodeCapture, rechunkCheck } from '../profile-check.js';

export function frameKey(f: DeviceFrame): string {
  switch (f.type) {
    case 'CARD':
      return `CARD ${f.card}${f.rescan ? ' R' : ''}`;
    case 'STATE':
      return `STATE ${f.state}`;
    case 'ROLL':
      return `ROLL ${f.dice.join(',')}`;
    case 'BALL':
      return `BALL ${f.ball}`;
    case 'SHUF_STATE':
      return `SHUF_STATE ${f.state}`;
    case 'COUNT':
      return `COUNT ${f.count}`;
    default:
      return f.type;
  }
}

export interface Verified {
  ok: boolean;
  matched: number;
  problem?: string;
  /** frames and rejects as keys (two candidates decode identically when these are equal) */
  signature: string;
}

/** `heartbeats`: how many heartbeat frames the capture holds (then each must decode as one, not as a reject or another message) */
export function verify(profile: DeviceProfile, chunks: readonly CaptureChunk[], want: string[], heartbeats?: number): Verified {
  const r = decodeCapture(profile, chunks);
  const got: string[] = [];
  let hb = 0;
  for (const it of r.items) {
    if (!('frame' in it)) continue;
    if (it.frame.type === 'HB') hb++;
    else got.push(frameKey(it.frame));
  }
  const signature = r.items.flatMap((it) => ('frame' in it ? [frameKey(it.frame)] : [])).join('|');
  let matched = 0;
  while (matched < want.length && got[matched] === want[matched]) matched++;
  if (matched !== want.length || got.length !== want.length) {
    const at = matched;
    return {
      ok: false,
      matched,
      signature,
      problem: `decodes ${got.length} events where the script has ${want.length}; first difference at event ${at + 1}: ${got[at] ?? 'nothing'} where the script says ${want[at] ?? 'nothing'}`,
    };
  }
  if (heartbeats !== undefined && hb !== heartbeats)
    return { ok: false, matched, signature, problem: `decodes ${hb} heartbeats where ${heartbeats} frames repeat while idle` };
  const re = rechunkCheck(profile, chunks, r);
  if (!re.same) return { ok: false, matched, signature, problem: `re-chunked, it decodes differently: ${re.difference}` };
  return { ok: true, matched, signature };
}
