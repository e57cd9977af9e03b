/** Loads and validates a configuration file (YAML or JSON). Errors name the key path and why. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

/** the YAML parser, loaded on the first YAML file (a JSON config never loads it) */
function parseYaml(text: string): unknown {
  return (createRequire(import.meta.url)('yaml') as typeof Yaml).parse(text);
}
import type * as z from 'zod';
import { issueLines, pathText, strictKeyErrors } from '../../core/vocabulary/strict-keys.js';
import { cardGame, GAME_IDS } from '../../core/games/registry.js';
import { configSchema, type GatewayConfig } from '../../core/vocabulary/config-schema.js';
import { NON_CARD_GAME_IDS, nonCardGame } from '../../core/games/non-card-games.js';
import { checkTableDevices } from './device-checks.js';
import { checkDeviceProfiles } from './device-profiles.js';
import { didYouMean } from './near-names.js';
import { DEVICE_KINDS } from '../../core/vocabulary/device-kinds.js';

export class ConfigError extends Error {
  constructor(
    readonly problems: string[],
    source: string,
  ) {
    super(`invalid configuration ${source}:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

/** the value at a zod issue's path in the parsed file */
function valueAt(raw: unknown, path: PropertyKey[]): unknown {
  let v = raw;
  for (const p of path) v = v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[p] : undefined;
  return v;
}

/** the lines of one issue: a device kind not in the catalogue names the nearest kinds (near-names.ts); an unknown key its closest valid key (strict-keys.ts) */
function issueText(i: z.core.$ZodIssue, raw: unknown): string[] {
  if (i.code === 'invalid_value' && i.path.length === 5 && i.path[0] === 'tables' && i.path[2] === 'devices' && i.path[4] === 'kind') {
    const kind = valueAt(raw, i.path);
    if (typeof kind === 'string')
      return [`${pathText(i.path)}: unknown device kind "${kind}"${didYouMean(kind, DEVICE_KINDS)} (known: ${DEVICE_KINDS.join(', ')})`];
  }
  return issueLines([i]);
}

/** Validates a parsed config object; throws ConfigError listing every problem. */
export function validateConfig(raw: unknown, source = '(inline)'): GatewayConfig {
  // parsed once: without zod's compiled fast path, whose code generation costs more than it saves here (cold start)
  // every unknown key is reported at its own path with the closest valid key (strict-keys.ts)
  const r = configSchema.safeParse(raw, { jitless: true, error: strictKeyErrors });
  if (!r.success)
    throw new ConfigError(
      r.error.issues.flatMap((i) => issueText(i, raw)),
      source,
    );
  const cfg = r.data;
  const problems: string[] = [];
  const tableIds = new Set<string>();
  cfg.tables.forEach((t, ti) => {
    if (tableIds.has(t.id)) problems.push(`tables[${ti}].id: duplicate table id "${t.id}"`);
    tableIds.add(t.id);
    const game = cardGame(t.game);
    if (!game && !nonCardGame(t.game))
      problems.push(
        `tables[${ti}].game: unknown game "${t.game}"${didYouMean(t.game, [...GAME_IDS, ...NON_CARD_GAME_IDS])} (known: ${[...GAME_IDS, ...NON_CARD_GAME_IDS].join(', ')})`,
      );
    else if (game?.defaults.needsEngine && t.betting !== 'engine')
      problems.push(`tables[${ti}].betting: ${t.game} needs player decisions, so it requires "engine"`);
    if (game) {
      // game options are checked the way the table will use them: a bad one fails here, not at the first round
      try {
        game.newRound({ engine: t.betting === 'engine', options: t.gameOptions });
      } catch (e) {
        problems.push(`tables[${ti}].gameOptions: ${(e as Error).message}`);
      }
    }
    if (game || nonCardGame(t.game)) problems.push(...checkTableDevices(t, ti, !!game));
    t.devices.forEach((d, di) => {
      if (d.transport.type !== 'simulator' || d.transport.engine !== 'external') return;
      const at = `tables[${ti}].devices[${di}].transport.engine`;
      if (t.betting !== 'engine') problems.push(`${at}: "external" leaves the betting requests to an engine of your own: the table needs betting: engine`);
      else if (t.game === 'blackjack' || t.game === 'holdem')
        problems.push(`${at}: "external" is not for ${t.game}: its player decisions change the deal, which the virtual dealer cannot follow`);
    });
    const devIds = new Set<string>();
    t.devices.forEach((d, di) => {
      if (devIds.has(d.id)) problems.push(`tables[${ti}].devices[${di}].id: duplicate device id "${d.id}"`);
      devIds.add(d.id);
    });
    problems.push(...checkDeviceProfiles(t.devices, (di) => `tables[${ti}].devices[${di}]`));
  });
  // a backup's manifest is signed with the gateway's key (docs/OPERATIONS.md "Backups")
  if (cfg.backup && !cfg.signing)
    problems.push("backup: scheduled backups are signed with the gateway's key: configure signing.privateKeyFile too (tablegw keygen --out <name>)");
  if (problems.length) throw new ConfigError(problems, source);
  return cfg;
}

export function parseConfigText(text: string, source: string): GatewayConfig {
  let raw: unknown;
  try {
    raw = source.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch (e) {
    throw new ConfigError([`cannot parse: ${(e as Error).message}`], source);
  }
  return validateConfig(raw, source);
}

export function loadConfigFile(path: string): GatewayConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ConfigError([`cannot read file: ${(e as Error).message}`], path);
  }
  return parseConfigText(text, path);
}
