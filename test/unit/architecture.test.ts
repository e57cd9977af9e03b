/**
 * The layers, checked (docs/ARCHITECTURE.md, Layers): every folder is a layer and every import
 * points down. `src/core/` is pure (its own folders in the order vocabulary <- games <- table, no
 * Node module, no package but zod); `drivers/` import only the core; the runtime (`src/runtime/`)
 * the core and the drivers; the simulators and the adapters (`src/adapters/`) those below them
 * but never each other; `src/app/` anything of the product. Nothing shipped imports `dev/` or
 * `test/`, the package's `files` carry no `dev/`, and the product has no import circle.
 * A layer violation fails here, in CI, rather than in review.
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

/** the product's layers, lowest first; a file may import its own layer and those it lists */
const LAYERS: ReadonlyArray<{ name: string; dirs: readonly string[]; mayImport: readonly string[] }> = [
  { name: 'core/vocabulary', dirs: ['src/core/vocabulary'], mayImport: [] },
  { name: 'core/games', dirs: ['src/core/games'], mayImport: ['core/vocabulary'] },
  { name: 'core/table', dirs: ['src/core/table'], mayImport: ['core/vocabulary', 'core/games'] },
  { name: 'drivers', dirs: ['drivers'], mayImport: ['core/vocabulary', 'core/games', 'core/table'] },
  { name: 'runtime', dirs: ['src/runtime'], mayImport: ['core/vocabulary', 'core/games', 'core/table', 'drivers'] },
  { name: 'simulators', dirs: ['simulators'], mayImport: ['core/vocabulary', 'core/games', 'core/table', 'drivers', 'runtime'] },
  { name: 'adapters', dirs: ['src/adapters'], mayImport: ['core/vocabulary', 'core/games', 'core/table', 'drivers', 'runtime'] },
  { name: 'app', dirs: ['src/app'], mayImport: ['core/vocabulary', 'core/games', 'core/table', 'drivers', 'runtime', 'simulators', 'adapters'] },
];

/** packages the pure core may import */
const CORE_PACKAGES = ['zod'];

function layerOf(path: string): string | null {
  return LAYERS.find((l) => l.dirs.some((d) => path.startsWith(`${d}/`)))?.name ?? null;
}

const PRODUCT_FILES = LAYERS.flatMap((l) => l.dirs.flatMap(sourceFiles));

function layerViolation(s: ImportStatement): string | null {
  const from = layerOf(s.file);
  if (from === null) return null;
  const at = `${s.file} imports '${s.specifier}'`;
  if (s.target === null) {
    if (!from.startsWith('core/')) return null;
    if (s.specifier.startsWith('node:')) return `${at}: a Node module in the pure core`;
    return CORE_PACKAGES.includes(s.specifier) ? null : `${at}: a package the pure core does not use`;
  }
  if (s.target.startsWith('dev/') || s.target.startsWith('test/')) return `${at}: the product never imports dev/ or test/`;
  const to = layerOf(s.target);
  if (to === null) return `${at}: outside the product's layers`;
  if (to === from) return null;
  const allowed = LAYERS.find((l) => l.name === from)!.mayImport;
  return allowed.includes(to) ? null : `${at}: ${from} may not import ${to} (it may import ${allowed.join(', ') || 'only itself'})`;
}

/** import circles among `files` (type-only imports included), each as the files on it */
function importCircles(files: readonly string[]): string[][] {
  const edges = new Map<string, string[]>();
  for (const f of files)
    edges.set(
      f,
      importsOf(f)
        .map((s) => s.target)
        .filter((t): t is string => t !== null && files.includes(t)),
    );
  // Tarjan's strongly connected components
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (edges.get(v) ?? []).includes(v)) circles.push(component.sort());
    }
  };
  for (const f of files) if (!idx.has(f)) visit(f);
  return circles;
}

describe('layers', () => {
  it('finds the import statements it checks in every layer', () => {
    const imports = PRODUCT_FILES.flatMap(importsOf);
    expect(imports.length).toBeGreaterThan(500);
    for (const layer of LAYERS)
      expect(
        imports.some((s) => layerOf(s.file) === layer.name),
        layer.name,
      ).toBe(true);
  });

  it('flags an import that points up, a Node module in the core and an import of dev/', () => {
    const stmt = (file: string, specifier: string): ImportStatement => ({
      file,
      specifier,
      typeOnly: false,
      target: specifier.startsWith('.') ? relative(repoRoot, resolve(repoRoot, dirname(file), specifier)).replace(/\.js$/, '.ts') : null,
    });
    expect(layerViolation(stmt('src/core/table/x.ts', '../../app/config/load-config.js'))).toMatch(/core\/table may not import app/);
    expect(layerViolation(stmt('drivers/x.ts', '../src/runtime/log.js'))).toMatch(/drivers may not import runtime/);
    expect(layerViolation(stmt('src/core/games/x.ts', 'node:fs'))).toMatch(/Node module/);
    expect(layerViolation(stmt('src/app/cli/x.ts', '../../../dev/rig/pty-pair.js'))).toMatch(/never imports dev/);
    expect(layerViolation(stmt('src/adapters/mqtt/x.ts', '../../../simulators/index.js'))).toMatch(/adapters may not import simulators/);
    expect(layerViolation(stmt('src/app/x.ts', '../adapters/mqtt/table-link.js'))).toBeNull();
    expect(importCircles(['src/core/table/types.ts', 'src/core/table/health.ts'])).toEqual([]);
  });

  it('every import of the product points down its layers', () => {
    const violations = PRODUCT_FILES.flatMap(importsOf)
      .map(layerViolation)
      .filter((v) => v !== null);
    expect(violations).toEqual([]);
  });

  it('the product has no import circle', () => {
    expect(importCircles(PRODUCT_FILES)).toEqual([]);
  });

  it('every product file belongs to a layer, and nothing else sits beside the layers in src/', () => {
    const stray = sourceFiles('src').filter((f) => layerOf(f) === null);
    expect(stray).toEqual([]);
  });

  it('the published package carries no dev/ or test/', () => {
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { files: string[] };
    expect(pkg.files.filter((f) => /^(dev|test|bench)(\/|$)/.test(f))).toEqual([]);
  });
});

describe('docs/ARCHITECTURE.md', () => {
  const text = readFileSync(join(repoRoot, 'docs/ARCHITECTURE.md'), 'utf8');
  const paths = [...new Set([...text.matchAll(/`((?:src|drivers|simulators|test|dev)\/[^`\s]*)`/g)].map((m) => m[1]))];

  it('names the paths it describes', () => {
    expect(paths.length).toBeGreaterThan(20);
    expect(paths).toContain('src/app/device-drivers.ts');
  });

  it('every backticked path it names exists in the repo', () => {
    const missing = paths.filter((p) => !existsSync(join(repoRoot, p)));
    expect(missing).toEqual([]);
  });
});
