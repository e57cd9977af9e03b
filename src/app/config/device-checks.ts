/**
 * Config checks that need more than a schema (docs/DEVICES.md): which device kinds a table's game
 * takes, which transports a kind speaks, the barcode mapping's regex and the RFID deck registry
 * file (read here, at config load, so a bad file stops the gateway with a message naming the key).
 * Each problem is `<key path>: <reason>`.
 */
import { resolve } from 'node:path';
import { loadDeckRegistry } from '../../../drivers/deck-registry.js';
import { compileUserPattern } from '../../../drivers/profiles/linear-pattern.js';
import { parseCard } from '../../core/vocabulary/card.js';
import { CARD_TABLE_DEVICES, nonCardGame } from '../../core/games/non-card-games.js';
import type { DeviceConfig, TableConfig } from '../../core/vocabulary/config-schema.js';

const HID_KINDS = new Set(['barcode-scanner', 'dice-sensor']);

/** Problems with the devices of table `t` (at `tables[ti]`); `isCardGame` = its game is a card game. */
export function checkTableDevices(t: TableConfig, ti: number, isCardGame: boolean): string[] {
  const problems: string[] = [];
  const nc = nonCardGame(t.game);
  const allowed = nc ? nc.devices : isCardGame ? CARD_TABLE_DEVICES : null;
  if (nc && !t.devices.some((d) => d.kind === nc.devices[0])) {
    problems.push(`tables[${ti}].devices: a ${t.game} table needs a ${nc.devices[0]} device`);
  }
  resolveScannerRoles(t);
  t.devices.forEach((d, di) => {
    const at = `tables[${ti}].devices[${di}]`;
    if (allowed && !allowed.includes(d.kind)) problems.push(`${at}.kind: a ${t.game} table takes ${allowed.join(', ')} devices, not ${d.kind}`);
    problems.push(...checkDevice(d, at));
  });
  return problems;
}

/**
 * config.md v1.1: a barcode scanner without a `role` is the shoe's rescan reader when the table
 * also has a card-shoe or rfid-shoe, else the table's dealing reader. Written into the config here,
 * so the driver and every later reader see one answer.
 */
export function resolveScannerRoles(t: TableConfig): void {
  const hasShoe = t.devices.some((d) => d.kind === 'card-shoe' || d.kind === 'rfid-shoe');
  for (const d of t.devices) if (d.kind === 'barcode-scanner' && d.role === undefined) d.role = hasShoe ? 'rescan' : 'dealer';
}

export function checkDevice(d: DeviceConfig, at: string): string[] {
  const problems: string[] = [];
  const tt = d.transport.type;
  if (tt === 'hid' && !HID_KINDS.has(d.kind) && d.profile === undefined)
    problems.push(
      `${at}.transport.type: a ${d.kind} has no built-in HID protocol (hid is for barcode-scanner and dice-sensor, or any kind with a HID profile: input hid-report or hid-keyboard)`,
    );
  if (d.role !== undefined && d.kind !== 'barcode-scanner') problems.push(`${at}.role: only a barcode-scanner has a role (dealer or rescan)`);
  if (d.kind !== 'rfid-shoe') {
    if (d.deckRegistry !== undefined) problems.push(`${at}.deckRegistry: only an rfid-shoe has a deck registry`);
    if (d.dedupeMs !== undefined && d.kind !== 'barcode-scanner') problems.push(`${at}.dedupeMs: only an rfid-shoe and a barcode-scanner de-duplicate reads`);
    if (d.dedupeMs !== undefined && d.kind === 'barcode-scanner' && d.role === 'rescan')
      problems.push(`${at}.dedupeMs: a rescan scanner does not de-duplicate (only role dealer does)`);
  } else if (d.deckRegistry === undefined) {
    if (tt !== 'simulator') problems.push(`${at}.deckRegistry: required for an rfid-shoe (a CSV file uid,card,deck)`);
  } else {
    try {
      loadDeckRegistry(resolve(d.deckRegistry));
    } catch (e) {
      problems.push(`${at}.deckRegistry: ${(e as Error).message}`);
    }
  }
  if (d.barcode !== undefined) {
    if (d.kind !== 'barcode-scanner') problems.push(`${at}.barcode: only a barcode-scanner has a barcode mapping`);
    const { pattern, table } = d.barcode;
    if (pattern !== undefined) {
      // compiled onto the linear-time engine, as the scanner's driver will: refused here at its key path
      const r = compileUserPattern(pattern, '', `${at}.barcode.pattern`);
      if (!r.ok) problems.push(r.refusal.message);
      else if (!r.pattern.names.has('card')) problems.push(`${at}.barcode.pattern: the regex needs a named group "card", e.g. ^(?<card>[A2-9TJQK][SHDC])$`);
    }
    for (const [code, card] of Object.entries(table ?? {})) {
      if (!parseCard(card)) problems.push(`${at}.barcode.table.${code}: "${card}" is not a card code (e.g. AS, TD, 7H)`);
    }
  }
  return problems;
}
