// The high-water mark's file (journal-integrity.ts; docs/DURABILITY.md "A damaged journal"):
// `<dataDir>/seq-hwm.bin`, written after every commit that moved a counter and before anything of
// that commit is published. Plain JS, because the journal's writer thread
// (journal-writer-worker.mjs) writes it too and runs without a TypeScript loader.
//
// Two slots of the same size, written in turn IN PLACE (pwrite of one whole slot + fdatasync):
// no new file, no rename, no metadata to journal, so a mark costs one data flush. Each slot is
//
//   TEGHWM1 <generation, 16 hex> <crc32 of the text, 8 hex> <length of the text, 8 hex>\n
//   <text: {"v":1,"tables":{...}}>\n   padded with spaces to the slot size
//
// so `cat` shows it. A torn write (power loss in the middle of a slot) can only damage the slot
// being written; the other one holds the mark before it, which the journal is never below. The
// reader takes the valid slot with the highest generation. When the text outgrows a slot (many
// tables), the file is written anew with bigger slots: temp file, fsync, rename, fsync of the
// directory.
import { closeSync, existsSync, fdatasyncSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';

export const HWM_SLOTS_FILE = 'seq-hwm.bin';
/**
 * the mark as of the last commit, written after every commit without a flush of its own (same
 * two-slot format): what the start-up check compares the journal with after a crash of the
 * process; after a power loss it may be older, never newer, than the journal (see HwmMark)
 */
export const HWM_FAST_FILE = 'seq-hwm-fast.bin';
/** the one-file mark of earlier builds (a JSON file replaced by rename): read, then removed */
export const HWM_LEGACY_FILE = 'seq-hwm.json';
const MAGIC = 'TEGHWM1';
const HEADER_BYTES = MAGIC.length + 1 + 16 + 1 + 8 + 1 + 8 + 1;
const MIN_SLOT = 4096;
const HEADER = /^TEGHWM1 ([0-9a-f]{16}) ([0-9a-f]{8}) ([0-9a-f]{8})\n$/;

function slotBytes(generation, text, size) {
  const body = Buffer.from(`${text}\n`, 'utf8');
  const header = `${MAGIC} ${generation.toString(16).padStart(16, '0')} ${crc32(body).toString(16).padStart(8, '0')} ${body.length.toString(16).padStart(8, '0')}\n`;
  const slot = Buffer.alloc(size, 0x20);
  slot.write(header, 0, 'latin1');
  body.copy(slot, HEADER_BYTES);
  return slot;
}

function slotSizeFor(textBytes) {
  let size = MIN_SLOT;
  while (size < HEADER_BYTES + textBytes + 1) size *= 2;
  return size;
}

/** one slot: `{ generation, text }`, or null when it is not a whole, checksummed slot */
function parseSlot(slot) {
  if (slot.length < HEADER_BYTES) return null;
  const m = HEADER.exec(slot.toString('latin1', 0, HEADER_BYTES));
  if (!m) return null;
  const length = Number.parseInt(m[3], 16);
  if (HEADER_BYTES + length > slot.length) return null;
  const body = slot.subarray(HEADER_BYTES, HEADER_BYTES + length);
  if (crc32(body) !== Number.parseInt(m[2], 16)) return null;
  return { generation: Number.parseInt(m[1], 16), text: body.toString('utf8').replace(/\n$/, '') };
}

/**
 * reads the mark's file: `{ text, generation, slotSize }` of the newest valid slot; null when the
 * file does not exist; throws an Error saying what is wrong when it exists but no slot is valid
 */
export function readHwmSlots(dir, file = HWM_SLOTS_FILE) {
  const p = join(dir, file);
  if (!existsSync(p)) return null;
  const all = readFileSync(p);
  if (all.length === 0 || all.length % 2 !== 0 || all.length / 2 < MIN_SLOT) {
    throw new Error(`${all.length} bytes is not two slots of a high-water mark`);
  }
  const size = all.length / 2;
  const slots = [parseSlot(all.subarray(0, size)), parseSlot(all.subarray(size))].filter((s) => s !== null);
  if (slots.length === 0) throw new Error('neither slot of the high-water mark is whole (bad header or checksum)');
  const newest = slots.reduce((a, b) => (b.generation > a.generation ? b : a));
  return { text: newest.text, generation: newest.generation, slotSize: size };
}

/** reads the legacy one-file mark (text), or null */
export function readLegacyHwm(dir) {
  const p = join(dir, HWM_LEGACY_FILE);
  return existsSync(p) ? readFileSync(p, 'utf8') : null;
}

function fsyncDir(dir) {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * The writer of the mark's file: keeps it open and writes each new mark into the slot after the
 * newest one. `durable`: fdatasync after each write (the journal's `synchronous: full`).
 * Exactly one writer per data dir at a time (the store's inline path or its writer thread).
 */
export class HwmSlotWriter {
  constructor(dir, durable, file = HWM_SLOTS_FILE) {
    this.dir = dir;
    this.durable = durable;
    this.file = file;
    this.fd = null;
    this.generation = 0;
    this.slotSize = 0;
  }

  /** writes `text` (`{"v":1,"tables":{...}}`): on disk when it returns (with `durable`) */
  write(text) {
    if (this.fd === null) this.open();
    const need = slotSizeFor(Buffer.byteLength(text, 'utf8'));
    const generation = this.generation + 1;
    if (this.fd === null || need > this.slotSize) {
      this.rewrite(text, generation, Math.max(need, this.slotSize));
    } else {
      const slot = slotBytes(generation, text, this.slotSize);
      writeSync(this.fd, slot, 0, slot.length, (generation % 2) * this.slotSize);
      if (this.durable) fdatasyncSync(this.fd);
    }
    this.generation = generation;
  }

  close() {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  /** opens an existing, valid file in place; leaves fd null when there is none (or it is damaged: rewritten) */
  open() {
    let current = null;
    try {
      current = readHwmSlots(this.dir, this.file);
    } catch {
      current = null; // damaged: the start-up check refused it unless the operator moved it aside; write it anew
    }
    if (!current) return;
    this.generation = current.generation;
    this.slotSize = current.slotSize;
    this.fd = openSync(join(this.dir, this.file), 'r+');
  }

  /** a new file with both slots holding `text`: temp file, fsync, rename, fsync of the directory */
  rewrite(text, generation, slotSize) {
    this.close();
    const p = join(this.dir, this.file);
    const tmp = `${p}.tmp`;
    const fd = openSync(tmp, 'w');
    try {
      // the slot this generation belongs to, and the other one with the same mark one generation before
      const own = slotBytes(generation, text, slotSize);
      const other = slotBytes(Math.max(0, generation - 1), text, slotSize);
      const first = generation % 2 === 0 ? own : other;
      const second = generation % 2 === 0 ? other : own;
      writeSync(fd, first, 0, slotSize, 0);
      writeSync(fd, second, 0, slotSize, slotSize);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, p);
    fsyncDir(this.dir);
    // the legacy file is only removed once the new mark (with every table's counters) is on disk
    const legacy = join(this.dir, HWM_LEGACY_FILE);
    if (this.file === HWM_SLOTS_FILE && existsSync(legacy)) {
      rmSync(legacy);
      fsyncDir(this.dir);
    }
    this.fd = openSync(p, 'r+');
    this.slotSize = slotSize;
  }
}

/**
 * The text of a mark, `{"v":1,"tables":{...}}` (and `,"reserved":{...}` when given), from each
 * table's counters, with each table's `"id":{...}` kept as text: after a batch only the tables
 * that moved are serialised again. The same string as `JSON.stringify({ v: 1, tables, reserved })`
 * (keys in Object.keys order, the order JSON.stringify uses). `fragments` is keyed by table id and
 * must be updated (set/delete) whenever `tables[id]` changes.
 */
export function markText(tables, fragments, reserved, reservedFragments) {
  let out = `{"v":1,"tables":${partsText(tables, fragments)}`;
  if (reserved) out += `,"reserved":${partsText(reserved, reservedFragments ?? new Map())}`;
  return `${out}}`;
}

function partsText(tables, fragments) {
  let out = '{';
  let first = true;
  for (const id of Object.keys(tables)) {
    let f = fragments.get(id);
    if (f === undefined) {
      f = `${JSON.stringify(id)}:${JSON.stringify(tables[id])}`;
      fragments.set(id, f);
    }
    out += first ? f : `,${f}`;
    first = false;
  }
  return `${out}}`;
}

/**
 * How far above a table's counters a reservation reaches (docs/DURABILITY.md "A damaged journal"):
 * `seq` moves with every message, the shoe and round numbers a few times an hour.
 */
export const RESERVE_AHEAD = { seq: 4096, other: 16 };

/** the counters a new reservation reaches up to */
function reserveAbove(counters) {
  const out = {};
  for (const [k, v] of Object.entries(counters)) {
    if (typeof v === 'number') out[k] = v + (k === 'seq' ? RESERVE_AHEAD.seq : RESERVE_AHEAD.other);
  }
  return out;
}

/** true when every counter is at most the reservation's */
function within(counters, reserved) {
  if (!reserved) return false;
  for (const [k, v] of Object.entries(counters)) {
    if (typeof v === 'number' && !(typeof reserved[k] === 'number' && v <= reserved[k])) return false;
  }
  return true;
}

/**
 * The mark in memory: each table's counters as of the last commit, and each table's RESERVATION,
 * counters no value above which was ever used. The store keeps one (gateway-store.ts); the
 * journal's writer thread keeps its own, started from the store's and sent only the tables that
 * moved in each batch (`update`), so with the thread the whole text — O(tables) — is built there,
 * not on the event loop, and not copied between the two.
 *
 * A commit whose counters stay within their tables' reservations writes the counters to the fast
 * file without a flush; one that goes past a reservation first reserves again (counters + RESERVE_AHEAD)
 * and writes the mark's file, with its flush, before anything of the commit leaves (HwmFiles).
 */
export class HwmMark {
  constructor(tables, reserved = {}) {
    this.tables = { ...tables };
    this.reserved = { ...reserved };
    this.fragments = new Map();
    this.reservedFragments = new Map();
    /** a reservation moved since the last `takeRenewed` */
    this.renewed = false;
  }

  /** one table's counters moved */
  set(id, counters) {
    this.tables[id] = counters;
    this.fragments.delete(id);
    if (!within(counters, this.reserved[id])) {
      this.reserved[id] = reserveAbove(counters);
      this.reservedFragments.delete(id);
      this.renewed = true;
    }
  }

  /** `changes`: [tableId, counters] of the tables that moved, in the order the store applied them */
  update(changes) {
    for (const [id, counters] of changes) this.set(id, counters);
  }

  /** whether a reservation moved since the last call (and the mark's file must be written and flushed) */
  takeRenewed() {
    const r = this.renewed;
    this.renewed = false;
    return r;
  }

  /** the mark's file: counters and reservations */
  text() {
    return markText(this.tables, this.fragments, this.reserved, this.reservedFragments);
  }

  /** the fast file: counters */
  fastText() {
    return markText(this.tables, this.fragments);
  }
}

/**
 * The two files of the mark, for the one writer of a data dir (the store's inline path or the
 * writer thread): after each commit that moved a counter, and before anything of it is carried
 * out, either the mark's file with its flush (a reservation moved: `durable`, i.e. `synchronous:
 * full`) or the fast file without one.
 */
export class HwmFiles {
  constructor(dir, durable) {
    this.main = new HwmSlotWriter(dir, durable, HWM_SLOTS_FILE);
    this.fast = new HwmSlotWriter(dir, false, HWM_FAST_FILE);
  }

  /** after a commit that moved `mark` */
  write(mark) {
    if (mark.takeRenewed()) this.main.write(mark.text());
    else this.fast.write(mark.fastText());
  }

  close() {
    this.main.close();
    this.fast.close();
  }
}
