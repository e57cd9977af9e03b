/**
 * RFID deck registry (device-protocols.md "RFID"): which tag uid is which card of which deck.
 * A CSV file `uid,card,deck`, one tag a line:
 * - an optional header line `uid,card,deck` (any case), blank lines and `#` comment lines are skipped;
 * - `uid` = 8..24 hex digits (either case; stored upper case, as the RFID codec normalises TAGs);
 * - `card` = a card code (`AS`, `TD`, either case);
 * - `deck` = any non-empty label (a deck number or serial), kept for logs and events.
 * A uid listed twice is an error (one tag cannot be two cards), as is any malformed line: the
 * error names the file and the line so a technician can fix it.
 */
import { readFileSync } from 'node:fs';
import { parseCard, type Card } from '../src/core/vocabulary/card.js';

export interface RegisteredTag {
  card: Card;
  deck: string;
}

export type DeckRegistry = ReadonlyMap<string, RegisteredTag>;

export class DeckRegistryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeckRegistryError';
  }
}

const UID_RE = /^[0-9A-Fa-f]{8,24}$/;

/** Parses registry text; throws DeckRegistryError naming `source` and the line. */
export function parseDeckRegistry(text: string, source = '(registry)'): Map<string, RegisteredTag> {
  const out = new Map<string, RegisteredTag>();
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === '' || line.startsWith('#')) continue;
    const fields = line.split(',').map((f) => f.trim());
    if (out.size === 0 && i === firstContentLine(lines) && fields[0].toLowerCase() === 'uid') continue; // header
    const at = `${source} line ${i + 1}`;
    if (fields.length !== 3) throw new DeckRegistryError(`${at}: expected "uid,card,deck", got ${fields.length} field(s)`);
    const [uid, cardText, deck] = fields;
    if (!UID_RE.test(uid)) throw new DeckRegistryError(`${at}: uid "${uid}" is not 8-24 hex digits`);
    const card = parseCard(cardText);
    if (!card) throw new DeckRegistryError(`${at}: "${cardText}" is not a card code (e.g. AS, TD, 7H)`);
    if (deck === '') throw new DeckRegistryError(`${at}: the deck label is empty`);
    const key = uid.toUpperCase();
    const prev = out.get(key);
    if (prev) throw new DeckRegistryError(`${at}: uid ${key} is listed twice (already ${prev.card} of deck ${prev.deck})`);
    out.set(key, { card, deck });
  }
  if (out.size === 0) throw new DeckRegistryError(`${source}: no tags listed`);
  return out;
}

function firstContentLine(lines: string[]): number {
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i].trim();
    if (l !== '' && !l.startsWith('#')) return i;
  }
  return -1;
}

/** Reads and parses a registry file; throws DeckRegistryError (unreadable file or bad content). */
export function loadDeckRegistry(path: string): Map<string, RegisteredTag> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new DeckRegistryError(`cannot read deck registry: ${(e as Error).message}`);
  }
  return parseDeckRegistry(text, path);
}

/** The registry as CSV text (simulators write the registry they generate). */
export function formatDeckRegistry(registry: DeckRegistry): string {
  const lines = ['uid,card,deck'];
  for (const [uid, t] of registry) lines.push(`${uid},${t.card},${t.deck}`);
  return lines.join('\n') + '\n';
}
