/**
 * The layers, checked: the pure table machine (src/core/table/, src/core/games/, src/core/vocabulary/) imports only
 * itself and the pure vocabulary named below, never a driver, the MQTT link, the gateway, the
 * store, a simulator or Node's I/O; the drivers never reach up into the gateway or the simulators;
 * the gateway takes the simulators from its caller and imports nothing from simulators/.
 * A layer violation fails here, in CI, rather than in review (docs/ARCHITECTURE.md, Layers).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

interface ImportStatement {
  /** the file that imports, relative to the repo root */
  readonly file: string;
  /** the specifier as written */
  readonly specifier: string;
  /** a relative specifier resolved to a repo path (`src/core/vocabulary/card.ts`); null for a package or `node:` module */
  readonly target: string | null;
  /** `import type` / `export type`: erased when compiled, no dependency at run time */
  readonly typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(repoRoot, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|mts)$/.test(entry.name)) out.push(path);
  }
  return out;
}

const STATIC_IMPORT = /(?:^|\n)\s*(import|export)\s+(type\s+)?[^'";]*?\bfrom\s*['"]([^'"]+)['"]/g;
const SIDE_EFFECT_IMPORT = /(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g;
const DYNAMIC_IMPORT = /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g;

function importsOf(file: string): ImportStatement[] {
  const text = readFileSync(join(repoRoot, file), 'utf8');
  const statement = (specifier: string, typeOnly: boolean): ImportStatement => ({
    file,
    specifier,
    typeOnly,
    target: specifier.startsWith('.') ? relative(repoRoot, resolve(repoRoot, dirname(file), specifier)).replace(/\.js$/, '.ts') : null,
  });
  return [
    ...[...text.matchAll(STATIC_IMPORT)].map((m) => statement(m[3], m[2] !== undefined)),
    ...[...text.matchAll(SIDE_EFFECT_IMPORT)].map((m) => statement(m[1], false)),
    ...[...text.matchAll(DYNAMIC_IMPORT)].map((m) => statement(m[1], false)),
  ];
}

/** the pure table machine: the step functions, the game modules and the domain they share */
const MACHINE_DIRS = ['src/core'];

/**
 * Files outside the machine's folders that the machine may import: none. The published-message
 * vocabulary (src/core/vocabulary/messages.ts, src/core/vocabulary/topics.ts) is the machine's output contract and
 * lives in src/core/vocabulary/ with the frames and requests it takes in.
 */
const MACHINE_MAY_IMPORT: string[] = [];

/**
 * Files the machine may import with `import type` only: the table settings are derived from the
 * shape of a table's config (`src/core/table/table-settings.ts`); a type-only import is erased when
 * compiled, so the machine never loads the config loader or its schema at run time.
 */
const MACHINE_MAY_IMPORT_TYPES_OF = ['src/app/config/schema.ts'];

/** packages the machine may import */
const MACHINE_PACKAGES = ['zod'];

/**
 * `node:` modules the machine's folders may import, by file: the seeded and random generators of
 * src/core/vocabulary/rng.ts (used by the simulators and `tablegw simulate`, never by a step: the machine
 * takes no randomness, its ids come from counters in the state).
 */
const NODE_MODULES_BY_FILE: Record<string, readonly string[]> = { 'src/core/vocabulary/rng.ts': ['node:crypto'] };

/** the I/O side: never imported by the machine (but for the named vocabulary files above) */
const NEVER_IN_THE_MACHINE = ['drivers/', 'src/adapters/mqtt/', 'src/runtime/', 'src/adapters/store/', 'simulators/'];

function inMachine(path: string): boolean {
  return MACHINE_DIRS.some((dir) => path.startsWith(`${dir}/`));
}

function machineViolation(s: ImportStatement): string | null {
  const at = `${s.file} imports '${s.specifier}'`;
  if (s.target === null) {
    if (s.specifier.startsWith('node:')) return (NODE_MODULES_BY_FILE[s.file] ?? []).includes(s.specifier) ? null : `${at}: a Node module`;
    return MACHINE_PACKAGES.includes(s.specifier) ? null : `${at}: a package the machine does not use`;
  }
  if (MACHINE_MAY_IMPORT.includes(s.target)) return null;
  if (NEVER_IN_THE_MACHINE.some((p) => s.target?.startsWith(p))) return `${at}: the I/O side of the gateway`;
  if (inMachine(s.target)) return null;
  if (MACHINE_MAY_IMPORT_TYPES_OF.includes(s.target)) return s.typeOnly ? null : `${at}: only \`import type\` is allowed from it`;
  return `${at}: not part of the machine (allowed: ${[...MACHINE_DIRS.map((d) => `${d}/`), ...MACHINE_MAY_IMPORT].join(', ')})`;
}

describe('layers', () => {
  const machineFiles = [...MACHINE_DIRS.flatMap(sourceFiles), ...MACHINE_MAY_IMPORT];

  it('finds the import statements it checks', () => {
    const imports = machineFiles.flatMap(importsOf);
    expect(imports.length).toBeGreaterThan(100);
    expect(imports.some((s) => s.file === 'src/core/table/table-settings.ts' && s.target === 'src/app/config/schema.ts' && s.typeOnly)).toBe(true);
  });

  it('the table machine imports only itself, its domain and the pure vocabulary it publishes', () => {
    const violations = machineFiles.flatMap(importsOf).map(machineViolation).filter((v) => v !== null);
    expect(violations).toEqual([]);
  });

  it('the drivers import nothing from the gateway or the simulators', () => {
    const violations = sourceFiles('drivers')
      .flatMap(importsOf)
      .filter((s) => (s.target?.startsWith('src/runtime/') && s.target !== 'src/runtime/latency-probe.ts') || s.target?.startsWith('simulators/'))
      .map((s) => `${s.file} imports '${s.specifier}'`);
    expect(violations).toEqual([]);
  });

  it('the gateway imports nothing from the simulators (type imports included): the caller passes them', () => {
    const imports = [...sourceFiles('src/runtime'), 'src/app/gateway.ts'].flatMap(importsOf);
    expect(imports.some((s) => s.file === 'src/app/gateway.ts' && s.target === 'src/runtime/simulators.ts')).toBe(true);
    const violations = imports.filter((s) => s.target?.startsWith('simulators/')).map((s) => `${s.file} imports '${s.specifier}'`);
    expect(violations).toEqual([]);
  });

  it('every allowed exception is a file that exists', () => {
    for (const file of [...MACHINE_MAY_IMPORT, ...MACHINE_MAY_IMPORT_TYPES_OF, ...Object.keys(NODE_MODULES_BY_FILE)]) {
      expect(() => readFileSync(join(repoRoot, file)), file).not.toThrow();
    }
  });
});

describe('docs/ARCHITECTURE.md', () => {
  const text = readFileSync(join(repoRoot, 'docs/ARCHITECTURE.md'), 'utf8');
  const paths = [...new Set([...text.matchAll(/`((?:src|drivers|simulators|test|dev)\/[^`\s]*)`/g)].map((m) => m[1]))];

  it('names the paths it describes', () => {
    expect(paths.length).toBeGreaterThan(20);
    expect(paths).toContain('src/runtime/device-drivers.ts');
  });

  it('every backticked path it names exists in the repo', () => {
    const missing = paths.filter((p) => !existsSync(join(repoRoot, p)));
    expect(missing).toEqual([]);
  });
});
