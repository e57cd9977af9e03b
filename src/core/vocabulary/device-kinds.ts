/**
 * The device-kind catalogue: the one place that says what each kind of table device is
 * (device-protocols.md §1-§3). The config schema, the driver factory, the simulators, the
 * scenario runner, the profile checks and the card table read their facts about a kind from here.
 */
import type { Talker } from './frames.js';

export const DEVICE_KINDS = ['card-shoe', 'rfid-shoe', 'barcode-scanner', 'shuffler', 'dice-sensor', 'ball-reader'] as const;
export type DeviceKind = (typeof DEVICE_KINDS)[number];

/** the kind of table a device can serve */
export type TableKind = 'card' | 'sic-bo' | 'keno';

export interface DeviceKindFacts {
  /** what the device is, for humans (help texts, `tablegw devices`) */
  readonly title: string;
  /** the talker of its frames: the reference protocol's `$<TALKER>,...`, and the talker a profile for it must speak */
  readonly talker: Talker;
  /** the wires it can be on (`hid`: USB HID reports, §2) */
  readonly wires: readonly ('serial' | 'hid')[];
  /** it sends `HB` when idle on a serial line, so silence means stale (HID presence is enumeration) */
  readonly heartbeats: boolean;
  /** it numbers its frames (SEQ) on a serial line, so the gap rules apply */
  readonly numbersFrames: boolean;
  /** gateway commands it understands on the reference protocol (RESCAN, LOCK, UNLOCK, REPEAT) */
  readonly takesCommands: boolean;
  /** it reads playing cards (a card table's dealing or rescan reader) */
  readonly readsCards: boolean;
  /** the tables it serves */
  readonly tables: readonly TableKind[];
}

export const DEVICE_KIND_FACTS: Readonly<Record<DeviceKind, DeviceKindFacts>> = {
  'card-shoe': {
    title: 'barcode/optical card shoe',
    talker: 'SHOE',
    wires: ['serial'],
    heartbeats: true,
    numbersFrames: true,
    takesCommands: true,
    readsCards: true,
    tables: ['card'],
  },
  'rfid-shoe': {
    title: 'RFID card shoe',
    talker: 'RFID',
    wires: ['serial'],
    heartbeats: true,
    numbersFrames: true,
    takesCommands: true,
    readsCards: true,
    tables: ['card'],
  },
  'barcode-scanner': {
    title: 'hand barcode scanner (keyboard wedge or serial)',
    talker: 'SHOE',
    wires: ['hid', 'serial'],
    heartbeats: false,
    numbersFrames: false,
    takesCommands: false,
    readsCards: true,
    tables: ['card'],
  },
  shuffler: {
    title: 'automatic shuffler',
    talker: 'SHUF',
    wires: ['serial'],
    heartbeats: true,
    numbersFrames: true,
    takesCommands: false,
    readsCards: false,
    tables: ['card'],
  },
  'dice-sensor': {
    title: 'sic bo dice sensor',
    talker: 'DICE',
    wires: ['serial', 'hid'],
    heartbeats: true,
    numbersFrames: true,
    takesCommands: false,
    readsCards: false,
    tables: ['sic-bo'],
  },
  'ball-reader': {
    title: 'keno ball reader',
    talker: 'BALL',
    wires: ['serial'],
    heartbeats: true,
    numbersFrames: true,
    takesCommands: false,
    readsCards: false,
    tables: ['keno'],
  },
};

export function deviceKindFacts(kind: DeviceKind): DeviceKindFacts {
  return DEVICE_KIND_FACTS[kind];
}

/** whether a device of this kind reads playing cards */
export function readsCards(kind: string): boolean {
  return Object.hasOwn(DEVICE_KIND_FACTS, kind) && DEVICE_KIND_FACTS[kind as DeviceKind].readsCards;
}
