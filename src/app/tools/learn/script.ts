/**
 * The technician's script for `tablegw profile learn` (device-protocols.md §3.2): what was done,
 * in order. Tokens are separated by whitespace or commas, `#` starts a comment: a card in the
 * gateway's notation (`AS`, `TH`, `10H`, `9C`), `MISREAD`, `RESCAN:<card>`, `CUT`, `LOADED`,
 * `DROP`; for dice `ROLL:<a>,<b>,<c>` and `NOREAD` (the reader could not read the dice); for balls
 * `BALL:<n>`, `START`, `END`; for shufflers `SHUF:<state>` and `COUNT:<n>` (learn/shuffler.ts).
 * Heartbeats are not listed. Pure: text in, events or a reason out.
 */

import { RANK_OF } from '../../../../drivers/profiles/card-codes.js';
import { type ShufflerEvent, shufflerToken } from './shuffler.js';

export type ScriptEvent =
  | { type: 'CARD'; card: string; rescan: boolean }
  | { type: 'MISREAD' | 'CUT' | 'DROP' | 'START' | 'END' | 'NOREAD' }
  | { type: 'STATE'; state: 'LOADED' }
  | { type: 'ROLL'; dice: [number, number, number] }
  | { type: 'BALL'; ball: number }
  | ShufflerEvent;

export type ScriptParse = { ok: true; events: ScriptEvent[] } | { ok: false; code: 'script-bad-token' | 'script-empty'; reason: string };

/** `AS`, `10h`, `th` -> `AS`, `TH`; null when it is no card */
export function scriptCard(token: string): string | null {
  const m = /^(10|[1-9AaTtJjQqKk])([SHDCshdc])$/.exec(token);
  if (!m) return null;
  return RANK_OF[m[1].toUpperCase()] + m[2].toUpperCase();
}

/** one line per event as `frameKey` of profile-learn.ts writes a decoded frame: `CARD AS`, `CARD AS R`, `STATE LOADED` */
export function eventKey(e: ScriptEvent): string {
  switch (e.type) {
    case 'CARD':
      return `CARD ${e.card}${e.rescan ? ' R' : ''}`;
    case 'STATE':
      return `STATE ${e.state}`;
    case 'ROLL':
      return `ROLL ${e.dice.join(',')}`;
    case 'BALL':
      return `BALL ${e.ball}`;
    case 'SHUF_STATE':
      return `SHUF_STATE ${e.state}`;
    case 'COUNT':
      return `COUNT ${e.count}`;
    default:
      return e.type;
  }
}

export function parseScript(text: string): ScriptParse {
  const events: ScriptEvent[] = [];
  const lines = text.split(/\r?\n/);
  for (let ln = 0; ln < lines.length; ln++) {
    const line = lines[ln].replace(/#.*$/, '');
    for (const m of line.matchAll(/ROLL:\s*\d+\s*,\s*\d+\s*,\s*\d+|[^\s,]+/gi)) {
      const raw = m[0];
      const tok = raw.toUpperCase().replace(/\s+/g, '');
      const bad = (why: string): ScriptParse => ({ ok: false, code: 'script-bad-token', reason: `line ${ln + 1}: "${raw}": ${why}` });
      const card = scriptCard(tok);
      if (card) {
        events.push({ type: 'CARD', card, rescan: false });
        continue;
      }
      if (tok === 'MISREAD' || tok === 'CUT' || tok === 'DROP' || tok === 'START' || tok === 'END' || tok === 'NOREAD') {
        events.push({ type: tok });
        continue;
      }
      if (tok === 'LOADED') {
        events.push({ type: 'STATE', state: 'LOADED' });
        continue;
      }
      if (tok.startsWith('RESCAN:')) {
        const c = scriptCard(tok.slice(7));
        if (!c) return bad('RESCAN: needs a card (RESCAN:AS)');
        events.push({ type: 'CARD', card: c, rescan: true });
        continue;
      }
      if (tok.startsWith('ROLL:')) {
        const d = tok.slice(5).split(',').map(Number);
        if (d.some((x) => !Number.isInteger(x) || x < 1 || x > 6)) return bad('dice are 1..6 (ROLL:1,4,6)');
        events.push({ type: 'ROLL', dice: [d[0], d[1], d[2]] });
        continue;
      }
      if (tok.startsWith('BALL:')) {
        const n = Number(tok.slice(5));
        if (!Number.isInteger(n) || n < 1 || n > 80) return bad('a ball is 1..80 (BALL:17)');
        events.push({ type: 'BALL', ball: n });
        continue;
      }
      const shuf = shufflerToken(tok);
      if (shuf && 'bad' in shuf) return bad(shuf.bad);
      if (shuf) {
        events.push(shuf);
        continue;
      }
      return bad(
        'not a card (AS, TH, 10H), MISREAD, RESCAN:<card>, CUT, LOADED, DROP, ROLL:<a>,<b>,<c>, NOREAD, BALL:<n>, START, END, SHUF:<state> or COUNT:<n>',
      );
    }
  }
  if (events.length === 0) return { ok: false, code: 'script-empty', reason: 'the script lists no event (one token per card read, MISREAD, CUT, ...)' };
  return { ok: true, events };
}
