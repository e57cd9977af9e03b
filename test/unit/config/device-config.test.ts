import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeConfig } from '../../../src/app/config/check-config.js';
import { ConfigError, validateConfig } from '../../../src/app/config/load-config.js';
import { tableSettings } from '../../../src/core/table/table-settings.js';

const dir = mkdtempSync(join(tmpdir(), 'teg-cfg-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const serial = (path = '/dev/ttyUSB0') => ({ type: 'serial', path });
const cfgOf = (table: Record<string, unknown>) => ({ mqtt: { url: 'mqtt://127.0.0.1:1883' }, tables: [{ id: 't1', ...table }] });

function problems(table: Record<string, unknown>): string[] {
  try {
    validateConfig(cfgOf(table));
    return [];
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
}

describe('config: sic bo and keno tables', () => {
  it('sic-bo and keno are valid games with defaults (minBounces 1); card games still validate', () => {
    const c = validateConfig(cfgOf({ game: 'sic-bo', devices: [{ id: 'dice-1', kind: 'dice-sensor', transport: serial() }] }));
    expect(c.tables[0].minBounces).toBe(1);
    expect(tableSettings(c.tables[0])).toMatchObject({ kind: 'sic-bo', minBounces: 1, engine: false, gameId: 'sic-bo' });
    const k = validateConfig(cfgOf({ game: 'keno', betting: 'engine', devices: [{ id: 'b', kind: 'ball-reader', transport: serial() }] }));
    expect(tableSettings(k.tables[0])).toMatchObject({ kind: 'keno', engine: true });
    const b = validateConfig(
      cfgOf({
        game: 'baccarat',
        devices: [
          { id: 's', kind: 'card-shoe', transport: serial() },
          { id: 'f', kind: 'shuffler', transport: serial('/dev/ttyUSB1') },
        ],
      }),
    );
    expect(tableSettings(b.tables[0])).toMatchObject({ kind: 'card', expectedDeckSize: 416 });
  });

  it('an unknown game lists the non-card games too', () => {
    expect(problems({ game: 'roulette', devices: [{ id: 'x', kind: 'card-shoe', transport: serial() }] })[0]).toMatch(
      /tables\[0\]\.game: unknown game "roulette" \(known: baccarat, .*sic-bo, keno\)/,
    );
  });

  it('a sic bo table needs a dice sensor; device kinds must fit the game', () => {
    expect(problems({ game: 'sic-bo', devices: [{ id: 'b', kind: 'ball-reader', transport: serial() }] })).toEqual([
      'tables[0].devices: a sic-bo table needs a dice-sensor device',
      'tables[0].devices[0].kind: a sic-bo table takes dice-sensor devices, not ball-reader',
    ]);
    expect(
      problems({
        game: 'baccarat',
        devices: [
          { id: 's', kind: 'card-shoe', transport: serial() },
          { id: 'd', kind: 'dice-sensor', transport: serial() },
        ],
      }),
    ).toEqual(['tables[0].devices[1].kind: a baccarat table takes card-shoe, rfid-shoe, barcode-scanner, shuffler devices, not dice-sensor']);
  });

  it('HID for barcode scanners and dice sensors, and for any kind through a HID profile', () => {
    expect(problems({ game: 'keno', devices: [{ id: 'b', kind: 'ball-reader', transport: { type: 'hid', vendorId: 1, productId: 2 } }] })).toEqual([
      'tables[0].devices[0].transport.type: a ball-reader has no built-in HID protocol (hid is for barcode-scanner and dice-sensor, or any kind with a HID profile: input hid-report or hid-keyboard)',
    ]);
    const hidBalls = join(dir, 'hid-balls.yaml');
    writeFileSync(
      hidBalls,
      'name: hid-balls\ntalker: BALL\ninput: hid-report\nreport:\n  length: 4\n  seq: { offset: 0 }\n  checksum: { algorithm: xor8, offset: 3, from: 0, to: 3 }\n  type: { offset: 1, map: { "1": BALL, "2": START, "3": END } }\n  fields: { ball: 2 }\n',
    );
    expect(
      problems({ game: 'keno', devices: [{ id: 'b', kind: 'ball-reader', profile: hidBalls, transport: { type: 'hid', vendorId: 1, productId: 2 } }] }),
    ).toEqual([]);
    expect(
      problems({ game: 'keno', devices: [{ id: 'b', kind: 'ball-reader', profile: 'star-keno', transport: { type: 'hid', vendorId: 1, productId: 2 } }] }),
    ).toEqual([
      'tables[0].devices[0].profile: profile "star-keno" reads a serial line (input bytes), a ball-reader on transport hid delivers HID reports: use a profile with input hid-report or hid-keyboard',
    ]);
    expect(
      problems({
        game: 'sic-bo',
        devices: [{ id: 'd', kind: 'dice-sensor', transport: { type: 'hid', vendorId: '0x0c2e', productId: 'b61', serialNumber: 'A1' } }],
      }),
    ).toEqual([]);
  });
});

describe('config: RFID deck registry', () => {
  const good = join(dir, 'decks.csv');
  writeFileSync(good, 'uid,card,deck\nE004000000000001,AS,1\n');
  const bad = join(dir, 'bad.csv');
  writeFileSync(bad, 'uid,card,deck\nE004000000000001,ZZ,1\n');
  const rfid = (extra: Record<string, unknown>) => ({ game: 'baccarat', devices: [{ id: 'rfid-1', kind: 'rfid-shoe', transport: serial(), ...extra }] });

  it('a readable registry and dedupeMs are accepted', () => {
    expect(problems(rfid({ deckRegistry: good, dedupeMs: 800 }))).toEqual([]);
  });

  it('an unreadable registry file is a config error naming the key', () => {
    const p = problems(rfid({ deckRegistry: join(dir, 'nope.csv') }));
    expect(p).toHaveLength(1);
    expect(p[0]).toMatch(/^tables\[0\]\.devices\[0\]\.deckRegistry: cannot read deck registry: ENOENT/);
  });

  it('a malformed registry names the key, the file and the line', () => {
    expect(problems(rfid({ deckRegistry: bad }))[0]).toBe(`tables[0].devices[0].deckRegistry: ${bad} line 2: "ZZ" is not a card code (e.g. AS, TD, 7H)`);
  });

  it('required for a real RFID shoe, optional for a simulated one; only RFID shoes take it', () => {
    expect(problems(rfid({}))).toEqual(['tables[0].devices[0].deckRegistry: required for an rfid-shoe (a CSV file uid,card,deck)']);
    expect(problems({ game: 'baccarat', devices: [{ id: 'rfid-1', kind: 'rfid-shoe', transport: { type: 'simulator' } }] })).toEqual([]);
    expect(problems({ game: 'baccarat', devices: [{ id: 's', kind: 'card-shoe', transport: serial(), deckRegistry: good, dedupeMs: 5 }] })).toEqual([
      'tables[0].devices[0].deckRegistry: only an rfid-shoe has a deck registry',
      'tables[0].devices[0].dedupeMs: only an rfid-shoe and a barcode-scanner de-duplicate reads',
    ]);
  });

  it('unknown keys are still errors (strict objects)', () => {
    expect(problems(rfid({ deckRegistry: good, dedupe: 5 }))[0]).toBe('tables[0].devices[0].dedupe: unknown key; did you mean dedupeMs?');
  });
});

describe('config: barcode mapping', () => {
  const scanner = (barcode: unknown) => ({
    game: 'baccarat',
    devices: [
      { id: 's', kind: 'card-shoe', transport: serial() },
      { id: 'scan-1', kind: 'barcode-scanner', transport: { type: 'hid', vendorId: 1, productId: 2 }, barcode },
    ],
  });

  it('a bad regex is a config error naming the key', () => {
    const p = problems(scanner({ pattern: '^(?<card>[A-Z' }));
    expect(p).toHaveLength(1);
    expect(p[0]).toMatch(/^tables\[0\]\.devices\[1\]\.barcode\.pattern: pattern-invalid: not a valid regular expression: /);
  });

  it('a regex without the named group card is refused', () => {
    expect(problems(scanner({ pattern: '^([A2-9TJQK][SHDC])$' }))[0]).toMatch(/barcode\.pattern: the regex needs a named group "card"/);
  });

  it('lookup table values must be cards; a good mapping passes; barcode only on scanners', () => {
    expect(problems(scanner({ table: { '1001': 'AS', '1002': 'XX' } }))).toEqual([
      'tables[0].devices[1].barcode.table.1002: "XX" is not a card code (e.g. AS, TD, 7H)',
    ]);
    expect(problems(scanner({ pattern: '^C-(?<card>..)$', table: { '1001': 'as' } }))).toEqual([]);
    expect(problems({ game: 'baccarat', devices: [{ id: 's', kind: 'card-shoe', transport: serial(), barcode: {} }] })).toEqual([
      'tables[0].devices[0].barcode: only a barcode-scanner has a barcode mapping',
    ]);
  });
});

describe("config: the barcode scanner's role (config.md v1.1) and profiles on every kind", () => {
  const config = (table: Record<string, unknown>) => validateConfig(cfgOf(table)).tables[0];
  const scan = (extra: Record<string, unknown> = {}) => ({ id: 'scan-1', kind: 'barcode-scanner', transport: serial('/dev/ttyUSB1'), ...extra });

  it('default: rescan beside a shoe, dealer when the scanner is the only card reader; an explicit role is kept', () => {
    expect(config({ game: 'baccarat', devices: [{ id: 's', kind: 'card-shoe', transport: serial() }, scan()] }).devices[1].role).toBe('rescan');
    expect(config({ game: 'baccarat', devices: [{ id: 'r', kind: 'rfid-shoe', transport: { type: 'simulator' } }, scan()] }).devices[1].role).toBe('rescan');
    expect(config({ game: 'baccarat', devices: [scan()] }).devices[0].role).toBe('dealer');
    expect(config({ game: 'dragon-tiger', devices: [scan(), { id: 'shuf', kind: 'shuffler', transport: serial() }] }).devices[0].role).toBe('dealer');
    expect(config({ game: 'baccarat', devices: [{ id: 's', kind: 'card-shoe', transport: serial() }, scan({ role: 'dealer' })] }).devices[1].role).toBe(
      'dealer',
    );
  });

  it('dedupeMs on a dealing scanner is accepted; on a rescan scanner, and role on other kinds, are refused', () => {
    expect(config({ game: 'baccarat', devices: [scan({ dedupeMs: 800 })] }).devices[0].dedupeMs).toBe(800);
    expect(problems({ game: 'baccarat', devices: [{ id: 's', kind: 'card-shoe', transport: serial() }, scan({ dedupeMs: 800 })] })).toEqual([
      'tables[0].devices[1].dedupeMs: a rescan scanner does not de-duplicate (only role dealer does)',
    ]);
    expect(problems({ game: 'baccarat', devices: [{ id: 's', kind: 'card-shoe', transport: serial(), role: 'dealer' }] })).toEqual([
      'tables[0].devices[0].role: only a barcode-scanner has a role (dealer or rescan)',
    ]);
    expect(problems({ game: 'baccarat', devices: [scan({ role: 'boss' })] })[0]).toMatch(/^tables\[0\]\.devices\[0\]\.role: /);
  });

  it("check-config names each device's profile and the scanner's resolved role", () => {
    const cfg = validateConfig(cfgOf({ game: 'baccarat', devices: [scan({ profile: 'serial-scanner' })] }));
    expect(describeConfig(cfg)).toContain('    scan-1: barcode-scanner via serial /dev/ttyUSB1 @9600, profile serial-scanner, role dealer');
  });

  it('a scanner and an RFID shoe may have profiles, on a serial line or a simulator', () => {
    expect(problems({ game: 'baccarat', devices: [scan({ profile: 'serial-scanner' })] })).toEqual([]);
    expect(problems({ game: 'baccarat', devices: [scan({ profile: 'serial-scanner', transport: { type: 'simulator' } })] })).toEqual([]);
    expect(
      problems({ game: 'sic-bo', devices: [{ id: 'd', kind: 'dice-sensor', transport: { type: 'simulator', protocol: 'hid' }, profile: 'modbus-dice' }] }),
    ).toEqual(['tables[0].devices[0].profile: a simulated dice sensor speaks either its profile or HID reports (transport.protocol: hid), not both']);
    expect(problems({ game: 'sic-bo', devices: [{ id: 'd', kind: 'dice-sensor', transport: { type: 'simulator' }, profile: 'modbus-dice' }] })).toEqual([]);
    expect(problems({ game: 'baccarat', devices: [{ id: 'r', kind: 'rfid-shoe', transport: { type: 'simulator' }, profile: 'stx-etx-shoe' }] })).toEqual([
      'tables[0].devices[0].profile: profile "stx-etx-shoe" speaks SHOE, a rfid-shoe needs RFID',
    ]);
  });

  it('a HID profile on a HID transport: keyboard reports for a scanner, vendor reports for a dice sensor; the input must fit the transport', () => {
    const hid = { type: 'hid', vendorId: 1, productId: 2 };
    const key = 'tables[0].devices[0].profile: ';
    expect(problems({ game: 'baccarat', devices: [scan({ profile: 'wedge-scanner', transport: hid })] })).toEqual([]);
    expect(problems({ game: 'sic-bo', devices: [{ id: 'd', kind: 'dice-sensor', transport: hid, profile: 'hid-dice-sensor' }] })).toEqual([]);
    // simulators write whatever their profile reads
    expect(problems({ game: 'baccarat', devices: [scan({ profile: 'wedge-scanner', transport: { type: 'simulator' } })] })).toEqual([]);
    expect(problems({ game: 'sic-bo', devices: [{ id: 'd', kind: 'dice-sensor', transport: { type: 'simulator' }, profile: 'hid-dice-sensor' }] })).toEqual([]);
    // a bytes profile on HID, a HID profile on a serial line, the other kind's HID input
    expect(problems({ game: 'baccarat', devices: [scan({ profile: 'serial-scanner', transport: hid })] })).toEqual([
      `${key}profile "serial-scanner" reads input bytes, a barcode-scanner on transport hid delivers hid-keyboard reports: use a profile with input hid-keyboard (shipped: wedge-scanner)`,
    ]);
    expect(problems({ game: 'baccarat', devices: [scan({ profile: 'wedge-scanner' })] })).toEqual([
      `${key}profile "wedge-scanner" reads input hid-keyboard (HID reports), a serial line delivers bytes: use transport type hid, or a profile with input bytes`,
    ]);
    expect(problems({ game: 'sic-bo', devices: [{ id: 'd', kind: 'dice-sensor', transport: serial(), profile: 'hid-dice-sensor' }] })).toEqual([
      `${key}profile "hid-dice-sensor" reads input hid-report (HID reports), a serial line delivers bytes: use transport type hid, or a profile with input bytes`,
    ]);
    expect(problems({ game: 'sic-bo', devices: [{ id: 'd', kind: 'dice-sensor', transport: hid, profile: 'modbus-dice' }] })).toEqual([
      `${key}profile "modbus-dice" reads input bytes, a dice-sensor on transport hid delivers hid-report reports: use a profile with input hid-report (shipped: hid-dice-sensor)`,
    ]);
    // the talker is still checked first
    expect(problems({ game: 'baccarat', devices: [scan({ profile: 'hid-dice-sensor', transport: hid })] })).toEqual([
      `${key}profile "hid-dice-sensor" speaks DICE, a barcode-scanner needs SHOE`,
    ]);
  });
});
