/**
 * A corpus format as a simulator wire (simulators/devices/wire.ts `FrameWire`): the virtual
 * devices' frames in the reference vocabulary, written by the format's independent encoder.
 * `useWireFor(profile name, corpusWire(entry))` makes the simulators speak it.
 */
import type { FrameWire } from '../../simulators/devices/wire.js';
import { type CorpusEntry, type CorpusEvent, seqWrap } from './index.js';

/** a reference frame (device-protocols.md §1: type and fields) as a corpus event, null when the corpus has none */
export function corpusEvent(type: string, fields: readonly (string | number)[]): CorpusEvent | null {
  const f = fields.map(String);
  switch (type) {
    case 'CARD':
      return { k: 'card', card: f[0] };
    case 'MISREAD':
      return { k: 'misread' };
    case 'HB':
      return { k: 'hb' };
    case 'STATE':
      if (f[0] === 'LOADED') return { k: 'loaded' };
      return f[0] === 'IDLE' || f[0] === 'SHUFFLING' || f[0] === 'READY' || f[0] === 'JAM' ? { k: 'shuf', state: f[0] } : null;
    case 'ROLL':
      return { k: 'roll', dice: [Number(f[0]), Number(f[1]), Number(f[2])], bounces: Number(f[3] ?? 0) };
    case 'NOREAD':
      return { k: 'noread' };
    case 'BALL':
      return { k: 'ball', n: Number(f[0]) };
    case 'START':
      return { k: 'start' };
    case 'END':
      return { k: 'end' };
    case 'COUNT':
      return { k: 'count', n: Number(f[0]) };
    default:
      return null;
  }
}

export function corpusWire(e: CorpusEntry): FrameWire {
  // the format's SEQ wrap point (0: no SEQ): the simulator counts to 65535, the device to its own wrap
  const wrap = seqWrap(e.encoder);
  return {
    format: `corpus:${e.name}`,
    ...(e.encoder.reportBytes !== undefined ? { reportBytes: e.encoder.reportBytes } : {}),
    encode(_talker, seq, type, fields = []) {
      const ev = corpusEvent(type, fields);
      return ev ? e.encoder.frame(ev, seq % (wrap + 1)) : null;
    },
    raw() {
      throw new Error(`${e.name}: a corpus format has no raw frames`);
    },
    // the corpus devices take no commands
    commands: () => [],
    noise: () => e.encoder.noise(),
  };
}
