#!/usr/bin/env node
// `npm run release`: the installable release of the gateway (docs/INSTALL.md, "Install from the
// package"; docs/RELEASING.md). Builds dist/ (scripts/build.mjs), lays out the installed tree in
// release/tablegw_<version>_amd64/ and packs it twice:
//   release/tablegw_<version>_amd64.deb     a Debian package built with dpkg-deb
//   release/tablegw_<version>_amd64.tar.gz  the same tree (without DEBIAN/), for a manual install
// The tree carries everything the gateway runs on, so a table PC needs neither build tools nor the
// internet: /opt/tablegw/dist (the bundle), /opt/tablegw/node_modules (the production dependencies
// with their native modules already built: better-sqlite3, the serialport and node-hid bindings),
// and /opt/tablegw/node (the Node.js runtime those modules were built for; why it is bundled:
// docs/INSTALL.md). It must be run with the Node that installed node_modules (`npm ci`): that is
// the runtime it bundles, and the native modules are checked to load with it.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ROOT } from './bundle.mjs';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const VERSION = pkg.version;
const NAME = `tablegw_${VERSION}_amd64`;
const OUT = join(ROOT, 'release');
const STAGE = join(OUT, NAME);
const OPT = join(STAGE, 'opt', 'tablegw');

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8', stdio: opts.capture ? 'pipe' : 'inherit', ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status})${opts.capture ? `:\n${r.stdout}\n${r.stderr}` : ''}`);
  return r.stdout ?? '';
}

if (process.arch !== 'x64' || process.platform !== 'linux') throw new Error(`the package is for linux amd64; this is ${process.platform} ${process.arch}`);

// ---- the CHANGELOG entry of this version (a release without one is refused: docs/RELEASING.md)
const changelog = readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8');
const entry = changelog.match(new RegExp(`^## ${VERSION.replace(/\./g, '\\.')} \\((\\d{4}-\\d{2}-\\d{2})\\)\\n([\\s\\S]*?)(?=^## |(?![\\s\\S]))`, 'm'));
if (!entry) throw new Error(`CHANGELOG.md has no "## ${VERSION} (YYYY-MM-DD)" entry: write it first`);
const releaseDate = new Date(`${entry[1]}T00:00:00Z`);

// ---- 1. the bundle
run(process.execPath, [join(ROOT, 'scripts', 'build.mjs')]);
const { commit } = JSON.parse(readFileSync(join(ROOT, 'dist', 'src', 'build-info.json'), 'utf8'));

rmSync(STAGE, { recursive: true, force: true });
mkdirSync(OPT, { recursive: true });

// ---- 2. the program: /opt/tablegw
cpSync(join(ROOT, 'dist'), join(OPT, 'dist'), { recursive: true });
for (const d of ['config', 'docs', 'drivers/profiles/shipped']) cpSync(join(ROOT, d), join(OPT, d), { recursive: true });
cpSync(join(ROOT, 'deploy'), join(OPT, 'deploy'), { recursive: true });
for (const f of ['README.md', 'CHANGELOG.md']) copyFileSync(join(ROOT, f), join(OPT, f));
// the version is read from package.json at run time (src/runtime/paths.ts); only what a run needs
const { name, version, description, license, type, engines, dependencies } = pkg;
writeFileSync(join(OPT, 'package.json'), `${JSON.stringify({ name, version, description, license, type, private: true, engines, dependencies }, null, 2)}\n`);

// ---- 3. the production dependencies, as `npm ci` built them here (package-lock.json: every
// package not marked dev), without what only a build, another OS or another CPU needs
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
const prod = Object.entries(lock.packages)
  .filter(([p, v]) => p.startsWith('node_modules/') && !v.dev)
  .map(([p]) => p)
  .sort();
let copiedPackages = 0;
for (const p of prod) {
  // a nested package is copied with its parent
  if (prod.some((q) => q !== p && p.startsWith(`${q}/`))) continue;
  const from = join(ROOT, p);
  if (!existsSync(from)) continue; // an optional dependency of another platform
  cpSync(from, join(OPT, p), { recursive: true, dereference: true });
  copiedPackages++;
}
const nm = join(OPT, 'node_modules');
rmSync(join(nm, '.bin'), { recursive: true, force: true });
// native modules: the x86-64 glibc Linux binaries only
const keepPrebuild = (dirName) => /^(HID(_hidraw)?-)?linux-x64$/.test(dirName);
for (const pre of [join(nm, '@serialport', 'bindings-cpp', 'prebuilds'), join(nm, 'node-hid', 'prebuilds')]) {
  if (!existsSync(pre)) continue;
  for (const d of readdirSync(pre)) if (!keepPrebuild(d)) rmSync(join(pre, d), { recursive: true, force: true });
}
for (const f of readdirSync(join(nm, '@serialport', 'bindings-cpp', 'prebuilds', 'linux-x64'))) {
  if (f.includes('musl')) rmSync(join(nm, '@serialport', 'bindings-cpp', 'prebuilds', 'linux-x64', f));
}
// better-sqlite3: its compiled module, not the SQLite sources and objects it was built from
const bs = join(nm, 'better-sqlite3');
for (const d of ['deps', 'src', 'binding.gyp']) rmSync(join(bs, d), { recursive: true, force: true });
for (const f of readdirSync(join(bs, 'build'))) if (f !== 'Release') rmSync(join(bs, 'build', f), { recursive: true, force: true });
for (const f of readdirSync(join(bs, 'build', 'Release')))
  if (f !== 'better_sqlite3.node') rmSync(join(bs, 'build', 'Release', f), { recursive: true, force: true });
for (const d of ['src', 'binding.gyp', 'hidapi']) rmSync(join(nm, 'node-hid', d), { recursive: true, force: true });
rmSync(join(nm, '@serialport', 'bindings-cpp', 'src'), { recursive: true, force: true });
// the binaries are built without debug symbols or stripped (smaller, no build paths)
const elf = [];
(function walk(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (e.isFile() && e.name.endsWith('.node')) elf.push(p);
  }
})(nm);
// what only the packages' own development needs (lint, ignore and VCS files, CI settings)
(function walk(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (
      /^\.(npmignore|eslintrc.*|eslintignore|gitattributes|gitignore|gitmodules|husky|github|travis\.yml|editorconfig|prettierrc.*|nycrc.*|taprc)$/.test(e.name)
    )
      rmSync(p, { recursive: true, force: true });
    // their tests, benchmarks, type declarations and source maps: nothing the gateway loads
    else if (e.isDirectory() && /^(test|tests|__tests__|benchmarks?|examples?)$/.test(e.name)) rmSync(p, { recursive: true, force: true });
    else if (e.isFile() && /\.(d\.[cm]?ts|map)$/.test(e.name)) rmSync(p);
    else if (e.isDirectory()) walk(p);
  }
})(nm);
for (const f of elf) run('strip', ['--strip-unneeded', '--remove-section=.comment', '--remove-section=.note', f]);

// ---- 4. the Node.js runtime the native modules were built for (docs/INSTALL.md: bundled, not a dependency)
const nodeDir = join(OPT, 'node');
mkdirSync(join(nodeDir, 'bin'), { recursive: true });
copyFileSync(process.execPath, join(nodeDir, 'bin', 'node'));
run('strip', ['--remove-section=.comment', '--remove-section=.note', join(nodeDir, 'bin', 'node')]);
const nodeLicense = [
  join(dirname(process.execPath), '..', 'share', 'doc', 'nodejs', 'LICENSE'),
  join(dirname(process.execPath), '..', 'share', 'doc', 'node', 'LICENSE'),
  '/usr/share/doc/nodejs/LICENSE',
].find((p) => existsSync(p));
if (!nodeLicense) throw new Error(`the licence of the Node.js runtime (${process.execPath}) is not found: the package must carry it`);
copyFileSync(nodeLicense, join(nodeDir, 'LICENSE'));
writeFileSync(join(nodeDir, 'VERSION'), `${process.version}\n`);

// ---- 5. the command, the service, the udev rule, the configuration
const tree = (p) => {
  const full = join(STAGE, p);
  mkdirSync(dirname(full), { recursive: true });
  return full;
};
writeFileSync(
  tree('usr/bin/tablegw'),
  `#!/bin/sh
# tablegw: the gateway's command line (/opt/tablegw), run by the Node.js runtime the package carries
exec /opt/tablegw/node/bin/node /opt/tablegw/dist/src/app/cli/main.js "$@"
`,
);
const unit = readFileSync(join(ROOT, 'deploy', 'tablegw.service'), 'utf8');
const from = 'ExecStart=/usr/bin/node /opt/tablegw/dist/src/app/cli/main.js';
if (!unit.includes(from)) throw new Error(`deploy/tablegw.service: no "${from}" line to point at the bundled runtime`);
writeFileSync(
  tree('lib/systemd/system/tablegw.service'),
  unit
    .replace(from, 'ExecStart=/opt/tablegw/node/bin/node /opt/tablegw/dist/src/app/cli/main.js')
    .replace(
      /^# \/etc\/systemd\/system\/tablegw\.service.*$/m,
      '# /lib/systemd/system/tablegw.service (the tablegw package) — change it with `systemctl edit tablegw`, not here.',
    ),
);
copyFileSync(join(ROOT, 'deploy', 'config.yaml'), tree('etc/tablegw/config.yaml'));
copyFileSync(join(ROOT, 'deploy', 'tablegw.default'), tree('etc/default/tablegw'));
// the rule's template: a site's own copy in /etc/udev/rules.d/ (same name) takes its place
copyFileSync(join(ROOT, 'deploy', '99-tablegw.rules'), tree('lib/udev/rules.d/99-tablegw.rules'));
copyFileSync(join(ROOT, 'deploy', 'debian', 'copyright'), tree('usr/share/doc/tablegw/copyright'));
const rfc2822 = releaseDate.toUTCString().replace('GMT', '+0000');
const MAINTAINER = 'Table-edge gateway maintainers <tablegw@casino-systems.example>';
writeFileSync(
  tree('usr/share/doc/tablegw/changelog.gz'),
  gzipSync(
    `tablegw (${VERSION}) stable; urgency=medium

  * Release ${VERSION} (commit ${commit ?? 'unknown'}).
  * What changed: /opt/tablegw/CHANGELOG.md.

 -- ${MAINTAINER}  ${rfc2822}
`,
    { level: 9 },
  ),
);
copyFileSync(join(ROOT, 'deploy', 'debian', 'lintian-overrides'), tree('usr/share/lintian/overrides/tablegw'));

// ---- 6. modes: 0755 directories, 0644 files, 0755 only for the programs
(function walk(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isSymbolicLink()) continue;
    if (e.isDirectory()) {
      chmodSync(p, 0o755);
      walk(p);
    } else chmodSync(p, 0o644);
  }
})(STAGE);
for (const p of ['opt/tablegw/node/bin/node', 'usr/bin/tablegw', ...['postinst', 'prerm', 'postrm'].map((s) => `opt/tablegw/deploy/debian/${s}`)])
  chmodSync(join(STAGE, p), 0o755);

// ---- 7. the package's control files
const DEBIAN = join(STAGE, 'DEBIAN');
mkdirSync(DEBIAN);
const files = [];
let bytes = 0;
(function walk(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (p === DEBIAN) continue;
    if (e.isDirectory()) walk(p);
    else {
      files.push(p);
      bytes += lstatSync(p).size;
    }
  }
})(STAGE);
writeFileSync(
  join(DEBIAN, 'md5sums'),
  files
    .sort()
    .map((f) => `${createHash('md5').update(readFileSync(f)).digest('hex')}  ${relative(STAGE, f)}`)
    .join('\n') + '\n',
);
writeFileSync(join(DEBIAN, 'conffiles'), ['/etc/tablegw/config.yaml', '/etc/default/tablegw'].join('\n') + '\n');
for (const s of ['postinst', 'prerm', 'postrm']) {
  copyFileSync(join(ROOT, 'deploy', 'debian', s), join(DEBIAN, s));
  chmodSync(join(DEBIAN, s), 0o755);
}
chmodSync(join(DEBIAN, 'md5sums'), 0o644);
chmodSync(join(DEBIAN, 'conffiles'), 0o644);
// the shared libraries the binaries link against (node-hid's libusb only for HID devices: recommended)
const depends = ['adduser', 'libc6 (>= 2.34)', 'libgcc-s1 (>= 3.4)', 'libstdc++6 (>= 11)', 'libudev1'].join(', ');
writeFileSync(
  join(DEBIAN, 'control'),
  `Package: tablegw
Version: ${VERSION}
Architecture: amd64
Maintainer: ${MAINTAINER}
Installed-Size: ${Math.ceil(bytes / 1024)}
Depends: ${depends}
Recommends: libusb-1.0-0
Suggests: mosquitto
Section: misc
Priority: optional
Homepage: https://casino-systems.example/tablegw
Description: table-edge ingestion gateway (card shoes, shufflers, dice sensors to MQTT)
 Reads the devices of casino gaming tables (card shoes, shufflers and dice or
 ball sensors on serial ports and USB HID), runs each table's game as a
 deterministic machine with a durable journal, and publishes game events and
 results over MQTT.
 .
 The package carries the Node.js runtime and prebuilt native modules it runs
 on (/opt/tablegw), a systemd unit, a udev rule and the configuration
 /etc/tablegw/config.yaml, which is checked before the service is started.
`,
);

// ---- 8. a last look: the staged gateway runs with its bundled runtime and loads its native modules
const staged = run(join(nodeDir, 'bin', 'node'), [join(OPT, 'dist', 'src', 'app', 'cli', 'main.js'), '--version'], { capture: true }).trim();
if (!staged.startsWith(`${VERSION} `)) throw new Error(`the staged gateway says "${staged}", not version ${VERSION}`);
run(
  join(nodeDir, 'bin', 'node'),
  [
    '-e',
    `
  const { createRequire } = require('node:module');
  const r = createRequire(${JSON.stringify(join(OPT, 'package.json'))});
  new (r('better-sqlite3'))(':memory:').prepare('select 1').get();
  r('@serialport/bindings-cpp').autoDetect();
`,
  ],
  { capture: true, cwd: OPT },
);

// ---- 9. pack
const deb = join(OUT, `${NAME}.deb`);
const tgz = join(OUT, `${NAME}.tar.gz`);
const t0 = Date.now();
run('dpkg-deb', ['--root-owner-group', '-Zgzip', '-z6', '--build', STAGE, deb]);
console.log(`dpkg-deb: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
run('tar', ['--create', '--gzip', '--file', tgz, '--owner=0', '--group=0', '--numeric-owner', '--sort=name', '--exclude=./DEBIAN', '-C', STAGE, '.']);
const mb = (p) => `${(statSync(p).size / 1e6).toFixed(1)} MB`;
console.log(`release ${VERSION} (commit ${commit ?? 'unknown'}; Node ${process.version} bundled; ${copiedPackages} production packages)
  ${relative(ROOT, deb)}  ${mb(deb)}
  ${relative(ROOT, tgz)}  ${mb(tgz)}`);
