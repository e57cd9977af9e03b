import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfigFile, parseConfigText, validateConfig } from '../../../src/app/config/load-config.js';

const device = { id: 'shoe-1', kind: 'card-shoe', transport: { type: 'serial', path: '/dev/ttyUSB0' } };
const problems = (raw: unknown): string[] => {
  try {
    validateConfig(raw, 'test');
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  return [];
};

describe('the configuration file', () => {
  it('accepts the spec shape and fills the defaults', () => {
    const cfg = parseConfigText(
      `
mqtt:
  url: embedded
embeddedBroker: { host: 127.0.0.1, port: 1883 }
dataDir: ./data
tables:
  - id: bac-01
    game: baccarat
    decks: 8
    betting: none
    devices:
      - id: shoe-1
        kind: card-shoe
        transport: { type: serial, path: /dev/ttyUSB0, baudRate: 9600 }
`,
      'inline.yaml',
    );
    expect(cfg.mqtt.topicPrefix).toBe('casino');
    expect(cfg.mqtt.clientIdPrefix).toBe('tablegw-');
    expect(cfg.tables[0].devices[0].staleAfterMs).toBe(3000);
    expect(cfg.tables[0].rescanTimeoutMs).toBe(20000);
    expect(cfg.journal.synchronous).toBe('full');
  });

  it('names the key path and the reason of every problem', () => {
    expect(problems({ tables: [{ id: 'bac-01', game: 'baccarat', devices: [device], colour: 'red' }] })).toEqual([
      expect.stringMatching(/^tables\[0\]\.colour: unknown key \(valid here: id, game, /),
    ]);
    const p = problems({ tables: [{ id: 'BAC 01', game: 'baccarat', devices: [{ ...device, transport: { type: 'serial', baudRate: 'fast' } }] }] });
    expect(p.some((x) => x.startsWith('tables[0].id:'))).toBe(true);
    expect(p.some((x) => x.startsWith('tables[0].devices[0].transport.path:'))).toBe(true);
    expect(p.some((x) => x.startsWith('tables[0].devices[0].transport.baudRate:'))).toBe(true);
    expect(problems({ tables: [] })).toEqual([expect.stringMatching(/^tables:/)]);
  });

  it('checks games, engines, duplicate ids and game options', () => {
    expect(problems({ tables: [{ id: 't', game: 'roulette', devices: [device] }] })[0]).toMatch(/^tables\[0\]\.game: unknown game "roulette"/);
    expect(problems({ tables: [{ id: 't', game: 'blackjack', betting: 'none', devices: [device] }] })[0]).toMatch(
      /^tables\[0\]\.betting: blackjack needs player decisions/,
    );
    expect(
      problems({
        tables: [
          { id: 't', game: 'baccarat', devices: [device] },
          { id: 't', game: 'baccarat', devices: [device, device] },
        ],
      }),
    ).toEqual(
      expect.arrayContaining([expect.stringMatching(/duplicate table id "t"/), expect.stringMatching(/tables\[1\]\.devices\[1\]\.id: duplicate device id/)]),
    );
    expect(problems({ tables: [{ id: 't', game: 'blackjack', betting: 'engine', gameOptions: { seats: 9 }, devices: [device] }] })[0]).toMatch(
      /^tables\[0\]\.gameOptions: .*seats/,
    );
  });

  it("refuses table ids that are the gateway's own names (its info topic level, its client id)", () => {
    for (const id of ['gateway', 'gateway-pit-3', 'gateway-']) {
      expect(problems({ tables: [{ id, game: 'baccarat', devices: [device] }] }), id).toEqual([
        expect.stringMatching(/^tables\[0\]\.id: is reserved: `gateway`/),
      ]);
    }
    for (const id of ['gateways', 'my-gateway', 'gate-01']) expect(problems({ tables: [{ id, game: 'baccarat', devices: [device] }] }), id).toEqual([]);
  });

  it('a file that is missing or not YAML is a ConfigError naming the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    expect(() => loadConfigFile(join(dir, 'nope.yaml'))).toThrow(/cannot read file/);
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'tables: [ {');
    expect(() => loadConfigFile(bad)).toThrow(ConfigError);
    expect(() => loadConfigFile(bad)).toThrow(/bad\.yaml/);
  });

  it('every example config in config/ is valid', async () => {
    const { readdirSync } = await import('node:fs');
    const root = join(import.meta.dirname, '..', '..', '..', 'config');
    const files = [join(root, 'default.yaml'), ...readdirSync(join(root, 'examples')).map((f) => join(root, 'examples', f))];
    for (const f of files) expect(() => loadConfigFile(f), f).not.toThrow();
  });
});
