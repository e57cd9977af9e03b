/** The learned profile as data and as commented YAML. */
import type { CardCodeOptions } from '../../../../drivers/profiles/card-codes.js';
import { type LearnKind, TALKER } from './kinds.js';
import type { Framing } from './framing.js';
import type { Integrity } from './integrity.js';
import type { Learned } from './messages.js';

export const latin1 = (b: Buffer): string => b.toString('latin1');

export function profileData(name: string, kind: LearnKind, f: Framing, i: Integrity, l: Learned, text: boolean, maxFrame: number): Record<string, unknown> {
  const framing: Record<string, unknown> = {};
  if (f.start) framing.start = latin1(f.start);
  if (f.end) framing.end = latin1(f.end);
  if (f.end && f.end.length === 2 && f.end[0] === 0x0d && f.end[1] === 0x0a) framing.acceptEnd = ['\n'];
  if (f.trailer) framing.trailer = f.trailer;
  if (f.length) framing.length = f.length;
  if (f.lengthField)
    framing.lengthField = {
      offset: f.lengthField.offset,
      width: f.lengthField.width,
      order: f.lengthField.order,
      counts: f.lengthField.counts,
      adjust: f.lengthField.adjust,
    };
  if (f.stuffing)
    framing.stuffing = { escape: String.fromCharCode(f.stuffing.escape), mode: f.stuffing.mode, ...(f.stuffing.mode === 'xor' ? { xor: f.stuffing.xor } : {}) };
  framing.maxLength = Math.max(f.length ?? 0, Math.min(1024, Math.max(32, 2 * maxFrame)));
  const integrity: Record<string, unknown> = { algorithm: i.algorithm };
  if (i.algorithm !== 'none') {
    Object.assign(integrity, {
      encoding: i.encoding,
      place: i.place,
      ...(i.separator ? { separator: i.separator } : {}),
      covers: i.covers,
      ...(i.over === 'stuffed' ? { over: 'stuffed' } : {}),
    });
  }
  const messages = l.messages.map((m) => {
    const o: Record<string, unknown> = { name: m.name };
    if (m.pattern) o.pattern = m.pattern;
    if (m.bytes) o.bytes = m.bytes;
    o.type = m.type;
    if (Object.keys(m.fields).length) o.fields = m.fields;
    if (m.seq) o.seq = m.seq;
    if (m.emit) o.emit = m.emit;
    return o;
  });
  return {
    name,
    talker: TALKER[kind],
    ...(text ? {} : { encoding: 'binary' }),
    framing,
    integrity,
    cards: l.cards ?? { preset: 'rank-suit' },
    ...(l.seq ? { seq: { wrap: l.seq.wrap } } : {}),
    messages,
  };
}

/** YAML with a comment above each part (JSON is YAML flow style: every value written exactly) */
export function toYaml(data: Record<string, unknown>, header: string[], comments: Record<string, string>): string {
  const lines = header.map((h) => `# ${h}`);
  for (const [k, v] of Object.entries(data)) {
    if (comments[k]) lines.push(`# ${comments[k]}`);
    if (k === 'messages' && Array.isArray(v)) {
      lines.push('messages:');
      for (const m of v) lines.push(`  - ${JSON.stringify(m)}`);
    } else if (k === 'cards' && (v as CardCodeOptions).preset === 'table') {
      const t = (v as CardCodeOptions).table ?? {};
      lines.push('cards:', '  preset: table', '  table:');
      for (const [code, card] of Object.entries(t)) lines.push(`    ${JSON.stringify(code)}: ${card}`);
    } else lines.push(`${k}: ${JSON.stringify(v)}`);
  }
  return `${lines.join('\n')}\n`;
}
